"""The guard process: the binary does not outlive a host that dies.

A host process (a real Python child of the test) starts a
``SubprocessTransport`` on the fake binary (tests/unit/fake_cli.py), which
starts a grandchild in a session of its own (as the binary's Bash tool runs
commands); the test then kills the host in the ways a user's worst day
does, and checks that the fake binary, its detached grandchild and the
guard itself are gone. The real binary gets the same treatment in
tests/e2e/test_host_death_e2e.py.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from _procs import HOST_DEATHS, guard_report, guards_of, kill_host, processes_where, start_python, wait_until

from claude_wrap import SubprocessTransport
from claude_wrap._process.guard import RUN_TAG, stop_run, watch

FAKE = str(Path(__file__).with_name("fake_cli.py"))

HOST = """
import sys, anyio
from claude_wrap import SubprocessTransport

async def main():
    t = SubprocessTransport(
        [sys.executable, {fake!r}, *{steps!r}], shutdown_grace={grace!r}, private_dirs={private!r}
    )
    await t.start()
    for _ in range(2):
        print((await t.receive()).decode(), flush=True)
    await anyio.sleep(120)

anyio.run(main, backend={backend!r})
"""


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.fixture
def host(tmp_path: Path) -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def start_host(
    started: list[subprocess.Popen[str]],
    tmp_path: Path,
    backend: str,
    steps: list[str],
    grace: float = 2.0,
    private: tuple[Path, ...] = (),
) -> tuple[subprocess.Popen[str], int, int]:
    """A host in a session of its own (so its group can be signalled);
    returns it, the fake binary's pid and the detached grandchild's."""
    source = HOST.format(fake=FAKE, steps=steps, grace=grace, backend=backend, private=[str(p) for p in private])
    proc = start_python(tmp_path / "host.py", source, stderr=None, start_new_session=True)
    started.append(proc)
    assert proc.stdout is not None
    binary = int(proc.stdout.readline().split()[1])
    grandchild = int(proc.stdout.readline().split()[1])
    assert os.getsid(grandchild) == grandchild != os.getsid(binary)
    return proc, binary, grandchild


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
@pytest.mark.parametrize("how", HOST_DEATHS)
def test_a_host_that_dies_takes_the_binary_and_its_detached_commands_along(
    how: str, backend: str, host: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    proc, binary, grandchild = start_host(host, tmp_path, backend, ["pid", "detached", "sleep:120"])
    assert guards_of(proc.pid), guard_report(proc.pid)
    kill_host(proc, how)
    wait_until(lambda: not alive(binary) and not alive(grandchild), what="the binary or its command outlived the host")
    wait_until(lambda: not guards_of(proc.pid), what="the guard did not exit")


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_a_host_that_dies_takes_along_a_command_that_cleared_its_environment(
    backend: str, host: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    # No tag to find it by, a session of its own, its parent gone: the binary
    # adopted it (a child subreaper), so the guard finds it below the binary.
    proc, binary, orphan = start_host(host, tmp_path, backend, ["pid", "orphan", "sleep:120"])
    assert b"CLAUDE_WRAP_RUN" not in Path(f"/proc/{orphan}/environ").read_bytes()
    kill_host(proc, "SIGKILL")
    wait_until(lambda: not alive(binary) and not alive(orphan), what="the command outlived the host")


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_a_host_that_dies_leaves_none_of_its_runs_private_files(
    backend: str, host: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    # The run's MCP/settings files and a resumed session's copy (with its
    # credentials) are the guard's to remove; a folder not named as the
    # library names them is never touched, whatever it is told.
    folders = tuple(tmp_path / name for name in ("claude-wrap-abc", "claude-resume-def", "someone-elses"))
    for folder in folders:
        folder.mkdir()
        (folder / ".credentials.json").write_text("{}")
    proc, binary, _ = start_host(host, tmp_path, backend, ["pid", "detached", "sleep:120"], private=folders)
    kill_host(proc, "SIGKILL")
    wait_until(lambda: not folders[0].exists() and not folders[1].exists(), what="the private files outlived the host")
    assert (folders[2] / ".credentials.json").exists()


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_a_binary_that_ignores_sigterm_is_killed_after_the_grace(
    backend: str, host: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    proc, binary, grandchild = start_host(
        host, tmp_path, backend, ["ignoreterm", "pid", "detached", "sleep:120"], grace=0.5
    )
    proc.kill()
    proc.wait(timeout=30)
    wait_until(lambda: not alive(binary) and not alive(grandchild), what="the binary outlived the host")


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_a_closed_transport_releases_its_guard() -> None:
    t = SubprocessTransport([sys.executable, FAKE, "pid", "sleep:60"], shutdown_grace=1)
    await t.start()
    assert await t.receive() is not None
    assert len(guards_of(os.getpid())) == 1
    await t.aclose()
    assert guards_of(os.getpid()) == []


def follow(*lines: bytes, host_pid: int | None = None, close: bool = True) -> tuple[bool, int | None]:
    """What ``watch`` makes of ``lines`` from the host (our parent plays the
    host unless ``host_pid`` says otherwise); ``close``: end the input."""
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, b"".join(lines))
        if close:
            os.close(write_end)
            write_end = -1
        return watch(read_end, os.getppid() if host_pid is None else host_pid)
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)


def test_the_guard_follows_the_hosts_commands() -> None:
    assert follow(b"pid 41\n", b"release\n") == (True, None)
    assert follow(b"pid 41\n") == (False, 41)  # end of input: the host is gone
    assert follow(b"pid 41\n", b"exited\n") == (False, None)  # reaped: 41 may be someone else now


def test_the_guard_notices_a_host_that_died_while_its_pipe_stays_open() -> None:
    # A fork()-ed copy of the host may hold the pipe open: the parent id tells.
    assert follow(b"pid 41\n", host_pid=-1, close=False) == (False, 41)


def test_the_guard_never_signals_a_process_that_does_not_carry_the_tag() -> None:
    # A pid the binary had may belong to a stranger by the time the guard acts.
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    try:
        stop_run(stranger.pid, f"{RUN_TAG}=not-the-strangers".encode())
        assert stranger.poll() is None
    finally:
        stranger.kill()
        stranger.wait()


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_spawning_needs_no_guard_where_none_can_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # A frozen application's executable is not a Python: the binary still runs.
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    t = SubprocessTransport([sys.executable, FAKE, "out:ok\\n"], shutdown_grace=1)
    await t.start()
    try:
        assert guards_of(os.getpid()) == []
        assert await t.receive() == b"ok"
    finally:
        await t.aclose()
    assert t.returncode == 0


FORKING_HOST = """
import os, sys, anyio
from claude_wrap import SubprocessTransport

async def main():
    t = SubprocessTransport([sys.executable, {fake!r}, "pid", "sleep:120"], shutdown_grace=1)
    await t.start()
    print((await t.receive()).decode(), flush=True)
    child = os.fork()
    if child == 0:
        sys.exit(0)  # a fork()-ed copy exits the normal way: finalizers run
    os.waitpid(child, 0)
    print("forked copy exited", flush=True)
    await anyio.sleep(120)

anyio.run(main)
"""


def test_a_forked_copy_of_the_host_leaves_the_run_alone(host: list[subprocess.Popen[str]], tmp_path: Path) -> None:
    # Neither its finalizers nor its exit may stop the binary or let the guard go.
    proc = start_python(tmp_path / "host.py", FORKING_HOST.format(fake=FAKE), stderr=None, start_new_session=True)
    host.append(proc)
    assert proc.stdout is not None
    binary = int(proc.stdout.readline().split()[1])
    assert proc.stdout.readline().strip() == "forked copy exited"
    assert alive(binary)
    assert guards_of(proc.pid), guard_report(proc.pid)
    kill_host(proc, "SIGKILL")
    wait_until(lambda: not alive(binary), what="the guard let the binary outlive the host")


@pytest.mark.parametrize(
    ("then", "freeze_group"),
    [("sleep 300", False), ("wait", True)],
    ids=["binary-lives-on", "binary-exits-when-its-tool-ends"],
)
def test_stopping_a_run_catches_what_forks_while_it_is_looked_at(then: str, freeze_group: bool) -> None:
    # A tool's command in a session of its own keeps starting detached
    # commands that clear their environment; the run is stopped meanwhile.
    # One look below the binary, then a kill, lets whatever was forked in
    # between go to init, where nothing finds it; so does a binary that
    # exits as its tool is killed, unless it is frozen first (a kill).
    import signal

    from claude_wrap._process import adopt
    from claude_wrap._process.guard import kill_listed, stop_detached

    marker = f"claude-wrap-forker-{os.getpid()}"
    leaf = f'setsid env -i sh -c "sleep 300; :" {marker}-leaf'
    forker = f"i=0; while [ $i -lt 300 ]; do ({leaf} &); i=$((i+1)); done; sleep 300"
    top = subprocess.Popen(
        [
            sys.executable,
            "-I",
            "-S",
            adopt.__file__,
            "/bin/sh",
            "-c",
            f"setsid sh -c '{forker}' {marker}-forker & {then}",
        ],
        start_new_session=True,
    )
    try:
        wait_until(lambda: len(processes_where(cmdline_contains=marker)) >= 5, limit=30, what="the forker started")
        below = stop_detached(top.pid, freeze_group=freeze_group)
        os.killpg(top.pid, signal.SIGKILL)
        kill_listed(below)
        top.wait()
        wait_until(lambda: not processes_where(cmdline_contains=marker), limit=10, what="a detached command escaped")
    finally:
        for pid in processes_where(cmdline_contains=marker):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if top.poll() is None:
            top.kill()
            top.wait()


DROPPED = """
import gc, sys, warnings
import anyio
from claude_wrap import SubprocessTransport

warnings.simplefilter("always", ResourceWarning)

async def main():
    t = SubprocessTransport([sys.executable, {fake!r}, "pid", "sleep:60"], shutdown_grace=1)
    await t.start()
    print((await t.receive()).decode(), flush=True)
    sys.stdin.readline()  # meanwhile the test stops the guard
    del t  # dropped, not closed: its finalizer stops the binary and lets the guard go
    gc.collect()

anyio.run(main, backend="asyncio")
gc.collect()
print("done", flush=True)
"""


def test_a_guard_that_outlives_the_event_loop_leaves_nothing_of_the_loop_open(
    host: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    # The guard of a dropped transport goes on after the loop has ended (here:
    # stopped, so it cannot go first): nothing of that loop waits on it, so
    # nothing is an unclosed transport when it is collected.
    proc = start_python(tmp_path / "host.py", DROPPED.format(fake=FAKE), stdin=subprocess.PIPE)
    host.append(proc)
    assert proc.stdout is not None and proc.stdin is not None
    assert proc.stdout.readline().startswith("pid ")
    guards = guards_of(proc.pid)
    assert guards, guard_report(proc.pid)
    try:
        for pid in guards:
            os.kill(pid, signal.SIGSTOP)
        out, err = proc.communicate("\n", timeout=60)
    finally:
        for pid in guards:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert out.strip() == "done" and proc.returncode == 0, err
    # The guard's helper had only a stdout pipe: no transport of that shape.
    # (The fake binary's own transport, stdin and stdout and stderr, can still
    # be collected unclosed here when its kill is slow to show: a known gap.)
    assert "returncode=0 stdout=<_UnixReadPipeTransport" not in err, err
