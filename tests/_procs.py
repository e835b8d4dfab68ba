"""Looking for leftover processes through /proc (Linux)."""

from __future__ import annotations

import os
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
