"""Looking for leftover processes through /proc (Linux)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path


def _read(pid: str, name: str) -> str:
    try:
        return Path(f"/proc/{pid}/{name}").read_text(errors="replace")
    except OSError:
        return ""


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


def descendants(pid: int) -> list[int]:
    """Live pids whose parent chain leads to ``pid`` (children in sessions of
    their own included)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _read(entry, "stat")
            if stat:
                # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
                parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, p in parents.items() if p == parent]
        found.extend(children)
        frontier.extend(children)
    return found
