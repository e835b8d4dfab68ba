"""Message fields shared with the official package, checked on the real binary's output.

Each test drives Claude Code 2.1.328 with the scripted model and looks at
what arrives typed: which user messages a turn answered
(``user_message_uuid(s)``), what started a turn (``origin``), a tool call a
hook deferred, task statuses, and the JSON objects we describe with
TypedDicts (``system/init``, ``modelUsage``, Stop hook inputs).
"""

from __future__ import annotations

import uuid as uuid_mod
from collections.abc import AsyncIterator, Callable
from contextlib import aclosing
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options, bash, run
from _procs import processes_where, wait_until

from claude_wrap import (
    AssistantMessage,
    ClaudeSDKClient,
    HookMatcher,
    InitSystemMessage,
    ResultDetails,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    TaskNotificationMessage,
    TaskStartedMessage,
    TaskUpdatedMessage,
    ToolUseBlock,
    UserMessage,
    create_sdk_mcp_server,
    query,
    tool,
)
from claude_wrap._wire.messages import DeferredToolUse
from claude_wrap._wire.shapes import (
    TERMINAL_TASK_STATUSES,
    BackgroundTaskSummary,
    ModelUsage,
    SessionCronSummary,
    SystemInitData,
    SystemInitMcpServer,
    SystemInitPlugin,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

REPLAY = {"replay-user-messages": None}


def _new_uuid() -> str:
    return str(uuid_mod.uuid4())


def _sleeper(seconds: float) -> tuple[str, str]:
    """A Bash command that sleeps, and a marker that finds its process and no other."""
    marker = f"sleeper-{uuid_mod.uuid4().hex[:12]}"
    return f"python3 -c 'import time; time.sleep({seconds})' {marker}", marker


def _fits(obj: dict[str, Any], shape: Any) -> None:
    """``obj`` has every required key of the TypedDict ``shape`` and no key it does not name."""
    assert shape.__required_keys__ <= obj.keys(), shape.__required_keys__ - obj.keys()
    assert obj.keys() <= shape.__annotations__.keys(), obj.keys() - shape.__annotations__.keys()


async def _frames(*frames: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
    for frame in frames:
        yield frame


def _user_frame(text: str, uuid: str, **extra: Any) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": text}, "uuid": uuid, **extra}


async def _turn(client: ClaudeSDKClient) -> list[Any]:
    out: list[Any] = []
    with anyio.fail_after(60):
        async for message in client.receive_response():
            out.append(message)
    return out


async def _until(client: ClaudeSDKClient, done: Callable[[list[Any]], bool]) -> list[Any]:
    """Messages from ``receive_messages()`` until ``done(messages_so_far)``."""
    out: list[Any] = []
    with anyio.fail_after(60):
        async with aclosing(client.receive_messages()) as messages:  # type: ignore[type-var]
            async for message in messages:
                out.append(message)
                if done(out):
                    break
    return out


# -- which prompt a turn answered -------------------------------------------------------


async def test_user_message_uuid_on_first_stream_event_first_assistant_and_result(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    first, second = _new_uuid(), _new_uuid()
    scripted_model.add(bash("echo hi"), Reply.text("ran it"), Reply.text("second answer"))
    options = make_options(include_partial_messages=True, allowed_tools=["Bash"])
    async with ClaudeSDKClient(options) as client:
        await client.query(_frames(_user_frame("run something", first)))
        turn1 = await _turn(client)
        await client.query("and again", uuid=second)
        turn2 = await _turn(client)

    for turn, sent in ((turn1, first), (turn2, second)):
        events = [m for m in turn if isinstance(m, StreamEvent)]
        assert events[0].event["type"] == "message_start"
        assert (events[0].user_message_uuid, events[0].user_message_uuids) == (sent, [sent])
        # Only the first event of the turn says it; the rest leave it out.
        assert [e.user_message_uuid for e in events[1:] if e.user_message_uuid] == []
        assistants = [m for m in turn if isinstance(m, AssistantMessage)]
        assert (assistants[0].user_message_uuid, assistants[0].user_message_uuids) == (sent, [sent])
        result = turn[-1]
        assert isinstance(result, ResultMessage) and not result.is_error
        assert (result.user_message_uuid, result.user_message_uuids) == (sent, [sent])

    # The first turn had two API messages (tool call, then text); only the first frame is tagged.
    assistants1 = [m for m in turn1 if isinstance(m, AssistantMessage)]
    assert len(assistants1) == 2
    assert (assistants1[1].user_message_uuid, assistants1[1].user_message_uuids) == (None, None)


async def test_plain_string_prompt_leaves_uuid_fields_and_origin_unset(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("hello"))
    messages = await run("hi", make_options())

    [assistant] = [m for m in messages if isinstance(m, AssistantMessage)]
    assert (assistant.user_message_uuid, assistant.user_message_uuids) == (None, None)
    result = messages[-1]
    assert isinstance(result, ResultMessage)
    assert (result.user_message_uuid, result.user_message_uuids, result.origin) == (None, None, None)
    assert result.deferred_tool_use is None


# -- what started a turn --------------------------------------------------------------------


async def test_host_stamped_origin_on_replayed_user_message_and_result(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    sent = _new_uuid()
    scripted_model.add(Reply.text("hello human"))
    async with ClaudeSDKClient(make_options(extra_args=REPLAY)) as client:
        await client.query(_frames(_user_frame("hi", sent, origin={"kind": "human"})))
        turn = await _turn(client)

    [replayed] = [m for m in turn if isinstance(m, UserMessage) and m.uuid == sent]
    assert replayed.origin == {"kind": "human"}
    assert replayed.content == "hi"
    result = turn[-1]
    assert isinstance(result, ResultMessage)
    assert result.origin == {"kind": "human"}
    assert result.user_message_uuid == sent


async def test_finished_background_task_updates_status_and_starts_a_task_notification_turn(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    sent = _new_uuid()
    command, _ = _sleeper(0.5)
    scripted_model.add(
        Reply.tool_use("Bash", {"command": command, "description": "nap", "run_in_background": True}),
        Reply.text("started it"),
        Reply.text("it finished"),
    )
    async with ClaudeSDKClient(make_options(allowed_tools=["Bash"], extra_args=REPLAY)) as client:
        await client.query("start a background job", uuid=sent)
        messages = await _until(client, lambda seen: sum(isinstance(m, ResultMessage) for m in seen) == 2)

    [updated] = [m for m in messages if isinstance(m, TaskUpdatedMessage) and m.status in TERMINAL_TASK_STATUSES]
    assert updated.status == "completed" == updated.patch["status"]
    assert updated.status in TERMINAL_TASK_STATUSES
    [notified] = [m for m in messages if isinstance(m, TaskNotificationMessage)]
    assert notified.task_id == updated.task_id and notified.status == "completed"

    mine, injected = [m for m in messages if isinstance(m, ResultMessage)]
    assert mine.origin is None and mine.user_message_uuid == sent
    # The session began the second turn by itself to report the finished task.
    assert injected.result == "it finished"
    assert injected.origin is not None and injected.origin["kind"] == "task-notification"
    assert (injected.user_message_uuid, injected.user_message_uuids) == (None, None)


async def test_stopped_background_task_reads_killed_then_stopped(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    command, marker = _sleeper(60)
    scripted_model.add(
        Reply.tool_use("Bash", {"command": command, "description": "long", "run_in_background": True}),
        Reply.text("started it"),
        Reply.text("noted").sticky(),
    )
    async with ClaudeSDKClient(make_options(allowed_tools=["Bash"])) as client:
        await client.query("start a long job")
        messages = await _turn(client)
        [started] = [m for m in messages if isinstance(m, TaskStartedMessage)]
        await client.stop_task(started.task_id)
        messages += await _until(client, lambda seen: isinstance(seen[-1], TaskNotificationMessage))

    [updated] = [m for m in messages if isinstance(m, TaskUpdatedMessage) and m.status in TERMINAL_TASK_STATUSES]
    assert updated.task_id == started.task_id
    assert updated.status == "killed" == updated.patch["status"]
    [notified] = [m for m in messages if isinstance(m, TaskNotificationMessage)]
    assert notified.status == "stopped"
    assert {updated.status, notified.status} <= TERMINAL_TASK_STATUSES
    wait_until(lambda: processes_where(cmdline_contains=marker) == [], limit=10, what="the stopped task to exit")


# -- a deferred tool call ----------------------------------------------------------------


async def test_pre_tool_use_defer_ends_the_turn_with_deferred_tool_use(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    async def defer(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}

    command = {"command": "touch deferred.txt", "description": "run"}
    scripted_model.add(Reply.tool_use("Bash", command), Reply.text("never asked for"))
    messages = await run(
        "go", make_options(allowed_tools=["Bash"], hooks={"PreToolUse": [HookMatcher("Bash", [defer])]})
    )

    [call] = [b for m in messages if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, ToolUseBlock)]
    result = messages[-1]
    assert isinstance(result, ResultMessage)
    assert result.deferred_tool_use == DeferredToolUse(id=call.id, name="Bash", input=command)
    assert (result.stop_reason, result.terminal_reason, result.is_error) == ("tool_deferred", "tool_deferred", False)
    assert result.outcome == "deferred"
    assert not (workdir / "deferred.txt").exists()
    assert len(scripted_model.main_requests) == 1  # the model was not asked again


# -- JSON objects described by TypedDicts ------------------------------------------------


@tool("add", "Add two numbers", {"a": float, "b": float})
async def add(args: dict[str, Any]) -> str:
    return str(args["a"] + args["b"])


async def test_init_frame_and_model_usage_fit_their_typed_dicts(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("hello"))
    server = create_sdk_mcp_server("calc", tools=[add])
    messages = await run("hi", make_options(mcp_servers={"calc": server}))

    [message] = [m for m in messages if isinstance(m, SystemMessage) and m.subtype == "init"]
    assert type(message) is SystemMessage
    _fits(message.data, SystemInitData)
    init = InitSystemMessage.of(message)
    assert init is not None
    [mcp] = init.mcp_servers
    _fits(dict(mcp), SystemInitMcpServer)
    assert (mcp["name"], mcp["status"], mcp.get("source")) == ("calc", "connected", "sdk")
    assert init.plugins and all(p["name"] and p["path"] for p in init.plugins)
    for plugin in init.plugins:
        _fits(dict(plugin), SystemInitPlugin)
    assert init.uuid == message.data["uuid"]
    assert (init.fast_mode_state, init.fast_mode_disabled_reason) == ("off", "sdk_opt_in_required")
    assert init.capabilities and all(isinstance(c, str) for c in init.capabilities)
    assert init.terminal_slash_commands and set(init.terminal_slash_commands) <= set(init.slash_commands)
    # Not sent here: no plugin failed, no betas were asked for.
    assert (init.plugin_errors, init.betas) == (None, None)
    # A scripted model is no Anthropic endpoint; nothing asked for a sandbox.
    assert (message.data.get("served_by_anthropic"), message.data.get("sandbox_enabled")) == (False, False)

    result = messages[-1]
    assert isinstance(result, ResultMessage) and result.model_usage
    for usage in result.model_usage.values():
        _fits(dict(usage), ModelUsage)
        assert usage["inputTokens"] == 10 and usage["costUSD"] > 0


async def test_stop_hook_lists_background_tasks_and_session_crons(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    seen: list[dict[str, Any]] = []

    async def on_stop(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        seen.append(input_data)
        return {}

    command, marker = _sleeper(60)
    scripted_model.add(
        Reply.tool_use("Bash", {"command": command, "description": "idle", "run_in_background": True}),
        Reply.tool_use("CronCreate", {"cron": "0 9 * * 1-5", "prompt": "check the build", "recurring": True}),
        Reply.text("done"),
    )
    options = make_options(allowed_tools=["Bash", "CronCreate"], hooks={"Stop": [HookMatcher(None, [on_stop])]})
    # The run would go on until the background job ends (the binary waits
    # for it): leave at the result instead, which stops both.
    with anyio.fail_after(60):
        async with aclosing(query(prompt="schedule things", options=options)) as messages:  # type: ignore[type-var]
            async for message in messages:
                if isinstance(message, ResultMessage):
                    break

    [stop] = seen
    [task] = stop["background_tasks"]
    _fits(task, BackgroundTaskSummary)
    assert (task["type"], task["status"], task["description"]) == ("shell", "running", "idle")
    assert task["command"] == command
    [cron] = stop["session_crons"]
    _fits(cron, SessionCronSummary)
    assert (cron["schedule"], cron["recurring"], cron["prompt"]) == ("0 9 * * 1-5", True, "check the build")
    # The background job ends with the session.
    wait_until(
        lambda: processes_where(cmdline_contains=marker) == [], limit=10, what="the task to end with the session"
    )


async def test_result_details_read_the_timings_and_queue_of_the_binary_s_result(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("hi"))
    messages = await run("hi", make_options())
    result = messages[-1]
    assert isinstance(result, ResultMessage)
    details = ResultDetails.of(result)
    assert details.ttft_ms is not None and details.ttft_ms >= 0
    assert details.time_to_request_ms is not None and details.queued_turn_count == 0
    assert details.fast_mode_state is not None
    assert "ttft_ms" not in repr(result) and "_line" not in vars(result)  # official code sees no new field
