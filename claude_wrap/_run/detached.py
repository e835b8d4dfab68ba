"""``Detached``: a task that belongs to an object, not to the call that started it.

The library is pull-based: a task group lives only as long as the call
that opened it, so a ``break`` or a cancellation never leaves a task
behind. A few jobs must nevertheless keep going between calls:

* a custom ``Transport``'s reader: an async generator cannot be resumed
  after a cancelled ``__anext__``, so one task keeps its place;
* the writer of a prompt iterable, which may wait for answers the caller
  reads meanwhile;
* closing a run whose generator is being finalized, where awaiting in the
  generator's own frame can be cut short (see ``_query``).

Each runs as one ``Detached`` task (an asyncio task, or a trio system
task), owned by the object that spawned it: the owner cancels it and
waits for it, bounded, when it closes. Any task may cancel or await it,
since no cancel scope of the spawner is involved.

A closing task must also outlast the event loop's own shutdown: when the
program's main coroutine returns, ``asyncio.run()`` cancels every task
left, and an anyio shield does not hold against that, so a close under way
would stop half-done and leave the binary to be reaped after the loop has
gone ("Loop ... that handles pid N is closed"). Such a task
(``finish=True``) ignores that cancellation, which carries no message,
unlike anyio's; asyncio then waits for it, and closing is bounded anyway.
Trio's system tasks are cancelled through a scope, which shields hold.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import anyio

__all__ = ["Detached", "running_asyncio"]

log = logging.getLogger("claude_wrap")


class Detached:
    """A task outside any task group, which any task may cancel and await."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._scope = anyio.CancelScope()
        self._done = anyio.Event()
        self._task: Any = None  # asyncio keeps only a weak reference to its tasks

    @classmethod
    def spawn(cls, run: Callable[[], Awaitable[None]], name: str, *, finish: bool = False) -> Detached:
        """Start ``run()`` now; an exception it raises is logged, not raised
        (a detached task has nobody to raise to: ``run`` reports its own).
        ``finish``: a bounded close that the loop's shutdown lets finish."""
        handle = cls(name)

        async def body() -> None:
            try:
                with handle._scope:
                    await run()
            except BaseException:
                log.debug("claude_wrap: %s ended with an error", name, exc_info=True)
            finally:
                handle._done.set()

        if running_asyncio():
            import asyncio

            loop = asyncio.get_running_loop()
            if finish:
                handle._task = _finishing_task()(body(), loop=loop, name=f"claude_wrap {name}")
            else:
                handle._task = loop.create_task(body(), name=f"claude_wrap {name}")
        else:
            import trio

            trio.lowlevel.spawn_system_task(body, name=f"claude_wrap {name}", context=contextvars.copy_context())
        return handle

    @property
    def done(self) -> bool:
        """True once the task has finished (returned, failed or was cancelled)."""
        return self._done.is_set()

    def cancel(self) -> None:
        self._scope.cancel()

    async def wait(self) -> None:
        """Until the task has finished. Being cancelled here leaves it running."""
        await self._done.wait()


_FINISHING: Any = None


def _finishing_task() -> Any:
    """An asyncio task class deaf to the loop's shutdown: ``asyncio.run()``
    (and anyio's runner) cancel the tasks left without a message, where
    anyio's cancel scopes always give one."""
    global _FINISHING
    if _FINISHING is None:
        import asyncio

        class FinishingTask(asyncio.Task):  # type: ignore[type-arg]
            def cancel(self, msg: Any = None) -> bool:
                if msg is None:
                    return False
                return super().cancel(msg)

        _FINISHING = FinishingTask
    return _FINISHING


def running_asyncio() -> bool:
    """True inside a running asyncio event loop (otherwise: trio)."""
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
