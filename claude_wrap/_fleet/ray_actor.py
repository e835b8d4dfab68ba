"""``NodeActor``: a batch's worker on one Ray node.

The batch makes this class a Ray actor (``ray.remote``) and starts one per
node, pinned to it. Ray runs an actor's async methods on one asyncio event
loop, so the worker's state needs no locks. ``serve`` is a call that lasts
as long as the batch: it owns the node's warm pool. ``run`` streams one
attempt's events back to the batch (a Ray streaming generator).

``DriverLink`` ties the actors to the life of the driver's process: a
listening socket on the driver, a connection to it from each actor. When
the connection ends without the batch's ``stop()`` (the driver died, or its
machine closed the connection), the actor exits on the spot, and the
guards of its binaries freeze and kill them and their tools.
"""

from __future__ import annotations

import logging
import math
import os
import pickle
import secrets
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import anyio
import anyio.abc

from claude_wrap._fleet.journal import Event, TaskRecord
from claude_wrap._fleet.rate import RayPacer
from claude_wrap._fleet.types import FleetError, Task
from claude_wrap._fleet.worker import NodeInfo, NodeWorker, tasks_log
from claude_wrap._launch.options import ClaudeAgentOptions, copy_with
from claude_wrap._run.detached import Detached

__all__ = ["DriverLink", "NodeActor", "arrived", "portable", "shipped"]

log = logging.getLogger("claude_wrap")

_HELLO_TIMEOUT = 10.0  # a connection to the driver's link must name its token within this
_DRIVER_LOST_EXIT = 70


def shipped(options: ClaudeAgentOptions) -> ClaudeAgentOptions:
    """``options`` as they travel to a node: ``debug_stderr`` (a stream,
    which does not pickle) is left behind, and put back by ``arrived``."""
    return copy_with(options, debug_stderr=None)


def arrived(options: ClaudeAgentOptions) -> ClaudeAgentOptions:
    return copy_with(options, debug_stderr=sys.stderr)


def portable(error: BaseException | None) -> BaseException | None:
    """``error``, or a ``FleetError`` saying what it was if it would not
    survive the trip back to the batch."""
    if error is None:
        return None
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # noqa: BLE001 - any failure to copy it means: describe it instead
        return FleetError(f"{type(error).__name__}: {error}")
    return error


class DriverLink:
    """The driver's end: ``address`` is what the actors connect to (host,
    port, and a token a connection must send first)."""

    def __init__(self, address: tuple[str, int, str]) -> None:
        self.address = address

    @classmethod
    @asynccontextmanager
    async def listen(cls, host: str) -> AsyncIterator[DriverLink]:
        token = secrets.token_hex(16)
        listener = await anyio.create_tcp_listener(local_host=host, local_port=0)
        port = listener.listeners[0].extra(anyio.abc.SocketAttribute.local_port)

        async def hold(stream: anyio.abc.SocketStream) -> None:
            # Held open for as long as the driver lives; a stranger that does
            # not send the token is hung up on.
            async with stream:
                try:
                    hello = b""
                    with anyio.move_on_after(_HELLO_TIMEOUT):
                        hello = await stream.receive(64)
                    if hello.strip() != token.encode():
                        return
                    while await stream.receive():
                        pass
                except (anyio.EndOfStream, anyio.BrokenResourceError, OSError):
                    pass

        # Shielded: a cancelled batch must keep its links until the actors
        # were stopped (the backend's shutdown, inside this block), or they
        # would take the closing links for a dead driver and exit on the spot.
        serving = anyio.CancelScope(shield=True)

        async def serve() -> None:
            with serving:
                await listener.serve(hold)

        async with listener, anyio.create_task_group() as tg:
            tg.start_soon(serve)
            try:
                yield cls((host, port, token))
            finally:
                serving.cancel()

    @staticmethod
    async def follow(address: tuple[str, int, str], stopping: anyio.Event) -> None:
        """On an actor: return when the driver is gone (its connection ended
        without ``stopping`` set); return at once if it cannot be reached
        (Ray's own reaping is all there is then)."""
        host, port, token = address
        try:
            stream = await anyio.connect_tcp(host, port)
        except OSError as exc:
            log.warning("claude_wrap: this node cannot reach the batch's driver at %s:%s (%s)", host, port, exc)
            stopping.set()
            return
        async with stream:
            await stream.send(token.encode() + b"\n")
            try:
                while await stream.receive():
                    pass
            except (anyio.EndOfStream, anyio.BrokenResourceError, OSError):
                pass


def _log_tasks() -> None:
    """The node's lines on its tasks go to the worker's stderr, which Ray
    keeps in the node's log directory (and shows the driver, with its
    ``log_to_driver``), unless the program set up a handler of its own."""
    if tasks_log.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
    tasks_log.addHandler(handler)
    tasks_log.setLevel(logging.INFO)
    tasks_log.propagate = False


class NodeActor:
    """One node's worker (see the module docstring)."""

    def __init__(
        self,
        options: ClaudeAgentOptions,
        warm: int,
        track_cost: bool,
        driver: tuple[str, int, str] | None = None,
        rate: Any = None,
    ) -> None:
        import ray

        name = ray.get_runtime_context().get_node_id()
        _log_tasks()
        pacer = RayPacer(rate) if rate is not None else None
        self._worker = NodeWorker(
            arrived(options), name=name, warm=warm, track_cost=track_cost, durable=True, pacer=pacer
        )
        self._driver = driver
        self._failed: BaseException | None = None
        self._served = False
        self._stopping = anyio.Event()

    async def serve(self) -> None:
        """Holds the node's pool until ``stop()``; exits the process if the
        driver dies first."""
        try:
            async with anyio.create_task_group() as tg:
                if self._driver is not None:
                    tg.start_soon(self._follow_driver, self._driver)
                await self._worker.serve()
                tg.cancel_scope.cancel()
        except BaseException as exc:
            self._failed = exc
            raise
        finally:
            self._served = True

    async def _follow_driver(self, driver: tuple[str, int, str]) -> None:
        await DriverLink.follow(driver, self._stopping)
        if self._stopping.is_set():
            return
        log.warning("claude_wrap: the batch's driver is gone; this node's worker stops its tasks and exits")
        os._exit(_DRIVER_LOST_EXIT)  # the binaries' guards stop them and their tools at once

    async def info(self) -> NodeInfo:
        """Once the worker found its binary."""
        while self._worker.info is None:
            if self._failed is not None:
                raise self._failed
            await anyio.sleep(0.02)
        return self._worker.info

    async def run(self, index: int, task: Task, record: TaskRecord) -> AsyncIterator[Event]:
        """One attempt at ``task``: its events, the ``Finished`` one last."""
        if task.options is not None:
            task = replace(task, options=arrived(task.options))
        send, receive = anyio.create_memory_object_stream[Event](math.inf)

        async def attempt() -> None:
            async with send:
                finished = await self._worker.run(index, task, record, send.send)
                await send.send(replace(finished, error=portable(finished.error)))

        # A task of its own: the worker pushes events while this generator
        # hands them to Ray one by one.
        handle = Detached.spawn(attempt, f"fleet task {index}")
        try:
            async with receive:
                async for event in receive:
                    yield event
        finally:
            handle.cancel()
            with anyio.CancelScope(shield=True):
                await handle.wait()

    def cancel(self, index: int, reason: BaseException) -> None:
        self._worker.cancel(index, reason)

    async def stop(self) -> None:
        """Cancel the running tasks, stop their binaries and close the pool;
        returns once all that is done (the actor is killed next)."""
        self._stopping.set()
        self._worker.stop()
        while not self._served or self._worker.running:
            await anyio.sleep(0.02)
