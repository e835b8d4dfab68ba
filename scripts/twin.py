"""Run programs on the official package and on claude_wrap; print what differs.

The same harness as ``tests/compat`` (``make test`` runs it as the
``compat`` tests), by hand::

    python scripts/twin.py --list                        # every program, examples first
    python scripts/twin.py example-quick_start.basic_example
    python scripts/twin.py 'own-hooks*' --dump out/      # several; keep both sides' documents
    python scripts/twin.py --self official 'example-*'   # the official package against itself
    python scripts/twin.py 'own-*' --summary             # then differences grouped across programs
    python scripts/twin.py --summary --from DIR          # group what an earlier run kept in DIR
                                                         # (the tests' twins directory, or one of ours)

``--self SIDE`` runs one package twice: a difference there is noise the
normalisation misses, not a difference between the packages. The official
side comes from build/twin-cache when nothing it depends on changed
(``--no-cache`` runs it anyway). The exit
status is 1 when any program shows a difference no entry in
tests/compat/intentional.py explains.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "compat")]

from _twin import Twin, run_side  # noqa: E402
from _twin_cache import run_twin_cached  # noqa: E402
from _twin_diff import compare, summarise  # noqa: E402
from _twin_observe import observe  # noqa: E402
from _twin_pool import CACHE  # noqa: E402
from _twin_programs import Entry, entries, load, official_venv, runs_root  # noqa: E402
from _twin_report import report  # noqa: E402
from intentional import INTENTIONAL  # noqa: E402

from claude_wrap import find_binary  # noqa: E402


def _select(patterns: list[str]) -> list[Entry]:
    known = entries()
    chosen = [e for e in known if any(fnmatch.fnmatchcase(e.name, p) for p in patterns)]
    missing = [p for p in patterns if not any(fnmatch.fnmatchcase(e.name, p) for e in known)]
    if missing:
        raise SystemExit(f"no program matches {', '.join(missing)} (see --list)")
    return chosen


def _run(entry: Entry, root: Path, sides: tuple[str, str], cache: Path | None) -> Twin:
    program = load(entry, Path(official_venv().ensure_examples()))
    pythons = {"official": Path(official_venv().ensure_venv()), "ours": Path(sys.executable)}
    binary = find_binary()
    if sides == ("official", "ours"):
        return run_twin_cached(
            program,
            official_python=pythons["official"],
            binary=binary,
            root=root / entry.name,
            ours_root=ROOT,
            cache=cache,
        )
    with ThreadPoolExecutor(2) as pool:
        first, second = (
            pool.submit(
                run_side,
                program,
                side,
                python=pythons[side],
                binary=binary,
                run_dir=root / entry.name / name,
                ours_root=ROOT,
            )
            for side, name in zip(sides, ("off", "our"))
        )
        return Twin(program, first.result(), second.result())


def _kept(directory: Path) -> dict[str, list]:
    """Unexplained differences between the observed.json pairs of runs kept under ``directory``."""
    found = {}
    for official in sorted(directory.glob("*/off/observed.json")):
        ours = official.parent.parent / "our" / "observed.json"
        if ours.exists():
            name = official.parent.parent.name
            differences = compare(json.loads(official.read_text()), json.loads(ours.read_text()))
            found[name] = [d for d in differences if not any(i.explains(name, d.path, d.ours) for i in INTENTIONAL)]
    if not found:
        raise SystemExit(f"no <program>/off/observed.json with its our/observed.json under {directory}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("programs", nargs="*", help="program names or shell patterns")
    parser.add_argument("--list", action="store_true", help="list the programs and exit")
    parser.add_argument("--self", choices=("official", "ours"), help="run this package on both sides")
    parser.add_argument("--dump", type=Path, help="write both sides' normalised documents here")
    parser.add_argument("--jobs", type=int, default=2, help="programs at once (default 2)")
    parser.add_argument("--summary", action="store_true", help="end with the differences grouped across programs")
    parser.add_argument(
        "--no-cache", action="store_true", help="run the official side even when build/twin-cache has it"
    )
    parser.add_argument(
        "--from", dest="source", type=Path, help="do not run: read the observed.json pairs kept under this directory"
    )
    args = parser.parse_args()

    if args.source:
        print(summarise(_kept(args.source)))
        return 0

    if args.list or not args.programs:
        for entry in entries():
            print(
                entry.name
                + (
                    f"   (a {entry.adapter} store adapter: tests/compat/test_store_adapters.py runs it)"
                    if entry.adapter
                    else ""
                )
            )
        return 0
    selected = [e for e in _select(args.programs) if e.adapter is None]
    sides = (args.self, args.self) if args.self else ("official", "ours")
    root = runs_root()
    failed = 0
    unexplained = {}
    started = time.monotonic()
    with ThreadPoolExecutor(args.jobs) as pool:
        cache = None if args.no_cache else CACHE
        for entry, twin in zip(selected, pool.map(lambda e: _run(e, root, sides, cache), selected)):
            verdict = report(twin)
            print(verdict.text(twin), flush=True)
            cached = " (official side from the cache)" if twin.official.document is not None else ""
            print(f"  ({twin.official.seconds:.1f}s / {twin.ours.seconds:.1f}s){cached}\n")
            failed += not verdict.ok
            unexplained[entry.name] = verdict.unexplained
            if args.dump:
                args.dump.mkdir(parents=True, exist_ok=True)
                for side in (twin.official, twin.ours):
                    name = f"{entry.name}.{side.run_dir.name}.json"
                    (args.dump / name).write_text(
                        json.dumps(observe(side), indent=1, ensure_ascii=False), encoding="utf-8"
                    )
    if args.summary:
        print(summarise(unexplained), end="\n\n")
    print(
        f"{len(selected) - failed} of {len(selected)} without unexplained differences, {time.monotonic() - started:.0f}s"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
