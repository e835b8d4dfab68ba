"""Answering the binary's own control requests: hook callbacks,
``can_use_tool``, in-process MCP messages, dialogs.

Each request is answered by a task of its own that the connection owns (a
``Detached`` task), never by whichever task happened to read the request.
A reader that times out, is cancelled or walks away (a UI polling with
``move_on_after``) must not cut a callback short: the binary reads a
missing or failed answer its own way (a hook's error counts as "no
opinion", so the tool a guard was about to deny would run).

Only these end a callback early:

* the binary withdrawing its request (``control_cancel_request``): nothing
  is answered;
* the callback's own time limit (``callback_timeout``): its handler answers,
  and each callback that ran out of time is reported (``CallbackTimeoutMessage``
  in the stream, and a warning on the ``claude_wrap`` logger);
* the connection ending or closing.

A request that is not served as asked (its body could not be read, the
connection closed while its callback ran, the callback raised a
``BaseException`` such as ``KeyboardInterrupt``) gets its handler's
refusal (``ControlHandler.refuse``), which fails closed where the request
decides something. Every request that is not withdrawn gets exactly one
answer, for as long as the binary can read one.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import anyio

from claude_wrap._callbacks import TimedOut, note_timeouts
from claude_wrap._run.detached import Detached
from claude_wrap._wire.codec import ControlRequest, encode_line
from claude_wrap._wire.messages import CallbackTimeoutMessage, Message
from claude_wrap._wire.serving import Answer, ControlHandler, UnreadableRequest, answering, served

__all__ = ["Responder"]

log = logging.getLogger("claude_wrap")

WriteAnswer = Callable[[bytes, str, bool], Awaitable[None]]
"""Writes one answer line for a request of a subtype; ``True``: in a hurry
(the connection is going away)."""


class _InFlight:
    __slots__ = ("task", "withdrawn")

    def __init__(self) -> None:
        self.task: Detached | None = None
        self.withdrawn = False


class Responder:
    """The requests the binary is waiting on, each answered by a task of its own."""

    def __init__(
        self,
        handlers: Mapping[str, ControlHandler | Answer],
        write: WriteAnswer,
        *,
        report: Callable[[Message | BaseException], None],
        settled: Callable[[], None],
    ) -> None:
        self.handlers: dict[str, ControlHandler] = {name: served(h) for name, h in handlers.items()}
        self._write = write
        self._report = report
        """Hands the reader a message (a timed-out callback's notice) or an
        exception to raise (a callback's ``KeyboardInterrupt``)."""
        self._settled = settled
        """Called when the last request in flight is answered."""
        self._inflight: dict[str, _InFlight] = {}
        self._stopped = False

    @property
    def busy(self) -> bool:
        """A request is being answered (its time is not the binary's silence)."""
        return bool(self._inflight)

    def serve(self, request: ControlRequest) -> None:
        """Start answering ``request``, in a task of its own."""
        key = str(request.request_id)
        if key in self._inflight:
            key = f"{key}\0{id(request)}"  # a repeated id must not hide the first
        entry = self._inflight[key] = _InFlight()
        # Registered before the task runs: a withdrawal may come first.
        entry.task = Detached.spawn(lambda: self._answer(request, key, entry), "control request")

    def withdraw(self, request_id: str | int | None) -> None:
        """The binary gave up on a request: stop it, and answer nothing."""
        entry = self._inflight.get(str(request_id))
        if entry is not None and not entry.withdrawn:
            entry.withdrawn = True
            if entry.task is not None:
                entry.task.cancel()

    def stop(self) -> None:
        """The connection ends: cancel every callback still running (each
        request is refused, if the binary can still read it)."""
        self._stopped = True
        for entry in list(self._inflight.values()):
            if entry.task is not None:
                entry.task.cancel()

    async def wait(self) -> None:
        """Until every request's task has finished (bound it from outside)."""
        while self._inflight:
            entry = next(iter(self._inflight.values()))
            if entry.task is not None:
                await entry.task.wait()

    async def _answer(self, request: ControlRequest, key: str, entry: _InFlight) -> None:
        subtype = request.subtype or ""
        handler = self.handlers.get(subtype)
        rid = request.request_id
        line: bytes | None = None
        hurry = False
        timeouts = note_timeouts()
        answering.set(rid)  # this task's own context: it answers this one request
        try:
            if entry.withdrawn:
                return  # withdrawn before it ran: the user's callback is not called
            if self._stopped:
                line = _refusal(handler, request, "the session closed before the request was served")
            elif request.error is not None:
                log.warning("claude_wrap: refusing a %s request: %s", subtype or "control", request.error)
                line = _refusal(handler, request, f"the request could not be read: {request.error}")
            elif handler is None:
                line = _error_line(rid, f"Unsupported control request subtype: {request.subtype}")
            else:
                try:
                    # Encoded here, so an answer msgspec cannot encode is the
                    # handler's error, answered like any other.
                    line = _success_line(rid, await handler.answer(request.body))
                except UnreadableRequest as exc:
                    line = _refusal(handler, request, str(exc))
                except Exception as exc:
                    # str(exc), as the official package sends it: the binary
                    # shows it (a failed can_use_tool: "Tool permission
                    # request failed: Error: <text>").
                    log.debug("claude_wrap: answering %s with an error", subtype, exc_info=True)
                    line = _error_line(rid, str(exc))
        except anyio.get_cancelled_exc_class():
            if not entry.withdrawn:
                # The connection is closing, or the event loop shutting down:
                # do not leave the binary waiting, and never fail open.
                line = _refusal(handler, request, "the session closed before the callback answered")
                hurry = True
            raise
        except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt, SystemExit: the reader raises it
            line = _refusal(handler, request, f"the callback was stopped: {type(exc).__name__}")
            self._report(exc)
        finally:
            for note in timeouts:
                self._report(_timeout_notice(note, request))
            try:
                if line is not None and rid is not None and not entry.withdrawn:
                    with anyio.CancelScope(shield=True):
                        await self._write(line, subtype, hurry)
            finally:
                # Only now: until its answer is written, a request is in flight.
                del self._inflight[key]
                if not self._inflight:
                    self._settled()


def _refusal(handler: ControlHandler | None, request: ControlRequest, reason: str) -> bytes:
    answer = handler.refuse(request.body, reason) if handler is not None else None
    if answer is None:
        return _error_line(request.request_id, reason)
    return _success_line(request.request_id, answer)


def _timeout_notice(note: TimedOut, request: ControlRequest) -> CallbackTimeoutMessage:
    log.warning("claude_wrap: %s did not finish within %g s (callback_timeout)", note.what, note.timeout)
    body = request.body
    data: dict[str, Any] = {
        "type": "system",
        "subtype": "callback_timeout",
        "callback": note.what,
        "timeout": note.timeout,
        "request": request.subtype,
    }
    if isinstance(body.get("tool_use_id"), str):
        data["tool_use_id"] = body["tool_use_id"]
    return CallbackTimeoutMessage("callback_timeout", data, note.what, note.timeout, data.get("tool_use_id"))


def _success_line(rid: str | int | None, result: dict[str, Any] | None) -> bytes:
    return _response_line({"subtype": "success", "request_id": rid, "response": result or {}})


def _error_line(rid: str | int | None, message: str) -> bytes:
    return _response_line({"subtype": "error", "request_id": rid, "error": message})


def _response_line(reply: dict[str, Any]) -> bytes:
    return encode_line({"type": "control_response", "response": reply})
