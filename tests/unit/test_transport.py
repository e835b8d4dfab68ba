"""SubprocessTransport against real child processes (tests/unit/fake_cli.py).

pytest-subprocess cannot fake the child here: anyio >= 4.x spawns through
``loop.subprocess_exec`` (asyncio) / ``trio.lowlevel.open_process`` (trio),
not ``asyncio.create_subprocess_exec``, so its ``fp`` fixture never sees the
call (the fake ``Popen`` it substitutes hangs asyncio's pipe transport). A
tiny real helper script is used instead, which also runs every test under
both anyio backends and gives real chunk timing.
"""

from __future__ import annotations

import hashlib
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest

from claude_wrap import (
    CLIConnectionError,
    CLIJSONDecodeError,
    CLINotFoundError,
    LineTooLongError,
    SubprocessTransport,
    TransportClosedError,
)

sys.path.insert(0, str(Path(__file__).parent))
import fake_cli

FAKE = str(Path(__file__).with_name("fake_cli.py"))

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def argv(*steps: str) -> list[str]:
    return [sys.executable, FAKE, *steps]


@asynccontextmanager
async def running(*steps: str, **kwargs: object) -> AsyncIterator[SubprocessTransport]:
    kwargs.setdefault("shutdown_grace", 2.0)
    t = SubprocessTransport(argv(*steps), **kwargs)  # type: ignore[arg-type]
    await t.start()
    try:
        yield t
    finally:
        await t.aclose()


async def read_all(t: SubprocessTransport) -> list[bytes]:
    lines = []
    while (line := await t.receive()) is not None:
        lines.append(line)
    return lines


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    state = stat.rsplit(")", 1)[1].split()[0]
    return state not in ("Z", "X")


# -- framing ----------------------------------------------------------------------


async def test_lines_in_order_then_none_at_eof() -> None:
    async with running(r"out:{\"a\":1}\n{\"b\":2}\n") as t:
        assert await t.receive() == b'{"a":1}'
        assert await t.receive() == b'{"b":2}'
        assert await t.receive() is None
        assert await t.receive() is None  # EOF is sticky


async def test_line_delivered_in_pieces() -> None:
    steps = ["out:first ha", "sleep:0.05", "out:lf", "sleep:0.05", r"out:\nsecond", "sleep:0.05", r"out: line\n"]
    async with running(*steps) as t:
        assert await read_all(t) == [b"first half", b"second line"]


async def test_newline_arriving_alone_in_its_own_chunk() -> None:
    async with running("out:abc", "sleep:0.05", r"out:\n", "sleep:0.05", r"out:\n") as t:
        assert await read_all(t) == [b"abc", b""]


async def test_line_straddling_the_read_size() -> None:
    # 256 KiB reads: a line that crosses one read boundary, then a short one.
    n = 256 * 1024 + 12345
    async with running(f"bigline:{n}", r"out:tail\n") as t:
        first = await t.receive()
        assert first == fake_cli.big_line(n)
        assert await t.receive() == b"tail"
        assert await t.receive() is None


async def test_partial_last_line_at_eof_is_returned() -> None:
    async with running(r"out:complete\nno newline at the end") as t:
        assert await read_all(t) == [b"complete", b"no newline at the end"]


async def test_many_small_lines_in_one_chunk() -> None:
    async with running("manylines:20000") as t:
        lines = await read_all(t)
    assert len(lines) == 20000
    assert lines[0] == b"line 0"
    assert lines[-1] == b"line 19999"
    assert lines == [b"line %d" % i for i in range(20000)]


async def test_lines_split_across_many_chunks() -> None:
    # Each piece arrives on its own; the chunk that ends a line starts the next.
    pieces = [f"out:{i:03d}," for i in range(40)]
    steps = [step for piece in pieces for step in (piece, "sleep:0.005")]
    async with running(*steps, r"out:end\nnext", "sleep:0.02", r"out: line\n") as t:
        assert await read_all(t) == ["".join(f"{i:03d}," for i in range(40)).encode() + b"end", b"next line"]


async def test_empty_stdout() -> None:
    async with running("exit:0") as t:
        assert await t.receive() is None
        assert await t.wait() == 0


async def test_crlf_and_non_utf8_bytes_are_passed_through() -> None:
    async with running(r"out:a\r\n\xff\xfe\n") as t:
        assert await read_all(t) == [b"a\r", b"\xff\xfe"]


# -- stderr --------------------------------------------------------------------------


async def test_stderr_flood_does_not_block_stdout_and_tail_is_bounded() -> None:
    # ~5 MB of stderr between stdout lines: far more than a pipe buffer, so
    # the child blocks unless the transport drains stderr while reading stdout.
    seen: list[str] = []
    n = 300_000  # "stderr line 123456\n" ≈ 17-19 bytes each → ~5.5 MB
    async with running(
        r"out:one\n", f"errflood:{n}", r"out:two\n", f"errflood:{n}", r"out:three\n", stderr_callback=seen.append
    ) as t:
        with anyio.fail_after(30):
            assert await read_all(t) == [b"one", b"two", b"three"]
            assert await t.wait() == 0
        tail = t.stderr_tail
    assert len(seen) == 2 * n
    assert seen[0] == "stderr line 0"
    assert seen[-1] == f"stderr line {n - 1}"
    assert tail.endswith(f"stderr line {n - 1}")
    assert len(tail) < 100_000  # bounded: a tail, not the whole stream
    assert len(tail.splitlines()) <= 100


async def test_stderr_without_newlines_stays_bounded() -> None:
    async with running("errblob:3000000", r"out:done\n") as t:
        with anyio.fail_after(20):
            assert await read_all(t) == [b"done"]
            await t.wait()
        assert 0 < len(t.stderr_tail) < 1_000_000


async def test_stderr_callback_gets_lines_and_a_raising_callback_does_not_break_reading(
    caplog: pytest.LogCaptureFixture,
) -> None:
    calls: list[str] = []

    def callback(line: str) -> None:
        calls.append(line)
        raise RuntimeError("callback bug")

    async with running(
        r"err:warn 1\nwarn 2\n",
        "sleep:0.05",
        r"out:a\n",
        r"err:warn 3\n",
        "sleep:0.05",
        r"out:b\n",
        stderr_callback=callback,
    ) as t:
        assert await read_all(t) == [b"a", b"b"]
        assert await t.wait() == 0
        assert t.stderr_tail.splitlines()[-3:] == ["warn 1", "warn 2", "warn 3"]
    assert calls == ["warn 1", "warn 2", "warn 3"]


async def test_without_a_callback_stderr_lines_go_to_ours(capfd: pytest.CaptureFixture[str]) -> None:
    async with running(r"err:warn 1\n  \nwarn 2\n", "sleep:0.05", r"out:a\n") as t:
        assert await read_all(t) == [b"a"]
        assert await t.wait() == 0
        assert t.stderr_tail.splitlines()[-3:] == ["warn 1", "  ", "warn 2"]
    assert capfd.readouterr().err == "warn 1\n  \nwarn 2\n"


async def test_stderr_tail_kept_after_exit() -> None:
    async with running(r"err:Error: boom\n", "exit:2") as t:
        assert await t.receive() is None
        assert await t.wait() == 2
        assert "Error: boom" in t.stderr_tail


# -- max_buffer_size -----------------------------------------------------------------


async def test_max_buffer_size_unfinished_line_over_the_limit() -> None:
    async with running("out:" + "x" * 5000, "sleep:0.1", "out:" + "x" * 1000 + r"\n", max_buffer_size=4000) as t:
        with pytest.raises(LineTooLongError) as info:
            await t.receive()
    assert isinstance(info.value, CLIJSONDecodeError)
    assert info.value.limit == 4000
    assert info.value.seen > 4000


async def test_max_buffer_size_line_completed_by_a_later_chunk() -> None:
    # 3000 + 3000 bytes: no single read exceeds the limit, the line does.
    async with running("out:" + "x" * 3000, "sleep:0.1", "out:" + "x" * 3000 + r"\n", max_buffer_size=4000) as t:
        with pytest.raises(LineTooLongError):
            await t.receive()


async def test_max_buffer_size_line_arriving_in_one_chunk() -> None:
    # The same too-long line must be refused however the pipe chunks it.
    async with running("out:" + "x" * 6000 + r"\n", max_buffer_size=4000) as t:
        with pytest.raises(LineTooLongError):
            await t.receive()


async def test_max_buffer_size_line_over_the_limit_in_many_chunks() -> None:
    # Far more than one read: refused as soon as it is over, still typed.
    async with running("bigline:3000000", r"out:after\n", max_buffer_size=1_000_000) as t:
        with pytest.raises(LineTooLongError) as info:
            await t.receive()
    assert isinstance(info.value, CLIJSONDecodeError)
    assert info.value.limit == 1_000_000
    assert 1_000_000 < info.value.seen < 3_000_000


async def test_max_buffer_size_allows_lines_up_to_the_limit() -> None:
    async with running("out:" + "y" * 4000 + r"\n", "out:" + "z" * 10 + r"\n", max_buffer_size=4000) as t:
        assert await read_all(t) == [b"y" * 4000, b"z" * 10]


async def test_max_buffer_size_partial_last_line_too_long() -> None:
    async with running("out:" + "x" * 5000, max_buffer_size=4000) as t:
        with pytest.raises(LineTooLongError):
            await read_all(t)


# -- exit codes, sending, spawning ---------------------------------------------------------


@pytest.mark.parametrize("code", [0, 1, 7])
async def test_exit_code_via_wait_and_returncode(code: int) -> None:
    async with running(f"exit:{code}") as t:
        assert t.returncode is None or t.returncode == code
        assert await t.wait() == code
        assert t.returncode == code


async def test_send_reaches_the_child() -> None:
    async with running("echo") as t:
        await t.send(b'{"type":"user"}\n')
        assert await t.receive() == b'{"type":"user"}'
        await t.send_eof()
        assert await t.receive() is None
        assert await t.wait() == 0


async def test_a_line_much_longer_than_the_pipe_arrives_whole() -> None:
    big = fake_cli.big_line(20 * 1024 * 1024 + 3) + b"\n"
    got: list[bytes | None] = []
    async with running("echo") as t:
        async with anyio.create_task_group() as tg:

            async def read_two() -> None:
                got.append(await t.receive())
                got.append(await t.receive())

            tg.start_soon(read_two)  # the child echoes as it reads: both pipes move
            await t.send(big)
            await t.send(b"small\n")
    assert got[0] == big[:-1]
    assert got[1] == b"small"


# trio writes a line from its own bytes, whole or broken: a cancelled
# send_all leaves an unknown part of it written and the stream unusable
# (trio's rule), as before. asyncio's pieces are what these tests are about.
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_a_long_write_cut_off_still_arrives_whole_and_first() -> None:
    big = fake_cli.big_line(4 * 1024 * 1024) + b"\n"
    async with running("hold", "echo") as t:
        assert await t.receive() == b"held"  # the child reads nothing until told
        with anyio.move_on_after(0.2) as scope:  # 4 MiB cannot fit in the pipe
            await t.send(big)
        assert scope.cancelled_caught
        assert t.pid is not None
        os.kill(t.pid, signal.SIGUSR1)
        # With nothing else written, the rest of the line still goes out, as
        # one write of the whole line would have sent it.
        assert await t.receive() == big[:-1]
        await t.send(b"next\n")
        assert await t.receive() == b"next"


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_a_long_write_cut_off_is_finished_before_eof() -> None:
    big = fake_cli.big_line(4 * 1024 * 1024) + b"\n"
    async with running("hold", "echo") as t:
        assert await t.receive() == b"held"
        with anyio.move_on_after(0.2) as scope:
            await t.send(big)
        assert scope.cancelled_caught
        await t.send_eof()
        assert t.pid is not None
        os.kill(t.pid, signal.SIGUSR1)
        assert await read_all(t) == [big[:-1]]


async def test_send_after_the_child_died_raises_transport_closed() -> None:
    async with running(r"err:fatal: gone\n", "exit:3") as t:
        assert await t.wait() == 3
        with pytest.raises(TransportClosedError) as info:
            for _ in range(3):  # the first write may still land in the pipe buffer
                await t.send(b'{"type":"user"}\n')
                await anyio.sleep(0.05)
    message = str(info.value)
    assert "3" in message
    assert "fatal: gone" in message


async def test_send_before_start_raises_transport_closed() -> None:
    t = SubprocessTransport(argv("exit:0"))
    with pytest.raises(TransportClosedError):
        await t.send(b"{}\n")
    await t.aclose()


async def test_missing_binary_raises_cli_not_found(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-claude")
    t = SubprocessTransport([missing, "--verbose"])
    with pytest.raises(CLINotFoundError) as info:
        await t.start()
    assert info.value.cli_path == missing
    assert isinstance(info.value, CLIConnectionError)
    assert isinstance(info.value.__cause__, FileNotFoundError)
    await t.aclose()


async def test_missing_cwd_is_a_connection_error_not_not_found(tmp_path: Path) -> None:
    t = SubprocessTransport(argv("exit:0"), cwd=str(tmp_path / "gone"))
    with pytest.raises(CLIConnectionError) as info:
        await t.start()
    assert not isinstance(info.value, CLINotFoundError)
    assert "gone" in str(info.value)
    await t.aclose()


async def test_non_executable_binary_is_a_connection_error(tmp_path: Path) -> None:
    path = tmp_path / "claude"
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o600)
    t = SubprocessTransport([str(path)])
    with pytest.raises(CLIConnectionError):
        await t.start()
    await t.aclose()


async def test_child_leads_its_own_process_group() -> None:
    async with running("pid", "readeof") as t:
        line = await t.receive()
        assert line == b"pid %d" % t.pid
        assert os.getpgid(t.pid) == t.pid != os.getpgid(0)


# -- big lines ------------------------------------------------------------------------


async def test_100mb_single_line_is_returned_intact() -> None:
    n = 100 * 1024 * 1024 + 7
    expected = hashlib.sha256()
    blocks, rest = divmod(n, fake_cli.BLOCK)
    for i in range(blocks):
        expected.update(fake_cli.big_block(i))
    expected.update(fake_cli.big_block(blocks, rest))
    async with running(f"bigline:{n}", r"out:after\n") as t:
        with anyio.fail_after(40):
            line = await t.receive()
            assert line is not None
            assert len(line) == n
            assert hashlib.sha256(line).hexdigest() == expected.hexdigest()
            del line
            assert await t.receive() == b"after"
            assert await t.receive() is None


# -- shutdown -----------------------------------------------------------------------------


async def test_aclose_on_a_child_that_exits_at_stdin_eof_is_quick() -> None:
    t = SubprocessTransport(argv("readeof", "exit:0"), shutdown_grace=5)
    await t.start()
    start = time.monotonic()
    await t.aclose()
    assert time.monotonic() - start < 2
    assert t.returncode == 0
    await t.aclose()  # idempotent


async def test_aclose_escalates_to_sigkill_when_sigterm_is_ignored() -> None:
    # The whole close is bounded by one grace (plus reaping the SIGKILL): half
    # of it after EOF, the rest after SIGTERM.
    grace = 1.0
    t = SubprocessTransport(argv("ignoreterm", "pid", "sleep:60"), shutdown_grace=grace)
    await t.start()
    assert await t.receive() == b"pid %d" % t.pid  # SIGTERM is ignored from here on
    pid = t.pid
    assert pid is not None
    start = time.monotonic()
    await t.aclose()
    elapsed = time.monotonic() - start
    assert t.returncode == -signal.SIGKILL
    assert not alive(pid)
    assert grace - 0.05 <= elapsed < 2 * grace


async def test_aclose_terminates_with_sigterm_before_sigkill() -> None:
    t = SubprocessTransport(argv("pid", "sleep:60"), shutdown_grace=0.2)
    await t.start()
    assert await t.receive() is not None
    await t.aclose()
    assert t.returncode == -signal.SIGTERM


async def test_aclose_kills_a_grandchild_the_child_left_behind() -> None:
    # The child exits as soon as stdin closes; its grandchild keeps sleeping
    # (and holds the pipes open) unless the process group is cleaned up.
    t = SubprocessTransport(argv("pid", "grandchild", "readeof", "exit:0"), shutdown_grace=0.2)
    await t.start()
    child = int((await t.receive() or b"").split()[1])
    grandchild = int((await t.receive() or b"").split()[1])
    assert alive(child) and alive(grandchild)
    assert os.getpgid(grandchild) == child
    start = time.monotonic()
    await t.aclose()
    assert time.monotonic() - start < 5
    with anyio.fail_after(10):
        while alive(grandchild):  # the SIGKILL is sent; reaping by init may lag a little
            await anyio.sleep(0.01)
    assert not alive(child)


async def test_aclose_kills_child_and_grandchild_that_ignore_stdin_eof() -> None:
    t = SubprocessTransport(argv("pid", "grandchild", "sleep:60"), shutdown_grace=0.2)
    await t.start()
    child = int((await t.receive() or b"").split()[1])
    grandchild = int((await t.receive() or b"").split()[1])
    await t.aclose()
    assert not alive(child)
    with anyio.fail_after(10):
        while alive(grandchild):
            await anyio.sleep(0.01)


async def test_a_detached_grandchild_dies_with_a_killed_child() -> None:
    # A command the child started in a session of its own survives a signal
    # to the child's group; when the child itself was killed (and so stopped
    # nothing), the environment tag finds it.
    t = SubprocessTransport(argv("pid", "detached", "sleep:60"), shutdown_grace=0.2)
    await t.start()
    child = int((await t.receive() or b"").split()[1])
    grandchild = int((await t.receive() or b"").split()[1])
    assert os.getsid(grandchild) == grandchild != os.getsid(child)
    os.kill(child, signal.SIGKILL)  # an OOM kill, say
    await t.aclose()
    with anyio.fail_after(10):
        while alive(grandchild):
            await anyio.sleep(0.01)


async def test_a_child_that_exits_by_itself_leaves_no_detached_processes() -> None:
    # Closing a run stops everything it started, however it ended: a command
    # in a session of its own (found by the environment tag) and one that
    # also cleared its environment and left its parent behind (found below
    # the child, a subreaper while it lives).
    t = SubprocessTransport(argv("pid", "detached", "orphan", "readeof", "exit:0"), shutdown_grace=1)
    await t.start()
    child = int((await t.receive() or b"").split()[1])
    detached = int((await t.receive() or b"").split()[1])
    orphan = int((await t.receive() or b"").split()[1])
    assert os.getsid(orphan) == orphan and _parent(orphan) == child  # adopted, not init's
    assert b"CLAUDE_WRAP_RUN" not in Path(f"/proc/{orphan}/environ").read_bytes()
    await t.aclose()
    assert t.returncode == 0
    with anyio.fail_after(10):
        while alive(detached) or alive(orphan):
            await anyio.sleep(0.01)


async def test_cancelling_a_read_then_closing_leaves_no_orphan() -> None:
    # The close of a run whose reader was cancelled (task.cancel(), leaving
    # a client) finds what the child adopted even though the child is
    # stopped by signal, not by its input ending.
    t = SubprocessTransport(argv("ignoreterm", "pid", "orphan", "sleep:60"), shutdown_grace=0.5)
    await t.start()
    await t.receive()
    orphan = int((await t.receive() or b"").split()[1])
    with anyio.move_on_after(0.05):
        await t.receive()
    await t.aclose()
    with anyio.fail_after(10):
        while alive(orphan):
            await anyio.sleep(0.01)


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


async def test_aclose_from_another_task_while_a_receive_waits() -> None:
    # One task waits for output that never comes; another closes the
    # transport. A stream takes one reader at a time (asyncio raised
    # "read() called while another coroutine is already waiting"), so the
    # close must leave the pipes to the waiting receive.
    t = SubprocessTransport(argv("ignoreterm", "pid", "sleep:60"), shutdown_grace=0.2)
    await t.start()
    assert await t.receive() is not None
    got: list[bytes | None] = []
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:

            async def read() -> None:
                got.append(await t.receive())

            tg.start_soon(read)
            await anyio.sleep(0.1)  # the read is waiting now
            await t.aclose()
    assert got == [None]
    assert t.returncode == -signal.SIGKILL


async def test_kill_stops_the_child_at_once() -> None:
    t = SubprocessTransport(argv("ignoreterm", "pid", "sleep:60"), shutdown_grace=5)
    await t.start()
    assert await t.receive() is not None
    t.kill()
    with anyio.fail_after(5):
        assert await t.wait() == -signal.SIGKILL
    await t.aclose()


async def test_aclose_is_bounded_under_cancellation() -> None:
    t = SubprocessTransport(argv("ignoreterm", "pid", "sleep:60"), shutdown_grace=0.2)
    await t.start()
    pid = t.pid
    assert await t.receive() is not None
    with anyio.CancelScope() as scope:
        scope.cancel()
        await t.aclose()  # shielded: still finishes the shutdown
    assert pid is not None and not alive(pid)


async def test_a_child_that_exits_while_its_own_child_holds_stdout_ends_the_read() -> None:
    # The grandchild inherited stdout and sleeps on: no EOF comes. The
    # child's exit itself ends the read, after what it wrote before exiting.
    t = SubprocessTransport(argv("pid", "grandchild", "out:last words\n", "exit:3"), shutdown_grace=0.5)
    await t.start()
    try:
        await t.receive()
        grandchild = int((await t.receive() or b"").split()[1])
        with anyio.fail_after(10):  # a hang guard: without the watch, the grandchild's 120 s
            assert await t.receive() == b"last words"
            assert await t.receive() is None
        assert t.returncode == 3 and alive(grandchild)
    finally:
        await t.aclose()


async def test_a_closed_transport_leaves_no_pipe_open_behind_it() -> None:
    # Another process holds the write end of the binary's stdout (here: this
    # one, through /proc), so no EOF comes after the binary exits. Closed
    # still means closed at once: under asyncio, a pipe transport left open
    # outlives the event loop and warns when it is collected.
    t = SubprocessTransport(argv("pid", "sleep:60"), shutdown_grace=0.5)
    await t.start()
    pid = int((await t.receive() or b"").split()[1])
    holder = os.open(f"/proc/{pid}/fd/1", os.O_WRONLY)
    try:
        await t.aclose()
        pipes = getattr(getattr(t._process, "_transport", None), "get_pipe_transport", None)
        if pipes is not None:  # asyncio; trio's process streams close their fds themselves
            assert all(pipes(fd) is None or pipes(fd).is_closing() for fd in (0, 1, 2))
    finally:
        os.close(holder)


@pytest.mark.parametrize("anyio_backend", ["asyncio"])  # trio reaps through Popen.poll itself
async def test_signalling_the_binary_never_reaps_it_behind_the_event_loops_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Under asyncio, Popen.send_signal() polls first, and a poll reaps a
    # child that has just exited: the loop's watcher then prints "Unknown
    # child process pid N, will report returncode 255" on the user's stderr
    # and reports 255. Signals go by pid, and only the watcher reaps.
    import subprocess

    polled: list[int] = []
    original = subprocess.Popen.poll

    def poll(self: subprocess.Popen[bytes]) -> int | None:
        polled.append(self.pid)
        return original(self)

    monkeypatch.setattr(subprocess.Popen, "poll", poll)
    t = SubprocessTransport(argv("pid", "sleep:60"), shutdown_grace=0.5)
    await t.start()
    await t.receive()
    t.interrupt()
    await t.aclose()
    assert polled == [] and t.returncode is not None
