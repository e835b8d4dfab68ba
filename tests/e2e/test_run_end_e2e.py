"""How a run ends, against the real binary: ``query()`` reads until the binary
exits, so turns it starts on its own (a background agent finishing) reach the
caller, and callbacks keep working until the binary says the run is over.

Every test runs under asyncio and trio. The anyio timeouts are hang guards.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options, run

from claude_wrap import (
    AgentDefinition,
    AssistantMessage,
    ClaudeSDKClient,
    HookMatcher,
    PermissionResultAllow,
    ResultError,
    ResultMessage,
    SystemMessage,
    TextBlock,
)
from claude_wrap.testing import Reply, ScriptedModel
from claude_wrap.testing._recorded import RecordedRequest

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

SUB_PROMPT = "SUBTASK: count the files in the project"
INTERIM = "The agent is working on it; I will report back."
FINAL = "FINAL: the agent counted 3 files."


def _first_user_text(request: RecordedRequest) -> str:
    return json.dumps(request.messages[:1])


def _is_sub(request: RecordedRequest) -> bool:
    return request.is_main and SUB_PROMPT in _first_user_text(request)


def _is_parent(request: RecordedRequest) -> bool:
    return request.is_main and not _is_sub(request)


def _agent_call(**extra: Any) -> Reply:
    arguments = {"description": "count files", "prompt": SUB_PROMPT, "subagent_type": "general-purpose", **extra}
    return Reply.tool_use("Agent", arguments).match_if(_is_parent)


def _background_agent(model: ScriptedModel, *follow_up: Reply) -> None:
    """The parent starts a background agent and answers at once; the agent's
    completion wakes the parent for a turn of its own (``follow_up``, then
    the final answer)."""
    model.add(
        _agent_call(run_in_background=True),
        Reply.text(INTERIM).match_if(_is_parent),
        Reply.text("3 files").slow(0.3).match_if(_is_sub),
        *(reply.match_if(_is_parent) for reply in follow_up),
        Reply.text(FINAL).match_if(_is_parent),
    )


def _texts(messages: list[Any]) -> list[str]:
    return [
        b.text
        for m in messages
        if isinstance(m, AssistantMessage) and m.parent_tool_use_id is None
        for b in m.content
        if isinstance(b, TextBlock)
    ]


def _results(messages: list[Any]) -> list[ResultMessage]:
    return [m for m in messages if isinstance(m, ResultMessage)]


async def _allow(tool: str, tool_input: dict[str, Any], context: Any) -> PermissionResultAllow:
    return PermissionResultAllow()


# -- turns the binary starts on its own --------------------------------------------------


async def test_background_agent_follow_up_reaches_query(scripted_model: ScriptedModel, make_options: Options) -> None:
    _background_agent(scripted_model)
    messages = await run("count the files with a background agent", make_options())

    # The binary may hold the first result back until the agent is done, so
    # the order of the first result and the follow-up's text varies; the
    # follow-up's own result always comes last.
    results = _results(messages)
    assert [r.result for r in results] == [INTERIM, FINAL], [type(m).__name__ for m in messages]
    assert FINAL in _texts(messages)
    assert messages[-1] is results[-1] and not results[-1].is_error
    assert scripted_model.unexpected == []


async def test_an_agent_started_in_the_foreground_still_delivers_its_final_answer(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    """The shape of the official agents example: a custom agent, asked for in
    the prompt; the binary runs it asynchronously and answers after it."""
    reviewer = AgentDefinition(
        description="Reviews code for problems", prompt="You are a code reviewer.", tools=["Read", "Grep"]
    )
    scripted_model.add(
        _agent_call(subagent_type="code-reviewer"),
        Reply.text(INTERIM).match_if(_is_parent),
        Reply.text("no problems found").slow(0.3).match_if(_is_sub),
        Reply.text(FINAL).match_if(_is_parent),
    )
    messages = await run(
        "Use the code-reviewer agent to review the code", make_options(agents={"code-reviewer": reviewer})
    )

    assert _texts(messages)[-1] == FINAL
    assert _results(messages)[-1].result == FINAL


async def test_callbacks_still_answer_in_a_turn_after_the_first_result(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    """With ``can_use_tool`` stdin stays open until the binary reports the run
    idle: the follow-up turn's permission prompt gets its answer."""
    asked: list[str] = []

    async def allow(tool: str, tool_input: dict[str, Any], context: Any) -> PermissionResultAllow:
        asked.append(str(tool_input.get("command", "")))
        return PermissionResultAllow()

    _background_agent(scripted_model, Reply.tool_use("Bash", {"command": "touch follow-up-ran", "description": "x"}))
    messages = await run("count the files with a background agent", make_options(can_use_tool=allow))

    assert "touch follow-up-ran" in asked
    assert (workdir / "follow-up-ran").exists()
    assert _results(messages)[-1].result == FINAL


async def test_hooks_run_in_every_turn_of_the_run(scripted_model: ScriptedModel, make_options: Options) -> None:
    stops: list[str] = []

    async def on_stop(hook_input: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
        stops.append(hook_input["hook_event_name"])
        return {}

    _background_agent(scripted_model)
    messages = await run(
        "count the files with a background agent", make_options(hooks={"Stop": [HookMatcher(hooks=[on_stop])]})
    )

    assert len(stops) == len(_results(messages)) >= 2
    assert _results(messages)[-1].result == FINAL


async def test_streamed_prompts_keep_stdin_until_the_last_run_ends(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    """Prompts that come slowly, with a callback that needs stdin: the first
    run's end does not close it, the last one's does (the binary then exits)."""
    seen: list[str] = []

    async def allow(tool: str, tool_input: dict[str, Any], context: Any) -> PermissionResultAllow:
        seen.append(str(tool_input.get("command", "")))
        return PermissionResultAllow()

    scripted_model.add(
        Reply.text("one"),
        Reply.tool_use("Bash", {"command": "touch second-prompt", "description": "x"}),
        Reply.text("two"),
    )

    async def prompts() -> Any:
        yield {"type": "user", "message": {"role": "user", "content": "first"}}
        await anyio.sleep(1.0)  # the first run is over by now
        yield {"type": "user", "message": {"role": "user", "content": "second"}}

    messages = await run(prompts(), make_options(can_use_tool=allow))

    assert [r.result for r in _results(messages)] == ["one", "two"]
    assert seen == ["touch second-prompt"]


async def test_client_connected_with_streamed_prompts_ends_with_their_run(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    """``connect(prompt=<async iterable>)`` writes the prompts and closes the
    binary's input after the last one's run: the conversation then ends."""
    scripted_model.add(Reply.text("one"), Reply.text("two"))

    async def prompts() -> Any:
        for text in ("first", "second"):
            yield {"type": "user", "message": {"role": "user", "content": text}}

    client = ClaudeSDKClient(make_options(can_use_tool=_allow))
    with anyio.fail_after(60):
        await client.connect(prompts())
        try:
            messages = [m async for m in client.receive_messages()]  # ends: the binary exited
        finally:
            await client.disconnect()
    assert [r.result for r in _results(messages)] == ["one", "two"]


# -- a plain run ---------------------------------------------------------------------------


async def test_a_plain_run_ends_when_the_binary_exits(scripted_model: ScriptedModel, make_options: Options) -> None:
    """No waiting on our side: with a long shutdown grace, the run still ends
    as soon as the binary exits on its own (guard far below the grace)."""
    scripted_model.add(Reply.text("hello"))
    for options in (make_options(shutdown_grace=120), make_options(shutdown_grace=120, hooks={"Stop": []})):
        messages = await run("hi", options, limit=60)
        assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "hello"
        scripted_model.add(Reply.text("hello"))


async def test_state_frames_for_the_host_are_not_handed_out(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("a"), Reply.text("b"))

    hidden = await run("hi", make_options())
    assert not [m for m in hidden if isinstance(m, SystemMessage) and m.subtype == "session_state_changed"]

    # Asked for by the caller, the frames are theirs (and not marked for the host).
    shown = await run("hi", make_options(env={**make_options().env, "CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS": "1"}))
    states = [
        m.data.get("state") for m in shown if isinstance(m, SystemMessage) and m.subtype == "session_state_changed"
    ]
    assert "idle" in states


# -- ResultError: an error result, then a non-zero exit -------------------------------------


async def test_client_yields_an_error_result_and_goes_on(scripted_model: ScriptedModel, make_options: Options) -> None:
    """While the binary keeps running, an error result is just a message."""
    scripted_model.add(Reply.error(500, "scripted outage"), Reply.text("better now"))
    async with ClaudeSDKClient(make_options()) as client:
        with anyio.fail_after(60):
            await client.query("first")
            first = [m async for m in client.receive_response()]
            await client.query("second")
            second = [m async for m in client.receive_response()]

    assert first[-1].is_error and first[-1].api_error_status == 500
    assert second[-1].result == "better now"


async def test_client_ends_with_result_error_when_the_binary_exits_after_an_error(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.error(500, "scripted outage"))
    async with ClaudeSDKClient(make_options()) as client:
        with anyio.fail_after(60):
            await client.query("first")
            first = [m async for m in client.receive_response()]
            await client.end_session()  # the binary exits; its last result was an error
            with pytest.raises(ResultError) as info:
                async for _ in client.receive_messages():
                    pass

    assert first[-1].is_error
    assert info.value.api_error_status == 500 and info.value.exit_code not in (0, None)
    assert str(info.value).startswith("Claude Code returned an error result: API Error: 500")


async def test_client_connect_to_an_unknown_session_raises_result_error(make_options: Options) -> None:
    missing = "00000000-0000-4000-8000-000000000000"
    with anyio.fail_after(30), pytest.raises(ResultError) as info:
        async with ClaudeSDKClient(make_options(resume=missing)):
            pass
    assert str(info.value).startswith("Claude Code returned an error result: No conversation found")
    assert info.value.subtype == "error_during_execution"
