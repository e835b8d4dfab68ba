"""``StreamEvent.delta`` / ``message_id`` and ``StreamAccumulator``, on recorded and hand-made frames.

``recorded_stream.ndjson`` is Claude Code 2.1.328's stdout for a two-turn
run with partial messages: thinking, text and a Bash call streamed as
``input_json_delta`` pieces, each block followed by its final frame.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from claude_wrap import (
    AssistantMessage,
    StreamEvent,
    TextBlock,
    ThinkingBlock,
    ToolUseBlock,
    UserMessage,
)
from claude_wrap._wire.codec import decode_line
from claude_wrap._wire.messages import (
    CitationsDelta,
    SignatureDelta,
    TextDelta,
    ThinkingDelta,
    ToolInputDelta,
    UnknownDelta,
)
from claude_wrap._wire.stream import (
    Shown,
    StreamAccumulator,
    TextChunk,
    ThinkingChunk,
    ToolCall,
)

RECORDED = Path(__file__).parent.parent / "fixtures" / "recorded_stream.ndjson"


@pytest.fixture(scope="module")
def recorded() -> list[Any]:
    with RECORDED.open("rb") as f:
        return [m for line in f if (m := decode_line(line)) is not None]


def _event(event: dict[str, Any], parent: str | None = None) -> StreamEvent:
    return StreamEvent(uuid="u", session_id="s", event=event, parent_tool_use_id=parent)


def _start(mid: str, parent: str | None = None) -> StreamEvent:
    return _event({"type": "message_start", "message": {"id": mid, "content": []}}, parent)


def _block_start(index: int, block: dict[str, Any], parent: str | None = None) -> StreamEvent:
    return _event({"type": "content_block_start", "index": index, "content_block": block}, parent)


def _delta(index: int, delta: dict[str, Any], parent: str | None = None) -> StreamEvent:
    return _event({"type": "content_block_delta", "index": index, "delta": delta}, parent)


def _text(index: int, text: str, parent: str | None = None) -> StreamEvent:
    return _delta(index, {"type": "text_delta", "text": text}, parent)


def _stop(index: int, parent: str | None = None) -> StreamEvent:
    return _event({"type": "content_block_stop", "index": index}, parent)


def _final(*blocks: Any, mid: str | None = "m1", parent: str | None = None) -> AssistantMessage:
    return AssistantMessage(content=list(blocks), model="m", message_id=mid, parent_tool_use_id=parent)


def _feed(messages: list[Any]) -> list[Shown]:
    acc = StreamAccumulator()
    return [item for m in messages for item in acc.feed(m)]


def _joined(items: list[Shown]) -> str:
    return "".join(i.text for i in items if isinstance(i, TextChunk))


# -- typed deltas -------------------------------------------------------------------


def test_recorded_deltas_are_typed(recorded: list[Any]) -> None:
    events = [m for m in recorded if isinstance(m, StreamEvent)]
    deltas = [e.delta for e in events if e.delta is not None]
    counts: dict[str, int] = {}
    for d in deltas:
        counts[type(d).__name__] = counts.get(type(d).__name__, 0) + 1
    assert counts == {"ThinkingDelta": 156, "SignatureDelta": 2, "TextDelta": 166, "ToolInputDelta": 14}
    assert all(e.delta is None for e in events if e.event["type"] != "content_block_delta")

    tool = next(
        b for m in recorded if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, ToolUseBlock)
    )
    pieces = [d.partial_json for d in deltas if isinstance(d, ToolInputDelta)]
    assert json.loads("".join(pieces)) == tool.input
    assert {d.index for d in deltas if isinstance(d, ToolInputDelta)} == {2}


def test_message_id_only_on_message_start(recorded: list[Any]) -> None:
    events = [m for m in recorded if isinstance(m, StreamEvent)]
    ids = [e.message_id for e in events if e.message_id is not None]
    assert ids == ["msg_scripted_0001", "msg_scripted_0002"]
    assert all(e.message_id is None for e in events if e.event["type"] != "message_start")
    finals = {m.message_id for m in recorded if isinstance(m, AssistantMessage)}
    assert finals == set(ids)


def test_stream_event_wire_shape_is_unchanged(recorded: list[Any]) -> None:
    assert tuple(f.name for f in dataclasses.fields(StreamEvent)) == (
        "uuid",
        "session_id",
        "event",
        "parent_tool_use_id",
        "user_message_uuid",
        "user_message_uuids",
    )
    with RECORDED.open("rb") as f:
        line = next(ln for ln in f if b'"content_block_delta"' in ln)
    event = decode_line(line)
    assert isinstance(event, StreamEvent)
    assert "delta" not in msgspec.to_builtins(event)  # a property, never encoded
    assert "delta" not in dataclasses.asdict(event) and "message_id" not in vars(event)
    assert msgspec.json.decode(msgspec.json.encode(event), type=StreamEvent) == event


@pytest.mark.parametrize(
    ("delta", "expected"),
    [
        ({"type": "text_delta", "text": "hi"}, TextDelta(3, "hi")),
        ({"type": "thinking_delta", "thinking": "hm"}, ThinkingDelta(3, "hm")),
        ({"type": "signature_delta", "signature": "sig"}, SignatureDelta(3, "sig")),
        ({"type": "input_json_delta", "partial_json": '{"a'}, ToolInputDelta(3, '{"a')),
        ({"type": "citations_delta", "citation": {"cited_text": "x"}}, CitationsDelta(3, {"cited_text": "x"})),
        (
            {"type": "compaction_delta", "content": "c"},
            UnknownDelta(3, "compaction_delta", {"type": "compaction_delta", "content": "c"}),
        ),
        ({"type": "text_delta", "text": 5}, UnknownDelta(3, "text_delta", {"type": "text_delta", "text": 5})),
    ],
)
def test_each_delta_type(delta: dict[str, Any], expected: Any) -> None:
    assert _delta(3, delta).delta == expected


def test_odd_delta_events_give_none_or_defaults() -> None:
    assert _event({"type": "content_block_delta", "delta": "x"}).delta is None
    assert _event({"type": "content_block_delta", "index": "1", "delta": {"type": "text_delta"}}).delta is None
    # No index: the only block there is.
    assert _event({"type": "content_block_delta", "delta": {"type": "text_delta", "text": "a"}}).delta == TextDelta(
        0, "a"
    )
    assert _event({"type": "message_start", "message": {"id": 7}}).message_id is None
    assert _event({"type": "ping"}).delta is None


# -- the accumulator on the recorded run ----------------------------------------------


def test_recorded_run_shows_everything_once(recorded: list[Any]) -> None:
    shown = _feed(recorded)
    finals = [b for m in recorded if isinstance(m, AssistantMessage) for b in m.content]
    final_text = "".join(b.text for b in finals if isinstance(b, TextBlock))
    assert _joined(shown) == final_text
    assert not any(i.whole for i in shown if isinstance(i, (TextChunk, ThinkingChunk)))
    thinking = "".join(i.thinking for i in shown if isinstance(i, ThinkingChunk))
    assert thinking == "".join(b.thinking for b in finals if isinstance(b, ThinkingBlock))
    (tool,) = [b for b in finals if isinstance(b, ToolUseBlock)]
    assert [(c.id, c.name, c.input, c.message_id) for c in shown if isinstance(c, ToolCall)] == [
        (tool.id, tool.name, tool.input, "msg_scripted_0001")
    ]
    # Streamed chunks carry the message id their final frames carry.
    assert {i.message_id for i in shown} == {"msg_scripted_0001", "msg_scripted_0002"}
    assert {i.index for i in shown if isinstance(i, TextChunk)} == {1}


def test_recorded_run_without_its_deltas(recorded: list[Any]) -> None:
    shown = _feed([m for m in recorded if not isinstance(m, StreamEvent)])
    assert [(type(i).__name__, getattr(i, "whole", None)) for i in shown] == [
        ("ThinkingChunk", True),
        ("TextChunk", True),
        ("ToolCall", None),
        ("ThinkingChunk", True),
        ("TextChunk", True),
    ]
    assert _joined(shown) == _joined(_feed(recorded))


def test_recorded_run_without_its_final_frames_parses_the_tool_input(recorded: list[Any]) -> None:
    shown = _feed([m for m in recorded if not isinstance(m, AssistantMessage)])
    tool = next(
        b for m in recorded if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, ToolUseBlock)
    )
    assert [(c.id, c.input) for c in shown if isinstance(c, ToolCall)] == [(tool.id, tool.input)]


def test_other_messages_give_nothing() -> None:
    assert StreamAccumulator().feed(UserMessage(content="hi")) == []


# -- edge cases ---------------------------------------------------------------------


def test_final_frame_overtaking_the_deltas_adds_only_the_tail() -> None:
    shown = _feed(
        [
            _start("m1"),
            _block_start(0, {"type": "text", "text": ""}),
            _text(0, "Hel"),
            _final(TextBlock("Hello world")),
            _text(0, "lo wo"),  # late deltas already covered by the final frame
            _text(0, "rld"),
        ]
    )
    assert [(i.text, i.whole) for i in shown if isinstance(i, TextChunk)] == [("Hel", False), ("lo world", False)]


def test_late_deltas_beyond_the_final_text_are_still_shown() -> None:
    shown = _feed([_start("m1"), _text(0, "ab"), _final(TextBlock("abc")), _text(0, "cd")])
    assert [i.text for i in shown if isinstance(i, TextChunk)] == ["ab", "c", "d"]


def test_block_left_out_of_the_final_frames_does_not_shift_the_rest() -> None:
    shown = _feed(
        [
            _start("m1"),
            _block_start(0, {"type": "text", "text": ""}),  # empty: never gets a final frame
            _stop(0),
            _block_start(1, {"type": "text", "text": ""}),
            _text(1, "real text"),
            _final(TextBlock("real text")),
            _stop(1),
        ]
    )
    assert [(i.text, i.whole, i.index) for i in shown if isinstance(i, TextChunk)] == [("real text", False, 1)]


def test_final_of_another_message_is_shown_whole() -> None:
    shown = _feed([_start("m1"), _text(0, "streamed"), _final(TextBlock("streamed"), mid="m2")])
    assert [(i.text, i.whole) for i in shown if isinstance(i, TextChunk)] == [("streamed", False), ("streamed", True)]


def test_final_that_contradicts_the_stream_is_shown_whole() -> None:
    shown = _feed([_start("m1"), _text(0, "Hello wrld"), _final(TextBlock("Hello world"))])
    assert [(i.text, i.whole) for i in shown if isinstance(i, TextChunk)] == [
        ("Hello wrld", False),
        ("Hello world", True),
    ]


def test_threads_are_kept_apart() -> None:
    shown = _feed(
        [
            _start("main"),
            _text(0, "main "),
            _start("sub", parent="t1"),
            _text(0, "sub text", parent="t1"),
            _text(0, "text"),
            _final(TextBlock("sub text"), mid="sub", parent="t1"),
            _final(TextBlock("main text"), mid="main"),
            _final(TextBlock("unstreamed"), mid="sub2", parent="t2"),
        ]
    )
    got = [(i.parent_tool_use_id, i.text, i.whole) for i in shown if isinstance(i, TextChunk)]
    assert got == [
        (None, "main ", False),
        ("t1", "sub text", False),
        (None, "text", False),
        ("t2", "unstreamed", True),
    ]


def test_tool_call_from_stream_is_not_repeated_by_its_final_frame() -> None:
    tool = {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {}}
    shown = _feed(
        [
            _start("m1"),
            _block_start(0, tool),
            _delta(0, {"type": "input_json_delta", "partial_json": '{"file_'}),
            _delta(0, {"type": "input_json_delta", "partial_json": 'path": "/x"}'}),
            _stop(0),
            _final(ToolUseBlock("toolu_1", "Read", {"file_path": "/x"})),
            _final(ToolUseBlock("toolu_1", "Read", {"file_path": "/x"}), mid="m9"),  # replayed elsewhere
        ]
    )
    assert shown == [ToolCall("toolu_1", "Read", {"file_path": "/x"}, "m1", None)]


def test_tool_call_with_no_input_and_with_broken_json() -> None:
    empty = _feed([_start("m1"), _block_start(0, {"type": "tool_use", "id": "t0", "name": "Now"}), _stop(0)])
    assert empty == [ToolCall("t0", "Now", {}, "m1", None)]

    broken = _feed(
        [
            _start("m1"),
            _block_start(0, {"type": "tool_use", "id": "t1", "name": "Bash"}),
            _delta(0, {"type": "input_json_delta", "partial_json": '{"command": '}),
            _stop(0),  # unparseable: wait for the final frame
            _final(ToolUseBlock("t1", "Bash", {"command": "ls"})),
        ]
    )
    assert broken == [ToolCall("t1", "Bash", {"command": "ls"}, "m1", None)]


def test_deltas_without_message_start_or_block_start() -> None:
    shown = _feed(
        [
            _event({"type": "content_block_delta", "delta": {"type": "text_delta", "text": "Hel"}}),
            _event({"type": "content_block_delta", "delta": {"type": "text_delta", "text": "lo."}}),
            _final(TextBlock("Hello."), mid=None),
        ]
    )
    assert [(i.text, i.whole, i.message_id) for i in shown if isinstance(i, TextChunk)] == [
        ("Hel", False, None),
        ("lo.", False, None),
    ]


def test_empty_blocks_give_nothing() -> None:
    assert _feed([_final(TextBlock(""), ThinkingBlock("", ""))]) == []
    assert _feed([_start("m1"), _text(0, ""), _final(TextBlock(""))]) == []
