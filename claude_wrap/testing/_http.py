"""The HTTP layer of `ScriptedModel`: stdlib server, handler, answer plans.

Split from `_server.py` so the model's bookkeeping and the byte-level
writing (chunking, delays, stalls) can be read separately.
"""

from __future__ import annotations

import dataclasses
import json
import socket
import sys
import threading
import traceback
from collections.abc import Iterable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

from claude_wrap._wire.nesting import pruned
from claude_wrap.testing._replies import (
    Reply,
    encode_sse,
    error_json,
    message_json,
    sse_events,
)


class _Model(Protocol):
    """What the HTTP layer asks of the model behind it (``ScriptedModel``)."""

    closing: threading.Event

    def _plan(
        self, *, method: str, path: str, headers: dict[str, str], body: dict[str, Any], raw: bytes
    ) -> ReplyPlan: ...

    def _track(self, conn: socket.socket, *, add: bool) -> None: ...

    def _record_error(self, text: str) -> None: ...


__all__ = ["ReplyPlan", "ScriptedHTTPServer"]


class ScriptedHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    # Keep joining handler threads in server_close(): close() first wakes every
    # stalled or idle handler, so the join is short and no thread outlives us.
    block_on_close = True
    # socketserver's default backlog is 5: a burst of connections (many
    # binaries starting at once, a busy machine slow to accept) overflows it
    # and the kernel resets some of them mid-request.
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], model: _Model) -> None:
        self.scripted = model
        super().__init__(address, _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        exc = sys.exc_info()[1]
        # A client that hangs up mid-stream (a killed binary, a watchdog) is
        # normal in tests, not a server bug.
        if isinstance(exc, (ConnectionError, TimeoutError)) or (
            isinstance(exc, OSError) and self.scripted.closing.is_set()
        ):
            return
        self.scripted._record_error(traceback.format_exc())


class _Handler(BaseHTTPRequestHandler):
    # HTTP/1.1 so streams use chunked transfer encoding and connections are
    # kept alive, like the real API behind its load balancer.
    protocol_version = "HTTP/1.1"
    server_version = "ScriptedModel/1"
    server: ScriptedHTTPServer

    def setup(self) -> None:
        super().setup()
        self.server.scripted._track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.scripted._track(self.connection, add=False)

    def log_message(self, format: str, *args: Any) -> None:
        # Requests are recorded instead; stderr noise would hide test output.
        pass

    def _read_body(self) -> bytes:
        if self.headers.get("transfer-encoding", "").lower() == "chunked":
            parts: list[bytes] = []
            while True:
                size = int(self.rfile.readline().split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    # Skip trailers up to the blank line.
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(parts)
                parts.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("content-length") or 0)
        return self.rfile.read(length) if length else b""

    def do_POST(self) -> None:  # http.server dispatches on this name
        self._dispatch()

    def do_GET(self) -> None:
        self._dispatch()

    def _dispatch(self) -> None:
        raw = self._read_body()
        try:
            parsed = json.loads(raw) if raw else {}
        except ValueError:
            parsed = {}
        except RecursionError:
            # A request carrying a deeply nested tool input (a test of hostile
            # input): recorded with the deep values cut out, as the library
            # reads such lines.
            parsed = json.loads(pruned(raw))
        body: dict[str, Any] = parsed if isinstance(parsed, dict) else {}
        plan = self.server.scripted._plan(
            method=self.command,
            path=self.path,
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
            raw=raw,
        )
        self._answer(plan)

    # -- writing ---------------------------------------------------------------

    def _wait(self, seconds: float) -> bool:
        """Sleep, but wake at shutdown; True if the server is closing."""
        if seconds <= 0:
            return self.server.scripted.closing.is_set()
        return self.server.scripted.closing.wait(seconds)

    def _held(self, gate: threading.Event | None) -> bool:
        """Wait for a held reply's gate, but wake at shutdown; True if the server is closing."""
        closing = self.server.scripted.closing
        while gate is not None and not gate.wait(0.05):
            if closing.is_set():
                return True
        return closing.is_set()

    def _hang(self) -> None:
        self.server.scripted.closing.wait()
        self.close_connection = True

    def _send_json(
        self,
        status: int,
        payload: Mapping[str, Any],
        headers: Iterable[tuple[str, str]],
    ) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

    def _answer(self, plan: ReplyPlan) -> None:
        reply = plan.reply
        if reply.kind == "stall":
            self._hang()
            return
        if self._held(reply.gate) or self._wait(reply.first_byte_delay):
            self.close_connection = True
            return
        headers = [("request-id", plan.request_id), *reply.headers]
        if plan.payload is not None:
            self._send_json(plan.status, plan.payload, headers)
            return
        if reply.kind == "error":
            if reply.retry_after is not None:
                headers.append(("retry-after", f"{reply.retry_after:g}"))
            self._send_json(reply.status, error_json(reply, request_id=plan.request_id), headers)
            return
        if not plan.stream:
            self._send_json(
                200,
                message_json(reply, message_id=plan.message_id, model=plan.model),
                headers,
            )
            return
        self._stream(plan, headers)

    def _stream(self, plan: ReplyPlan, headers: list[tuple[str, str]]) -> None:
        reply = plan.reply
        self.send_response(200)
        self.send_header("content-type", "text/event-stream; charset=utf-8")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        events = sse_events(reply, message_id=plan.message_id, model=plan.model)
        if reply.event_delay == 0 and reply.chunk_size is None and reply.stall_after_events is None:
            # One write for the whole response, so the binary reads it at
            # once: sent event by event, a busy machine could stall this
            # thread between two events, and what the binary writes (a
            # reply's stop_reason, when it counts the cost) would depend on
            # where. Replies that ask for pacing keep it.
            body = b"".join(encode_sse(name, data) for name, data in events)
            self.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
            return
        for number, (name, data) in enumerate(events):
            if reply.stall_after_events is not None and number >= reply.stall_after_events:
                self._hang()
                return
            if number and self._wait(reply.event_delay):
                self.close_connection = True
                return
            encoded = encode_sse(name, data)
            size = reply.chunk_size or len(encoded)
            for offset in range(0, len(encoded), size):
                self._write_chunk(encoded[offset : offset + size])
        self.wfile.write(b"0\r\n\r\n")


@dataclasses.dataclass(frozen=True)
class ReplyPlan:
    """How to answer one request, decided under the model's lock."""

    reply: Reply
    request_id: str
    message_id: str
    model: str
    stream: bool
    status: int = 200
    payload: Mapping[str, Any] | None = None  # a fixed JSON answer (count_tokens, 404)
    unexpected: bool = False

    @property
    def answer_status(self) -> int:
        """The HTTP status that will be sent (0 when the answer stalls)."""
        if self.payload is not None:
            return self.status
        return 0 if self.reply.kind == "stall" else self.reply.status
