"""The guard: a small process that stops the binary when its host dies.

A host killed by a signal (SIGKILL, SIGTERM, the OOM killer) or crashing
runs none of its cleanup, and the binary it started lives on until its
current tool or API call ends; the commands its tools started run in
sessions of their own and outlive it too. So each ``SubprocessTransport``
starts a guard before the binary and keeps the write end of a pipe whose
read end is the guard's stdin. The guard reads one command per line:

``pid N``
    the binary's process id (the binary leads a process group of its own);
``exited``
    the host has reaped the binary: ``N`` may name another process now;
``remove HEX``
    a private temp folder of the run (its path, hex-encoded bytes): the
    guard removes it when the host dies (MCP and settings files, a
    resumed session's copy with its credentials);
``sweep``
    the host closed the run: SIGKILL every process that carries the run's
    tag (reading ``/proc`` takes a while; the guard does it so that the
    host's event loop does not), then exit;
``release``
    the host stopped the run itself: exit and do nothing.

End of input without ``release`` means the host is gone (every copy of the
pipe's write end closes with the process that held it, however it ended),
and so does the host's pid naming no process, or another one, which covers
a host that died while a ``fork()``-ed copy of it still holds the pipe. Nothing reads the
binary's output any more, so the guard does not ask it to exit (that takes
it seconds, its tools running on meanwhile): it freezes the binary's
process group and what left it (``stop_detached``, SIGSTOP: a tool killed
under a running binary looks to it like a tool that failed, and it would
ask the model again), then SIGKILLs the group and every
process that was running below the binary (it is a child subreaper, see
``_process.adopt``, so that is everything its run started, whatever session
or environment it took) and to every process that carries the run's tag in
its environment (Linux: read from ``/proc``; elsewhere the process group is
all that is reached).

The guard runs as ``python -I -S guard.py TOKEN HOST_PID`` in a
session of its own, so a signal to the host's process group does not stop
it: standard library only and no site packages, so it starts in about 10 ms
and holds about 9 MB. It forks once more as it starts and the process the
host started exits, so the guard is no child of the host: whatever kills
the host's children as the host goes (Ray does, as a worker exits) kills
the binary, and the guard is there to stop what the binary started. Its
first line on stdout is its pid; it ends its output by exiting (and says
``swept`` first after a sweep). ``kill_tagged`` is also the host's own sweep.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time

__all__ = [
    "RUN_TAG",
    "Below",
    "descendants",
    "kill_listed",
    "kill_tagged",
    "running",
    "stop_detached",
    "tagged",
    "wait_gone",
]

# Every process the binary starts inherits this variable from it. The Bash
# tool runs each command in a session of its own, out of reach of a signal to
# the binary's process group; when the binary dies without stopping them
# itself (SIGKILL, an OOM kill, a crash), the tag is how we find them.
RUN_TAG = "CLAUDE_WRAP_RUN"

_HOST_POLL = 1.0  # seconds between looks at the host's pid
_GONE_POLL = 0.005  # seconds between looks at processes that were killed
_SWEEP_WAIT = 1.0  # how long the guard waits for what it swept to end


def tagged(tag: bytes) -> list[int]:
    """Every process (but this one) whose environment holds ``tag``
    (``NAME=value``); empty where there is no /proc."""
    if not os.path.isdir("/proc"):
        return []
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                environ = f.read()
        except OSError:
            continue  # gone, or not ours to read
        if tag in environ.split(b"\0"):
            found.append(int(entry))
    return found


def _start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks after boot), or ``None`` if it is
    gone: with its pid, this names one process, whatever reuses the pid."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: count from its end.
    fields = stat[stat.rfind(b")") + 2 :].split()
    return int(fields[19]) if len(fields) > 19 and fields[0] != b"Z" else None


def _children(pid: int) -> list[int]:
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as f:
                found += [int(child) for child in f.read().split()]
        except OSError:
            continue
    return found


def descendants(pid: int) -> list[tuple[int, int]]:
    """Every living process below ``pid``, as (pid, start time), parents
    first; empty where there is no /proc.

    The binary runs as a child subreaper (``_process.adopt``), so while it
    lives every process its run started is below it, whatever session or
    environment that process took: one its parent left behind is adopted by
    the binary, not by init.
    """
    # A process whose parent exits while the walk runs moves up to the
    # binary, possibly from a list not read yet to one read already: walk
    # again until a walk finds nothing new.
    found: dict[tuple[int, int], None] = {}
    for _ in range(5):
        before = len(found)
        seen = {pid}
        queue = [pid]
        while queue:
            for child in _children(queue.pop(0)):
                start = _start_time(child)
                if child in seen or start is None:
                    continue
                seen.add(child)
                found[(child, start)] = None
                queue.append(child)
        if len(found) == before:
            break
    return list(found)


def _group(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def stop_detached(
    pid: int, *, freeze_group: bool = False, sig: signal.Signals = signal.SIGKILL
) -> list[tuple[int, int]]:
    """SIGKILL (or ``sig``), now, every process below ``pid`` (a group
    leader) that left its group (a tool's command in a session of its own,
    what it left behind); return every process found below ``pid``, the
    rest too, for a later ``kill_listed``.

    ``sig=SIGSTOP`` freezes them instead, for a binary that is about to be
    told to stop: a tool killed under it looks to the binary like a tool
    that failed, and it goes on with its turn (it asks the model again)
    before it sees the signal. Frozen, they neither run on nor end; the
    ``kill_listed`` after the binary exited ends them.

    For a run about to be stopped: what left the group is out of reach of a
    signal to the group, and once the binary exits it goes to init, where
    nothing finds it (not the tag sweep either, if it cleared its
    environment). A single look is not enough: a shell may be forking as it
    is looked at. So the walk goes on until it finds nothing it has not
    signalled yet; a process with SIGKILL pending, or stopped, forks
    nothing more.
    Neither may the binary exit meanwhile, or what it adopted goes to init
    before the next look: where the group is to be killed anyway,
    ``freeze_group`` first stops it with SIGSTOP.
    """
    if freeze_group:
        _signal_group(pid, signal.SIGSTOP)
    found: dict[tuple[int, int], None] = {}
    signalled: set[tuple[int, int]] = set()
    for _ in range(50):  # bounded: a fork bomb must not hold the close up
        fresh = False
        for process in descendants(pid):
            found[process] = None
            if process in signalled or _group(process[0]) == pid:
                continue
            signalled.add(process)
            fresh = True
            kill_listed([process], sig)
        if not fresh:
            break
    return list(found)


class Below:
    """What was seen below a running binary, gathered over its life: each
    look adds to what earlier looks found (a look after the binary exited
    finds nothing, and must not forget what was there)."""

    __slots__ = ("_found",)

    def __init__(self) -> None:
        self._found: dict[tuple[int, int], None] = {}

    def add(self, processes: list[tuple[int, int]]) -> None:
        self._found.update(dict.fromkeys(processes))

    def kill(self) -> list[tuple[int, int]]:
        """SIGKILL what was seen and still runs; returns what was signalled."""
        return kill_listed(list(self._found))


def kill_listed(processes: list[tuple[int, int]], sig: signal.Signals = signal.SIGKILL) -> list[tuple[int, int]]:
    """SIGKILL (or ``sig``) each listed process that is still the one listed
    (the same pid and start time). Returns those signalled."""
    signalled = []
    for pid, start in processes:
        if _start_time(pid) != start:
            continue  # gone, or the pid names another process now
        try:
            os.kill(pid, sig)
            signalled.append((pid, start))
        except (ProcessLookupError, PermissionError):
            pass
    return signalled


def kill_tagged(tag: bytes) -> list[tuple[int, int]]:
    """SIGKILL every process whose environment holds ``tag``; Linux only (it
    reads /proc). Returns those signalled, as (pid, start time)."""
    signalled: list[tuple[int, int]] = []
    for _ in range(2):  # a second pass for what the first ones were starting
        found = [(pid, _start_time(pid)) for pid in tagged(tag)]
        fresh = kill_listed([(pid, start) for pid, start in found if start is not None])
        signalled += fresh
        if not fresh:
            break
    return signalled


def running(processes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Those of ``processes`` that have not ended yet (a zombie has ended)."""
    return [(pid, start) for pid, start in processes if _start_time(pid) == start]


def wait_gone(processes: list[tuple[int, int]], limit: float) -> bool:
    """Wait, at most ``limit`` seconds, until each of ``processes`` has
    ended; returns whether they all did. A SIGKILL is only pending until
    the process is next scheduled, which on a loaded machine can be a while:
    "stopped" means gone, not signalled."""
    deadline = time.monotonic() + limit
    while (processes := running(processes)) and time.monotonic() < deadline:
        time.sleep(_GONE_POLL)
    return not processes


def _is_running(pid: int, tag: bytes) -> bool:
    """Whether ``pid`` is still the binary, alive. With /proc its environment
    must hold the tag (a reused pid does not, an exited one has none left);
    without, the host's ``exited`` is all there is to go by."""
    if not os.path.isdir("/proc"):
        return _exists(pid)
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return tag in f.read().split(b"\0")
    except OSError:
        return False


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def stop_run(pid: int | None, tag: bytes) -> None:
    """What is left to do once the host is gone: freeze the binary's group
    and what left it (SIGSTOP: a binary whose tool is killed under it takes
    it for a tool that failed and asks the model again; a binary that is
    asked to exit takes seconds to stop its tools, and its output has no
    reader any more), then SIGKILL to the group, to what was seen below it
    and to every process that carries the tag."""
    below = Below()
    if pid is not None and _is_running(pid, tag):
        below.add(stop_detached(pid, freeze_group=True, sig=signal.SIGSTOP))
        _signal_group(pid, signal.SIGKILL)
    below.kill()
    kill_tagged(tag)


def watch(stdin: int, host_pid: int, folders: list[bytes] | None = None) -> tuple[bool | str, int | None]:
    """Follow the host's commands until it releases us or is gone.
    Returns (released: ``True``, ``"sweep"`` or ``False`` when the host is
    gone; the binary's pid if it is still to be stopped); ``folders``
    collects the private folders to remove."""
    pid: int | None = None
    pending = b""
    host_start = _start_time(host_pid) if host_pid > 1 else None
    while True:
        ready, _, _ = select.select([stdin], [], [], _HOST_POLL)
        if not ready:
            if not _host_alive(host_pid, host_start):
                return False, pid  # its pipe is held open by a fork()-ed copy
            continue
        chunk = os.read(stdin, 4096)
        if not chunk:
            return False, pid
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            command, _, argument = line.partition(b" ")
            if command == b"pid":
                pid = int(argument)
            elif command == b"exited":
                pid = None
            elif command == b"remove" and folders is not None:
                try:
                    folders.append(bytes.fromhex(argument.decode()))
                except ValueError:
                    pass
            elif command == b"release":
                return True, None
            elif command == b"sweep":
                return "sweep", None


def _exists(pid: int) -> bool:
    """Whether some process has ``pid`` (where there is no /proc to tell which)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _host_alive(pid: int, start: int | None) -> bool:
    if pid <= 1:
        return False
    if os.path.isdir("/proc"):
        return start is not None and _start_time(pid) == start
    return _exists(pid)


def _say(line: bytes) -> None:
    try:
        os.write(1, line)
    except OSError:  # the host is gone, or never read: nothing to tell
        pass


# Only folders the library makes for a run: never anything else, whatever it is told.
_PRIVATE_PREFIXES = (b"claude-wrap-", b"claude-resume-")


def remove_folders(folders: list[bytes]) -> None:
    """Remove the run's private temp folders (only those the library names so)."""
    import shutil

    for folder in folders:
        if os.path.basename(folder.rstrip(b"/")).startswith(_PRIVATE_PREFIXES):
            shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str]) -> int:
    token, host_pid = argv[1], int(argv[2])
    if os.fork() > 0:
        os._exit(0)  # the host reaps this one; the guard goes on, no child of the host
    _say(b"pid %d\n" % os.getpid())
    folders: list[bytes] = []
    tag = f"{RUN_TAG}={token}".encode()
    released, pid = watch(0, host_pid, folders)
    if released == "sweep":
        wait_gone(kill_tagged(tag), _SWEEP_WAIT)
        _say(b"swept\n")
    elif not released:
        stop_run(pid, tag)
        remove_folders(folders)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
