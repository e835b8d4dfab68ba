"""``NodeActor``: a batch's worker on one Ray node.

The batch makes this class a Ray actor (``ray.remote``) and starts one per
node, pinned to it. Ray runs an actor's async methods on one asyncio event
loop, so the worker's state needs no locks. ``serve`` is a call that lasts
as long as the batch: it owns the node's warm pool. ``run`` streams one
attempt's events back to the batch (a Ray streaming generator).
"""

from __future__ import annotations

import math
import pickle
import sys
from collections.abc import AsyncIterator
from dataclasses import replace

import anyio

from claude_wrap._fleet.journal import Event, TaskRecord
from claude_wrap._fleet.types import FleetError, Task
from claude_wrap._fleet.worker import NodeInfo, NodeWorker
from claude_wrap._launch.options import ClaudeAgentOptions, copy_with
from claude_wrap._run.detached import Detached

__all__ = ["NodeActor", "arrived", "portable", "shipped"]


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


class NodeActor:
    """One node's worker (see the module docstring)."""

    def __init__(self, options: ClaudeAgentOptions, warm: int, track_cost: bool) -> None:
        import ray

        name = ray.get_runtime_context().get_node_id()
        self._worker = NodeWorker(arrived(options), name=name, warm=warm, track_cost=track_cost, durable=True)
        self._failed: BaseException | None = None
        self._served = False

    async def serve(self) -> None:
        """Holds the node's pool until ``stop()``."""
        try:
            await self._worker.serve()
        except BaseException as exc:
            self._failed = exc
            raise
        finally:
            self._served = True

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
        self._worker.stop()
        while not self._served or self._worker.running:
            await anyio.sleep(0.02)
