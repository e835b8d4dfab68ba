"""Run many programs' twins in the background, a few at a time.

Most of a run is waiting on the binary and the scripted model, so several
programs share the machine well. ``TWIN_WORKERS`` sets how many run at once.
The official sides come from build/twin-cache when nothing changed (see
_twin_cache).
"""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from _twin import Twin
from _twin_cache import run_twin_cached
from _twin_programs import ROOT, Entry, load

WORKERS = int(os.environ.get("TWIN_WORKERS", "4"))
CACHE = ROOT / "build" / "twin-cache"


class TwinPool:
    """Runs the selected programs in the background; `result` waits for one."""

    def __init__(self, entries: list[Entry], *, official_python: Path, examples: Path, binary: Path, root: Path) -> None:
        self._executor = ThreadPoolExecutor(WORKERS, thread_name_prefix="twin")
        self._futures: dict[str, Future[Twin]] = {}
        for entry in entries:
            program = load(entry, examples)
            self._futures[entry.name] = self._executor.submit(
                run_twin_cached,
                program,
                official_python=official_python,
                binary=binary,
                root=root / entry.name,
                ours_root=ROOT,
                cache=CACHE,
            )

    def result(self, entry: Entry) -> Twin:
        return self._futures[entry.name].result()

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
