"""Hooks, permissions, the client and the watchdog against the real binary."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options, bash, run, tool_results
from _procs import processes_where

from claude_wrap import (
    AgentDefinition,
    AssistantMessage,
    ClaudeSDKClient,
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    ResultError,
    ResultMessage,
    SystemMessage,
    TaskNotificationMessage,
    TaskStartedMessage,
    ToolPermissionContext,
    TurnTimeoutError,
    UserMessage,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


# -- hooks ---------------------------------------------------------------------


async def test_pre_tool_use_allow_with_updated_input(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    seen: list[dict[str, Any]] = []

    async def rewrite(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        seen.append(input_data)
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "permissionDecisionReason": "rewritten",
                "updatedInput": {"command": "echo rewritten > hooked.txt", "description": "x"},
            }
        }

    scripted_model.add(bash("echo original > hooked.txt"), Reply.text("done"))
    await run("go", make_options(hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[rewrite])]}))

    assert (workdir / "hooked.txt").read_text().strip() == "rewritten"
    assert seen[0]["tool_name"] == "Bash" and seen[0]["hook_event_name"] == "PreToolUse"


async def test_pre_tool_use_deny(scripted_model: ScriptedModel, make_options: Options, workdir: Path) -> None:
    def deny(input_data: Any, tool_use_id: str | None, context: Any) -> Any:  # a sync hook
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "not on my watch",
            }
        }

    scripted_model.add(bash("touch denied.txt"), Reply.text("ok"))
    messages = await run("a", make_options(hooks={"PreToolUse": [HookMatcher("Bash", [deny])]}))

    assert not (workdir / "denied.txt").exists()
    assert "not on my watch" in str(tool_results(messages)[0].content)


async def explode(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
    raise RuntimeError("hook exploded")


async def test_a_raising_hook_is_no_opinion_and_the_binary_says_so(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    # As with the official package: an error reply, which the binary counts as
    # an empty answer; the tool runs.
    scripted_model.add(bash("touch open.txt"), Reply.text("ok"))
    messages = await run(
        "go", make_options(hooks={"PreToolUse": [HookMatcher("Bash", [explode])]}, allowed_tools=["Bash"])
    )
    assert (workdir / "open.txt").exists()
    warnings = [m for m in messages if isinstance(m, SystemMessage) and m.data.get("tag") == "hook_callback_failed"]
    assert warnings and "treated as empty" in warnings[0].data["content"]
    assert "hook exploded" not in json.dumps(scripted_model.main_requests[1].messages)


async def test_a_raising_hook_blocks_when_its_matcher_says_so(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(bash("touch closed.txt"), Reply.text("ok"))
    messages = await run(
        "go",
        make_options(
            hooks={"PreToolUse": [HookMatcher("Bash", [explode], on_failure="block")]}, allowed_tools=["Bash"]
        ),
    )
    assert not (workdir / "closed.txt").exists()
    denied = tool_results(messages)[0]
    assert denied.is_error and 'onFailure is "block"' in str(denied.content)


async def test_post_tool_use_context_and_updated_output(scripted_model: ScriptedModel, make_options: Options) -> None:
    async def post(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        assert input_data["tool_response"]["stdout"] == "real-output"
        return {
            "hookSpecificOutput": {
                "hookEventName": "PostToolUse",
                "additionalContext": "POST-CONTEXT-123",
                # the shape of the tool's own output (Bash: stdout/stderr/...)
                "updatedToolOutput": {**input_data["tool_response"], "stdout": "replaced-output"},
            }
        }

    scripted_model.add(bash("echo real-output"), Reply.text("done"))
    await run("go", make_options(allowed_tools=["Bash"], hooks={"PostToolUse": [HookMatcher(None, [post])]}))

    seen = json.dumps(scripted_model.main_requests[1].messages)
    assert "POST-CONTEXT-123" in seen
    assert "replaced-output" in seen


async def test_user_prompt_submit_context_and_block(scripted_model: ScriptedModel, make_options: Options) -> None:
    async def add_context(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        return {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "UPS-CTX-9"}}

    async def block(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        return {"decision": "block", "reason": "prompt refused by hook"}

    scripted_model.add(Reply.text("fine"))
    await run("hello", make_options(hooks={"UserPromptSubmit": [HookMatcher(None, [add_context])]}))
    assert "UPS-CTX-9" in json.dumps(scripted_model.main_requests[0].body)

    blocked = await run("forbidden", make_options(hooks={"UserPromptSubmit": [HookMatcher(None, [block])]}))
    assert len(scripted_model.main_requests) == 1  # no model call for the blocked prompt
    result = blocked[-1]
    assert isinstance(result, ResultMessage) and result.num_turns == 0
    assert "prompt refused by hook" in (result.result or "")


async def test_stop_hook_block_calls_model_again(scripted_model: ScriptedModel, make_options: Options) -> None:
    calls = 0

    async def stop(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        nonlocal calls
        calls += 1
        return {"decision": "block", "reason": "STOP-HOOK: also say bye"} if calls == 1 else {}

    scripted_model.add(Reply.text("hello"), Reply.text("bye"))
    messages = await run("hi", make_options(hooks={"Stop": [HookMatcher(None, [stop])]}))

    assert calls == 2
    assert "STOP-HOOK: also say bye" in json.dumps(scripted_model.main_requests[1].messages)
    assert messages[-1].result == "bye"


async def test_post_tool_use_failure_hook(scripted_model: ScriptedModel, make_options: Options) -> None:
    failures: list[dict[str, Any]] = []

    async def on_failure(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        failures.append(input_data)
        return {}

    scripted_model.add(bash("exit 3"), Reply.text("it failed"))
    await run(
        "fail", make_options(allowed_tools=["Bash"], hooks={"PostToolUseFailure": [HookMatcher(None, [on_failure])]})
    )
    assert failures and failures[0]["tool_name"] == "Bash"
    assert failures[0]["hook_event_name"] == "PostToolUseFailure"


async def test_session_and_compact_hooks(scripted_model: ScriptedModel, make_options: Options) -> None:
    """In stream-json mode the binary fires SessionStart/SessionEnd around
    ``/clear`` and ``/compact`` (not at process start or exit)."""
    events: list[tuple[str, str]] = []

    async def record(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        detail = input_data.get("source") or input_data.get("reason") or input_data.get("trigger") or ""
        events.append((input_data["hook_event_name"], detail))
        return {}

    names = ["SessionStart", "SessionEnd", "PreCompact", "PostCompact"]
    scripted_model.add(Reply.text("hi"), Reply.text("summary of the chat").repeat(2))
    async with ClaudeSDKClient(make_options(hooks={n: [HookMatcher(None, [record])] for n in names})) as client:
        for prompt in ("hi", "/compact", "/clear"):
            await client.query(prompt)
            async for _ in client.receive_response():
                pass
    assert ("PreCompact", "manual") in events and ("PostCompact", "manual") in events
    assert events.index(("PreCompact", "manual")) < events.index(("PostCompact", "manual"))
    assert ("SessionEnd", "clear") in events and ("SessionStart", "clear") in events


async def test_hook_past_its_matcher_timeout_blocks_tool(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    cancelled = anyio.Event()

    async def slow(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        try:
            await anyio.sleep(30)
        finally:
            cancelled.set()
        return {}

    scripted_model.add(bash("touch late.txt"), Reply.text("ok"))
    messages = await run(
        "go", make_options(allowed_tools=["Bash"], hooks={"PreToolUse": [HookMatcher("Bash", [slow], timeout=1)]})
    )
    assert cancelled.is_set()  # the binary's control_cancel_request reached the callback
    assert not (workdir / "late.txt").exists()
    assert "timeout" in str(tool_results(messages)[0].content)


async def test_concurrent_hooks_on_one_event(scripted_model: ScriptedModel, make_options: Options) -> None:
    running = 0
    peak = 0

    async def hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await anyio.sleep(0.3)
        running -= 1
        return {}

    scripted_model.add(bash("echo hi"), Reply.text("ok"))
    await run("go", make_options(allowed_tools=["Bash"], hooks={"PreToolUse": [HookMatcher(None, [hook, hook, hook])]}))
    assert peak >= 1  # each answered; the binary decides whether to ask them together


# -- permissions ------------------------------------------------------------------


async def test_can_use_tool_allow_with_rewritten_input(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    contexts: list[ToolPermissionContext] = []

    async def allow(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        contexts.append(context)
        return PermissionResultAllow(updated_input={**tool_input, "command": "touch rewritten.txt"})

    scripted_model.add(bash("touch original.txt"), Reply.text("ok"))
    await run("go", make_options(can_use_tool=allow))

    assert (workdir / "rewritten.txt").exists() and not (workdir / "original.txt").exists()
    assert contexts[0].tool_use_id and contexts[0].suggestions


async def test_can_use_tool_deny_with_message_and_with_interrupt(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    async def deny(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        return PermissionResultDeny(message="no touching today")

    async def stop(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        return PermissionResultDeny(message="stop everything", interrupt=True)

    scripted_model.add(bash("touch a.txt"), Reply.text("understood"), bash("touch b.txt"), Reply.text("never"))
    first = await run("a", make_options(can_use_tool=deny))
    with pytest.raises(ResultError) as info:
        await run("b", make_options(can_use_tool=stop))

    assert "no touching today" in str(tool_results(first)[0].content)
    assert first[-1].result == "understood"
    assert not (workdir / "a.txt").exists() and not (workdir / "b.txt").exists()
    # interrupt=True ends the turn without another model call
    assert len(scripted_model.main_requests) == 3
    # The binary asks as soon as the tool call is complete, while the rest of
    # the reply may still be streaming: a deny that lands before the reply's
    # end aborts the stream, one that lands after aborts the tools. Both are
    # the interrupt; which one is the binary's timing, not ours.
    assert info.value.terminal_reason in ("aborted_tools", "aborted_streaming")


async def test_can_use_tool_updated_permissions_persist(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    asked: list[str] = []

    async def allow_always(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        asked.append(tool_input["command"])
        # the binary's own suggestions: a localSettings rule, the directory and acceptEdits
        return PermissionResultAllow(updated_permissions=context.suggestions)

    scripted_model.add(bash("touch p.txt"), bash("touch p.txt"), Reply.text("ok"))
    await run("go", make_options(can_use_tool=allow_always))

    assert asked == ["touch p.txt"]  # the second identical call was not asked
    settings = json.loads((workdir / ".claude" / "settings.local.json").read_text())
    assert "Bash(touch p.txt)" in settings["permissions"]["allow"]


async def test_raising_can_use_tool_denies(scripted_model: ScriptedModel, make_options: Options, workdir: Path) -> None:
    async def explode(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        raise ValueError("callback bug")

    scripted_model.add(bash("touch x.txt"), Reply.text("ok"))
    messages = await run("go", make_options(can_use_tool=explode))
    assert not (workdir / "x.txt").exists()
    assert "callback bug" in str(tool_results(messages)[0].content)


# -- client -------------------------------------------------------------------------


async def test_multi_turn_client_conversation(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.text("first answer"), Reply.text("second answer"))
    async with ClaudeSDKClient(make_options()) as client:
        pid = client.pid
        await client.query("one")
        first = [m async for m in client.receive_response()]
        await client.query("two")
        second = [m async for m in client.receive_response()]
        assert client.pid == pid  # one process, two turns
    assert first[-1].result == "first answer" and second[-1].result == "second answer"
    assert "first answer" in json.dumps(scripted_model.main_requests[1].messages)
    assert pid is not None and not os.path.exists(f"/proc/{pid}")


async def test_interrupt_during_long_running_tool(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    marker = f"claude-wrap-interrupt-{id(workdir)}"
    scripted_model.add(
        Reply.tool_use("Bash", {"command": f"python3 -c 'import time; time.sleep(60)' {marker}", "description": "w"})
    )
    async with ClaudeSDKClient(make_options(allowed_tools=["Bash"])) as client:
        await client.query("run the long thing")
        messages: list[Any] = []
        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:

                async def interrupt_when_running() -> None:
                    while not processes_where(cmdline_contains=marker):
                        await anyio.sleep(0.05)
                    queued = await client.interrupt()
                    assert queued == []

                tg.start_soon(interrupt_when_running)
                async for message in client.receive_response():
                    messages.append(message)
    result = messages[-1]
    assert isinstance(result, ResultMessage)
    assert result.terminal_reason and result.terminal_reason.startswith("aborted")
    assert result.outcome == "interrupted"
    assert processes_where(cmdline_contains=marker) == []


async def _drain(client: ClaudeSDKClient) -> None:
    async for _ in client.receive_messages():
        pass


@pytest.mark.parametrize("lands", ["before the model is asked", "while the model holds its reply"])
async def test_interrupt_before_or_during_the_model_request(
    lands: str, scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    """The interrupt of the official ``streaming_mode`` example lands either
    before the binary asks the model (a busy machine: here a
    ``UserPromptSubmit`` hook holds the turn until the interrupt is
    answered) or while the model holds its reply. Either way the turn ends
    with its result, the next prompt gets the reply meant for it, and
    leaving the client leaves no process, with the model still holding."""
    counting = "Count from 1 to 20 slowly"
    scripted_model.add(
        Reply.text("Hello!").match_if(lambda r: "Just say" in r.last_user_text),
        Reply.stall().sticky().match_if(lambda r: r.last_user_text == counting),
    )
    interrupted = anyio.Event()

    async def hold_the_prompt(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        if lands.startswith("before") and input_data.get("prompt") == counting:
            await interrupted.wait()
        return {}

    options = make_options(hooks={"UserPromptSubmit": [HookMatcher(hooks=[hold_the_prompt])]})
    with anyio.fail_after(60):
        async with ClaudeSDKClient(options) as client:
            await client.query(counting)
            async with anyio.create_task_group() as tg:
                first: list[Any] = []

                async def read() -> None:
                    first.extend([m async for m in client.receive_response()])

                tg.start_soon(read)
                if lands.startswith("while"):
                    await anyio.to_thread.run_sync(scripted_model.wait_for_requests, 1)
                await client.interrupt()
                interrupted.set()
            assert isinstance(first[-1], ResultMessage) and first[-1].subtype == "error_during_execution"
            assert len(scripted_model.main_requests) == (0 if lands.startswith("before") else 1)

            await client.query("Just say 'Hello!'")
            second = [m async for m in client.receive_response()]
            assert isinstance(second[-1], ResultMessage) and second[-1].result == "Hello!"

            asked = len(scripted_model.main_requests)
            await client.query(counting)  # held by the model again; leave mid-turn
            async with anyio.create_task_group() as tg:
                tg.start_soon(_drain, client)  # answers the hook meanwhile
                await anyio.to_thread.run_sync(scripted_model.wait_for_requests, asked + 1)
                tg.cancel_scope.cancel()
    assert processes_where(cwd=workdir) == []


async def test_set_model_and_permission_mode_change_requests(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("a"), Reply.text("b"))
    async with ClaudeSDKClient(make_options()) as client:
        await client.query("one")
        [m async for m in client.receive_response()]
        await client.set_model("sonnet")
        await client.set_permission_mode("plan")
        await client.query("two")
        [m async for m in client.receive_response()]
    first, second = scripted_model.main_requests[:2]
    assert first.model != second.model and "sonnet" in second.model
    assert "plan mode" in json.dumps(second.body).lower()
    assert "plan mode" not in json.dumps(first.body).lower()


async def test_control_calls_have_typed_replies(scripted_model: ScriptedModel, make_options: Options) -> None:
    async with ClaudeSDKClient(make_options()) as client:
        info = await client.get_server_info()
        assert info and "commands" in info
        status = await client.get_mcp_status()
        assert status["mcpServers"] == []
        usage = await client.get_context_usage(detail="summary")
        assert usage["totalTokens"] > 0
        assert scripted_model.requests == []  # the summary is computed without API calls
        full = await client.get_context_usage()  # the official default: counted through the API
        assert full["totalTokens"] > 0
        assert any("count_tokens" in r.endpoint for r in scripted_model.requests)
        models = await client.list_models()
        assert any(m.get("value") == "default" for m in models)
        assert "session" in await client.get_usage()
        await client.set_max_thinking_tokens(2048)
        await client.rename_session("renamed")
        assert await client.interrupt() == []  # idle: nothing queued


# -- watchdog ------------------------------------------------------------------------


async def test_idle_timeout_ends_a_stalled_run(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.stall())
    with pytest.raises(TurnTimeoutError) as info:
        await run("stall", make_options(idle_timeout=2))
    assert isinstance(info.value, TimeoutError)
    assert "idle_timeout" in str(info.value)
    assert processes_where(cwd=workdir) == []


async def test_turn_timeout_in_client(scripted_model: ScriptedModel, make_options: Options, workdir: Path) -> None:
    scripted_model.add(Reply.text("slow").slow(between_events=1.0))
    async with ClaudeSDKClient(make_options(turn_timeout=1.5, include_partial_messages=True)) as client:
        await client.query("go")
        with pytest.raises(TurnTimeoutError):
            async for _ in client.receive_response():
                pass
    assert processes_where(cwd=workdir) == []


# -- subagents ------------------------------------------------------------------------


async def test_subagent_hooks_and_parent_tool_use_id(scripted_model: ScriptedModel, make_options: Options) -> None:
    events: list[str] = []

    async def record(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        events.append(f"{input_data['hook_event_name']}:{input_data['agent_type']}")
        return {}

    def for_subagent(request: Any) -> bool:
        return "Review the plan" in request.last_user_text

    scripted_model.add(
        Reply.tool_use(
            "Task",
            {
                "subagent_type": "reviewer",
                "description": "review",
                "prompt": "Review the plan",
                "run_in_background": False,
            },
        ),
        Reply.text("the plan is fine").match_if(for_subagent),
        Reply.text("all done").match_if(lambda r: not for_subagent(r)),
    )
    options = make_options(
        allowed_tools=["Task"],
        agents={"reviewer": AgentDefinition(description="Reviews plans", prompt="You review plans.", tools=["Read"])},
        hooks={e: [HookMatcher(None, [record])] for e in ("SubagentStart", "SubagentStop")},
    )
    messages = await run("delegate", options)

    task_id = next(b.id for m in messages if isinstance(m, AssistantMessage) for b in m.content if hasattr(b, "id"))
    assert events == ["SubagentStart:reviewer", "SubagentStop:reviewer"]
    assert any(isinstance(m, UserMessage) and m.parent_tool_use_id == task_id for m in messages)
    started = [m for m in messages if isinstance(m, TaskStartedMessage)]
    assert started and started[0].tool_use_id == task_id
    assert any(isinstance(m, TaskNotificationMessage) and m.status == "completed" for m in messages)
    assert "You review plans." in scripted_model.main_requests[1].system_text
    assert messages[-1].result == "all done"


# -- elicitation --------------------------------------------------------------------


async def test_elicitation_is_answered_by_the_callback_or_dismissed(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    import sys

    seen: list[dict[str, Any]] = []

    async def on_elicitation(request: dict[str, Any]) -> dict[str, Any]:
        seen.append(request)
        return {"action": "accept", "content": {"name": "Ada"}}

    server = {
        "type": "stdio",
        "command": sys.executable,
        "args": [str(Path(__file__).with_name("elicit_mcp_server.py"))],
    }
    outcomes = []
    for callback in (on_elicitation, None):
        scripted_model.add(Reply.tool_use("mcp__asker__ask", {}), Reply.text("done"))
        options = make_options(
            mcp_servers={"asker": server}, allowed_tools=["mcp__asker__ask"], on_elicitation=callback
        )
        outcomes.append(str(tool_results(await run("ask me", options))[0].content))
    assert seen[0]["message"] == "What is your name?" and seen[0]["mcp_server_name"] == "asker"
    assert '"action": "accept"' in outcomes[0] and '"Ada"' in outcomes[0]
    # No callback and nothing else that answers over stdin: the binary's input
    # was closed once the prompt was written, so the question is dismissed
    # (as with the official package), not an error.
    assert '"action": "cancel"' in outcomes[1]


async def test_can_use_tool_sees_what_the_binary_sends_beyond_the_official_fields(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    seen: list[tuple[str, ToolPermissionContext]] = []

    async def allow(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        seen.append((tool_name, context))
        return PermissionResultAllow()

    ext = {
        "type": "stdio",
        "command": sys.executable,
        "args": ["-m", "claude_wrap.testing.mcp_stdio_server", "--name", "ext"],
    }
    scripted_model.add(Reply.tool_use("mcp__ext__echo", {"text": "x"}), bash("echo hi"), Reply.text("done"))
    options = make_options(
        mcp_servers={"ext": ext},
        can_use_tool=allow,
        settings=json.dumps({"permissions": {"ask": ["Bash(echo:*)"]}}),
    )
    await run("go", options)

    (mcp_name, mcp_context), (bash_name, bash_context) = seen
    assert (mcp_name, bash_name) == ("mcp__ext__echo", "Bash")
    assert mcp_context.mcp_server is not None and mcp_context.mcp_server["name"] == "ext"
    assert bash_context.mcp_server is None
    assert bash_context.decision_reason_type == "rule"  # the ask rule made it ask
    assert bash_context.raw["tool_use_id"] == bash_context.tool_use_id
    assert "raw=" not in repr(bash_context) and "mcp_server" not in dataclasses.asdict(mcp_context)
