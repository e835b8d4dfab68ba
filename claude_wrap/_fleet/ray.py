"""The Ray backend: a worker actor per node of a running Ray cluster.

Ray is imported when the batch starts, not before. The batch connects to
the cluster the program already joined (``ray.init()``), or calls
``ray.init(address=...)`` itself and leaves it again at the end. Each alive
node gets one :class:`~._ray_actor.NodeActor`, pinned to it, asking for no
CPU (``actor_options`` change that); the actor finds the binary once and
keeps a warm pool. Nodes that join while the batch runs get one too.
Events come back through Ray streaming generators, read in worker threads
so the batch runs under asyncio and trio alike.

A node is lost when Ray reports its actor dead (the node died, or the
actor's process did): the node's running tasks go back to the batch, which
retries them elsewhere. Leaving the batch stops every actor (each cancels
its tasks and stops their binaries) before it is killed.

A driver that dies is noticed by its actors at once: each holds a TCP
connection to the driver (``DriverLink``), which the driver's kernel
closes when the driver's process ends, however it ends; the actor then
exits, and its binaries' guards stop them and their tools (Ray itself
takes far longer to reap the actors of a dead driver, and their tools
would run on meanwhile).
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
import warnings
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, NoReturn, cast

import anyio

from claude_wrap._distribution import import_extra
from claude_wrap._fleet.batch import Node, NodeLost
from claude_wrap._fleet.journal import Event, Finished, TaskRecord
from claude_wrap._fleet.rate import RateActor, RateLimit
from claude_wrap._fleet.ray_actor import DriverLink, NodeActor, shipped
from claude_wrap._fleet.types import FleetError, Task, whole_count
from claude_wrap._fleet.worker import NodeInfo
from claude_wrap._launch.options import ClaudeAgentOptions

__all__ = ["RayBackend"]

log = logging.getLogger("claude_wrap")

# Ray's errors for an actor (or the node under it) that is gone, but for its
# ActorUnavailableError (a RayActorError too): that one comes first when the
# actor's process dies, and also when the actor lives on and only the
# connection broke, with the task still running. So it is only a suspicion,
# until Ray says the actor is dead or it answers again.
_LOST = ("RayActorError", "NodeDiedError", "WorkerCrashedError", "ObjectLostError", "OwnerDiedError")
_POLL = 0.25  # seconds a worker thread waits on Ray before looking whether the batch closed
_START_TIMEOUT = 600.0  # a node may fetch the binary first
_STOP_TIMEOUT = 30.0
_VERDICT_TIMEOUT = 120.0  # how long Ray may take to call an unreachable actor dead or alive
_NODE_SCAN = 2.0  # seconds between looks for nodes that joined the cluster
# Names of environment variables that hold credentials, by the usual words.
_SECRET = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH", re.IGNORECASE)


def _reserving(slot: dict[str, float], capacity: int) -> dict[str, Any]:
    """Actor options that hold ``capacity`` slots' resources."""
    held: dict[str, Any] = {"resources": {}}
    for name, amount in slot.items():
        total = amount * capacity
        if name == "CPU":
            held["num_cpus"] = total
        elif name == "GPU":
            held["num_gpus"] = total
        elif name == "memory":
            held["memory"] = total
        else:
            held["resources"][name] = total
    return held


class _Unreachable(Exception):
    """Ray lost the connection to the actor (``ActorUnavailableError``)."""


class _RemoteNode:
    def __init__(self, backend: RayBackend, actor: Any, info: NodeInfo, capacity: int) -> None:
        self._backend = backend
        self.actor = actor
        self.info = info
        self.capacity = capacity
        self.in_flight = 0
        self.alive = True

    async def run(self, index: int, task: Task, record: TaskRecord, on_event: Callable[[Event], None]) -> Finished:
        if task.options is not None:
            task = replace(task, options=shipped(task.options))
        events = self.actor.run.remote(index, task, record)
        while True:
            try:
                event = await anyio.to_thread.run_sync(
                    self._backend.next_event, events, abandon_on_cancel=True, limiter=self._backend.limiter
                )
            except _Unreachable as exc:
                await self._judge(index, exc)
            if isinstance(event, Finished):
                return event
            if event is None:
                raise NodeLost("the node's worker ended the task without an outcome")
            on_event(event)

    async def _judge(self, index: int, unreachable: _Unreachable) -> NoReturn:
        """Raise ``NodeLost`` if the actor is dead; if it lives on, stop the
        task there and fail it (running it elsewhere could run it twice)."""
        self.alive = False  # no new task here until Ray says
        dead = await anyio.to_thread.run_sync(self._backend.dead, self.actor, limiter=self._backend.limiter)
        if dead:
            raise NodeLost(str(unreachable)) from unreachable
        self.alive = True
        self.cancel(index, FleetError("the batch lost touch with this task"))
        raise FleetError(
            f"the connection to the task's node broke, so the task was stopped: {unreachable}"
        ) from unreachable

    def cancel(self, index: int, reason: BaseException) -> None:
        try:
            self.actor.cancel.remote(index, reason)
        except Exception:
            log.debug("claude_wrap: cancelling task %s on node %s failed", index, self.info.name, exc_info=True)


def _local_code(runtime_env: dict[str, Any] | None) -> list[str]:
    """The entries of ``runtime_env`` that Ray would have to upload from
    this machine (modules, directories, files: anything but a URI)."""
    if not runtime_env:
        return []
    entries = list(runtime_env.get("py_modules") or [])
    if runtime_env.get("working_dir") is not None:
        entries.append(runtime_env["working_dir"])
    return [getattr(e, "__name__", None) or os.fspath(e) for e in entries if not (isinstance(e, str) and "://" in e)]


class RayBackend:
    """Tasks run on every alive node of a Ray cluster, ``concurrency`` per node."""

    def __init__(
        self,
        options: ClaudeAgentOptions,
        *,
        concurrency: int | None,
        track_cost: bool,
        address: str | None = None,
        runtime_env: dict[str, Any] | None = None,
        retries: int = 2,
        nodes: list[str] | None = None,
        actor_options: dict[str, Any] | None = None,
        warm: int | None = None,
        slot: dict[str, float] | None = None,
        rate_limit: RateLimit | None = None,
    ) -> None:
        whole_count(retries, "retries", "attempts")
        if warm is not None:
            whole_count(warm, "warm", "pool members")
        secrets = sorted(name for name in options.env if _SECRET.search(name))
        if secrets:
            warnings.warn(
                f"options.env holds {', '.join(secrets)}: the batch's options are pickled and sent to every "
                "node through Ray's object store. Set credentials in the nodes' environment or the job's "
                "runtime_env={'env_vars': {...}} instead (the binaries inherit their worker's environment).",
                UserWarning,
                stacklevel=3,
            )
        self._options = shipped(options)
        self._concurrency = concurrency
        self._track_cost = track_cost
        self._address = address
        self._runtime_env = runtime_env
        self.retries = retries
        self._only = set(nodes) if nodes is not None else None
        self._actor_options = dict(actor_options or {})
        if slot is not None and (
            not isinstance(slot, dict)
            or not slot
            or not all(isinstance(k, str) and isinstance(v, (int, float)) and v > 0 for k, v in slot.items())
        ):
            raise ValueError(f"slot must map Ray resource names to positive amounts, e.g. {{'CPU': 1}}, got {slot!r}")
        self._slot = dict(slot) if slot is not None else None
        self._warm = warm
        self._rate_limit = rate_limit
        self._rate: Any = None
        """The batch's ``RateActor``, under a ``rate_limit``."""
        self._closing = False
        self._starting = threading.Lock()
        self._seen: dict[str, Any] = {}
        """Every node looked at: its worker's actor (alive or not), or ``None``
        for a node without the resources of a slot."""
        self._lost: tuple[type[BaseException], ...] = ()
        self.limiter = anyio.CapacityLimiter(1)

    @asynccontextmanager
    async def start(
        self, added: Callable[[], None] = lambda: None, demand: Callable[[], int] = lambda: 0
    ) -> AsyncIterator[list[Node]]:
        """The batch's nodes, for as long as it runs; the list grows as
        nodes join (``added`` is called then). With ``slot`` resources, the
        cluster's autoscaler is asked for a slot per task of ``demand()``
        (those running or waiting), so it can grow on the queue."""
        ray = import_extra("ray", "ray", "run_many(backend='ray')")
        self._lost = tuple(getattr(ray.exceptions, name) for name in _LOST if hasattr(ray.exceptions, name))
        joined = await anyio.to_thread.run_sync(self._join, ray)
        started: list[_RemoteNode] = []
        async with DriverLink.listen(ray.util.get_node_ip_address()) as link:
            try:
                await anyio.to_thread.run_sync(self._launch, ray, started, link.address)
                self._sized(started)
                async with anyio.create_task_group() as tg:
                    tg.start_soon(self._watch_nodes, ray, started, link.address, added, demand)
                    try:
                        yield cast("list[Node]", started)
                    finally:
                        tg.cancel_scope.cancel()
            finally:
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(self._shutdown, ray, joined)

    def _sized(self, nodes: list[_RemoteNode]) -> None:
        # A worker thread per running task waits on its events, and two
        # more for the verdicts on unreachable actors.
        self.limiter.total_tokens = sum(n.capacity for n in nodes) + 2

    async def _watch_nodes(
        self,
        ray: Any,
        started: list[_RemoteNode],
        link: tuple[str, int, str],
        added: Callable[[], None],
        demand: Callable[[], int],
    ) -> None:
        """Nodes that join the cluster while the batch runs get a worker too
        (an autoscaler growing the cluster on the batch's demand, a machine
        added by hand): looked for every ``_NODE_SCAN`` seconds."""
        while True:
            if self._slot is not None:
                await anyio.to_thread.run_sync(self._ask_for, demand(), abandon_on_cancel=True)
            await anyio.sleep(_NODE_SCAN)
            before = len(started)
            await anyio.to_thread.run_sync(self._launch_new, ray, started, link, abandon_on_cancel=True)
            if len(started) > before:
                self._sized(started)
                added()

    # -- in worker threads (Ray's calls block) ----------------------------------------------

    def _join(self, ray: Any) -> bool:
        """Connect to the cluster unless the program did; whether we did."""
        joined = False
        if not ray.is_initialized():
            ray.init(address=self._address, runtime_env=self._runtime_env)
            joined = True
        elif local := _local_code(self._runtime_env):
            raise FleetError(
                f"run_many(runtime_env=...) names code on this machine ({', '.join(local)}), and the program "
                "called ray.init itself: Ray uploads modules and directories only for a job's own runtime_env. "
                "Pass them to ray.init(runtime_env={'py_modules': [...]}) instead (the node workers get the "
                "job's environment), or a URI of an uploaded package here"
            )
        return joined

    def _launch(self, ray: Any, started: list[_RemoteNode], link: tuple[str, int, str]) -> None:
        """Start the batch's rate actor (under a ``rate_limit``: the node
        workers get its handle), then a worker actor on each node, into
        ``started`` as each comes up (so whatever started is stopped, should
        the rest fail)."""
        try:
            ray.cloudpickle.dumps(self._options)
        except Exception as exc:
            raise FleetError(f"the batch's options cannot be sent to the nodes: {exc}") from exc
        if self._rate_limit is not None:
            # On the driver's node, so it goes when the driver does.
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=True)
            rate = ray.remote(RateActor).options(num_cpus=0, max_restarts=0, scheduling_strategy=here)
            self._rate = rate.remote(self._rate_limit)
        failures = self._launch_new(ray, started, link)
        if not self._seen:
            raise FleetError("the Ray cluster has no alive node to run tasks on")
        if not started and not failures:
            raise FleetError(f"no alive node of the Ray cluster has the resources of a slot ({self._slot})")
        if not started:
            raise FleetError(f"no node of the Ray cluster could start a worker: {failures[0]}") from failures[0]

    def _launch_new(self, ray: Any, started: list[_RemoteNode], link: tuple[str, int, str]) -> list[Exception]:
        """Start a worker actor on each alive node not seen before; returns
        why the ones that did not start did not."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        fresh = [
            n
            for n in ray.nodes()
            if n.get("Alive") and n["NodeID"] not in self._seen and (self._only is None or n["NodeID"] in self._only)
        ]
        actor_class = ray.remote(NodeActor)
        pending = []
        for node in fresh:
            resources = node.get("Resources", {})
            capacity = self._concurrency or max(1, int(resources.get("CPU", 1)))
            settings: dict[str, Any] = {
                "num_cpus": 0,
                "max_restarts": 0,
                "max_task_retries": 0,
                "scheduling_strategy": NodeAffinitySchedulingStrategy(node["NodeID"], soft=False),
            }
            if self._slot is not None:
                # As many slots as the node has the resources for; the actor
                # holds them, so Ray (and an autoscaler) sees them used.
                fits = min(int(resources.get(name, 0) // amount) for name, amount in self._slot.items())
                capacity = min(capacity, fits) if self._concurrency else fits
                if capacity < 1:
                    with self._starting:
                        self._seen[node["NodeID"]] = None  # not a node for this batch's slots
                    continue
                settings.update(_reserving(self._slot, capacity))
            if self._runtime_env is not None:
                settings["runtime_env"] = self._runtime_env
            settings.update(self._actor_options)
            warm = capacity if self._warm is None else self._warm
            with self._starting:
                if self._closing:
                    break
                actor = actor_class.options(**settings).remote(self._options, warm, self._track_cost, link, self._rate)
                self._seen[node["NodeID"]] = actor
            actor.serve.remote()
            pending.append((actor, capacity, actor.info.remote()))
        if not pending:
            return []
        ready, _ = ray.wait([ref for _, _, ref in pending], num_returns=len(pending), timeout=_START_TIMEOUT)
        failures: list[Exception] = []
        for actor, capacity, ref in pending:
            try:
                if ref not in ready:
                    raise FleetError(f"the node's worker did not start within {_START_TIMEOUT:g} s")
                started.append(_RemoteNode(self, actor, ray.get(ref), capacity))
            except Exception as exc:  # noqa: BLE001 - one bad node does not stop the batch
                failures.append(exc)
                log.warning("claude_wrap: a fleet node did not start: %s", exc)
                self._kill(ray, actor)
        return failures

    def next_event(self, events: Any) -> Event | None:
        """The next event of a task (``None``: no more, or the batch closes)."""
        import ray

        while not self._closing:
            ready, _ = ray.wait([events], timeout=_POLL)
            if ready:
                break
        else:
            return None
        try:
            event: Event = ray.get(next(events))
        except StopIteration:
            return None
        except self._lost as exc:
            if type(exc).__name__ == "ActorUnavailableError":
                raise _Unreachable(str(exc)) from exc
            raise NodeLost(f"{type(exc).__name__}: {exc}") from exc
        return event

    def dead(self, actor: Any) -> bool:
        """Whether Ray calls ``actor`` dead (it answering means alive), asked
        until it says or ``_VERDICT_TIMEOUT`` passes (then: alive)."""
        import ray

        deadline = time.monotonic() + _VERDICT_TIMEOUT
        while not self._closing and time.monotonic() < deadline:
            try:
                ray.get(actor.info.remote(), timeout=2.0)
            except self._lost as exc:
                if type(exc).__name__ != "ActorUnavailableError":
                    return True
            except Exception:  # noqa: BLE001 - a timeout: no verdict yet
                pass
            else:
                return False
            time.sleep(_POLL)
        return False

    def _ask_for(self, tasks: int) -> None:
        """Tell the autoscaler the batch could use ``tasks`` slots (Ray keeps
        the latest request; an empty one withdraws it)."""
        assert self._slot is not None
        try:
            from ray.autoscaler.sdk import request_resources

            request_resources(bundles=[dict(self._slot) for _ in range(tasks)])
        except Exception:  # no autoscaler to ask: nothing to do
            log.debug("claude_wrap: asking Ray's autoscaler for slots failed", exc_info=True)

    def _shutdown(self, ray: Any, joined: bool) -> None:
        with self._starting:  # no actor starts after this
            self._closing = True
        if self._slot is not None:
            self._ask_for(0)
        actors = [a for a in self._seen.values() if a is not None]
        stops = []
        for actor in actors:
            try:
                stops.append(actor.stop.remote())
            except Exception:  # noqa: BLE001 - a lost node's actor cannot be asked
                continue
        if stops:
            ray.wait(stops, num_returns=len(stops), timeout=_STOP_TIMEOUT)
        if self._rate is not None:
            actors.append(self._rate)
        for actor in actors:
            self._kill(ray, actor)
        if joined:
            ray.shutdown()

    @staticmethod
    def _kill(ray: Any, actor: Any) -> None:
        try:
            ray.kill(actor, no_restart=True)
        except Exception:  # noqa: BLE001 - already gone
            pass
