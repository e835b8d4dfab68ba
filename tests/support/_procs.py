"""Looking for leftover processes through /proc (Linux)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _read(pid: str, name: str) -> str:
    try:
        return Path(f"/proc/{pid}/{name}").read_text(errors="replace")
    except OSError:
        return ""


def cmdline(pid: int) -> list[str]:
    """The command line of ``pid``; empty once it has exited (a process seen
    in one listing of /proc may be gone by the time it is read)."""
    text = _read(str(pid), "cmdline")
    return text.rstrip("\0").split("\0") if text else []


def executable(pid: int) -> str | None:
    """The resolved executable of ``pid``; ``None`` once it has exited."""
    try:
        return os.path.realpath(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return None


def processes_where(*, cwd: Path | None = None, cmdline_contains: str | None = None) -> list[int]:
    """Live pids (zombies included) whose cwd or command line match."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        if cwd is not None:
            try:
                if os.readlink(f"/proc/{entry}/cwd") != str(cwd):
                    continue
            except OSError:
                continue
        if cmdline_contains is not None and cmdline_contains not in _read(entry, "cmdline").replace("\0", " "):
            continue
        found.append(int(entry))
    return found


def wait_until(predicate: Callable[[], object], limit: float = 30, what: str = "condition") -> None:
    """Poll ``predicate`` until it is true; fail after ``limit`` seconds (a hang guard)."""
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not reached within {limit:g} s")
        time.sleep(0.05)


def interrupt_once_running(proc: subprocess.Popen[str], marker: str) -> str:
    """Send SIGINT to ``proc`` once a process with ``marker`` in its command
    line runs (the script's tool); return what the script wrote to stderr."""
    try:
        wait_until(lambda: processes_where(cmdline_contains=marker), what="the tool never started")
        proc.send_signal(signal.SIGINT)
        return proc.communicate(timeout=60)[1]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()  # reaped and its pipes closed: nothing leaks into later tests


def child_python_env(**extra: str) -> dict[str, str]:
    """The environment for a Python child process that must import this
    checkout's claude_wrap (not another copy installed in the interpreter)."""
    import claude_wrap

    root = str(Path(claude_wrap.__file__).resolve().parents[1])
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": root if not path else f"{root}{os.pathsep}{path}", **extra}


def start_python(script: Path, source: str, config: object = None, **popen: Any) -> subprocess.Popen[str]:
    """Write ``source`` (dedented) to ``script`` and run it in a Python child
    that imports this checkout's claude_wrap, with ``config`` as JSON in
    ``sys.argv[1]`` unless it is ``None``. stdout and stderr are text pipes
    unless ``popen`` says otherwise."""
    script.write_text(textwrap.dedent(source))
    argv = [sys.executable, str(script)] + ([] if config is None else [json.dumps(config)])
    options: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True, **popen}
    return subprocess.Popen(argv, env=child_python_env(), **options)


def guard_report(host_pid: int) -> str:
    """What there is to see when ``host_pid`` has no guard: every guard
    process and what it watches, and the host's own state."""
    seen = [
        (pid, _read(str(pid), "cmdline").split("\0")[3:], _read(str(pid), "stat")[:60])
        for pid in processes_where(cmdline_contains="_process/guard.py")
    ]
    return f"no guard watches host {host_pid} ({_read(str(host_pid), 'stat')[:60]!r}); guards: {seen}"


def guards_of(host_pid: int) -> list[int]:
    """The guard processes (``claude_wrap._process.guard``) watching ``host_pid``."""
    found = []
    for pid in processes_where(cmdline_contains="_process/guard.py"):
        argv = _read(str(pid), "cmdline").split("\0")
        if str(host_pid) in argv:
            found.append(pid)
    return found


def environ_tag(pid: int, name: str = "CLAUDE_WRAP_RUN") -> bytes | None:
    """``NAME=value`` from the environment of ``pid``, if it has it."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return None
    prefix = name.encode() + b"="
    return next((item for item in environ.split(b"\0") if item.startswith(prefix)), None)


def carrying(tag: bytes) -> list[int]:
    """Live processes (zombies left out: their environment reads empty) whose
    environment holds ``tag``."""
    from claude_wrap._process.guard import tagged

    return tagged(tag)


HOST_DEATHS = ["SIGKILL", "SIGTERM", "group SIGTERM"]
"""How a host dies: a signal to it, or SIGTERM to its process group (what
``timeout``, shells, supervisors and container stops send)."""


def kill_host(host: subprocess.Popen[str], how: str) -> None:
    """Kill ``host`` (which leads a process group of its own) as ``how`` says,
    and reap it."""
    if how == "group SIGTERM":
        os.killpg(host.pid, signal.SIGTERM)
    else:
        host.send_signal(getattr(signal, how))
    host.wait(timeout=30)


def parents() -> dict[int, int]:
    """Every process's parent pid, by pid (zombies included)."""
    found: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _read(entry, "stat")
            if stat:
                # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
                found[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    return found


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (zombies included)."""
    return [child for child, parent in parents().items() if parent == pid]


def descendants(pid: int) -> list[int]:
    """Live pids whose parent chain leads to ``pid`` (children in sessions of
    their own included)."""
    parents_by_pid = parents()
    found: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, p in parents_by_pid.items() if p == parent]
        found.extend(children)
        frontier.extend(children)
    return found
