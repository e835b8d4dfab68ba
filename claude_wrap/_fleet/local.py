"""The local backend: one node, this process, a warm pool of binaries."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import anyio

from claude_wrap._fleet.batch import Node
from claude_wrap._fleet.journal import Event, Finished, TaskRecord
from claude_wrap._fleet.rate import LocalPacer, RateLimit
from claude_wrap._fleet.types import Task
from claude_wrap._fleet.worker import NodeInfo, NodeWorker
from claude_wrap._launch.options import ClaudeAgentOptions

__all__ = ["LocalBackend"]


class _LocalNode:
    def __init__(self, worker: NodeWorker, info: NodeInfo, capacity: int) -> None:
        self.worker = worker
        self.info = info
        self.capacity = capacity
        self.in_flight = 0
        self.alive = True

    async def run(self, index: int, task: Task, record: TaskRecord, on_event: Callable[[Event], None]) -> Finished:
        async def emit(event: Event) -> None:
            on_event(event)

        return await self.worker.run(index, task, record, emit)

    def cancel(self, index: int, reason: BaseException) -> None:
        self.worker.cancel(index, reason)


class LocalBackend:
    """Tasks run in this process, ``concurrency`` at a time."""

    retries = 0  # this process is the node: nothing survives its loss

    def __init__(
        self,
        options: ClaudeAgentOptions,
        *,
        concurrency: int,
        warm: int,
        track_cost: bool,
        durable: bool = False,
        rate_limit: RateLimit | None = None,
    ) -> None:
        pacer = LocalPacer(rate_limit) if rate_limit is not None else None
        self._worker = NodeWorker(options, name="local", warm=warm, track_cost=track_cost, durable=durable, pacer=pacer)
        self._concurrency = concurrency

    @asynccontextmanager
    async def start(
        self, added: Callable[[], None] = lambda: None, demand: Callable[[], int] = lambda: 0
    ) -> AsyncIterator[list[Node]]:
        """This process, the one node (none joins later)."""
        async with anyio.create_task_group() as tg:
            info = await tg.start(self._worker.serve)
            try:
                yield [_LocalNode(self._worker, info, self._concurrency)]
            finally:
                self._worker.stop()
