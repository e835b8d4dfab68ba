"""Run many programs' twins in the background, a few at a time.

Most of a run is waiting on the binary and the scripted model, so several
programs share the machine well. ``TWIN_WORKERS`` sets how many run at once.
The official sides come from build/twin-cache when nothing changed (see
_twin_cache).
"""

from __future__ import annotations

import json
import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from _twin import Twin, run_twin
from _twin_cache import run_twin_cached
from _twin_programs import ROOT, Entry, load

# Beside another pytest-xdist worker, fewer at once: the binary's own timing
# (what the harness must not mistake for the package's) suffers under load.
WORKERS = int(os.environ.get("TWIN_WORKERS", "3" if "PYTEST_XDIST_WORKER" in os.environ else "4"))
CACHE = ROOT / "build" / "twin-cache"


# How long each program took last time: the longest start first, so none is
# left running alone at the end. Unknown ones count as longest.
DURATIONS = CACHE / "durations.json"


def _durations() -> dict[str, float]:
    try:
        known = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: float(v) for k, v in known.items()} if isinstance(known, dict) else {}


class TwinPool:
    """Runs the selected programs in the background; `result` waits for one."""

    def __init__(
        self, entries: list[Entry], *, official_python: Path, examples: Path, binary: Path, root: Path
    ) -> None:
        self._official_python, self._binary, self._root = official_python, binary, root
        self._executor = ThreadPoolExecutor(WORKERS, thread_name_prefix="twin")
        self._futures: dict[str, Future[Twin]] = {}
        known = _durations()
        for entry in sorted(entries, key=lambda e: -known.get(e.name, float("inf"))):
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

    def rerun(self, entry: Entry, examples: Path) -> Twin:
        """``entry`` once more on both packages, nothing taken from the cache."""
        return run_twin(
            load(entry, examples),
            official_python=self._official_python,
            binary=self._binary,
            root=self._root / f"{entry.name}.again",
            ours_root=ROOT,
        )

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
        durations = _durations()
        for name, future in self._futures.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                twin = future.result()
                ran = [twin.ours.seconds] + ([twin.official.seconds] if twin.official.document is None else [])
                durations[name] = round(max(ran), 1)
        DURATIONS.parent.mkdir(parents=True, exist_ok=True)
        DURATIONS.write_text(json.dumps(durations, indent=1, sort_keys=True), encoding="utf-8")
