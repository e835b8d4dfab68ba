"""``MockTransport``: an in-memory stand-in for the binary, for unit tests.

It implements the same four-method ``LineTransport`` contract as the real
subprocess transport. Every frame the library writes is decoded and handed
to ``handler``; the frames the handler returns (and any given to ``feed``)
become the lines the library reads. Pass it as ``transport=`` to
``query()`` or ``ClaudeSDKClient``.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

import anyio

from claude_wrap._exceptions import TransportClosedError
from claude_wrap._process.transport import LineTransport

__all__ = ["MockTransport", "initialize_response"]

Frame = Mapping[str, Any]
Handler = Callable[[dict[str, Any]], "Iterable[Frame] | None | Awaitable[Iterable[Frame] | None]"]


def initialize_response(request: Mapping[str, Any], **fields: Any) -> dict[str, Any]:
    """A successful answer to an ``initialize`` (or any) control request."""
    return {
        "type": "control_response",
        "response": {"subtype": "success", "request_id": request.get("request_id"), "response": fields},
    }


class MockTransport(LineTransport):
    """A scripted peer: ``handler(frame)`` answers each frame we write.

    Without a handler, ``initialize`` requests are answered with an empty
    success and nothing else happens. ``sent`` keeps every frame written;
    ``close_output()`` ends the stream the library reads. Like the binary,
    it ends its output at end of input once every ``user`` frame written
    has had its ``result`` (fed after the EOF, if need be).
    """

    def __init__(self, handler: Handler | None = None) -> None:
        self.handler = handler
        self.sent: list[dict[str, Any]] = []
        self.eof_received: bool = False
        self.closed: bool = False
        self._lines: deque[bytes | None] = deque()
        self._ready = anyio.Event()
        self._turns_open = 0
        self.on_receive: Callable[[bytes], None] | None = None
        """Called with each line just before ``receive()`` returns it (for timing)."""
        self.on_send: Callable[[dict[str, Any]], None] | None = None
        """Called with each decoded frame as soon as it is written (for timing)."""

    def feed(self, *frames: Frame | bytes) -> None:
        """Queue frames (dicts, or raw lines) for the library to read."""
        for frame in frames:
            self._lines.append(frame if isinstance(frame, bytes) else json.dumps(frame).encode())
            if isinstance(frame, Mapping) and frame.get("type") == "result" and self._turns_open:
                self._turns_open -= 1
                if not self._turns_open and self.eof_received:
                    self.close_output()
        self._wake()

    def close_output(self) -> None:
        """End the output stream: the library reads EOF after queued lines."""
        self._lines.append(None)
        self._wake()

    def _wake(self) -> None:
        self._ready.set()
        self._ready = anyio.Event()

    async def send(self, line: bytes) -> None:
        if self.closed or self.eof_received:
            raise TransportClosedError("the mock transport is closed")
        frame = json.loads(line)
        self.sent.append(frame)
        if frame.get("type") == "user":
            self._turns_open += 1
        if self.on_send is not None:
            self.on_send(frame)
        if self.handler is None:
            replies: Any = [initialize_response(frame)] if _is_initialize(frame) else None
        else:
            replies = self.handler(frame)
            if isinstance(replies, Awaitable):
                replies = await replies
        if replies:
            self.feed(*replies)

    async def receive(self) -> bytes | None:
        while not self._lines:
            if self.closed:
                return None
            await self._ready.wait()
        line = self._lines.popleft()
        if line is None:
            self._lines.appendleft(None)  # EOF stays EOF
            return None
        if self.on_receive is not None:
            self.on_receive(line)
        return line

    async def send_eof(self) -> None:
        if self.eof_received:
            return
        self.eof_received = True
        if not self._turns_open:
            self.close_output()

    async def aclose(self) -> None:
        self.closed = True
        self._wake()

    @property
    def returncode(self) -> int | None:
        ended = self.eof_received and None in self._lines  # it "exits" once its output is over
        return 0 if self.closed or ended else None

    async def wait(self) -> int | None:
        return self.returncode


def _is_initialize(frame: Mapping[str, Any]) -> bool:
    request = frame.get("request")
    return (
        frame.get("type") == "control_request"
        and isinstance(request, Mapping)
        and request.get("subtype") == "initialize"
    )
