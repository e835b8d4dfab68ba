"""`ScriptedModel`: a fake Anthropic Messages API on loopback.

The server is stdlib only (`http.server` in a daemon thread) so the same
object works from sync tests, asyncio, trio, or a separate process: nothing
here touches the caller's event loop.
"""

from __future__ import annotations

import dataclasses
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from claude_wrap.testing._http import ReplyPlan, ScriptedHTTPServer
from claude_wrap.testing._recorded import RecordedRequest
from claude_wrap.testing._replies import (
    Reply,
    ScriptedToolUse,
    error_json,
)

__all__ = ["NO_REPLY_TEXT", "SIDE_REPLY_TEXT", "ScriptedModel"]

#: Text of the fallback answer to a main-loop request when nothing is queued.
NO_REPLY_TEXT = "[scripted model: no reply queued]"
#: Text of the default answer to side requests (titles, probes, ...).
SIDE_REPLY_TEXT = "[scripted model: side reply]"

# How often serve_forever checks for shutdown; small so close() is quick.
_POLL_INTERVAL = 0.05


@dataclasses.dataclass
class _Queued:
    reply: Reply
    remaining: int | None  # None: sticky, never used up


def _matches(reply: Reply, request: RecordedRequest) -> bool:
    if reply.matcher == "main":
        return request.is_main
    if reply.matcher == "any":
        return True
    return bool(reply.matcher(request))


class ScriptedModel:
    """A fake Anthropic Messages API on 127.0.0.1 that answers from a script.

    Queued replies (`add`) answer main-loop requests (those with a non-empty
    ``tools`` list) in order, unless a reply says otherwise (`Reply.match_any`,
    `Reply.match_if`). Side requests get `SIDE_REPLY_TEXT`, ``count_tokens``
    gets ``{"input_tokens": count_tokens}``, and a main-loop request with
    nothing queued gets `NO_REPLY_TEXT` and is listed in `unexpected`.

    Use it as a context manager, or call `start` and `close`. A closed model
    cannot be restarted. All methods are thread-safe.
    """

    def __init__(
        self,
        *replies: Reply,
        host: str = "127.0.0.1",
        port: int = 0,
        count_tokens: int = 10,
        side_reply: Reply | None = None,
        on_request: Callable[[RecordedRequest], None] | None = None,
        api_key: str | None = None,
    ) -> None:
        """Create a stopped model with ``replies`` already queued.

        ``api_key``: the only key it accepts (``x-api-key``, or a bearer
        token); any other request gets the real API's 401
        ``authentication_error``, for tests of a wrong key. ``None`` (the
        default) accepts any."""
        self._api_key = api_key
        self._host = host
        self._requested_port = port
        self._count_tokens = count_tokens
        self._side_reply = side_reply or Reply.text(SIDE_REPLY_TEXT).match_any()
        self._on_request = on_request
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._queue: list[_Queued] = []
        self._requests: list[RecordedRequest] = []
        self._errors: list[str] = []
        self._connections: set[socket.socket] = set()
        self._counters = {"msg": 0, "req": 0, "toolu": 0}
        self._server: ScriptedHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        #: Set when `close` begins; stalled and delayed answers wake on it.
        self.closing: threading.Event = threading.Event()
        self.add(*replies)

    # -- lifecycle ----------------------------------------------------------------

    def start(self) -> ScriptedModel:
        """Bind the port and serve in a daemon thread; returns ``self``."""
        with self._lock:
            if self._closed:
                raise RuntimeError("a closed ScriptedModel cannot be restarted")
            if self._server is not None:
                raise RuntimeError("ScriptedModel is already running")
            self._server = ScriptedHTTPServer((self._host, self._requested_port), self)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": _POLL_INTERVAL},
            name=f"ScriptedModel:{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving, end stalled answers and open connections; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            server = self._server
            connections = list(self._connections)
        self.closing.set()
        if server is None:
            return
        server.shutdown()
        # Idle keep-alive handlers block in recv(); shutting the sockets down
        # wakes them so server_close() can join every handler thread.
        for conn in connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        server.server_close()
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> ScriptedModel:  # noqa: PYI034 - typing.Self needs 3.11
        """Start (unless already started) and return ``self``."""
        if self._server is None:
            self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the server."""
        self.close()

    # -- addresses and environment -----------------------------------------------

    @property
    def port(self) -> int:
        """The bound TCP port (only once started)."""
        if self._server is None:
            raise RuntimeError("ScriptedModel is not started")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``, the value for ``ANTHROPIC_BASE_URL``."""
        return f"http://{self._host}:{self.port}"

    def env(
        self,
        home: Path | str,
        *,
        max_retries: int | None = 0,
        extra: Mapping[str, str] | None = None,
    ) -> dict[str, str]:
        """A complete environment that points the binary at this model.

        HOME and CLAUDE_CONFIG_DIR are isolated under ``home`` (created), the
        API key is a dummy, non-essential traffic is off, and retries default
        to 0 so error tests are fast (``None`` keeps the binary's default).
        Only PATH and LANG come from outside, so the host's own Claude
        settings and credentials cannot leak in.
        """
        home_path = Path(home)
        config = home_path / ".claude"
        config.mkdir(parents=True, exist_ok=True)
        env = {
            "ANTHROPIC_BASE_URL": self.base_url,
            "ANTHROPIC_API_KEY": "sk-test",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "HOME": str(home_path),
            "CLAUDE_CONFIG_DIR": str(config),
            "PATH": os.environ.get("PATH", os.defpath),
            "LANG": "C.UTF-8",
        }
        if os.name == "nt":  # pragma: no cover - Windows needs these to start processes
            env["USERPROFILE"] = str(home_path)
            env["SYSTEMROOT"] = os.environ.get("SYSTEMROOT", r"C:\Windows")
        if max_retries is not None:
            env["CLAUDE_CODE_MAX_RETRIES"] = str(max_retries)
        env.update(extra or {})
        return env

    # -- script and records ------------------------------------------------------

    def add(self, *replies: Reply) -> None:
        """Queue replies; each answers the next matching request in order."""
        with self._lock:
            self._queue.extend(_Queued(r, r.count) for r in replies)

    @property
    def pending(self) -> list[Reply]:
        """Queued replies not used up yet (sticky replies stay here)."""
        with self._lock:
            return [q.reply for q in self._queue]

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, in arrival order (a snapshot)."""
        with self._lock:
            return list(self._requests)

    @property
    def main_requests(self) -> list[RecordedRequest]:
        """Main-loop Messages requests (non-empty ``tools``)."""
        return [r for r in self.requests if r.is_main]

    @property
    def side_requests(self) -> list[RecordedRequest]:
        """Messages requests that are not main-loop (titles, probes, ...)."""
        return [r for r in self.requests if r.endpoint == "/v1/messages" and not r.is_main]

    @property
    def unexpected(self) -> list[RecordedRequest]:
        """Main-loop requests that found nothing queued and got `NO_REPLY_TEXT`."""
        return [r for r in self.requests if r.unexpected]

    def check_script(self) -> None:
        """Raise ``AssertionError`` if the script and the run did not meet:
        a reply never used (sticky ones may stay unused), or a main-loop
        request that found no reply (and got ``NO_REPLY_TEXT``). Saying
        which, so a test that asked less, or more, of the model than it
        scripted fails with the reason."""
        unused = [r for r in self.pending if r.count is not None]
        unexpected = self.unexpected
        problems = []
        if unused:
            problems.append(f"{len(unused)} scripted replies were never used: {unused!r}")
        if unexpected:
            asked = [r.last_user_text for r in unexpected]
            problems.append(f"{len(unexpected)} main-loop requests found no reply (last user text: {asked!r})")
        if problems:
            raise AssertionError("; ".join(problems))

    @property
    def errors(self) -> list[str]:
        """Tracebacks of unexpected server-side errors (should stay empty)."""
        with self._lock:
            return list(self._errors)

    def wait_for_requests(self, count: int = 1, *, main: bool = True, timeout: float = 10.0) -> list[RecordedRequest]:
        """Block until ``count`` (main-loop, unless ``main=False``) requests arrived.

        Raises `TimeoutError` after ``timeout`` seconds.
        """

        def seen() -> list[RecordedRequest]:
            return [r for r in self._requests if r.is_main or not main]

        with self._changed:
            if not self._changed.wait_for(lambda: len(seen()) >= count, timeout):
                raise TimeoutError(f"saw {len(seen())} of {count} requests within {timeout}s")
            return seen()

    # -- called by the handler -----------------------------------------------------

    def _next_id(self, kind: str) -> str:
        self._counters[kind] += 1
        return f"{kind}_scripted_{self._counters[kind]:04d}"

    def _take(self, request: RecordedRequest) -> Reply | None:
        for index, queued in enumerate(self._queue):
            if _matches(queued.reply, request):
                if queued.remaining is not None:
                    queued.remaining -= 1
                    if queued.remaining <= 0:
                        del self._queue[index]
                return queued.reply
        return None

    def _plan(
        self,
        *,
        method: str,
        path: str,
        headers: dict[str, str],
        body: dict[str, Any],
        raw: bytes,
    ) -> ReplyPlan:
        tools = body.get("tools")
        record = RecordedRequest(
            method=method,
            path=path,
            headers=headers,
            body=body,
            raw_body=raw,
            is_main=path.split("?", 1)[0] == "/v1/messages" and isinstance(tools, list) and bool(tools),
            timestamp=time.time(),
        )
        model = record.model or "claude-scripted"
        with self._changed:
            request_id = self._next_id("req")
            plan = self._plan_locked(record, request_id, model)
            record = dataclasses.replace(record, status=plan.answer_status, unexpected=plan.unexpected)
            self._requests.append(record)
            self._changed.notify_all()
        if self._on_request is not None:
            self._on_request(record)
        return plan

    def _plan_locked(self, record: RecordedRequest, request_id: str, model: str) -> ReplyPlan:
        def fixed(status: int, payload: Mapping[str, Any]) -> ReplyPlan:
            return ReplyPlan(Reply.text(""), request_id, "", model, False, status, payload)

        if self._api_key is not None and not _carries_key(record.headers, self._api_key):
            rejected = Reply.error(401, "invalid x-api-key", error_type="authentication_error")
            return fixed(401, error_json(rejected, request_id=request_id))
        if record.method == "POST" and record.is_count_tokens:
            return fixed(200, {"input_tokens": self._count_tokens})
        if record.method == "GET" and record.endpoint == "/v1/models":
            listed = [{"type": "model", "id": model, "display_name": model, "created_at": "2026-01-01T00:00:00Z"}]
            return fixed(200, {"data": listed, "has_more": False, "first_id": model, "last_id": model})
        if record.method != "POST" or record.endpoint != "/v1/messages":
            not_found = Reply.error(404, f"scripted model: no route for {record.method} {record.endpoint}")
            return fixed(404, error_json(not_found, request_id=request_id))
        reply = self._take(record)
        unexpected = reply is None and record.is_main
        if reply is None:
            reply = _NO_REPLY if record.is_main else self._side_reply
        if any(isinstance(b, ScriptedToolUse) and b.id is None for b in reply.blocks):
            blocks = tuple(
                dataclasses.replace(b, id=self._next_id("toolu"))
                if isinstance(b, ScriptedToolUse) and b.id is None
                else b
                for b in reply.blocks
            )
            reply = dataclasses.replace(reply, blocks=blocks)
        return ReplyPlan(
            reply,
            request_id,
            self._next_id("msg"),
            model,
            record.stream,
            unexpected=unexpected,
        )

    def _track(self, conn: socket.socket, *, add: bool) -> None:
        with self._lock:
            if add:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)

    def _record_error(self, text: str) -> None:
        with self._lock:
            self._errors.append(text)

    def __repr__(self) -> str:
        """Show the address and how much of the script is left."""
        where = self.base_url if self._server is not None and not self._closed else "stopped"
        return f"<ScriptedModel {where} requests={len(self._requests)} pending={len(self._queue)}>"


_NO_REPLY = Reply.text(NO_REPLY_TEXT)


def _carries_key(headers: Mapping[str, str], key: str) -> bool:
    return headers.get("x-api-key") == key or headers.get("authorization") == f"Bearer {key}"
