"""Messages and content blocks have the official package's exact shape.

``tests/fixtures/official_messages.json`` records, from the official package
(``scripts/official_messages.py``), each class's dataclass fields and what
its parser makes of the frames in ``tests/fixtures/message_samples.ndjson``
and of a selection of ``tests/fixtures/recorded_stream.ndjson``. Here the
same frames go through claude_wrap: same class, same ``repr`` (so the same
fields and values), and the dataclass behaviour programs rely on.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

import claude_wrap
import claude_wrap.types
from claude_wrap import ResultMessage, SystemMessage, UnknownMessage, UserMessage, decode_line
from claude_wrap._wire.codec import decode_frame

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OFFICIAL = json.loads((FIXTURES / "official_messages.json").read_text())
SURFACE = json.loads((FIXTURES / "official_surface.json").read_text())
LINES = {
    name: (FIXTURES / name).read_bytes().splitlines() for name in ("message_samples.ndjson", "recorded_stream.ndjson")
}


def _line(sample: dict[str, Any]) -> bytes:
    return LINES[sample["file"]][sample["line"]]


def _id(sample: dict[str, Any]) -> str:
    return f"{sample['file'].split('.')[0]}:{sample['line']}"


def test_recorded_for_the_official_version_we_match() -> None:
    assert OFFICIAL["version"] == SURFACE["version"], (
        "re-run scripts/official_messages.py with the new official package"
    )


# -- the classes -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(OFFICIAL["classes"]))
def test_class_is_the_official_dataclass_shape(name: str) -> None:
    official = OFFICIAL["classes"][name]
    cls = getattr(claude_wrap, name)
    assert getattr(claude_wrap.types, name) is cls
    assert dataclasses.is_dataclass(cls)
    ours = []
    for f in dataclasses.fields(cls):
        entry: dict[str, Any] = {"name": f.name}
        if f.default is not dataclasses.MISSING:
            entry["default"] = repr(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            entry["factory"] = f.default_factory.__name__
        ours.append(entry)
    assert ours == official["fields"]
    assert [b.__name__ for b in cls.__bases__] == official["bases"]
    params = cls.__dataclass_params__
    assert {p: getattr(params, p) for p in official["params"]} == official["params"]
    assert (cls.__hash__ is not None) == official["hashable"]


@pytest.mark.parametrize("name", sorted(set(OFFICIAL["classes"]) & set(SURFACE["fields"])))
def test_field_names_and_order_match_the_surface_record(name: str) -> None:
    assert [f.name for f in dataclasses.fields(getattr(claude_wrap, name))] == SURFACE["fields"][name]


def test_our_own_message_and_block_types_are_dataclasses_too() -> None:
    for cls in (
        claude_wrap.UnknownMessage,
        claude_wrap.UnknownBlock,
        claude_wrap.ImageBlock,
        claude_wrap.RedactedThinkingBlock,
    ):
        assert dataclasses.is_dataclass(cls) and cls.__hash__ is None


# -- what the parser makes of each frame --------------------------------------------------------


@pytest.mark.parametrize("sample", OFFICIAL["samples"], ids=_id)
def test_same_message_as_the_official_parser(sample: dict[str, Any]) -> None:
    line = _line(sample)
    ours = decode_line(line)
    if "raises" in sample:
        # The official parser raises MessageParseError, which ends its run; the
        # frame is delivered instead, so the run goes on.
        assert sample["raises"] == "MessageParseError"
        if b'"deferred_tool_use"' in line:
            # An annotation that does not fit is dropped, not the whole result.
            assert isinstance(ours, ResultMessage) and ours.deferred_tool_use is None
        else:
            assert isinstance(ours, UnknownMessage) and ours.error
            assert ours.data == json.loads(line)
        return
    if sample["class"] is None:
        assert ours is None  # skipped, as the official package does
        kept = decode_line(line, keep_unrecognized=True)
        assert isinstance(kept, UnknownMessage) and kept.error is None and kept.data == json.loads(line)
        return
    assert type(ours) is getattr(claude_wrap, sample["class"])
    assert repr(ours) == sample["repr"]


def test_init_is_a_plain_system_message() -> None:
    [init] = [s for s in OFFICIAL["samples"] if b'"subtype": "init"' in _line(s) or b'"subtype":"init"' in _line(s)][:1]
    message = decode_line(_line(init))
    assert type(message) is SystemMessage and message.subtype == "init"


# -- dataclass behaviour ----------------------------------------------------------------------


def _decoded() -> list[Any]:
    """One decoded instance of each official class, blocks included."""
    out: dict[str, Any] = {}
    for sample in OFFICIAL["samples"]:
        if sample.get("class"):
            message = decode_line(_line(sample))
            out.setdefault(type(message).__name__, message)
            if isinstance(getattr(message, "content", None), list):
                for block in message.content:
                    out.setdefault(type(block).__name__, block)
            info = getattr(message, "rate_limit_info", None)
            if info is not None:
                out.setdefault(type(info).__name__, info)
            deferred = getattr(message, "deferred_tool_use", None)
            if deferred is not None:
                out.setdefault(type(deferred).__name__, deferred)
    return list(out.values())


DECODED = _decoded()


def test_every_official_class_is_exercised() -> None:
    assert {type(m).__name__ for m in DECODED} == set(OFFICIAL["classes"])


@pytest.mark.parametrize("message", DECODED, ids=lambda m: type(m).__name__)
def test_dataclass_behaviour(message: Any) -> None:
    names = [f.name for f in dataclasses.fields(message)]
    # vars(), asdict() and repr() show the fields and nothing else.
    assert list(vars(message)) == names
    assert list(dataclasses.asdict(message)) == names
    assert repr(message).startswith(type(message).__name__ + "(")
    # Equal to a copy; replace() with nothing changed gives an equal object.
    assert copy.deepcopy(message) == message
    assert pickle.loads(pickle.dumps(message)) == message
    assert dataclasses.replace(message) == message
    # Mutable and unhashable, like the official classes.
    with pytest.raises(TypeError):
        hash(message)
    first = names[0]
    changed = dataclasses.replace(message, **{first: "changed"})
    assert changed != message and getattr(changed, first) == "changed"
    setattr(message, first, "assigned")
    assert getattr(message, first) == "assigned" and "'assigned'" in repr(message)


def test_extras_stay_out_of_the_fields() -> None:
    line = next(ln for ln in LINES["message_samples.ndjson"] if b'"isSynthetic": true' in ln)
    user = decode_line(line)
    assert isinstance(user, UserMessage)
    assert (user.is_synthetic, user.session_id) == (True, json.loads(line)["session_id"])
    for shown in (vars(user), dataclasses.asdict(user)):
        assert "session_id" not in shown and "is_synthetic" not in shown
    assert "is_synthetic" not in repr(user)
    # They travel with copies; a rebuilt message starts without them.
    assert copy.copy(user).is_synthetic and pickle.loads(pickle.dumps(user)).is_synthetic
    assert dataclasses.replace(user).is_synthetic is False
    assert UserMessage("hi").session_id is None

    line = next(ln for ln in LINES["message_samples.ndjson"] if b'"api_error_type"' in ln and b'"type": "result"' in ln)
    result = decode_frame(line)
    assert isinstance(result, ResultMessage)
    assert (result.api_error_type, result.result_index, result.outcome) == ("api_error", 0, "api_error")
    assert "api_error_type" not in vars(result) and "outcome" not in dataclasses.asdict(result)


def test_weak_references_work_as_on_a_plain_dataclass() -> None:
    import weakref

    user = UserMessage("hi")
    assert weakref.ref(user)() is user
