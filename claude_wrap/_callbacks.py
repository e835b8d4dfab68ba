"""Calling the user's callbacks: hooks, permission callbacks, dialogs, tools.

A coroutine function runs on the event loop. Anything else (a plain
function, accepted as an extension: the official package awaits what every
callback returns) runs in a worker thread, so blocking code in it stalls
neither its own session nor any other in the process, and its time limits
hold. If the call is cancelled (a time limit, the binary withdrawing the
request, the run ending), the thread is abandoned: it runs on to its end,
its result unused. A plain function that returns an awaitable (a lambda
around a coroutine function) has that awaited on the event loop.

A plain callback therefore must not touch event-loop objects directly; it
can reach the loop through ``anyio.from_thread``.
"""

from __future__ import annotations

import contextvars
import inspect
import math
from collections.abc import Callable
from typing import Any, NamedTuple

import anyio
import anyio.to_thread

__all__ = ["CallbackTimeoutError", "TimedOut", "call_user", "note_timeouts", "timeout_text"]


class CallbackTimeoutError(TimeoutError):
    """A callback outlived ``callback_timeout``."""


def timeout_text(what: str, timeout: float) -> str:
    """What a caller (and the model, for a tool) reads when ``what`` ran out of time."""
    return f"{what} did not finish within {timeout:g} s (callback_timeout)"


def _is_coroutine_function(callback: Callable[..., Any]) -> bool:
    return inspect.iscoroutinefunction(callback) or inspect.iscoroutinefunction(getattr(callback, "__call__", None))  # noqa: B004 - an instance with async __call__


async def call_user(callback: Callable[..., Any], *args: Any, timeout: float | None, what: str) -> Any:
    """``callback(*args)``, awaited, within ``timeout`` seconds (``None``: no limit).

    Raises:
        CallbackTimeoutError: the limit passed first; its text names
            ``what`` and the ``callback_timeout`` option, which sets every
            such limit.
    """
    with anyio.move_on_after(math.inf if timeout is None else timeout):
        if _is_coroutine_function(callback):
            return await callback(*args)
        # Boxed: trio refuses a thread function whose result is a coroutine.
        (result,) = await anyio.to_thread.run_sync(lambda: (callback(*args),), abandon_on_cancel=True)
        return await result if inspect.isawaitable(result) else result
    limit = math.inf if timeout is None else timeout
    notes = _timed_out.get()
    if notes is not None:
        notes.append(TimedOut(what, limit))
    raise CallbackTimeoutError(timeout_text(what, limit))


class TimedOut(NamedTuple):
    """One callback that outlived ``callback_timeout``."""

    what: str
    timeout: float


_timed_out: contextvars.ContextVar[list[TimedOut] | None] = contextvars.ContextVar(
    "claude_wrap_timed_out", default=None
)


def note_timeouts() -> list[TimedOut]:
    """From now on, in this task (and the tasks it starts), each callback
    that runs out of time is added to the returned list, for the connection
    to report: some are answered inside a handler (an in-process MCP tool's
    error result), so the exception alone does not reach it."""
    notes: list[TimedOut] = []
    _timed_out.set(notes)
    return notes
