"""Frames the official package drops, typed: with ``keep_unrecognized``
they arrive as ``ToolProgressMessage`` and ``ToolUseSummaryMessage`` (both
still ``UnknownMessage``); without it, not at all. Against the real binary."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from _e2e import Options, bash, run

from claude_wrap import HookMatcher, ToolProgressMessage, ToolUseSummaryMessage, UnknownMessage
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

# A heartbeat every 100 ms while a hook decides; a summary after tool calls.
EXTRAS = {"CLAUDE_CODE_HOOK_HEARTBEAT_INTERVAL_MS": "100", "CLAUDE_CODE_EMIT_TOOL_USE_SUMMARIES": "1"}


async def deciding(input_data: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
    await anyio.sleep(0.6)
    return {}


def options(make_options: Options, **fields: Any) -> Any:
    env = {**make_options().env, **EXTRAS}
    hooks = {"PreToolUse": [HookMatcher(None, [deciding])]}
    return make_options(env=env, allowed_tools=["Bash"], hooks=hooks, **fields)


async def test_progress_and_summaries_arrive_typed_when_asked_for(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(bash("echo hi"), Reply.text("done"))
    messages = await run("go", options(make_options, keep_unrecognized=True))
    progress = [m for m in messages if isinstance(m, ToolProgressMessage)]
    summaries = [m for m in messages if isinstance(m, ToolUseSummaryMessage)]
    assert progress and all(isinstance(m, UnknownMessage) and m.type == "tool_progress" for m in progress)
    tool_use_id = scripted_model.main_requests[1].tool_results[0]["tool_use_id"]
    assert {(m.tool_name, m.parent_tool_use_id, m.heartbeat) for m in progress} == {("PreToolUse", tool_use_id, True)}
    assert all(m.session_id and m.uuid for m in progress)
    assert [m.preceding_tool_use_ids for m in summaries] == [[tool_use_id]]
    assert summaries[0].summary  # the side request's answer, from the scripted model


async def test_without_keep_unrecognized_they_are_dropped_as_officially(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(bash("echo hi"), Reply.text("done"))
    messages = await run("go", options(make_options))
    assert not [m for m in messages if isinstance(m, UnknownMessage)]
    assert messages[-1].result == "done"
