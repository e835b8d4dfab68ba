"""The ``claude-wrap`` command line (also ``python -m claude_wrap``), installed
by the ``claude-wrap-sdk`` distribution.

    claude-wrap run "prompt" [--model M] [--cwd DIR] [--allowed-tools T,T ...]
                             [--max-turns N] [--permission-mode M] [--json]
    claude-wrap doctor [--json]   which binary and why, its version, auth, API, config dir
    claude-wrap version [--json]  claude_wrap, pinned and found Claude Code versions
    claude-wrap fetch-binary      fetch, verify and cache the pinned binary
    claude-wrap --version

Only the standard library is imported at module level, so ``--help`` and
argument errors are instant; the rest of claude_wrap is imported by the
command that needs it. The live view of ``run`` is public as
``claude_wrap.cli.LiveView``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import textwrap
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from claude_wrap._process.binary import BinaryInfo
    from claude_wrap._wire.messages import (
        Message,
        ResultMessage,
        ToolResultBlock,
    )
    from claude_wrap._wire.stream import ToolCall
    from claude_wrap._wire.system_views import ApiRetryMessage

__all__ = ["LiveView", "add_fetch_arguments", "fetch_main", "main", "result_line", "run_fetch"]

PROG = "claude-wrap"  # the command; the distribution is claude-wrap-sdk (claude_wrap._distribution)
DEFAULT_API_URL = "https://api.anthropic.com"
AUTH_VARIABLES = ("ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_AUTH_TOKEN")
PERMISSION_MODES = ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto")
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


# --------------------------------------------------------------------------- fetch-binary


def add_fetch_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``fetch-binary`` (shared with ``scripts/fetch_binary.py``)."""
    parser.add_argument(
        "--platform",
        help="platform package to fetch, e.g. linux-x64, darwin-arm64, win32-x64 (default: this machine)",
    )
    parser.add_argument("--force", action="store_true", help="fetch and install again even if a verified copy exists")
    parser.add_argument("--verify", action="store_true", help="re-hash the cached copy instead of trusting its marker")
    parser.add_argument(
        "--from-tarball",
        metavar="PATH",
        type=Path,
        help="install from this npm tarball (as written by `npm pack`) instead of running npm",
    )
    parser.add_argument(
        "--print-path",
        action="store_true",
        help="print only the binary's path on stdout (status goes to stderr)",
    )


def run_fetch(args: argparse.Namespace, *, prog: str = PROG) -> int:
    """Run ``fetch-binary`` with parsed arguments; returns the exit code."""
    from claude_wrap._exceptions import ClaudeSDKError
    from claude_wrap._process.fetch import ensure_binary

    status = sys.stderr if args.print_path else sys.stdout
    shown = _FetchProgress(status) if status.isatty() else None
    try:
        with _interrupted_by_termination() as received:
            res = ensure_binary(
                args.platform, force=args.force, verify=args.verify, tarball=args.from_tarball, progress=shown
            )
    except KeyboardInterrupt:
        if shown is not None:
            shown.clear()
        print(f"{prog}: interrupted; nothing was installed", file=sys.stderr)
        return 128 + (received[0] if received else signal.SIGINT)
    except (ClaudeSDKError, OSError) as exc:
        if shown is not None:
            shown.clear()
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 1
    if shown is not None:
        shown.clear()

    what = f"Claude Code {res.version} ({res.platform})"
    if res.action == "cached":
        print(f"verified copy of {what} already at {res.path}", file=status)
    elif res.action == "reverified":
        print(f"re-hashed and verified {what} at {res.path} in {res.seconds:.1f} s", file=status)
    else:
        source = f"from {res.tarball}" if res.tarball else "with npm pack"
        print(f"fetched and verified {what} {source} in {res.seconds:.1f} s: {res.path}", file=status)
    if args.print_path:
        print(res.path)
    return 0


class _FetchProgress:
    """The status line of a fetch on a terminal: bytes, speed, time."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self._drawn = False

    def __call__(self, done: int, seconds: float) -> None:
        speed = done / seconds if seconds > 0 else 0.0
        self.out.write(f"\r\033[K  fetching with npm: {done / 1e6:.1f} MB, {speed / 1e6:.1f} MB/s, {seconds:.0f} s")
        self.out.flush()
        self._drawn = True

    def clear(self) -> None:
        if self._drawn:
            self.out.write("\r\033[K")
            self.out.flush()
            self._drawn = False


@contextlib.contextmanager
def _interrupted_by_termination() -> Iterator[list[int]]:
    """Turn SIGTERM and SIGHUP into ``KeyboardInterrupt`` for the block, so
    a fetch that is stopped cleans up what it started (the ``.partial``
    file, npm's folder) as it does on Ctrl-C; yields the signal received."""
    received: list[int] = []

    def stop(signum: int, frame: object) -> None:
        received.append(signum)
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield received
        return
    names = [name for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    previous = {name: signal.signal(getattr(signal, name), stop) for name in names}
    try:
        yield received
    finally:
        for name, handler in previous.items():
            signal.signal(getattr(signal, name), handler)


def fetch_main(argv: Sequence[str] | None = None, *, prog: str = "fetch_binary.py") -> int:
    """Entry point of ``scripts/fetch_binary.py``: the ``fetch-binary`` command alone."""
    parser = argparse.ArgumentParser(prog=prog, description="Fetch, verify and cache the pinned Claude Code binary.")
    add_fetch_arguments(parser)
    return run_fetch(parser.parse_args(argv), prog=prog)


# --------------------------------------------------------------------------- run


def _short(text: str, width: int = 80) -> str:
    """First non-empty line, shortened to ``width`` characters (… when cut)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    first = (lines[0] if lines else "").replace("\t", " ")
    if len(first) > width:
        return textwrap.shorten(first, width=width - 2, placeholder="") + " …"
    return first + (" …" if len(lines) > 1 else "")


def _tool_summary(call: ToolCall) -> str:
    data = call.input
    for key in ("command", "file_path", "path", "pattern", "url", "description"):
        if key in data:
            return f"{call.name}({key}={_short(str(data[key]), 60)!r})"
    args = ", ".join(f"{k}={v!r}" for k, v in data.items())
    return f"{call.name}({_short(args, 60)})"


def _result_text(block: ToolResultBlock) -> str:
    content: Any = block.content
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))


def _failure(result: ResultMessage) -> str:
    """Why a run failed, in a few words: an API failure has subtype
    ``success``, so its terminal reason, HTTP status and text say more."""
    parts = [result.subtype] if result.subtype != "success" else [result.terminal_reason or "error"]
    if result.api_error_status is not None:
        parts.append(f"HTTP {result.api_error_status}")
    text = "; ".join(result.errors or []) or result.result or ""
    if text.strip():
        parts.append(_short(text, 60))
    return ", ".join(parts)


def result_line(result: ResultMessage) -> str:
    """The closing line of a run: outcome, turns, cost, duration."""
    cost = "n/a" if result.total_cost_usd is None else f"${result.total_cost_usd:.4f}"
    label = f"error ({_failure(result)})" if result.is_error else result.subtype
    return (
        f"result: {label} · {result.num_turns} turns · cost {cost} · "
        f"{result.duration_ms / 1000:.2f} s (API {result.duration_api_ms / 1000:.2f} s)"
    )


class LiveView:
    """Renders a run for a person: streamed text, one line per tool call, a
    line per API retry, a spinner.

    Feed it every message with :meth:`handle` and call :meth:`close` at the
    end; ``result`` then holds the run's ``ResultMessage`` (see
    :func:`result_line`). Streamed text shows as it arrives when the run has
    ``include_partial_messages=True``, else a whole text block at a time.
    When ``tty`` is true a status line is drawn from a helper thread (the
    run blocks between messages): from the moment the view is made,
    ``starting Claude Code <version>…`` until the binary is up, ``waiting
    for the model…`` until the model answers, and the running tool while
    one runs. ``version`` is the binary's version to name; off a terminal
    nothing of this is printed. With ``api_url`` (the API the binary calls),
    a retry the binary reports without an HTTP status names the network
    failure behind it (``ECONNREFUSED``, ``ENOTFOUND``, ...).
    """

    def __init__(self, out: IO[str], *, tty: bool, version: str | None = None, api_url: str | None = None) -> None:
        from claude_wrap._wire.stream import StreamAccumulator

        self.out = out
        self.tty = tty
        self.api_url = api_url
        self.result: ResultMessage | None = None
        self._shown = StreamAccumulator()
        self._at_line_start = True
        self._tools: dict[str, tuple[str, float]] = {}  # tool_use_id -> (summary, started)
        # What the run is waiting for while no text streams and no tool runs.
        starting = f"starting Claude Code {version}…" if version else "starting Claude Code…"
        self._waiting: tuple[str, float] | None = (starting, time.monotonic())
        self._lock = threading.Lock()
        self._spinner_line = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if tty:
            self._thread = threading.Thread(target=self._spin, name="claude-wrap-spinner", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the spinner and end the current line."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            self._clear_spinner()
            for summary, _ in self._tools.values():
                self._line(f"  … {summary} (no result)")
            self._tools.clear()
            self._newline()
            self.out.flush()

    # -- output primitives (under the lock) --------------------------------------

    def _clear_spinner(self) -> None:
        if self._spinner_line:
            self.out.write("\r\033[K")
            self._spinner_line = False

    def _write(self, text: str) -> None:
        self._clear_spinner()
        self.out.write(text)
        if text:
            self._at_line_start = text.endswith("\n")

    def _newline(self) -> None:
        if not self._at_line_start:
            self._write("\n")

    def _line(self, text: str) -> None:
        self._newline()
        self._write(text + "\n")

    def _spin(self) -> None:
        i = 0
        while not self._stop.wait(0.1):
            with self._lock:
                if not self._at_line_start:
                    continue
                if self._tools:
                    summary, started = next(iter(self._tools.values()))
                    if len(self._tools) > 1:
                        summary += f" (+{len(self._tools) - 1})"
                elif self._waiting is not None:
                    summary, started = self._waiting
                else:
                    continue
                self.out.write(f"\r\033[K{SPINNER[i % len(SPINNER)]} {summary} {time.monotonic() - started:.1f} s")
                self.out.flush()
                self._spinner_line = True
                i += 1

    # -- messages ---------------------------------------------------------------------

    def handle(self, message: Message) -> None:
        """Show one message."""
        from claude_wrap._wire.messages import ResultMessage, SystemMessage, ToolResultBlock, UserMessage
        from claude_wrap._wire.stream import TextChunk, ToolCall
        from claude_wrap._wire.system_views import ApiRetryMessage

        with self._lock:
            if isinstance(message, SystemMessage) and message.subtype == "init":
                self._waiting = ("waiting for the model…", time.monotonic())
            # Thinking is not shown; text and tool calls each exactly once.
            for item in self._shown.feed(message):
                self._waiting = None  # the model is answering
                if isinstance(item, TextChunk):
                    if not item.whole:
                        self._write(item.text)
                    elif item.text.strip():
                        self._line(item.text.strip())
                elif isinstance(item, ToolCall):
                    self._newline()
                    self._tools[item.id] = (_tool_summary(item), time.monotonic())
            retry = ApiRetryMessage.of(message) if isinstance(message, SystemMessage) else None
            if retry is not None:
                cause = None
                if retry.error_status is None and self.api_url is not None:
                    cause = network_cause(self.api_url)
                self._line(retry_line(retry, cause))
            if isinstance(message, UserMessage) and isinstance(message.content, list):
                for block in message.content:
                    if isinstance(block, ToolResultBlock):
                        summary, started = self._tools.pop(block.tool_use_id, ("tool", time.monotonic()))
                        mark = "✗" if block.is_error else "✓"
                        took = time.monotonic() - started
                        self._line(f"  {mark} {summary} → {_short(_result_text(block), 70)} ({took:.1f} s)")
                        if not self._tools:  # the results go back to the model
                            self._waiting = ("waiting for the model…", time.monotonic())
            elif isinstance(message, ResultMessage):
                self.result = message
                self._waiting = None
            self.out.flush()


def retry_line(retry: ApiRetryMessage, cause: str | None = None) -> str:
    """One API retry, as the live view shows it; ``cause`` names a network
    failure the frame itself does not (see :func:`network_cause`)."""
    status = f"HTTP {retry.error_status} " if retry.error_status is not None else ""
    error = f"{status}{retry.error or 'error'}".strip()
    if cause:
        error = f"no HTTP answer: {cause}"
    return (
        f"  ↻ API call failed ({error}); retry {retry.attempt} of {retry.max_retries} "
        f"in {retry.retry_delay_ms / 1000:.1f} s"
    )


def _build_options(args: argparse.Namespace) -> Any:
    from claude_wrap import ClaudeAgentOptions

    fields: dict[str, Any] = {"include_partial_messages": not args.json or args.include_partial_messages}
    if args.model:
        fields["model"] = args.model
    if args.cwd:
        fields["cwd"] = args.cwd
    if args.allowed_tools:
        fields["allowed_tools"] = [t.strip() for item in args.allowed_tools for t in item.split(",") if t.strip()]
    if args.max_turns is not None:
        fields["max_turns"] = args.max_turns
    if args.permission_mode:
        fields["permission_mode"] = args.permission_mode
    if args.cli_path:
        fields["cli_path"] = args.cli_path
    return ClaudeAgentOptions(**fields)


# Content blocks by class, as the binary names them on the wire.
_BLOCK_TYPES = {
    "TextBlock": "text",
    "ThinkingBlock": "thinking",
    "RedactedThinkingBlock": "redacted_thinking",
    "ToolUseBlock": "tool_use",
    "ToolResultBlock": "tool_result",
    "ServerToolUseBlock": "server_tool_use",
    "ServerToolResultBlock": "server_tool_result",
    "ImageBlock": "image",
}


def _dropping_none(body: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: body[k] for k in keys if body.get(k) is not None}


def stream_json(message: Message) -> dict[str, Any]:
    """``message`` as the stream-json object the binary wrote for it: ``type``
    first, the binary's field names and nesting (what the message keeps of it)."""
    import msgspec

    from claude_wrap._wire.messages import (
        AssistantMessage,
        RateLimitEvent,
        ResultMessage,
        StreamEvent,
        SystemMessage,
        UnknownMessage,
        UserMessage,
    )

    if isinstance(message, SystemMessage):
        return {"type": "system", "subtype": message.subtype, **message.data}  # data is the whole frame
    body = msgspec.to_builtins(message)
    content = getattr(message, "content", None)
    if isinstance(content, list):
        body["content"] = [
            {"type": _BLOCK_TYPES.get(type(block).__name__, type(block).__name__), **fields}
            for block, fields in zip(content, body["content"])
        ]
    if isinstance(message, AssistantMessage):
        inner = {"id": body.get("message_id"), "type": "message", "role": "assistant", "model": body["model"]}
        inner |= {"content": body["content"], **_dropping_none(body, "stop_reason", "usage")}
        outer = _dropping_none(body, "error", "session_id", "uuid")
        return {"type": "assistant", "message": inner, "parent_tool_use_id": body.get("parent_tool_use_id"), **outer}
    if isinstance(message, UserMessage):
        outer = _dropping_none(body, "uuid", "tool_use_result")
        inner = {"role": "user", "content": body["content"]}
        return {"type": "user", "message": inner, "parent_tool_use_id": body.get("parent_tool_use_id"), **outer}
    if isinstance(message, ResultMessage):
        if "model_usage" in body:
            body["modelUsage"] = body.pop("model_usage")
        return {"type": "result", **{k: v for k, v in body.items() if v is not None or k == "result"}}
    if isinstance(message, StreamEvent):
        return {"type": "stream_event", **_dropping_none(body, "uuid", "session_id", "event", "parent_tool_use_id")}
    if isinstance(message, RateLimitEvent):
        return {"type": "rate_limit_event", **body}
    if isinstance(message, UnknownMessage):
        return dict(message.data)  # the frame as written
    return {"type": type(message).__name__, **body}


def _encode_json(message: Message) -> bytes:
    import msgspec

    return msgspec.json.encode(stream_json(message)) + b"\n"


def cmd_run(args: argparse.Namespace) -> int:
    """``claude-wrap run``: one prompt, shown live (or as JSON lines)."""
    from claude_wrap import sync
    from claude_wrap._exceptions import ClaudeSDKError, ResultError

    if args.include_partial_messages and not args.json:
        print(
            f"{PROG}: note: --include-partial-messages only changes --json output "
            "(the live view always streams text as it arrives)",
            file=sys.stderr,
        )
    try:
        options = _build_options(args)
    except ValueError as exc:
        print(f"{PROG}: invalid options: {exc}", file=sys.stderr)
        return 2
    view = None
    if not args.json:
        tty = sys.stdout.isatty()
        view = LiveView(
            sys.stdout,
            tty=tty,
            version=_version_to_show(args.cli_path) if tty else None,
            api_url=os.environ.get("ANTHROPIC_BASE_URL") or DEFAULT_API_URL,
        )
    code = 0
    try:
        with sync.query(prompt=args.prompt, options=options) as messages:
            for message in messages:
                if view is None:
                    sys.stdout.buffer.write(_encode_json(message))
                    sys.stdout.buffer.flush()
                else:
                    view.handle(message)
    except ResultError as exc:
        code = 1
        error: str | None = str(exc)
    except ClaudeSDKError as exc:
        code = 1
        error = f"{type(exc).__name__}: {exc}"
    except KeyboardInterrupt:
        code, error = 130, "interrupted"
    else:
        error = None
    finally:
        if view is not None:
            view.close()
    if view is not None and view.result is not None:
        print()
        print(result_line(view.result))
    if error is not None:
        print(f"{PROG}: {error}", file=sys.stderr)
    return code


def _version_to_show(cli_path: str | None) -> str | None:
    """The version of the binary ``run`` will start, for its status line;
    a binary that cannot be found is left for the run itself to report."""
    from claude_wrap._exceptions import ClaudeSDKError
    from claude_wrap._process.binary import binary_info

    try:
        return binary_info(cli_path).version
    except (ClaudeSDKError, OSError):
        return None


# --------------------------------------------------------------------------- doctor


_SOURCES = {
    "cli_path": "given with --cli-path",
    "env": "from $CLAUDE_WRAP_CLI",
    "bundled": "bundled inside the installed claude_wrap package",
    "cache": "the verified cache for the pinned version",
    "path": "`claude` on PATH",
}


def _get_models(url: str, timeout: float, headers: dict[str, str]) -> dict[str, Any]:
    """``GET /v1/models`` at the API ``url``, bounded by ``timeout`` overall
    (DNS included): ``{"status", "ms", "message"}``, or ``{"error"}``."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return {"error": f"not an http(s) URL: {url!r}"}
    box: dict[str, Any] = {}

    def probe() -> None:
        import http.client
        import json

        started = time.monotonic()
        conn: http.client.HTTPConnection
        try:
            if parts.scheme == "https":
                conn = http.client.HTTPSConnection(parts.hostname or "", parts.port, timeout=timeout)
            else:
                conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)
            try:
                conn.request(
                    "GET", parts.path.rstrip("/") + "/v1/models", headers={"anthropic-version": "2023-06-01", **headers}
                )
                response = conn.getresponse()
                body = response.read(64 * 1024)
            finally:
                conn.close()
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            box["error"] = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            box["exception"] = exc
            return
        try:
            error = json.loads(body).get("error") or {}
            message = str(error.get("message", "")) if isinstance(error, dict) else ""
        except (ValueError, AttributeError):
            message = ""
        box.update(status=response.status, ms=(time.monotonic() - started) * 1000, message=message)

    # A thread, so a slow DNS lookup cannot hold the command past the timeout.
    thread = threading.Thread(target=probe, name="claude-wrap-doctor", daemon=True)
    thread.start()
    thread.join(timeout + 0.5)
    return box or {"error": f"no answer within {timeout:g} s"}


def network_cause(url: str, timeout: float = 2.0) -> str | None:
    """Why the API at ``url`` cannot be reached, in the names Node uses
    (``ECONNREFUSED at host:port``, ``ENOTFOUND host``, ``ETIMEDOUT``), or
    ``None`` when it answers. The binary's retry frames carry no cause for a
    network failure, so the live view asks the network itself."""
    import errno
    import socket
    from urllib.parse import urlsplit

    got = _get_models(url, timeout, {})
    if "error" not in got:
        return None
    exc = got.get("exception")
    parts = urlsplit(url)
    host = parts.hostname or url
    where = f"{host}:{parts.port or (443 if parts.scheme == 'https' else 80)}"
    if isinstance(exc, socket.gaierror):
        return f"ENOTFOUND {host}"
    if exc is None or isinstance(exc, TimeoutError):
        return f"ETIMEDOUT at {where}"
    code = exc.errno if isinstance(exc, OSError) else None
    if code is not None and code in errno.errorcode:
        return f"{errno.errorcode[code]} at {where}"
    return str(got["error"])


def _probe_api(url: str, timeout: float) -> tuple[bool, str]:
    """Does the API at ``url`` answer? A ``GET /v1/models`` without
    credentials: any answer below 500 (401 from the real API, 404 from a
    proxy) shows the server is there and working; a 5xx (501 from a server
    that is not an API) or no answer is a failure."""
    got = _get_models(url, timeout, {})
    if "error" in got:
        return False, f"unreachable ({got['error']})"
    answer = f"HTTP {got['status']} in {got['ms']:.0f} ms"
    if got["status"] >= 500:
        return False, f"answers with a server error ({answer})"
    return True, f"answers ({answer})"


def _credential_headers() -> tuple[str, dict[str, str]] | None:
    """The headers the binary would authenticate with, from the environment
    (which variable, and the headers); ``None`` without one."""
    if key := os.environ.get("ANTHROPIC_API_KEY", "").strip():
        return "ANTHROPIC_API_KEY", {"x-api-key": key}
    if token := os.environ.get("ANTHROPIC_AUTH_TOKEN", "").strip():
        return "ANTHROPIC_AUTH_TOKEN", {"authorization": f"Bearer {token}"}
    if token := os.environ.get("CLAUDE_CODE_OAUTH_TOKEN", "").strip():
        return "CLAUDE_CODE_OAUTH_TOKEN", {"authorization": f"Bearer {token}", "anthropic-beta": "oauth-2025-04-20"}
    return None


def _check_key(url: str, timeout: float) -> tuple[str, str]:
    """One cheap authenticated request (the models list): is the key accepted?"""
    found = _credential_headers()
    if found is None:
        return "warn", "not checked (no key in the environment; a stored login is the binary's to use)"
    name, headers = found
    got = _get_models(url, timeout, headers)
    if "error" in got:
        return "fail", f"not checked: the API is unreachable ({got['error']})"
    status, message = got["status"], got["message"]
    if status in (401, 403):
        return "fail", f"{name} rejected (HTTP {status}" + (f": {message})" if message else ")")
    if status == 200:
        return "ok", f"{name} accepted"
    return "warn", f"{name} not checked (the models list answered HTTP {status})"


def _config_dir() -> Path:
    configured = os.environ.get("CLAUDE_CONFIG_DIR", "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def cmd_doctor(args: argparse.Namespace) -> int:
    """``claude-wrap doctor``: check the set-up; non-zero exit when something is broken."""
    from claude_wrap._exceptions import ClaudeSDKError
    from claude_wrap._process import binary as _binary

    rows: list[tuple[str, str, str]] = []  # (mark, what, detail); mark: ok / warn / fail

    info: BinaryInfo | None = None
    try:
        info = _binary.binary_info(args.cli_path)
    except ClaudeSDKError as exc:
        rows.append(("fail", "binary", str(exc).splitlines()[0]))
    else:
        why = _SOURCES.get(info.source, info.source)
        if info.source == "path" and _binary._prefer_path(None):
            why += f" (preferred: ${_binary.ENV_PREFER_PATH} is set)"
        rows.append(("ok", "binary", f"{info.path} ({why})"))

    try:
        pinned: str | None = _binary.pinned_version()
    except ClaudeSDKError:
        pinned = None
    if info is not None:
        if info.version is None:
            rows.append(("fail", "version", f"`{info.path} --version` failed: the binary does not run here"))
        elif pinned is not None and info.version != pinned:
            rows.append(("warn", "version", f"{info.version} (claude_wrap is tested with {pinned})"))
        else:
            rows.append(("ok", "version", f"{info.version} (pinned {pinned})"))

    config = _config_dir()
    present = [name for name in AUTH_VARIABLES if os.environ.get(name, "").strip()]
    if present:
        rows.append(
            ("ok", "auth", f"{present[0]} is set" + (f" (also {', '.join(present[1:])})" if present[1:] else ""))
        )
    elif (config / ".credentials.json").is_file():
        rows.append(("ok", "auth", f"stored login in {config / '.credentials.json'}"))
    else:
        rows.append(
            ("warn", "auth", "none: set ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN (or log in with `claude`)")
        )

    base = os.environ.get("ANTHROPIC_BASE_URL", "").strip()
    url = base or DEFAULT_API_URL
    origin = "ANTHROPIC_BASE_URL" if base else "default"
    if args.offline:
        rows.append(("warn", "API", f"{url} ({origin}) not checked (--offline)"))
        rows.append(("warn", "key", "not checked (--offline)"))
    else:
        ok, detail = _probe_api(url, args.timeout)
        rows.append(("ok" if ok else "fail", "API", f"{url} ({origin}) {detail}"))
        if ok:
            mark, detail = _check_key(url, args.timeout)
            rows.append((mark, "key", detail))

    state = "exists" if config.is_dir() else "does not exist yet; created on first run"
    origin = "CLAUDE_CONFIG_DIR" if os.environ.get("CLAUDE_CONFIG_DIR", "").strip() else "default"
    rows.append(("ok", "config dir", f"{config} ({origin}; {state})"))

    failed = [what for mark, what, _ in rows if mark == "fail"]
    if args.json:
        checks = [{"check": what, "status": mark, "detail": detail} for mark, what, detail in rows]
        _print_json({"ok": not failed, "checks": checks})
        return 1 if failed else 0
    marks = {"ok": "✓", "warn": "!", "fail": "✗"}
    print(f"{PROG} doctor")
    for mark, what, detail in rows:
        print(f"  {marks[mark]} {what:<11} {detail}")
    if failed:
        print(f"\nproblems: {', '.join(failed)}")
        return 1
    print("\nall good")
    return 0


def _print_json(value: Any) -> None:
    import json

    print(json.dumps(value, indent=2))


# --------------------------------------------------------------------------- version


def cmd_version(args: argparse.Namespace) -> int:
    """``claude-wrap version``: our version, the pinned and the found binary's
    (non-zero exit, and why, when no binary is found)."""
    import claude_wrap
    from claude_wrap._distribution import DISTRIBUTION
    from claude_wrap._exceptions import ClaudeSDKError
    from claude_wrap._process import binary as _binary

    report: dict[str, Any] = {"claude_wrap": claude_wrap.__version__, "distribution": DISTRIBUTION}
    try:
        report["pinned"] = _binary.pinned_version()
    except ClaudeSDKError as exc:
        report["pinned"], report["pinned_error"] = None, str(exc)
    try:
        info = _binary.binary_info(args.cli_path)
    except ClaudeSDKError as exc:
        report["found"], report["error"] = None, str(exc)
    else:
        report["found"] = {"version": info.version, "path": str(info.path), "source": info.source}
    if args.json:
        _print_json(report)
        return 0 if report["found"] else 1
    print(f"claude_wrap {report['claude_wrap']} ({DISTRIBUTION})")
    if report["pinned"] is not None:
        print(f"pinned Claude Code {report['pinned']}")
    else:
        print(f"pinned Claude Code: unknown ({report['pinned_error']})")
    found = report["found"]
    if found is None:
        print("found Claude Code: none")
        print(f"{PROG}: {report['error']}", file=sys.stderr)
        return 1
    print(f"found Claude Code {found['version'] or '(version unknown)'} at {found['path']} ({found['source']})")
    return 0


# --------------------------------------------------------------------------- flush-spool


def _store_from_url(url: str, args: argparse.Namespace) -> Any:
    """A shipped store for ``url`` (``sqlite:////absolute/path.db``, ``postgresql://...``, ``redis://...``)."""
    from claude_wrap import PostgresSessionStore, RedisSessionStore, SQLiteSessionStore

    if url.startswith("sqlite:"):
        # As SQLAlchemy reads them: sqlite:///relative.db, sqlite:////absolute.db.
        path = url.removeprefix("sqlite:")
        path = path[3:] if path.startswith("///") else path
        return SQLiteSessionStore(path)
    if url.startswith(("postgresql:", "postgres:")) or "dbname=" in url:
        return PostgresSessionStore(url, table=args.table)
    if url.startswith(("redis:", "rediss:", "unix:")):
        return RedisSessionStore(url, prefix=args.prefix)
    raise ValueError(
        f"not a store address this command knows: {url!r} (sqlite:////path.db, postgresql://..., redis://...)"
    )


def cmd_flush_spool(args: argparse.Namespace) -> int:
    """``claude-wrap flush-spool``: list what this machine holds for session
    stores that were down, or with ``--store`` write it to that store."""
    import anyio

    from claude_wrap._sessions.spool import every_spool, flush_pending

    if args.store is None:
        spools = every_spool()
        if not spools:
            print("nothing is spooled")
            return 0
        for spool, files in spools:
            sessions = {f.key["session_id"] for f in files}
            print(f"{spool.name}: {sum(len(f.entries) for f in files)} entries of {len(sessions)} session(s)")
        print(f"\nwrite them with: {PROG} flush-spool --store <the store's address>")
        return 0
    try:
        store = _store_from_url(args.store, args)
        written = anyio.run(lambda: flush_pending(store, timeout=args.timeout))
    except ValueError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - the store's own error, shown as it is
        print(f"{PROG}: the store did not take the spool: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {written} entries to {args.store}")
    return 0


# --------------------------------------------------------------------------- main


def build_parser() -> argparse.ArgumentParser:
    """The ``claude-wrap`` argument parser."""
    from claude_wrap._distribution import DISTRIBUTION
    from claude_wrap._version import __version__

    parser = argparse.ArgumentParser(
        prog=PROG,
        description=f"Drive the Claude Code agent binary from the shell (the {PROG} command of {DISTRIBUTION}).",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__} ({DISTRIBUTION})")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = commands.add_parser("run", help="run one prompt and show it live")
    run.add_argument("prompt")
    run.add_argument("--model", help="model name or alias")
    run.add_argument("--cwd", help="working directory for the agent (default: here)")
    run.add_argument(
        "--allowed-tools",
        action="append",
        metavar="TOOLS",
        help="tools to auto-approve, comma-separated (Read,Bash); may be repeated",
    )
    run.add_argument("--max-turns", type=int, help="stop after this many turns")
    run.add_argument("--permission-mode", choices=PERMISSION_MODES)
    run.add_argument("--json", action="store_true", help="print each message as a stream-json object, one per line")
    run.add_argument(
        "--include-partial-messages",
        action="store_true",
        help="with --json: also print stream_event messages (the live view always streams)",
    )
    run.add_argument("--cli-path", help="the Claude Code binary to use (default: discovery)")
    run.set_defaults(func=cmd_run)

    doctor = commands.add_parser("doctor", help="check the binary, auth, API and config")
    doctor.add_argument("--timeout", type=float, default=3.0, help="API check timeout in seconds (default 3)")
    doctor.add_argument("--cli-path", help="check this binary instead of the discovered one")
    doctor.add_argument("--json", action="store_true", help="print the checks as one JSON object")
    doctor.add_argument("--offline", action="store_true", help="no network: neither the API nor the key is checked")
    doctor.set_defaults(func=cmd_doctor)

    version = commands.add_parser("version", help="print versions")
    version.add_argument("--cli-path", help="report this binary instead of the discovered one")
    version.add_argument("--json", action="store_true", help="print the versions as one JSON object")
    version.set_defaults(func=cmd_version)

    fetch = commands.add_parser("fetch-binary", help="fetch, verify and cache the pinned binary")
    add_fetch_arguments(fetch)
    fetch.set_defaults(func=run_fetch)

    spool = commands.add_parser(
        "flush-spool", help="write to a session store what runs here could not (list it without --store)"
    )
    spool.add_argument(
        "--store", help="the store's address: sqlite:////absolute/path.db, postgresql://..., redis://..."
    )
    spool.add_argument("--table", default="claude_session_entries", help="the PostgreSQL store's table")
    spool.add_argument("--prefix", default="claude:session:", help="the Redis store's key prefix")
    spool.add_argument("--timeout", type=float, default=60.0, help="seconds to give the store (default 60)")
    spool.set_defaults(func=cmd_flush_spool)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``claude-wrap`` with ``argv`` (default: the process arguments)."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    return code
