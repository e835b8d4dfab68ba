"""A run left mid-turn is interrupted at once, and its session resumes from
the turn it left.

Leaving (a break, a disconnect, a cancellation) while the model's tool call
is under way stops the tool with the turn; the official package lets the
turn go on instead (tests/compat's ``leave_mid_turn_transcript`` shows
both). What was said before leaving stays in the transcript: resuming, the
model gets the prompt, its tool call, and a tool result that says the call
did not run to its end. Nothing asks the model again for the left turn.
"""

from __future__ import annotations

import os
from contextlib import aclosing
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options, run
from _procs import processes_where

from claude_wrap import AssistantMessage, ClaudeSDKClient, ResultMessage, ToolUseBlock, query
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.e2e,
    # trio warns when an async generator is left unexhausted (and closes it anyway).
    pytest.mark.filterwarnings("ignore:Async generator .* was garbage collected:ResourceWarning"),
]


def _asks_for_the_tool(message: Any) -> bool:
    return isinstance(message, AssistantMessage) and any(isinstance(b, ToolUseBlock) for b in message.content)


async def _leave(how: str, prompt: str, options: Any) -> str:
    """Start a run and leave it ``how`` once the model asked for the tool;
    returns the session id."""
    if how == "break":
        async with aclosing(query(prompt=prompt, options=options)) as messages:
            async for message in messages:
                if _asks_for_the_tool(message):
                    return str(message.session_id)
    elif how == "disconnect":
        async with ClaudeSDKClient(options) as client:
            await client.query(prompt)
            async for message in client.receive_response():
                if _asks_for_the_tool(message):
                    return str(message.session_id)
    else:
        found: list[str] = []
        async with anyio.create_task_group() as tg:

            async def read() -> None:
                async for message in query(prompt=prompt, options=options):
                    if _asks_for_the_tool(message):
                        found.append(str(message.session_id))
                        tg.cancel_scope.cancel()

            tg.start_soon(read)
        return found[0]
    raise AssertionError("the model never asked for the tool")


@pytest.mark.parametrize("how", ["break", "disconnect", "cancel"])
async def test_the_resumed_session_holds_the_turn_that_was_left(
    how: str, scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    marker = f"claude-wrap-left-{how}-{id(workdir)}"
    # Not a leading `sleep 30`: the binary refuses that outright ("Blocked:
    # sleep 30 followed by: ..."), so the tool would not even start.
    command = f"python3 -c 'import time; time.sleep(30)' && touch finished && echo {marker}"
    scripted_model.add(
        Reply.tool_use("Bash", {"command": command, "description": "slow"}).match_if(
            lambda r: r.last_user_text == "Run the slow command"
        ),
        Reply.text("Resumed.").match_if(lambda r: r.last_user_text == "What happened?"),
    )
    # Leaving, the binary is told to interrupt the turn and records it before
    # it exits; a loaded machine can take longer than half the default grace
    # for that, and a binary stopped by a signal records nothing more.
    options = make_options(allowed_tools=["Bash"], shutdown_grace=15)
    with anyio.fail_after(60):
        session_id = await _leave(how, "Run the slow command", options)
    # Stopped with the turn: no binary, no command, and the command never finished.
    assert processes_where(cwd=workdir) == []
    assert processes_where(cmdline_contains=marker) == []
    assert not os.path.exists(workdir / "finished")

    messages = await run("What happened?", make_options(allowed_tools=["Bash"], resume=session_id))
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "Resumed."
    # The left turn did not ask the model again.
    asked = [(r.last_user_text, r.tool_results, round(r.timestamp, 2)) for r in scripted_model.unexpected]
    assert asked == []
    seen = scripted_model.main_requests[-1].messages
    calls = [b for m in seen if m["role"] == "assistant" for b in m["content"] if b.get("type") == "tool_use"]
    assert [c["input"]["command"] for c in calls] == [command]
    results = [
        b
        for m in seen
        if m["role"] == "user" and isinstance(m["content"], list)
        for b in m["content"]
        if b.get("type") == "tool_result"
    ]
    assert [(r["tool_use_id"], r.get("is_error")) for r in results] == [(calls[0]["id"], True)]
    assert "Run the slow command" in str(seen[0]["content"])
