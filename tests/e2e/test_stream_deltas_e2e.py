"""Typed deltas and ``StreamAccumulator`` on the real binary's output.

The scripted model streams thinking, text and a tool call whose input comes
as ``input_json_delta`` pieces; Claude Code 2.1.328 turns that into
``StreamEvent`` frames followed by one ``AssistantMessage`` frame per block.
Whatever the binary sends, the accumulator must give each piece of text and
each tool call exactly once.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _e2e import Options, run

from claude_wrap import (
    AgentDefinition,
    AssistantMessage,
    StreamEvent,
    TextBlock,
    ThinkingBlock,
    ToolUseBlock,
)
from claude_wrap._wire.messages import (
    SignatureDelta,
    TextDelta,
    ThinkingDelta,
    ToolInputDelta,
)
from claude_wrap._wire.stream import (
    Shown,
    StreamAccumulator,
    TextChunk,
    ThinkingChunk,
    ToolCall,
)
from claude_wrap.testing import Reply, ScriptedModel, ScriptedText, ScriptedToolUse

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

THINKING = "The user wants the date. Running `date` is quicker than guessing, so I will call Bash once."
FIRST = "Let me check with the shell — one moment, this takes a single command. ünïcode ✓"
SECOND = "Done: the shell printed the marker STREAM-MARKER, so the command ran."
TOOL_INPUT = {"command": "echo STREAM-MARKER", "description": "print a marker", "nested": {"list": [1, 2, "три"]}}


def _script(model: ScriptedModel) -> None:
    model.add(
        Reply.thinking(THINKING, ScriptedText(FIRST), ScriptedToolUse("Bash", TOOL_INPUT, "toolu_stream_1")),
        Reply.text(SECOND),
    )


def _shown(messages: list[Any]) -> list[Shown]:
    acc = StreamAccumulator()
    return [item for m in messages for item in acc.feed(m)]


def _finals(messages: list[Any], kind: type) -> list[Any]:
    return [b for m in messages if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, kind)]


async def test_partial_messages_give_typed_deltas_and_each_thing_once(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    _script(scripted_model)
    messages = await run("what is the date?", make_options(include_partial_messages=True, allowed_tools=["Bash"]))
    events = [m for m in messages if isinstance(m, StreamEvent)]

    # Typed deltas, as the API streamed them.
    deltas = [e.delta for e in events if e.delta is not None]
    assert {type(d) for d in deltas} == {TextDelta, ThinkingDelta, SignatureDelta, ToolInputDelta}
    assert all(e.delta is None for e in events if e.event["type"] != "content_block_delta")
    pieces = [d.partial_json for d in deltas if isinstance(d, ToolInputDelta)]
    assert len(pieces) > 1  # really arrived in pieces
    (tool_block,) = _finals(messages, ToolUseBlock)
    assert json.loads("".join(pieces)) == tool_block.input == TOOL_INPUT
    assert "".join(d.text for d in deltas if isinstance(d, TextDelta)) == FIRST + SECOND

    # message_start ids are the ids the final frames carry.
    started = [e.message_id for e in events if e.message_id is not None]
    finals = [m.message_id for m in messages if isinstance(m, AssistantMessage)]
    assert len(started) == 2 and set(started) == set(finals)

    shown = _shown(messages)
    texts = [i for i in shown if isinstance(i, TextChunk)]
    assert len(texts) > 2 and not any(i.whole for i in texts)  # streamed, not repeated whole
    text = "".join(i.text for i in texts)
    assert text == "".join(b.text for b in _finals(messages, TextBlock)) == FIRST + SECOND
    assert text.count("STREAM-MARKER") == 1
    thinking = "".join(i.thinking for i in shown if isinstance(i, ThinkingChunk))
    assert thinking == "".join(b.thinking for b in _finals(messages, ThinkingBlock)) == THINKING
    calls = [i for i in shown if isinstance(i, ToolCall)]
    assert [(c.id, c.name, c.input) for c in calls] == [(tool_block.id, "Bash", TOOL_INPUT)]
    assert {i.message_id for i in shown} == set(started)
    assert all(i.parent_tool_use_id is None for i in shown)

    # Without the final frames, the tool call comes from the streamed JSON, parsed.
    only_events = _shown(events)
    assert [(c.id, c.input) for c in only_events if isinstance(c, ToolCall)] == [(tool_block.id, TOOL_INPUT)]
    assert "".join(i.text for i in only_events if isinstance(i, TextChunk)) == FIRST + SECOND


async def test_without_partial_messages_blocks_come_whole(scripted_model: ScriptedModel, make_options: Options) -> None:
    _script(scripted_model)
    messages = await run("what is the date?", make_options(allowed_tools=["Bash"]))
    assert not any(isinstance(m, StreamEvent) for m in messages)

    shown = _shown(messages)
    assert [(type(i).__name__, getattr(i, "whole", None)) for i in shown] == [
        ("ThinkingChunk", True),
        ("TextChunk", True),
        ("ToolCall", None),
        ("TextChunk", True),
    ]
    assert "".join(i.text for i in shown if isinstance(i, TextChunk)) == FIRST + SECOND
    assert [i.input for i in shown if isinstance(i, ToolCall)] == [TOOL_INPUT]


async def test_subagent_output_is_shown_once_with_its_parent(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    def for_subagent(request: Any) -> bool:
        return "Check the plan" in request.last_user_text

    task = {"subagent_type": "checker", "description": "check", "prompt": "Check the plan", "run_in_background": False}
    scripted_model.add(
        Reply.tool_use("Task", task, text="Delegating."),
        Reply.text("SUBAGENT-SAYS-FINE").match_if(for_subagent),
        Reply.text("MAIN-DONE").match_if(lambda r: not for_subagent(r)),
    )
    options = make_options(
        include_partial_messages=True,
        allowed_tools=["Task"],
        agents={"checker": AgentDefinition(description="Checks plans", prompt="You check plans.")},
        forward_subagent_text=True,
    )
    messages = await run("delegate", options)
    # 2.1.328 streams only the main thread; a subagent's blocks come whole.
    assert not any(isinstance(m, StreamEvent) and m.parent_tool_use_id for m in messages)
    (task_call,) = [b for b in _finals(messages, ToolUseBlock) if b.name == "Task"]

    shown = _shown(messages)
    by_thread: dict[str | None, str] = {}
    for item in shown:
        if isinstance(item, TextChunk):
            by_thread[item.parent_tool_use_id] = by_thread.get(item.parent_tool_use_id, "") + item.text
    assert by_thread == {None: "Delegating.MAIN-DONE", task_call.id: "SUBAGENT-SAYS-FINE"}
    assert [i.id for i in shown if isinstance(i, ToolCall)] == [task_call.id]
