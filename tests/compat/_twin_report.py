"""The verdict on one twin run: does the script fit, and what differs unexplained."""

from __future__ import annotations

import json
from dataclasses import dataclass

from _twin import Twin
from _twin_diff import Difference, compare, render
from _twin_observe import observe
from intentional import INTENTIONAL, Intentional

UNSTEADY = "twin differed once"
"""The test property under which a twin test that passed only when run again
keeps the first run's differences (listed at the end of the session)."""


@dataclass(frozen=True)
class Report:
    program: str
    # The script does not fit the official run: the comparison proves little.
    problems: tuple[str, ...]
    unexplained: tuple[Difference, ...]
    explained: tuple[Difference, ...]
    # Differences at paths the program's spec marks as racy.
    unstable: tuple[Difference, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems and not self.unexplained

    def text(self, twin: Twin) -> str:
        lines = []
        if self.problems:
            lines.append(f"{self.program}: the script does not fit the official run:")
            lines += [f"  - {p}" for p in self.problems]
            lines.append(_tail("official stderr", twin.official.stderr))
            lines.append(_tail("official traceback", twin.official.traceback))
        lines.append(render(self.program, self.unexplained))
        if self.explained:
            lines.append(f"({len(self.explained)} intentional difference(s) not shown)")
        if self.unstable:
            lines.append(f"({len(self.unstable)} difference(s) at paths the spec marks unstable not shown)")
        lines.append(f"runs kept in {twin.ours.run_dir.parent}; rerun: python scripts/twin.py {self.program}")
        return "\n".join(line for line in lines if line)


def _tail(title: str, text: str, lines: int = 15) -> str:
    if not text.strip():
        return ""
    body = "\n".join(f"    {line}" for line in text.rstrip().splitlines()[-lines:])
    return f"  {title} (last {lines} lines):\n{body}"


def report(twin: Twin) -> Report:
    """Compare the two sides; each side's document is kept as observed.json in its run directory."""
    documents = []
    for side, name in ((twin.official, "off"), (twin.ours, "our")):
        document = observe(side)
        kept = twin.ours.run_dir.parent / name / "observed.json"
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(json.dumps(document, indent=1, ensure_ascii=False), encoding="utf-8")
        documents.append(document)
    differences = compare(*documents)
    name = twin.program.name
    racy = [Intentional("*", path, reason) for path, reason in twin.program.unstable.items()]
    unstable = [d for d in differences if any(r.explains(name, d.path) for r in racy)]
    explained = [
        d for d in differences if d not in unstable and any(i.explains(name, d.path, d.ours) for i in INTENTIONAL)
    ]
    return Report(
        program=name,
        problems=tuple(twin.official.problems(twin.program.expect_exit)),
        unexplained=tuple(d for d in differences if d not in explained and d not in unstable),
        explained=tuple(explained),
        unstable=tuple(unstable),
    )
