"""Compare two observed documents and print the differences so a person can read them.

`compare` walks both documents together. Dicts compare key by key; lists of
equal length item by item; lists of different lengths are first aligned on a
short signature of each item (a message's class and subtype, a stdin frame's
type, a printed line), so one extra message shows as one extra message and
not as every later one changed. A difference is a path such as
``messages[3].fields.content[0].fields.text`` (index on the official
side; ``[+N]`` is an item only ours has, at its index N) and the two values.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from _twin_observe import SECTIONS, section_of


class _Absent:
    def __repr__(self) -> str:
        return "<absent>"


ABSENT: Any = _Absent()

_SCALARS = (str, int, float, bool, type(None))
_PLAIN_KEY = re.compile(r"^[A-Za-z0-9_\-]+$")


@dataclass(frozen=True)
class Difference:
    path: str
    official: Any
    ours: Any


def _key_path(path: str, key: str) -> str:
    step = key if _PLAIN_KEY.match(key) else json.dumps(key)
    return f"{path}.{step}" if path else step


def _signature(item: Any) -> str:
    if not isinstance(item, dict):
        return json.dumps(item, sort_keys=True, default=repr)[:200]
    parts = []
    for holder in (
        item,
        item.get("message"),
        item.get("request"),
        item.get("fields"),
        item.get("message", {}).get("fields") if isinstance(item.get("message"), dict) else None,
    ):
        if isinstance(holder, dict):
            for key in ("note", "class", "type", "subtype", "role", "path"):
                value = holder.get(key)
                if isinstance(value, (str, int)):
                    parts.append(f"{key}={value}")
    return "|".join(parts) or json.dumps(sorted(item))


def _pairs(a: Sequence[Any], b: Sequence[Any]) -> Iterable[tuple[int | None, int | None]]:
    if len(a) == len(b):
        yield from ((i, i) for i in range(len(a)))
        return
    matcher = difflib.SequenceMatcher(None, [_signature(x) for x in a], [_signature(x) for x in b], autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        common = min(a1 - a0, b1 - b0) if tag in ("equal", "replace") else 0
        yield from ((a0 + k, b0 + k) for k in range(common))
        yield from ((i, None) for i in range(a0 + common, a1))
        yield from ((None, j) for j in range(b0 + common, b1))


def compare(official: Any, ours: Any, path: str = "") -> list[Difference]:
    """Every place where the two documents differ."""
    if isinstance(official, dict) and isinstance(ours, dict):
        out: list[Difference] = []
        for key in [*official, *(k for k in ours if k not in official)]:
            out += compare(official.get(key, ABSENT), ours.get(key, ABSENT), _key_path(path, key))
        return out
    if isinstance(official, list) and isinstance(ours, list):
        if official != ours and all(isinstance(x, _SCALARS) for x in [*official, *ours]):
            return [Difference(path, official, ours)]  # argv, MRO, field names: read as a whole
        out = []
        for i, j in _pairs(official, ours):
            if i is not None and j is not None:
                out += compare(official[i], ours[j], f"{path}[{i}]")
            elif i is not None:
                out.append(Difference(f"{path}[{i}]", official[i], ABSENT))
            else:
                assert j is not None
                out.append(Difference(f"{path}[+{j}]", ABSENT, ours[j]))
        return out
    if official == ours and type(official) is type(ours):
        return []
    return [Difference(path, official, ours)]


# --------------------------------------------------------------------------- printing


def _short(value: Any, limit: int = 400) -> str:
    text = repr(value) if value is ABSENT else json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} chars)"


def _text_diff(official: str, ours: str, limit: int = 40) -> list[str]:
    lines = list(
        difflib.unified_diff(official.splitlines(), ours.splitlines(), "official", "claude_wrap", n=1, lineterm="")
    )
    if len(lines) > limit:
        lines = [*lines[:limit], f"… {len(lines) - limit} more diff lines"]
    return [f"      {line[:300]}" for line in lines]


def render_one(difference: Difference) -> list[str]:
    official, ours = difference.official, difference.ours
    out = [f"  {difference.path}"]
    if (
        isinstance(official, str)
        and isinstance(ours, str)
        and ("\n" in official + ours or max(len(official), len(ours)) > 200)
    ):
        out.append(f"      official: {len(official)} chars, claude_wrap: {len(ours)} chars")
        out += _text_diff(official, ours)
    else:
        out.append(f"      official:    {_short(official)}")
        out.append(f"      claude_wrap: {_short(ours)}")
    return out


def render(program: str, differences: Sequence[Difference], *, per_section: int = 25) -> str:
    """A readable report of ``differences`` for ``program``, grouped by section.

    At most ``per_section`` differences of each section are shown, so a long
    list in one (every message's class) does not hide another (stderr).
    """
    if not differences:
        return f"{program}: no differences"
    lines = [f"{program}: {len(differences)} difference(s) (official → claude_wrap)"]
    for section in SECTIONS + tuple(sorted({section_of(d.path) for d in differences} - set(SECTIONS))):
        group = [d for d in differences if section_of(d.path) == section]
        if not group:
            continue
        lines.append(f"[{section}]")
        for difference in group[:per_section]:
            lines += render_one(difference)
        if len(group) > per_section:
            lines.append(
                f"  … {len(group) - per_section} more in [{section}] (scripts/twin.py --dump writes both documents)"
            )
    return "\n".join(lines)


def pattern_of(path: str) -> str:
    """``path`` with every list index as ``[*]``: the same difference in another message."""
    return re.sub(r"\[\+?\d+\]", "[*]", path)


def summarise(by_program: dict[str, Sequence[Difference]], *, programs_shown: int = 6) -> str:
    """Differences grouped by path pattern across programs, most widespread first."""
    groups: dict[str, list[tuple[str, Difference]]] = {}
    for program, differences in by_program.items():
        for difference in differences:
            groups.setdefault(pattern_of(difference.path), []).append((program, difference))
    lines = [f"{len(groups)} kinds of difference across {sum(1 for d in by_program.values() if d)} program(s)"]
    for pattern, found in sorted(groups.items(), key=lambda kv: (-len({p for p, _ in kv[1]}), kv[0])):
        names = sorted({p for p, _ in found})
        more = f" and {len(names) - programs_shown} more" if len(names) > programs_shown else ""
        lines.append(f"\n{pattern}  ({len(names)} program(s): {', '.join(names[:programs_shown])}{more})")
        program, first = found[0]
        lines.append(f"  e.g. in {program}:")
        lines += render_one(first)[1:]
    return "\n".join(lines)
