"""How one kind of the binary's requests is served: its answer, and its refusal.

Kept apart from ``_wire.control`` (the typed frames and replies), so that a
run's control plane is built before the binary is spawned without loading
those types.
"""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Answer", "ControlHandler", "Refusal", "UnreadableRequest", "answering", "served"]

answering: contextvars.ContextVar[str | int | None] = contextvars.ContextVar("claude_wrap_answering", default=None)
"""The id of the control request the current task answers (each request is
answered by a task of its own): a handler's body does not carry it."""

Answer = Callable[[dict[str, Any]], Awaitable["dict[str, Any] | None"]]
"""Answers one request from the binary; the returned dict is the ``response``."""

Refusal = Callable[[dict[str, Any], str], "dict[str, Any] | None"]
"""The answer to a request that was not served, given its body and why;
``None`` for an error reply carrying the reason."""


def _error_reply(request: dict[str, Any], reason: str) -> None:
    return None


@dataclass(frozen=True)
class ControlHandler:
    """Serves one subtype of the binary's requests: how to answer one, and
    what to answer when it cannot be served (its body did not decode or has
    the wrong shape, the connection closed while its callback ran, the
    callback ran out of time).

    The refusal fails closed where the request decides something: a tool is
    denied, a prompt blocked. The binary reads an error reply to a hook as
    "no opinion", so an error reply is the refusal only where that is safe.
    """

    answer: Answer
    refuse: Refusal = _error_reply

    async def __call__(self, request: dict[str, Any]) -> dict[str, Any] | None:
        return await self.answer(request)


def served(handler: ControlHandler | Answer) -> ControlHandler:
    """``handler`` as a ``ControlHandler`` (a bare answer is refused with an error reply)."""
    return handler if isinstance(handler, ControlHandler) else ControlHandler(handler)


class UnreadableRequest(Exception):
    """Raised by an answer for a request whose body has the wrong shape: the
    request is refused (``ControlHandler.refuse``) rather than answered with
    an error."""
