"""Record what the official package makes of stdout frames, for the message tests.

Writes ``tests/fixtures/official_messages.json``:

* ``classes``: for each message and content block class, its dataclass
  fields (name, default or default factory, or required), its bases and its
  dataclass parameters;
* ``samples``: for each frame of ``tests/fixtures/message_samples.ndjson``
  and a selection of ``tests/fixtures/recorded_stream.ndjson``, what
  ``parse_message(json.loads(line))`` gives: the class name and ``repr``,
  ``null`` for a frame it skips, or the exception it raises.

``tests/unit/test_message_shapes.py`` checks claude_wrap against it. Run it
with the interpreter of a venv that has the official package::

    build/official-venv/bin/python scripts/official_messages.py
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, get_args

import claude_agent_sdk
from claude_agent_sdk import types
from claude_agent_sdk._internal.message_parser import parse_message

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
OUT = FIXTURES / "official_messages.json"


def _classes() -> list[type]:
    """Every message and content block class, the system subclasses and the
    dataclasses nested in messages, as the official package defines them."""
    found: list[type] = []
    for cls in (*get_args(types.Message), *get_args(types.ContentBlock)):
        found += [cls, *cls.__subclasses__()]
    return [*found, types.RateLimitInfo, types.DeferredToolUse]


def _field(f: dataclasses.Field[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": f.name}
    if f.default is not dataclasses.MISSING:
        out["default"] = repr(f.default)
    elif f.default_factory is not dataclasses.MISSING:
        out["factory"] = f.default_factory.__name__
    return out


def _class(cls: type) -> dict[str, Any]:
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    return {
        "bases": [b.__name__ for b in cls.__bases__],
        "fields": [_field(f) for f in dataclasses.fields(cls)],
        "params": {p: getattr(params, p) for p in ("init", "repr", "eq", "order", "unsafe_hash", "frozen")},
        "hashable": cls.__hash__ is not None,  # type: ignore[comparison-overlap]
    }


def _outcome(line: bytes) -> dict[str, Any]:
    try:
        message = parse_message(json.loads(line))
    except Exception as exc:  # noqa: BLE001 - recorded, not handled
        return {"raises": type(exc).__name__}
    if message is None:
        return {"class": None}
    return {"class": type(message).__name__, "repr": repr(message)}


def _recorded_selection(lines: list[bytes]) -> list[int]:
    """The first two lines of each shape (frame type, subtype, event, delta, block)."""
    seen: dict[tuple[Any, ...], int] = {}
    picked = []
    for i, line in enumerate(lines):
        if b"/tmp/" in line:
            continue  # a path of the recording machine (init's socket); message_samples has an init frame
        data = json.loads(line)
        event = data.get("event") or {}
        content = (data.get("message") or {}).get("content")
        shape = (
            data.get("type"),
            data.get("subtype"),
            event.get("type"),
            (event.get("delta") or {}).get("type"),
            content[0].get("type") if isinstance(content, list) and content else None,
        )
        seen[shape] = seen.get(shape, 0) + 1
        if seen[shape] <= 2:
            picked.append(i)
    return picked


def main() -> None:
    samples: list[dict[str, Any]] = []
    for i, line in enumerate((FIXTURES / "message_samples.ndjson").read_bytes().splitlines()):
        samples.append({"file": "message_samples.ndjson", "line": i, **_outcome(line)})
    recorded = (FIXTURES / "recorded_stream.ndjson").read_bytes().splitlines()
    for i in _recorded_selection(recorded):
        samples.append({"file": "recorded_stream.ndjson", "line": i, **_outcome(recorded[i])})
    record = {
        "version": claude_agent_sdk.__version__,
        "classes": {cls.__name__: _class(cls) for cls in _classes()},
        "samples": samples,
    }
    OUT.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(record['classes'])} classes, {len(samples)} samples")


if __name__ == "__main__":
    main()
