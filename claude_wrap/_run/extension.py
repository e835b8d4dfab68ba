"""What a feature adds to a connection, given when the connection is made.

Kept apart from ``_run.protocol`` so that ``_run.connect`` can define its
extensions without loading the protocol machinery before the binary is
spawned.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from claude_wrap._wire.messages import Message, ResultMessage, UnknownMessage

__all__ = ["Extension", "overridden"]


class Extension:
    """Work a connection does at fixed points of its life, for one feature
    (a session store's mirror, structured output, temp-file clean-up).

    Extensions are given to ``Connection`` when it is made, so everything
    that happens to a frame or a result is known from its construction.
    Each method does nothing unless overridden; a connection calls only the
    overridden ones, so an unused point costs nothing per line.
    """

    taps: Mapping[str, Callable[[UnknownMessage], None]] = {}
    """Frame types taken out of the message stream and handed to a callback
    (``transcript_mirror`` for session stores). Must not block."""

    async def before_read(self) -> None:
        """Before each stdout line is read, outside the watchdog's time (an
        eager mirror flush)."""

    async def before_result(self, result: ResultMessage) -> Message | None:
        """Before a ``ResultMessage`` is handed out; a returned message is
        handed out just before the result (a mirror error)."""
        return None

    def filter_result(self, result: ResultMessage) -> ResultMessage:
        """As a ``ResultMessage`` is handed out (structured output into a
        model instance); may raise a typed error."""
        return result

    async def before_close(self) -> None:
        """On close, once the binary's output has ended (final flushes)."""

    def after_close(self) -> None:
        """Once the binary is gone (temp files removed)."""


def overridden(extensions: Sequence[Extension], name: str) -> list[Any]:
    """The extensions' ``name`` methods, where they override the no-op."""
    base = getattr(Extension, name)
    return [getattr(e, name) for e in extensions if getattr(type(e), name) is not base]
