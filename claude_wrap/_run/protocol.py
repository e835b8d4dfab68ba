"""One running binary: the control protocol and the message stream.

``Connection`` is the live binary as the client sees it (named apart from a
session, which is a conversation: a transcript that outlives any one
binary and that many connections may resume).

Concurrency model (pull-based reading): whoever awaits something from the
binary (the next message, or the answer to a control request) drives the
stdout pump, under a lock; everyone else waits to be woken. While it pumps,
the driver

* correlates control responses with our pending requests,
* hands each of the binary's own requests (``can_use_tool``,
  ``hook_callback``, ``mcp_message`` ...) to the ``Responder``, which
  answers it from a task the connection owns, so that a reader that times
  out or is cancelled never cuts a callback short (see ``_run.responder``), and
* queues every other frame as a message.

Reading holds no task between pulls, so ``query()`` can be a plain async
generator: a ``break`` or a cancellation leaves no cancel scope behind,
and closing it runs a shielded, time-bounded shutdown. Besides the
callbacks' tasks, one more belongs to the connection: the writer of a
prompt iterable (``feed()``), which may wait for answers the caller reads
meanwhile; ``aclose()`` cancels both and waits for them, bounded.

How a run ends (``ends_run``, set by ``query()``): stdin closes as soon as
the prompts are written, or, when callbacks answer over stdin (hooks,
``can_use_tool``, in-process MCP servers), once the binary says the run is
over (see ``_run.run_end``); the driver checks that after every frame it reads
and when the ceiling is due. Messages keep coming until the binary exits,
so turns it starts on its own (a background agent finishing) still arrive.
A client closes stdin this way only for prompts given to ``connect()``.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections import deque
from collections.abc import AsyncIterable, Awaitable, Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, cast

import anyio

from claude_wrap._exceptions import (
    ClaudeSDKError,
    CLIJSONDecodeError,
    ControlRejectedError,
    ControlTimeoutError,
    LineTooLongError,
    ProcessError,
    SessionStateError,
    TransportClosedError,
    TurnTimeoutError,
    error_result_hint,
    error_result_text,
    result_error_class,
    with_stderr,
)
from claude_wrap._process.transport import LineTransport
from claude_wrap._run.detached import Detached
from claude_wrap._run.extension import Extension, overridden
from claude_wrap._run.responder import Responder
from claude_wrap._run.run_end import DEFAULT_CEILING_MS, RunLedger
from claude_wrap._wire.codec import (
    UNKNOWN_KINDS,
    ControlCancel,
    ControlRequest,
    ControlResponseIn,
    Frame,
    decode_frame,
    decode_value,
    encode_line,
    is_unrecognized,
    undecodable,
)
from claude_wrap._wire.messages import (
    AssistantMessage,
    Message,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    UnknownMessage,
)
from claude_wrap._wire.serving import Answer, ControlHandler

__all__ = ["Connection"]

log = logging.getLogger("claude_wrap")

WriteLimit = tuple[float, Callable[[], ClaudeSDKError]]
"""How long a write may take (seconds), and the error if the binary does not
take it in by then."""


class _Slot:
    """A one-shot result for one of our control requests."""

    __slots__ = ("done", "value", "error")

    def __init__(self) -> None:
        self.done = False
        self.value: Any = None
        self.error: BaseException | None = None


class _Raise:
    """An error to raise from ``receive()`` at its place in the stream."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


class _Ready:
    """A message whose ``before_result`` hooks already ran."""

    __slots__ = ("message",)

    def __init__(self, message: Message) -> None:
        self.message = message


class _Unanswerable(Exception):
    """A control request whose id could not be read: the binary waits for an
    answer that cannot reach it, so the run ends rather than hang."""

    def __init__(self, request: ControlRequest, line: bytes) -> None:
        super().__init__(request.error)
        self.request = request
        self.line = line

    def error(self, stderr: str) -> CLIJSONDecodeError:
        why = f"a control request from Claude Code cannot be answered ({self.request.error}), so the run ends"
        failure = CLIJSONDecodeError(self.line[:512].decode("utf-8", "replace"), ValueError(why))
        failure.args = (f"{failure.args[0]}\n{why}",)
        return with_stderr(failure, stderr)


class _CeilingPassed:
    """What a read returns when the run-end ceiling came before a line."""


_CEILING = _CeilingPassed()


class _Silent:
    """What the watchdog's last look returns when no line came."""


_SILENT = _Silent()

_LAST_LOOK = 0.2
"""Seconds the idle watchdog waits for output that may already be waiting."""


class _Limit(NamedTuple):
    """The watchdog's deadline for the next line."""

    seconds: float
    reason: str
    idle: bool
    """An idle_timeout (silence), not the turn's end."""


def _system_data(frame: Message) -> dict[str, Any] | None:
    """The payload of a ``system`` frame, however it was decoded."""
    if isinstance(frame, SystemMessage):
        return frame.data
    if isinstance(frame, UnknownMessage) and frame.type == "system":
        return frame.data
    return None


class Connection:
    """A started transport plus the protocol state around it: one live binary."""

    def __init__(
        self,
        transport: LineTransport,
        *,
        handlers: Mapping[str, ControlHandler | Answer] | None = None,
        control_timeout: float = 60.0,
        idle_timeout: float | None = None,
        turn_timeout: float | None = None,
        needs_stdin: bool = False,
        run_end_ceiling_ms: int = DEFAULT_CEILING_MS,
        shutdown_grace: float = 5.0,
        keep_unrecognized: bool = False,
        user_fields: Mapping[str, Any] | None = None,
        extensions: Sequence[Extension] = (),
        transcript_of: Callable[[str], Path] | None = None,
    ) -> None:
        self.transport = transport
        self.responder = Responder(handlers or {}, self._write_answer, report=self._hand_out, settled=self._wake_reader)
        """Answers the binary's requests, each from a task of its own."""
        self.control_timeout = control_timeout
        self.idle_timeout = idle_timeout
        self.turn_timeout = turn_timeout
        self.server_info: dict[str, Any] | None = None
        self.initialize_fields: dict[str, Any] = {}
        """The fields ``initialize`` was sent with (``reinitialize()`` sends them again)."""
        self.shutdown_grace = shutdown_grace
        self.keep_unrecognized = keep_unrecognized
        """Yield frames of unknown types and keep unmodelled content blocks
        (``ClaudeAgentOptions.keep_unrecognized``); otherwise they are skipped."""
        self.user_fields: dict[str, Any] = dict(user_fields or {})
        """Fields set on every ``user`` frame written (``client_composed``
        for verbatim prompts); they win over the frame's own."""
        self._queue: deque[Message | _Raise | _Ready] = deque()
        self._taps: dict[str, Callable[[UnknownMessage], None]] = {
            kind: tap for e in extensions for kind, tap in e.taps.items()
        }
        self._before_read: list[Callable[[], Awaitable[None]]] = overridden(extensions, "before_read")
        self._before_result: list[Callable[[ResultMessage], Awaitable[Message | None]]] = overridden(
            extensions, "before_result"
        )
        self._result_filters: list[Callable[[ResultMessage], ResultMessage]] = overridden(extensions, "filter_result")
        self._before_close: list[Callable[[], Awaitable[None]]] = overridden(extensions, "before_close")
        self._after_close: list[Callable[[], None]] = overridden(extensions, "after_close")
        self._pending: dict[str, _Slot] = {}
        self._pump_lock = anyio.Lock()
        self._changed = anyio.Event()
        self._read_scope: anyio.CancelScope | None = None
        self._ended = False  # stdout reached EOF (or the session broke)
        self._end_error: BaseException | None = None
        self._closed = False
        self._closing: anyio.Event | None = None
        self._close_by: float | None = None  # when closing must be done (anyio clock)
        self._counter = 0
        self._prefix = secrets.token_hex(4)
        self._turns_open = 0
        self._turn_deadline: float | None = None
        self._eof_sent = False
        self._feeder: Detached | None = None
        self.feeding_done = True
        """No prompt iterable is being written (none was given, or it ended)."""
        self.ends_run = False
        """Close stdin once the run is over, and read on until the binary
        exits (``query()``); see ``end_input_at_run_end``."""
        self.run = RunLedger(needs_stdin=needs_stdin, ceiling_ms=run_end_ceiling_ms)
        """What the binary said about the run: when it is over, the ceiling."""
        self._prompts_written = 0
        self._last_error: tuple[ResultMessage, bytes] | None = None  # the last frame, if an error result
        self.transcript_of = transcript_of
        """Where the binary writes a session's transcript (by session id), if known."""
        self._last_said: tuple[str, str] | None = None  # (session id, uuid) of the last assistant message

    # -- sending --------------------------------------------------------------

    async def send(self, frame: Any, *, limit: WriteLimit | None = None) -> None:
        """Write one frame (a struct or a dict) as one line, within ``limit``
        (see ``_write``).

        When the binary is gone, raises what ended it (a ``ProcessError``
        with its exit code and stderr) rather than the broken pipe.
        """
        if self._closed:
            raise SessionStateError("the session is closed")
        if self._eof_sent:
            raise TransportClosedError("cannot write to the binary: its input was closed when the run ended")
        try:
            await self._write(encode_line(frame), limit)
        except TransportClosedError as exc:
            reason = await self._exit_reason()
            if reason is None:
                raise
            raise reason from exc

    async def _write(self, line: bytes, limit: WriteLimit | None) -> None:
        """Write ``line``. A binary that does not take it in within ``limit``
        (stopped, wedged: its input pipe stays full) ends the session as a
        read timeout does: it is killed, and the limit's error is raised here
        and kept for whoever reads next.

        A write cut off half way cannot be resumed, so the deadline is kept
        by a watchdog beside it that cancels it only once the binary had the
        whole time: time the event loop spent elsewhere (while the binary
        may have emptied the pipe) is given back, as the reader does."""
        if limit is None:
            await self.transport.send(line)
            return
        seconds, error = limit
        sent = False
        failed: Exception | None = None
        async with anyio.create_task_group() as tg:
            tg.start_soon(_cancel_when_due, anyio.current_time() + seconds, tg.cancel_scope)
            try:
                await self.transport.send(line)
                sent = True
            except Exception as exc:  # noqa: BLE001 - raised below, not wrapped by the task group
                failed = exc
            tg.cancel_scope.cancel()
        if failed is not None:
            raise failed
        if not sent:
            failure = error()
            await self._kill(failure)
            raise failure

    def _input_limit(self) -> WriteLimit | None:
        """How long a turn's input may wait for the binary: the turn's own
        limits (a binary takes input as it comes, whatever it is doing)."""
        best: tuple[float, str] | None = None
        if self.idle_timeout is not None:
            best = (self.idle_timeout, f"the binary took no input for {self.idle_timeout:g} s (idle_timeout)")
        if self._turn_deadline is not None:
            left = max(0.0, self._turn_deadline - anyio.current_time())
            if best is None or left < best[0]:
                best = (left, f"the turn ran longer than {self.turn_timeout:g} s (turn_timeout)")
        if best is None:
            return None
        reason = best[1]
        return best[0], lambda: TurnTimeoutError(reason, self.transport.stderr_tail)

    def _control_limit(self, subtype: str, seconds: float) -> WriteLimit:
        """A control frame (our request or our answer) gets the time a
        control request gets to be answered."""

        def error() -> ClaudeSDKError:
            failure = ControlTimeoutError(subtype, seconds)
            failure.args = (f"Control request timeout: {subtype} (the binary took no input for {seconds:g} s)",)
            return with_stderr(failure, self.transport.stderr_tail)

        return seconds, error

    async def _exit_reason(self) -> BaseException | None:
        """A write failed, so the binary has most likely exited: read what it
        left (the rest of stdout, its stderr, its exit code) for a moment, and
        return the error that ends the session, if it did end."""
        with anyio.move_on_after(self.shutdown_grace):
            await self._drive(lambda: False)
        return self._end_error if self._ended else None

    async def send_user(self, message: dict[str, Any], *, part_of: tuple[str, float] | None = None) -> None:
        """Write a ``user`` frame and count a turn as open until its result.

        The turn is counted before the write: a transport may deliver the
        result before ``send`` returns. The write gets the turn's limits and,
        for a prompt sent as ``part_of`` a control request (its subtype and
        timeout: the handshake), that request's at most.
        """
        is_user = message.get("type") == "user"
        if is_user:
            if self.user_fields:
                message = {**message, **self.user_fields}
            self._turn_opened()
            self._prompts_written += 1
            self.run.prompt_written()
        try:
            limit = self._input_limit() if is_user else None
            if part_of is not None:
                limit = _tighter(limit, self._control_limit(*part_of))
            await self.send(message, limit=limit)
        except BaseException:
            if is_user:
                self._turns_open -= 1
            raise

    def feed(self, messages: AsyncIterable[dict[str, Any]]) -> None:
        """Write ``messages`` (stream-json frames) to the binary as they come,
        unchanged, from a task of the session's own.

        Messages flow to the reader meanwhile, so the iterable may wait for
        an answer before it yields its next prompt. An exception it raises
        is raised by ``receive()`` after the messages that came before it,
        and ends the input as its end would. ``aclose()`` stops the task.
        """
        if self._feeder is not None:
            raise SessionStateError("this session is already writing a prompt iterable")
        self.feeding_done = False
        self._feeder = Detached.spawn(lambda: self._run_feeder(messages), "prompt writer")

    async def _run_feeder(self, messages: AsyncIterable[dict[str, Any]]) -> None:
        iterator = aiter(messages)
        try:
            while not self._ended:
                try:
                    item = await anext(iterator)
                    if not isinstance(item, dict):
                        raise TypeError(f"prompt messages must be dicts, got {type(item).__name__}")
                except StopAsyncIteration:
                    break
                except Exception as exc:  # noqa: BLE001 - raised from receive(), at its place
                    self._hand_out(exc)
                    break
                try:
                    await self.send_user(item)
                except Exception as exc:  # noqa: BLE001 - a frame that cannot be encoded, or the binary is gone
                    # Once the session ended (the binary's output ended, or a
                    # write timed out and killed it), receive() raises why.
                    if not self._ended:
                        self._hand_out(exc)
                    break
            self.feeding_done = True
            if not self._ended:
                await self._maybe_eof()
        finally:
            self.feeding_done = True
            # A generator left at a yield (we were cancelled while writing)
            # runs its own cleanup now, in the task that iterated it.
            closing = getattr(iterator, "aclose", None)
            if closing is not None:
                with anyio.CancelScope(shield=True), anyio.move_on_after(self.shutdown_grace):
                    try:
                        await closing()
                    except Exception:
                        log.debug("claude_wrap: closing the prompt iterable raised", exc_info=True)

    def _hand_out(self, item: Message | BaseException) -> None:
        """Queue a message of ours (or an error for ``receive()`` to raise)
        in its place after what was read so far, and have the reader hand it
        out without waiting for another line."""
        self._queue.append(_Raise(item) if isinstance(item, BaseException) else item)
        self._notify()
        self._wake_reader()

    async def end_input_at_run_end(self) -> None:
        """From now on, close stdin as soon as the run is over (now, if it is).

        Over means: every prompt is written and, if callbacks answer over
        stdin, the binary has finished the last prompt's run (``_run.run_end``).
        Without such callbacks stdin closes once the prompts are written;
        with nothing written, at once.
        """
        self.ends_run = True
        await self._maybe_eof()

    async def _maybe_eof(self) -> None:
        if self._eof_sent or not self.ends_run or not self.feeding_done:
            return
        if self.run.needs_stdin and self._prompts_written and not self.run.ended:
            return
        await self._close_input()

    async def _close_input(self) -> None:
        self._eof_sent = True
        self.run.input_closed()
        await self.transport.send_eof()

    def _turn_opened(self) -> None:
        self._turns_open += 1
        if self._turns_open == 1:
            if self.turn_timeout is not None:
                self._turn_deadline = anyio.current_time() + self.turn_timeout
            if self._read_scope is not None:
                self._read_scope.cancel()  # a read already waiting starts again, under the watchdog

    # -- our control requests -----------------------------------------------------

    def _next_request_id(self) -> str:
        self._counter += 1
        return f"req_{self._counter}_{self._prefix}"

    async def start_request(
        self, subtype: str, fields: dict[str, Any] | None = None, timeout: float | None = None
    ) -> str:
        """Send a control request without waiting; returns its id. The write
        gets ``timeout`` (default ``control_timeout``), as the answer does."""
        rid = self._next_request_id()
        self._pending[rid] = _Slot()
        body = {"subtype": subtype, **(fields or {})}
        limit = self._control_limit(subtype, self.control_timeout if timeout is None else timeout)
        try:
            await self.send({"type": "control_request", "request_id": rid, "request": body}, limit=limit)
        except BaseException:
            self._pending.pop(rid, None)
            raise
        return rid

    async def finish_request(self, rid: str, subtype: str, timeout: float | None = None) -> Any:
        """Wait for the answer to a request sent with ``start_request``."""
        slot = self._pending[rid]
        limit = self.control_timeout if timeout is None else timeout
        try:
            with anyio.fail_after(limit):
                await self._drive(lambda: slot.done)
        except TimeoutError:
            raise with_stderr(ControlTimeoutError(subtype, limit), self.transport.stderr_tail) from None
        finally:
            self._pending.pop(rid, None)
        if not slot.done:
            raise TransportClosedError(f"the binary's output ended before it answered {subtype!r}")
        if slot.error is not None:
            if isinstance(slot.error, ControlRejectedError):
                raise ControlRejectedError(subtype, slot.error.error, slot.error.error_code)
            raise slot.error
        return slot.value

    async def request(self, subtype: str, fields: dict[str, Any] | None = None, timeout: float | None = None) -> Any:
        """Send a control request and return the ``response`` object (or ``None``)."""
        rid = await self.start_request(subtype, fields, timeout)
        return await self.finish_request(rid, subtype, timeout)

    # -- receiving -------------------------------------------------------------------

    async def receive(self) -> Message | None:
        """The next message, or ``None`` once the binary's output has ended.

        Raises the error that ended the stream (a ``ProcessError`` with the
        exit code and stderr tail, a ``TurnTimeoutError`` ...) once, after
        every message that arrived before it.
        """
        await self._drive(lambda: bool(self._queue))
        if self._queue:
            item = self._queue.popleft()
            if isinstance(item, _Raise):
                raise item.error
            if isinstance(item, _Ready):
                return self._filtered(item.message)
            if isinstance(item, ResultMessage) and self._before_result:
                try:
                    extra = [m for hook in self._before_result if (m := await hook(item)) is not None]
                except BaseException:
                    self._queue.appendleft(item)  # a cancelled receive() must not lose the result
                    raise
                if extra:
                    self._queue.appendleft(_Ready(item))
                    self._queue.extendleft(reversed(extra[1:]))
                    return extra[0]
            return self._filtered(item)
        if self._end_error is not None:
            err, self._end_error = self._end_error, None
            raise err
        return None

    def _filtered(self, message: Message) -> Message:
        if isinstance(message, ResultMessage):
            for result_filter in self._result_filters:
                message = result_filter(message)
        return message

    async def poll(self, wait: float = 0.05) -> None:
        """Take in what the binary has written so far, waiting at most
        ``wait`` seconds for more: a session left idle (in a pool, say) is
        otherwise not read, and a full pipe would stall the binary."""
        if self._ended or self._closed or self._pump_lock.locked():
            return
        with anyio.move_on_after(wait):
            await self._drive(lambda: False)

    @property
    def ended(self) -> bool:
        """True once stdout has ended and every queued message was taken."""
        return self._ended and not self._queue

    @property
    def turn_open(self) -> bool:
        """True while a turn is waiting for its ``ResultMessage``: a prompt
        we wrote, or a turn the binary started on its own (a background
        agent's completion wakes it) whose output has begun."""
        return self._turns_open > 0 or self.run.turn_in_progress

    # -- the pump ------------------------------------------------------------------------

    def _notify(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()

    async def _drive(self, done: Callable[[], bool]) -> None:
        """Return once ``done()`` holds, pumping stdout ourselves if nobody is."""
        while not done():
            if self._ended:
                return
            if not self._pump_lock.locked():
                async with self._pump_lock:
                    try:
                        await self._pump(done)
                    finally:
                        self._notify()
            else:
                await self._changed.wait()

    async def _pump(self, done: Callable[[], bool]) -> None:
        try:
            while not self._ended and not done():
                for hook in self._before_read:
                    await hook()
                with anyio.CancelScope() as scope:
                    self._read_scope = scope
                    line = await self._read_line()
                self._read_scope = None
                if scope.cancelled_caught:
                    continue  # a request was answered, or a message handed out: look again
                if isinstance(line, _CeilingPassed):
                    self.run.ceiling_passed()
                    await self._maybe_eof()
                    continue
                if line is None:
                    await self._finish(None)
                    break
                self._dispatch(line)
                await self._maybe_eof()
        except TurnTimeoutError as exc:
            await self._kill(exc)
        except LineTooLongError as exc:
            await self._finish(with_stderr(exc, self.transport.stderr_tail))
        except TransportClosedError as exc:
            await self._finish(exc)
        except _Unanswerable as exc:
            await self._kill(exc.error(self.transport.stderr_tail))
        except Exception as exc:  # noqa: BLE001 - a custom transport's read failed: the run ends with its error
            await self._finish(exc)
        finally:
            self._read_scope = None

    async def _read_line(self) -> bytes | None | _CeilingPassed:
        limit = self._watchdog_limit()
        ceiling = self.run.ceiling_at if self.ends_run else None  # a client's stdin stays open anyway
        if limit is None and ceiling is None:
            return await self.transport.receive()
        wait = limit.seconds if limit is not None else float("inf")
        if ceiling is not None:
            wait = min(wait, max(0.0, ceiling - anyio.current_time()))
        with anyio.move_on_after(wait) as scope:
            return await self.transport.receive()
        if limit is None or limit.seconds > wait:
            return _CEILING
        if limit.idle:
            line = await self._last_look(scope.deadline)
            if not isinstance(line, _Silent):
                return line
        raise TurnTimeoutError(limit.reason, self.transport.stderr_tail)

    async def _last_look(self, deadline: float) -> bytes | None | _Silent:
        """The idle deadline passed: was the binary silent, or was the event
        loop busy elsewhere (plain blocking code, a slow task) while its
        output waited in the pipe? Output that is waiting arrives within a
        short look; the time the loop woke up late is given back in full,
        as often as the loop is late again."""
        for until in _second_chances(deadline):
            with anyio.move_on_at(until):
                return await self.transport.receive()
        return _SILENT  # woken on time, and nothing came

    def _watchdog_limit(self) -> _Limit | None:
        """The tightest deadline for the next line while the binary owes us
        output: a turn is open, or a background agent it started is working.

        Time spent inside our own callbacks does not count as silence.
        """
        if not self.turn_open and not self.run.agents_in_flight:
            return None
        best: _Limit | None = None
        if self.idle_timeout is not None and not self.responder.busy:
            reason = f"no output from the binary for {self.idle_timeout:g} s (idle_timeout)"
            best = _Limit(self.idle_timeout, reason, idle=True)
        if self._turn_deadline is not None:
            left = max(0.0, self._turn_deadline - anyio.current_time())
            if best is None or left < best.seconds:
                best = _Limit(left, f"the turn ran longer than {self.turn_timeout:g} s (turn_timeout)", idle=False)
        return best

    def _dispatch(self, line: bytes) -> None:
        frame: Frame | None
        try:
            frame = decode_frame(line, keep_unrecognized=self.keep_unrecognized)
        except CLIJSONDecodeError as exc:
            if not line.lstrip().startswith(b"{"):
                log.debug("claude_wrap: skipped a non-JSON stdout line: %r", line[:200])
                return
            # One bad line does not end a healthy run: it is handed out in
            # its place, and the lines after it are read as usual.
            log.warning("claude_wrap: a stdout line could not be decoded: %s", exc.original_error)
            frame = undecodable(exc)
        if frame is None:
            return
        # type() tests, not isinstance(): the latter is slow on msgspec structs.
        if type(frame) is ControlResponseIn:
            self._resolve(frame)
        elif type(frame) is ControlRequest:
            if frame.request_id is None:
                # No answer can reach it, and the binary waits for one.
                raise _Unanswerable(frame, line)
            self.responder.serve(frame)
        elif type(frame) is ControlCancel:
            self.responder.withdraw(frame.request_id)
        else:
            if type(frame) in UNKNOWN_KINDS:
                unknown = cast(UnknownMessage, frame)
                if unknown.type in self._taps:
                    self._taps[unknown.type](unknown)
                    return
                if is_unrecognized(unknown) and not self.keep_unrecognized:
                    return  # as the official package does; the codec logged it
            message = cast(Message, frame)  # the control frames went above
            if self._observe(message, line):
                return
            self._queue.append(message)
            self._notify()  # a task waiting for a message while another one pumps

    def _observe(self, frame: Message, line: bytes) -> bool:
        """Account for a message: turns, the run ledger, the last error
        result. True for a frame meant for us alone (a session state the
        binary reports only because we asked), which is not handed out."""
        now = anyio.current_time()
        if isinstance(frame, ResultMessage):
            if self._turns_open:
                self._turns_open -= 1
            self.run.result(now)
            self._turn_deadline = (
                now + self.turn_timeout if self._turns_open and self.turn_timeout is not None else None
            )
            self._last_error = (frame, line) if frame.is_error else None
            return False
        data = _system_data(frame)
        if data is not None:
            self.run.system(data, now)
            if data.get("subtype") == "session_state_changed":
                # The state after a turn says nothing against its result: an
                # exit that follows still belongs to that result.
                return data.get("sdk_host_only") is True
        elif isinstance(frame, (AssistantMessage, StreamEvent)) and frame.parent_tool_use_id is None:
            if not self.turn_open and self.turn_timeout is not None:
                self._turn_deadline = now + self.turn_timeout  # a turn the binary started itself
            self.run.main_turn_output()
            if type(frame) is AssistantMessage and frame.session_id and frame.uuid:
                self._last_said = (frame.session_id, frame.uuid)
        self._last_error = None
        return False

    def _resolve(self, frame: ControlResponseIn) -> None:
        body = frame.response
        slot = self._pending.get(body.request_id or "")
        if slot is None or slot.done:
            return  # a late answer to a request we gave up on
        if body.subtype == "success":
            slot.value = decode_value(body.response)
        else:
            slot.error = ControlRejectedError("?", body.error or "unknown error", body.error_code)
        slot.done = True
        self._notify()  # its waiter may not be the task that pumps

    async def _write_answer(self, line: bytes, subtype: str, hurry: bool) -> None:
        """Write the answer to one of the binary's requests (the responder
        calls this under a shield), unless the binary can no longer read it."""
        if self._ended or self._closed:
            return
        try:
            await self._write(line, self._answer_limit(subtype, hurry=hurry))
        except ClaudeSDKError:
            pass  # the pipe is gone, or the session ended with the write's timeout

    def _answer_limit(self, subtype: str, *, hurry: bool) -> WriteLimit:
        """An answer is written under a shield, so it always has a limit: the
        turn's, or the control requests' if that is tighter or the only one;
        a host that is being cancelled (``hurry``) or is closing waits no
        longer than its grace."""
        seconds, error = _tighter(self._input_limit(), self._control_limit(subtype, self.control_timeout))
        if hurry:
            seconds = min(seconds, self.shutdown_grace)
        if self._close_by is not None:
            seconds = min(seconds, max(0.0, self._close_by - anyio.current_time()))
        return seconds, error

    def _wake_reader(self) -> None:
        """Restart the pump's read: something was queued for the reader, or
        the last request in flight was answered (then it reads on under the
        idle watchdog, which does not count the time callbacks take)."""
        if self._read_scope is not None:
            self._read_scope.cancel()

    async def _kill(self, error: ClaudeSDKError) -> None:
        """End the session with ``error``: the binary is killed and reaped
        (so its end is known at once), and every waiter settled."""
        self.transport.kill()
        with anyio.move_on_after(self.shutdown_grace, shield=True):
            await self.transport.wait()
        await self._finish(error)

    async def _finish(self, error: BaseException | None) -> None:
        """stdout ended (or broke): settle every waiter with the cause."""
        if self._ended:
            return
        self._ended = True
        if error is None or isinstance(error, TransportClosedError):
            with anyio.move_on_after(self.shutdown_grace, shield=True):
                await self.transport.wait()
            code = self.transport.returncode
            if code is None and self.transport.is_process:
                self.transport.kill()
                error = ProcessError(
                    "Claude Code closed its output but kept running; it was killed",
                    None,
                    self.transport.stderr_tail,
                )
            elif code not in (0, None):
                error = self._exit_error(code)
        if error is None and self._turns_open:
            error = ProcessError(
                "Claude Code ended its output before the turn's result",
                self.transport.returncode,
                self.transport.stderr_tail,
            )
        self._end_error = error
        cause = error or TransportClosedError("the binary closed its output")
        for slot in self._pending.values():
            if not slot.done:
                slot.error, slot.done = cause, True
        self.responder.stop()  # nothing they answer can be read any more
        if self._feeder is not None:
            self._feeder.cancel()  # nothing it writes can be read any more
        self._notify()

    def _exit_error(self, code: int) -> ProcessError:
        """The error for a non-zero exit: right after an error result, a
        ``ResultError`` with what the result said (the exit only confirms it)."""
        failure = ProcessError(f"Command failed with exit code {code}", code, self.transport.stderr_tail)
        if self._last_error is None:
            return failure
        result, line = self._last_error
        data = decode_value(line)
        error = result_error_class(data)(
            f"Claude Code returned an error result: {error_result_text(data)}", data, code, hint=error_result_hint(data)
        )
        error.result_message = result
        error.__cause__ = failure
        return error

    # -- shutdown -----------------------------------------------------------------------

    async def aclose(self) -> None:
        """Stop the binary and release everything; idempotent, and done
        within ``shutdown_grace`` (plus the moment a SIGKILL takes to reap).

        If a turn is still running we ask the binary to interrupt it first,
        so it stops promptly instead of finishing the turn after EOF. After
        EOF we keep answering its requests (``SessionEnd`` hooks run then)
        until it exits or half the grace has passed; the final flushes and
        the transport's escalation (SIGTERM, then SIGKILL at the end of the
        grace) share the rest.
        """
        if self._closed:
            return
        if self._closing is not None:
            # Someone else is closing: wait for them, so "closed" means closed.
            with anyio.CancelScope(shield=True):
                await self._closing.wait()
            return
        self._closing = anyio.Event()
        deadline = self._close_by = anyio.current_time() + self.shutdown_grace
        with anyio.CancelScope(shield=True):
            try:
                with anyio.move_on_at(deadline - self.shutdown_grace / 2):
                    await self._stop_feeder()
                    await self._drain_after_eof()
                # Callbacks still running are refused while the binary may
                # still read it (their writes are bounded by the deadline).
                self.responder.stop()
                with anyio.move_on_at(deadline):
                    await self.responder.wait()
                with anyio.move_on_at(deadline):
                    for hook in self._before_close:
                        await hook()
            except Exception:
                log.warning("claude_wrap: error while closing the session", exc_info=True)
            finally:
                self._closed = True
                try:
                    await self.transport.close_by(deadline)
                finally:
                    try:
                        for callback in self._after_close:
                            callback()
                    finally:
                        self._closing.set()

    async def _until_recorded(self, limit: float) -> None:
        """Until the session's transcript holds the last assistant message
        handed out (its uuid in the file's tail), ``limit`` seconds at most."""
        if self.transcript_of is None or self._last_said is None:
            return
        session_id, uuid = self._last_said
        path = self.transcript_of(session_id)
        needle = uuid.encode()
        with anyio.move_on_after(limit):
            while not _tail_holds(path, needle):
                await anyio.sleep(0.02)

    def close_in_background(self) -> Detached:
        """``aclose()`` in a task of its own, for a closer whose own awaits may
        be cut short (an async generator being finalized; see ``_query``)."""
        return Detached.spawn(self.aclose, "session closer", finish=True)

    async def _stop_feeder(self) -> None:
        """Cancel the prompt writer and wait for it (within the caller's
        share of the close)."""
        if self._feeder is None or self._feeder.done:
            return
        self._feeder.cancel()
        try:
            await self._feeder.wait()
        finally:
            if not self._feeder.done:
                log.warning("claude_wrap: the prompt iterable ignored cancellation; it is left behind")

    async def _drain_after_eof(self) -> None:
        if self._ended:
            return
        with anyio.move_on_after(self.shutdown_grace):
            try:
                if not self._eof_sent:
                    if self.turn_open:
                        await self.start_request("interrupt")
                    await self._close_input()
                else:
                    # Its input was closed when the prompts were written and it
                    # works on for a run nobody reads: SIGINT interrupts it.
                    # Not before it wrote down what it said last: it exits on
                    # SIGINT without its pending transcript writes, and a
                    # resume would lack the turn that was left.
                    await self._until_recorded(self.shutdown_grace / 4)
                    self.transport.interrupt()
                await self._drive(lambda: False)  # until stdout ends
            except ClaudeSDKError:
                pass  # the transport is gone already; closing it is all that is left


_TAIL = 1 << 20


def _tail_holds(path: Path, needle: bytes) -> bool:
    """Whether the last MiB of ``path`` holds ``needle`` (False if unreadable)."""
    try:
        with path.open("rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(0, size - _TAIL))
            return needle in fh.read()
    except OSError:
        return False


def _second_chances(deadline: float) -> Iterator[float]:
    """The deadlines of the looks a watchdog takes once ``deadline`` passed,
    before it blames the binary: each gives back the time the event loop
    woke up late (``_LAST_LOOK`` at least), until one ends on time."""
    while True:
        now = anyio.current_time()
        deadline = now + max(_LAST_LOOK, now - deadline)
        yield deadline
        if anyio.current_time() - deadline <= _LAST_LOOK:
            return


async def _cancel_when_due(deadline: float, scope: anyio.CancelScope) -> None:
    """Cancel ``scope`` once ``deadline`` has passed with the event loop
    awake (see ``_second_chances``)."""
    await anyio.sleep_until(deadline)
    for until in _second_chances(deadline):
        await anyio.sleep_until(until)
    scope.cancel()


def _tighter(limit: WriteLimit | None, other: WriteLimit) -> WriteLimit:
    return limit if limit is not None and limit[0] <= other[0] else other
