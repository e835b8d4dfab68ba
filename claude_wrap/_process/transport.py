"""Spawning the binary and moving lines of bytes: the transport layer.

``LineTransport`` is the whole contract the layers above rely on: send one
line, receive one line, send EOF, close. ``SubprocessTransport`` implements
it for the real binary (a transport written to the official package's
``Transport`` interface is adapted to it, see ``_run.custom_transport``):

* argv list, never a shell; the child leads its own process group;
* stdout framed here, on raw bytes, with no fixed line-size limit (an
  optional ``max_buffer_size`` gives ``LineTooLongError``); a long line is
  read chunk after chunk in one go and copied out once;
* a long line written to stdin in pieces, so no copy of all of it waits in
  the event loop's buffer;
* stderr drained whenever we wait on stdout, so the child never blocks on it,
  with a bounded tail kept for error messages; each line goes to the
  callback if one is given, else to our own stderr (as if the child had
  inherited it, so its warnings reach the terminal);
* shutdown escalates inside a shielded scope bounded by one
  ``shutdown_grace``: close stdin → wait → SIGTERM to the group → wait →
  SIGKILL to the group. A finalizer kills the group if the owner is dropped
  without closing;
* on Linux the binary runs as a child subreaper (``_process.adopt``), so
  what its run started stays below it whatever session or environment it
  took; every close SIGKILLs what was below it when its input closed (or
  before a signal), and after an unclean exit whatever carries the run's tag;
* a guard process (``_process.guard``) does the same if this process dies.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import weakref
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Sequence
from subprocess import DEVNULL, PIPE
from typing import Any

import anyio
import anyio.abc
import anyio.lowlevel

from claude_wrap._exceptions import CLIConnectionError, CLINotFoundError, LineTooLongError, TransportClosedError
from claude_wrap._process import adopt as _adopt, guard as _guard_script
from claude_wrap._process.guard import (
    RUN_TAG,
    Below,
    descendants,
    kill_listed,
    kill_tagged,
    running,
    stop_detached,
)

__all__ = ["LineTransport", "SubprocessTransport"]

log = logging.getLogger("claude_wrap")

_CHUNK = 256 * 1024
# Under asyncio, a line longer than this goes to stdin in pieces of this
# size: what the pipe cannot take at once is copied into the event loop's
# buffer, so a 100 MB line would cost another 100 MB and the time to fill
# it; in pieces, one piece at most waits there. (trio writes from the
# line itself, without a copy: there the line goes whole.)
_WRITE_PIECE = 256 * 1024
_STDERR_TAIL_LINES = 80
_STDERR_LINE_MAX = 4096
# After SIGKILL, how long to wait for the exit to be reaped: normally a few
# milliseconds; more only for a process stuck in the kernel.
_REAP_LIMIT = 5.0
_GONE_POLL = 0.005  # seconds between looks at killed processes that have not ended yet
_NOTE_EVERY = 0.05  # seconds between looks below a binary that is shutting down
_GUARD_EXIT_LIMIT = 2.0  # the guard exits as soon as it reads "release" (or has swept)
# After the binary's exit, how long its stdout may stay silent before the
# read ends as at EOF (a process it started may hold the pipe open).
_AFTER_EXIT = 0.5


class LineTransport(ABC):
    """A duplex pipe of newline-delimited byte lines: what the library speaks
    inside, and the fast path (no parsing on the way; frames are decoded
    once, straight from the bytes).

    Implement it to feed the library raw lines (``MockTransport`` does);
    to run the binary somewhere else, the official package's ``Transport``
    interface is the simpler one.
    """

    @abstractmethod
    async def send(self, line: bytes) -> None:
        """Write one complete line (``line`` ends with ``b"\\n"``)."""

    @abstractmethod
    async def receive(self) -> bytes | None:
        """Return the next line without its newline, or ``None`` at EOF."""

    @abstractmethod
    async def send_eof(self) -> None:
        """Close our writing side; the peer sees end of input."""

    @abstractmethod
    async def aclose(self) -> None:
        """Release everything; safe to call more than once."""

    async def close_by(self, deadline: float) -> None:
        """``aclose()``, finished by ``deadline`` (``anyio.current_time()``
        clock) where the peer's shutdown can be timed; by default plain
        ``aclose()``."""
        await self.aclose()

    @property
    def stderr_tail(self) -> str:
        """The last lines the peer wrote to its error stream, if any."""
        return ""

    @property
    def is_process(self) -> bool:
        """Whether the peer is a process of ours, with an exit status (then
        ``returncode`` still ``None`` after its output ends means it still runs)."""
        return False

    @property
    def returncode(self) -> int | None:
        """The exit code once the peer has exited, else ``None``."""
        return None

    async def wait(self) -> int | None:
        """Wait for the peer to exit and return its exit code (if it has one)."""
        return None

    def kill(self) -> None:
        """Stop the peer at once, without grace (used when a turn times out)."""

    def interrupt(self) -> None:
        """Ask the peer to stop what it is doing and exit, when its input is
        already closed (the run was abandoned); by default nothing."""


def _to_own_stderr(line: str) -> None:
    """Pass a line of the binary's stderr on to ours, at once (a warning
    must not wait in a buffer until exit)."""
    stream = sys.stderr
    if stream is None:  # pythonw: there is no terminal to show it on
        return
    try:
        stream.write(line + "\n")
        stream.flush()
    except (OSError, ValueError):  # closed or broken: the tail still has it
        pass


def _abandon(owner: int, pid: int, tag: bytes, guard: _Guard | None) -> None:
    """Last resort for a transport dropped without being closed (synchronous,
    from its finalizer): SIGKILL the binary's process group, what runs below
    it and every process that carries the run's tag, then let the guard go.
    Not in a ``fork()``-ed copy of the owner, which would stop the owner's
    run as it exits."""
    if os.getpid() != owner:
        return
    below = stop_detached(pid, freeze_group=True)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass
    kill_listed(below)
    kill_tagged(tag)
    if guard is not None:
        guard.release()
        guard.drop()


async def _gone(processes: list[tuple[int, int]]) -> None:
    """Wait (bounded) until the killed ``processes`` have ended: a SIGKILL
    only takes effect once its process is scheduled again, and a close
    returns when nothing of the run is left, not when it was signalled."""
    with anyio.move_on_after(_REAP_LIMIT):
        while processes := running(processes):
            await anyio.sleep(_GONE_POLL)


def _signal(proc: anyio.abc.Process, sig: signal.Signals) -> None:
    """Send ``sig`` to ``proc`` unless it has been reaped (POSIX).

    Not ``proc.send_signal()``: under asyncio that is ``Popen.send_signal``,
    which first polls, and so reaps a child that has just exited; the
    event loop's own watcher then finds no child to wait for, prints
    "Unknown child process pid N, will report returncode 255" and reports
    255 for a binary that exited 0. An exited child that nobody has reaped
    keeps its pid, so a signal to it reaches no other process.
    """
    if proc.returncode is not None:
        return
    try:
        os.kill(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _close_pipes(proc: anyio.abc.Process) -> None:
    """Close the event loop's ends of the child's pipes. Under asyncio,
    closing a stream leaves its pipe transport open until the pipe's other
    end closes: a process the binary started may still hold it, and an
    event loop that ends first leaves an unclosed transport behind
    (``ResourceWarning`` when it is collected). ``Process.aclose()`` would
    close them too, but it waits for the exit with no bound."""
    for fd in (0, 1, 2):
        pipe = _loop_pipe(proc, fd)
        if pipe is not None:
            pipe.close()


def _loop_pipe(proc: anyio.abc.Process, fd: int) -> Any:
    """The event loop's transport for ``proc``'s pipe ``fd``: anyio's asyncio
    process has them (a write the pipe cannot take at once is copied into
    the stdin one's buffer and finished from there); ``None`` under trio,
    which closes its fds itself and writes from the caller's bytes."""
    get_pipe = getattr(getattr(proc, "_transport", None), "get_pipe_transport", None)
    return None if get_pipe is None else get_pipe(fd)


async def _send_pieces(stdin: anyio.abc.ByteSendStream, buffered: Any, data: memoryview) -> None:
    """Write ``data`` to ``stdin`` in pieces of ``_WRITE_PIECE`` bytes.

    Cancelled part way, the rest goes to the event loop's buffer
    (``buffered``), where one write of the whole line would have left it:
    the binary still reads the whole line, before anything written after
    it. A piece is handed over once ``send()`` starts (the cancellation
    check just before it leaves no moment for one to arrive), so the rest
    is exactly what was not handed over.
    """
    at = 0
    try:
        while at < len(data):
            await anyio.lowlevel.checkpoint_if_cancelled()
            piece = data[at : at + _WRITE_PIECE]
            at += len(piece)
            await stdin.send(piece)  # type: ignore[arg-type] # any bytes-like object: no copy
    except anyio.get_cancelled_exc_class():
        if at < len(data) and not buffered.is_closing():
            buffered.write(data[at:])
        raise


def _adopting(argv: list[str]) -> list[str]:
    """``argv`` started through ``_process.adopt``, which makes the binary a
    child subreaper (Linux): every process its run leaves behind stays below
    it. ``argv`` itself where that cannot work (not Linux, no Python
    executable to run the script, or no binary file at ``argv[0]``, which
    then fails to start as it would without the script)."""
    if not sys.platform.startswith("linux") or getattr(sys, "frozen", False) or not sys.executable:
        return argv
    script = os.path.abspath(_adopt.__file__)
    binary = argv[0]
    if not (os.path.isfile(script) and os.path.isabs(binary) and os.path.isfile(binary) and os.access(binary, os.X_OK)):
        return argv
    return [sys.executable, "-I", "-S", script, *argv]


def _guard_command(token: str) -> list[str] | None:
    """How to start the guard (``_process.guard``), or ``None`` where it cannot run:
    Windows, a frozen application (its executable is not a Python), a
    package that is not on disk as files."""
    if sys.platform == "win32" or getattr(sys, "frozen", False) or not sys.executable:
        return None
    script = os.path.abspath(_guard_script.__file__)
    if not os.path.isfile(script):
        return None
    # -I: no script directory on sys.path (this package's ``types`` would
    # shadow the standard one), no environment; -S: no site packages.
    return [sys.executable, "-I", "-S", script, token, str(os.getpid())]


class _Guard:
    """The host's end of the guard process that stops the binary if the host
    dies (see ``_process.guard``): a pipe only this process holds, written to
    without blocking, and the guard's stdout (its pid, then its end).

    The process started here only forks the guard and exits (so the guard
    is no child of this process); it is reaped when the guard is let go.

    The guard's stdout is a pipe of ours, read with plain reads, not one the
    event loop manages: the guard may outlive the loop (a transport that was
    dropped, not closed, lets it go from its finalizer), and a loop's pipe
    left open then is an unclosed transport when it is collected."""

    def __init__(self, process: anyio.abc.Process, fd: int, said: int) -> None:
        self._process = process
        self._fd: int | None = fd
        self._said: int | None = said

    @classmethod
    async def start(cls, token: str) -> _Guard | None:
        command = _guard_command(token)
        if command is None:
            return None
        read_end, write_end = os.pipe()  # not inheritable: no other child keeps the host's end open
        said_read, said_write = os.pipe()
        # The guard carries no run tag: a sweep for an enclosing run must
        # leave it alive to stop this one.
        env = {k: v for k, v in os.environ.items() if k != RUN_TAG}
        try:
            process = await anyio.open_process(
                command, stdin=read_end, stdout=said_write, stderr=DEVNULL, env=env, start_new_session=True
            )
        except BaseException as exc:
            os.close(write_end)
            os.close(said_read)
            if not isinstance(exc, OSError):
                raise
            # Said out loud: without it, this process dying leaves the binary running.
            log.warning(
                "claude_wrap: could not start the guard process (%s); the binary is not stopped if this process dies",
                exc,
            )
            return None
        finally:
            os.close(read_end)
            os.close(said_write)
        os.set_blocking(write_end, False)
        os.set_blocking(said_read, False)
        return cls(process, write_end, said_read)

    def _tell(self, line: bytes) -> None:
        if self._fd is None:
            return
        try:
            os.write(self._fd, line)
        except OSError:  # the guard is gone: nothing to tell
            pass

    def watch(self, pid: int) -> None:
        """The binary is running as ``pid``."""
        self._tell(b"pid %d\n" % pid)

    def remove_at_death(self, folder: str) -> None:
        """Should the host die, remove ``folder`` (a private temp folder of the run)."""
        self._tell(b"remove %s\n" % os.fsencode(folder).hex().encode())

    def forget(self) -> None:
        """The binary was reaped: its pid may be reused."""
        self._tell(b"exited\n")

    def release(self, *, sweep: bool = False) -> None:
        """The run was stopped here: the guard exits, after the tag sweep if
        ``sweep``, else doing nothing."""
        self._tell(b"sweep\n" if sweep else b"release\n")
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def drop(self) -> None:
        """Stop listening to the guard (it goes on without us)."""
        if self._said is not None:
            os.close(self._said)
            self._said = None

    async def _hear(self, said: bytearray) -> None:
        """Add what the guard says to ``said`` until its stdout ends."""
        while self._said is not None:
            try:
                chunk = os.read(self._said, 4096)
            except BlockingIOError:
                await anyio.wait_readable(self._said)
                continue
            except OSError:
                return
            if not chunk:
                return
            said += chunk

    async def aclose(self, *, sweep: bool = False) -> bool:
        """Let the guard go (``sweep``: after it swept the run's tag) and wait
        for its end; a guard that does not end in time is killed. Returns
        whether it ended by itself (then it swept, if asked to)."""
        self.release(sweep=sweep)
        with anyio.CancelScope(shield=True):
            said = bytearray()
            with anyio.move_on_after(_GUARD_EXIT_LIMIT) as waited:
                await self._hear(said)
            ended = not waited.cancelled_caught
            self.drop()
            if not ended:
                # Slow to start on a loaded machine, and it only waits for
                # this run: stop it.
                first = said.split(b"\n", 1)[0]
                if first.startswith(b"pid ") and first[4:].isdigit():
                    with contextlib.suppress(OSError):
                        os.kill(int(first[4:]), signal.SIGKILL)
            _signal(self._process, signal.SIGKILL)  # the forking one, should it not have exited
            await self._process.aclose()
        return ended and (not sweep or b"swept" in said)


class SubprocessTransport(LineTransport):
    """The real binary as a child process. Create with ``await start(...)``.

    Each line the binary writes to stderr goes to ``stderr_callback``, or,
    without one, to ``sys.stderr``; the last lines are kept either way
    (``stderr_tail``) for error messages.
    """

    def __init__(
        self,
        argv: list[str],
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        max_buffer_size: int | None = None,
        stderr_callback: Callable[[str], None] | None = None,
        shutdown_grace: float = 5.0,
        user: str | None = None,
        private_dirs: Sequence[str] = (),
    ) -> None:
        self.argv = argv
        self._private_dirs = list(private_dirs)
        """The run's private temp folders (MCP and settings files, a resumed
        session's copy): the guard removes them should this process die."""
        self._env = env
        self._cwd = cwd
        self._max = max_buffer_size
        self._stderr_cb = stderr_callback
        self._grace = shutdown_grace
        self._user = user
        self._process: anyio.abc.Process | None = None
        # Stdout as read, not framed yet: each chunk once looked at for
        # b"\n" from where the last line ended, never the whole buffer again.
        self._unread: deque[bytes] = deque()
        self._at = 0  # where the unframed part of _unread[0] begins
        # The start of the line being read (no b"\n" in it), one growing
        # buffer: each chunk is copied in and freed at once, so the next read
        # reuses its memory (a list of the chunks, joined at the end, copies
        # less but runs slower: thousands of chunks, each in fresh memory).
        self._partial = bytearray()
        self._eof = False
        self._exited = False  # the process was seen to exit, and its last output had time to arrive
        self._stderr_buf = bytearray()
        self._stderr_eof = False
        self._tail: deque[str] = deque(maxlen=_STDERR_TAIL_LINES)
        self._write_lock = anyio.Lock()
        self._closed = False
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._own_group = False
        self._reading = 0  # receive() calls waiting on the pipes right now
        self._token = os.urandom(12).hex()
        self._tag = f"{RUN_TAG}={self._token}".encode()
        self._guard: _Guard | None = None
        self._eof_sent = False
        self._below = Below()
        """What ran below the binary when last looked at (before its input
        closed, before a signal): swept at close, since once the binary is
        gone, what it adopted is adopted by init."""

    # -- lifecycle --------------------------------------------------------------

    async def start(self) -> None:
        """Spawn the child. Raises ``CLINotFoundError`` / ``CLIConnectionError``."""
        kwargs: dict[str, Any] = {}
        if self._user is not None:
            kwargs["user"] = self._user
        env = dict(os.environ if self._env is None else self._env)
        env[RUN_TAG] = self._token
        # The guard first: should this process die from here on, it stops
        # whatever carries the tag, the binary included.
        self._guard = await _Guard.start(self._token)
        if self._guard is not None:
            for folder in self._private_dirs:
                self._guard.remove_at_death(folder)
        try:
            self._process = await anyio.open_process(
                _adopting(self.argv),
                stdin=PIPE,
                stdout=PIPE,
                stderr=PIPE,
                cwd=self._cwd,
                env=env,
                start_new_session=sys.platform != "win32",
                **kwargs,
            )
        except BaseException as exc:
            if self._guard is not None:
                await self._guard.aclose()
                self._guard = None
            if isinstance(exc, FileNotFoundError):
                if self._cwd is not None and not os.path.isdir(self._cwd):
                    raise CLIConnectionError(f"Working directory does not exist: {self._cwd}") from exc
                raise CLINotFoundError("Claude Code not found at", self.argv[0]) from exc
            if isinstance(exc, OSError):
                raise CLIConnectionError(f"Failed to start Claude Code: {exc}") from exc
            raise
        pid = self._process.pid
        try:
            # Only signal a group we know the child leads (never a stranger's).
            self._own_group = sys.platform != "win32" and os.getpgid(pid) == pid
        except (ProcessLookupError, PermissionError, OSError):
            self._own_group = False
        if self._own_group:
            if self._guard is not None:
                self._guard.watch(pid)
            self._finalizer = weakref.finalize(self, _abandon, os.getpid(), pid, self._tag, self._guard)

    @property
    def pid(self) -> int | None:
        """The child's process id (also its process-group id)."""
        return None if self._process is None else self._process.pid

    @property
    def is_process(self) -> bool:
        return True

    @property
    def returncode(self) -> int | None:
        return None if self._process is None else self._process.returncode

    @property
    def stderr_tail(self) -> str:
        lines = list(self._tail)
        if self._stderr_buf:
            lines.append(self._stderr_buf[-_STDERR_LINE_MAX:].decode("utf-8", "replace"))
        return "\n".join(lines)

    def _proc(self) -> anyio.abc.Process:
        if self._process is None:
            raise TransportClosedError("the transport was not started")
        return self._process

    # -- writing ------------------------------------------------------------------

    async def send(self, line: bytes) -> None:
        proc = self._proc()
        if proc.stdin is None:  # pragma: no cover - we always pipe stdin
            raise TransportClosedError("stdin is not a pipe")
        async with self._write_lock:
            try:
                buffered = _loop_pipe(proc, 0) if len(line) > _WRITE_PIECE else None
                if buffered is None:
                    await proc.stdin.send(line)
                else:
                    await _send_pieces(proc.stdin, buffered, memoryview(line))
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError) as exc:
                raise TransportClosedError(
                    f"Failed to write to process stdin: {exc}", self.returncode, self.stderr_tail
                ) from exc

    async def send_eof(self) -> None:
        proc = self._proc()
        if proc.stdin is not None:
            async with self._write_lock:
                if self._eof_sent:
                    return
                self._eof_sent = True
                # The binary may exit as soon as its input ends.
                self._note_below()
                try:
                    await proc.stdin.aclose()
                except (anyio.BrokenResourceError, OSError):
                    pass

    def _note_below(self, *, freeze_detached: bool = False) -> None:
        """Look at what runs below the binary while it still lives (a few
        reads of /proc: its threads' children, then theirs); with
        ``freeze_detached``, as the binary is about to be signalled, SIGSTOP
        what left its group (``guard.stop_detached``): found now, while the
        binary lives (what it adopted goes to init when it exits), and
        SIGKILLed once it exited (``aclose``). Not killed now: a tool that
        dies under the binary is a tool that failed, and the binary goes on
        with its turn (it asks the model again) before it reads the signal."""
        if self._process is not None and self._process.returncode is None and self._own_group:
            pid = self._process.pid
            self._below.add(stop_detached(pid, sig=signal.SIGSTOP) if freeze_detached else descendants(pid))

    async def _wait_noting(self) -> None:
        """``wait()``, looking below the binary meanwhile: what its shutdown
        starts (a ``SessionEnd`` hook's command) is seen before it is
        orphaned."""

        async def look() -> None:
            while True:
                self._note_below()
                await anyio.sleep(_NOTE_EVERY)

        async with anyio.create_task_group() as tg:
            tg.start_soon(look)
            await self.wait()
            tg.cancel_scope.cancel()

    # -- reading -------------------------------------------------------------------

    async def receive(self) -> bytes | None:
        unread = self._unread
        while True:
            if unread:
                chunk, at = unread[0], self._at
                nl = chunk.find(b"\n", at)
                if nl >= 0:
                    size = len(self._partial) + nl - at
                    if self._max is not None and size > self._max:
                        raise LineTooLongError(self._max, size)
                    self._at = nl + 1
                    if self._at == len(chunk):
                        unread.popleft()
                        self._at = 0
                    if not self._partial:
                        return chunk[at:nl]
                    with memoryview(chunk) as view, view[at:nl] as end:
                        self._partial += end
                    line = bytes(self._partial)
                    self._partial = bytearray()
                    return line
                # No end of line in this chunk: its rest starts the line.
                with memoryview(chunk) as view, view[at:] as rest:
                    self._partial += rest
                unread.popleft()
                self._at = 0
                continue
            if self._max is not None and len(self._partial) > self._max:
                raise LineTooLongError(self._max, len(self._partial))
            if self._eof:
                if self._partial:
                    # A last line without its newline: hand it over as is.
                    line = bytes(self._partial)
                    self._partial = bytearray()
                    return line
                return None
            await self._fill()

    def _take(self, chunk: bytes) -> bool:
        """Keep ``chunk`` for ``receive()``; whether it has something to act
        on now: the end of a line (or of stdout), or a line over the limit.

        A chunk that only carries on the line being read goes into it at
        once, so a long line is held once while it arrives, not also as
        the chunks it came in."""
        if not chunk:
            self._eof = True
            return True
        if self._unread or b"\n" in chunk:
            self._unread.append(chunk)
            return True
        self._partial += chunk
        return self._max is not None and len(self._partial) > self._max

    async def _fill(self) -> None:
        """Read more of stdout into the buffer (or note EOF), draining stderr
        meanwhile.

        A binary that exits while a process it started still holds its
        stdout (a background command that inherited it) leaves the pipe
        open: its exit is watched too, and once it is over, the output it
        wrote is read and then the read ends as at EOF, within about
        ``_AFTER_EXIT`` seconds rather than when that process ends.

        Cancel-safe: bytes that were read are in the buffer before the next
        await, so a cancelled ``receive()`` (the session does this when a
        callback finishes) loses nothing.
        """
        proc = self._proc()
        stdout = proc.stdout
        assert stdout is not None
        self._reading += 1
        try:
            if self._exited:
                # Gone: what it wrote is in the pipe already, so a read
                # that finds nothing for a moment is the end.
                with anyio.move_on_after(_AFTER_EXIT):
                    self._take(await self._receive_some(stdout))
                    return
                self._eof = True
                return
            async with anyio.create_task_group() as tg:

                async def read_stdout() -> None:
                    # Until a line ends: a long line arrives in many chunks
                    # (the pipe holds 64 KiB), and one round of these tasks
                    # for each would cost more than the reading.
                    while not self._take(await self._receive_some(stdout)):
                        pass
                    tg.cancel_scope.cancel()

                if not self._stderr_eof and proc.stderr is not None:
                    tg.start_soon(self._drain_stderr)
                tg.start_soon(read_stdout)
                await proc.wait()
                await anyio.sleep(_AFTER_EXIT)  # the usual end: stdout closes with the exit
                self._exited = True
                tg.cancel_scope.cancel()
        finally:
            self._reading -= 1

    @staticmethod
    async def _receive_some(stream: anyio.abc.ByteReceiveStream) -> bytes:
        try:
            return await stream.receive(_CHUNK)
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            return b""

    async def _drain_stderr(self) -> None:
        """Read stderr until EOF (or until cancelled by the stdout reader)."""
        stderr = self._proc().stderr
        if stderr is None:
            return
        while not self._stderr_eof:
            chunk = await self._receive_some(stderr)
            if not chunk:
                self._stderr_eof = True
                self._flush_stderr(final=True)
                return
            self._stderr_buf += chunk
            self._flush_stderr(final=False)

    def _flush_stderr(self, *, final: bool) -> None:
        buf = self._stderr_buf
        while True:
            nl = buf.find(b"\n")
            if nl < 0:
                if len(buf) > _STDERR_LINE_MAX * 4:  # a flood without newlines: keep it bounded
                    self._emit_stderr(bytes(buf[:_STDERR_LINE_MAX]))
                    del buf[:]
                if final and buf:
                    self._emit_stderr(bytes(buf))
                    del buf[:]
                return
            self._emit_stderr(bytes(buf[:nl]))
            del buf[: nl + 1]

    def _emit_stderr(self, raw: bytes) -> None:
        text = raw[:_STDERR_LINE_MAX].decode("utf-8", "replace").rstrip("\r")
        self._tail.append(text)
        if self._stderr_cb is None:
            _to_own_stderr(text)
            return
        text = text.rstrip()
        if text:
            try:
                self._stderr_cb(text)
            except Exception:
                log.warning("claude_wrap: the stderr callback raised", exc_info=True)

    # -- waiting and shutdown --------------------------------------------------

    async def wait(self) -> int | None:
        """Wait for exit, draining both pipes so the child can finish writing."""
        proc = self._proc()
        if self._reading:
            # A receive() in another task is reading both pipes already (a
            # stream takes one reader at a time), so the child cannot block.
            await proc.wait()
            self._reaped()
            return proc.returncode
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._discard_stdout)
            if not self._stderr_eof:
                tg.start_soon(self._drain_stderr)
            await proc.wait()
            tg.cancel_scope.cancel()
        self._reaped()
        if not self._stderr_eof:
            # The pipes may outlive the leader (a grandchild holds them); take
            # what is already there without waiting for their EOF.
            with anyio.move_on_after(0.2):
                await self._drain_stderr()
        return proc.returncode

    async def _discard_stdout(self) -> None:
        while not self._eof:
            chunk = await self._read_stdout_chunk_plain()
            self._take(chunk)

    async def _read_stdout_chunk_plain(self) -> bytes:
        stdout = self._proc().stdout
        assert stdout is not None
        return await self._receive_some(stdout)

    def _signal_group(self, sig: signal.Signals) -> None:
        proc = self._proc()
        if sys.platform == "win32":  # pragma: no cover
            try:
                proc.kill() if sig == signal.SIGKILL else proc.terminate()
            except ProcessLookupError:
                pass
            return
        try:
            if self._own_group:
                os.killpg(proc.pid, sig)
            else:
                _signal(proc, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def kill(self) -> None:
        """SIGKILL the child's process group now; ``aclose()`` still reaps it
        and stops what ran below it."""
        if self._process is not None and self._process.returncode is None:
            if self._own_group:
                self._below.add(stop_detached(self._process.pid, freeze_group=True))
            self._signal_group(signal.SIGKILL)

    def interrupt(self) -> None:
        """SIGINT to the binary alone, once what left its group (a tool's
        command in a session of its own) is frozen: it stops its turn and
        its background work as on Ctrl-C, and exits; ``aclose`` then ends
        what was frozen."""
        if self._process is not None and self._process.returncode is None and sys.platform != "win32":
            self._note_below(freeze_detached=True)
            _signal(self._process, signal.SIGINT)

    def _reaped(self) -> None:
        """The binary's exit was collected: its pid no longer names it."""
        if self._guard is not None:
            self._guard.forget()

    async def close_by(self, deadline: float) -> None:
        await self.aclose(deadline=deadline)

    async def aclose(self, *, deadline: float | None = None) -> None:
        """Stop the child and everything it started; bounded, never raises.

        Everything happens by ``deadline`` (``anyio.current_time()`` clock;
        default: ``shutdown_grace`` from now), plus the moment a SIGKILL
        takes to be reaped. Unless its input was closed already, the binary
        first gets half of that time to exit after EOF (it saves its
        session); then SIGTERM goes to the whole process group (the binary
        stops its tools' commands), and at the deadline SIGKILL, so tool
        commands and MCP servers the binary started end with it.
        """
        if self._closed:
            return
        self._closed = True
        if self._process is None:
            return
        proc = self._process
        with anyio.CancelScope(shield=True):
            if deadline is None:
                deadline = anyio.current_time() + self._grace
            killed: list[tuple[int, int]] = []  # signalled here, to be waited for
            try:
                if proc.returncode is None and not self._eof_sent:
                    with anyio.move_on_at(deadline - (deadline - anyio.current_time()) / 2):
                        await self.send_eof()  # may wait for a write in progress
                        await self._wait_noting()
                if proc.returncode is None:
                    self._note_below(freeze_detached=True)
                    self._signal_group(signal.SIGTERM)
                    with anyio.move_on_at(deadline):
                        await self._wait_noting()
                if proc.returncode is None:
                    self._signal_group(signal.SIGKILL)
                    with anyio.move_on_after(_REAP_LIMIT):
                        await proc.wait()
                        self._reaped()
                # Whatever the binary left in its group (background commands,
                # MCP servers) does not outlive it.
                if self._own_group:
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
                    # Nor does what it started in sessions of their own: what
                    # was seen below it (the binary is a child subreaper), and,
                    # after an exit that was no clean one (a signal: it stopped
                    # nothing, maybe before it was looked at), whatever carries
                    # the run's tag.
                    killed = self._below.kill()
            finally:
                for stream in (proc.stdin, proc.stdout, proc.stderr):
                    if stream is not None:
                        try:
                            await stream.aclose()
                        except Exception:  # noqa: BLE001 - best effort on the way out
                            pass
                _close_pipes(proc)
                if self._finalizer is not None:
                    self._finalizer.detach()
                # What carries the run's tag (a tool's command in a session
                # of its own) goes too: the guard reads /proc for it, off
                # this event loop, then exits.
                swept = self._guard is not None and await self._guard.aclose(sweep=self._own_group)
                if self._own_group and not swept:
                    killed += kill_tagged(self._tag)
                await _gone(killed)
