"""The official side's observations, kept between runs while nothing they depend on changes.

The official package is the reference and does not change between two
``make test`` runs, so its side of each program is run once and its
normalised document kept in ``build/twin-cache/``. The key covers all it
depends on: the program and its spec (and files copied next to it), the
harness code that runs and normalises it, the official venv's installed
distributions, the binary (path, size, mtime), the Python version and the
length of the runs' root path. A run
whose script does not fit is never kept. ``TWIN_CACHE=0`` turns this off.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from _twin import HERE, Program, SideResult, Twin, run_twin
from _twin_observe import observe

_HARNESS_FILES = ("twin_runner.py", "_twin.py", "_twin_observe.py")
_FORMAT = 1


def enabled() -> bool:
    return os.environ.get("TWIN_CACHE", "1") != "0"


def _files_under(path: Path) -> list[Path]:
    return sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]


def key(program: Program, *, official_python: Path, binary: Path, root: Path) -> str:
    # The length of the runs' root goes in too: the binary estimates token
    # counts (context usage) from the length of the paths it shows the model.
    digest = hashlib.sha256(f"{_FORMAT}\0{program!r}\0{sys.version}\0{len(str(root))}".encode())
    for path in [
        program.source,
        *(f for c in program.copy for f in _files_under(c)),
        *(HERE / n for n in _HARNESS_FILES),
    ]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    site = sorted(str(p.name) for p in official_python.parent.parent.glob("lib/python*/site-packages/*.dist-info"))
    stat = binary.stat()
    digest.update(json.dumps([site, str(binary), stat.st_size, stat.st_mtime_ns]).encode())
    return digest.hexdigest()[:20]


def _path(cache: Path, program: Program, cache_key: str) -> Path:
    return cache / f"{program.name}.{cache_key}.json"


def load(cache: Path, program: Program, cache_key: str) -> SideResult | None:
    path = _path(cache, program, cache_key)
    if not path.exists():
        return None
    kept: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return SideResult(
        side="official",
        run_dir=Path(kept["run_dir"]),
        exit_code=kept["exit_code"],
        timed_out=kept["timed_out"],
        stdout="",
        stderr=kept["stderr"],
        record={},
        traceback=kept["traceback"],
        spawns=[],
        requests=[],
        unused_replies=kept["unused_replies"],
        seconds=kept["seconds"],
        document=kept["document"],
        unexpected=kept["unexpected"],
    )


def store(cache: Path, program: Program, cache_key: str, side: SideResult) -> None:
    if side.problems(program.expect_exit):
        return
    cache.mkdir(parents=True, exist_ok=True)
    for stale in cache.glob(f"{program.name}.*.json"):
        stale.unlink()
    kept = {
        "run_dir": str(side.run_dir),
        "exit_code": side.exit_code,
        "timed_out": side.timed_out,
        "stderr": side.stderr,
        "traceback": side.traceback,
        "unused_replies": side.unused_replies,
        "unexpected": side.unexpected,
        "seconds": side.seconds,
        "document": observe(side),
    }
    path = _path(cache, program, cache_key)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(kept, ensure_ascii=False), encoding="utf-8")
    temporary.replace(path)


def run_twin_cached(
    program: Program, *, official_python: Path, binary: Path, root: Path, ours_root: Path, cache: Path | None
) -> Twin:
    """`run_twin`, with the official side from ``cache`` when it is there (and kept there after)."""
    if cache is None or not enabled():
        return run_twin(program, official_python=official_python, binary=binary, root=root, ours_root=ours_root)
    cache_key = key(program, official_python=official_python, binary=binary, root=root)
    official = load(cache, program, cache_key)
    twin = run_twin(
        program, official_python=official_python, binary=binary, root=root, ours_root=ours_root, official=official
    )
    if official is None:
        store(cache, program, cache_key, twin.official)
    return twin
