"""Decoding the message fields and names shared with the official package.

Frames marked "recorded" are stdout lines of Claude Code 2.1.328 driven by
the scripted model (bulky keys such as ``usage`` left out). The others are
built by hand for fields 2.1.328 did not send in our runs; they check that
such fields are accepted, typed and kept.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from claude_wrap import (
    AssistantMessage,
    InitSystemMessage,
    RateLimitEvent,
    ResultMessage,
    ServerToolUseBlock,
    StreamEvent,
    TaskNotificationMessage,
    TaskUpdatedMessage,
    UnknownBlock,
    UnknownMessage,
    UserMessage,
)
from claude_wrap._wire.codec import decode_frame
from claude_wrap._wire.messages import DeferredToolUse
from claude_wrap._wire.shapes import (
    TERMINAL_TASK_STATUSES,
    AssistantMessageError,
    BackgroundTaskSummary,
    FastModeDisabledReason,
    FastModeState,
    MessageOrigin,
    MessageOriginKind,
    ModelUsage,
    RateLimitStatus,
    RateLimitType,
    ServerToolName,
    SessionCronSummary,
    SystemInitData,
    SystemInitMcpServer,
    SystemInitPlugin,
    SystemInitPluginError,
    TaskNotificationOriginSubkind,
    TaskNotificationStatus,
    TaskUpdatedStatus,
)

SESSION = "e41703ae-f0f2-4aca-9bbc-5a91ce15fa8f"
PROMPT = "11111111-1111-4111-8111-111111111111"

# fmt: off
STREAM_EVENT_FIRST = (  # recorded
    b'{"type": "stream_event", "event": {"type": "message_start", "message": {"id": "msg_scripted_0001", "type": "message", "role": "assistant", "model": "claude-opus-5-5", "content": [], "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 1}}}, "session_id": "affcadb5-4920-4baa-ad73-2a2b7e3e8571", "parent_tool_use_id": null, "uuid": "188d1dc1-b0af-458d-9bce-ae3b05892be1", "ttft_ms": 16, "thinking_display": "updates", "api_message_id": "msg_scripted_0001", "user_message_uuid": "11111111-1111-4111-8111-111111111111", "user_message_uuids": ["11111111-1111-4111-8111-111111111111"], "owed_rows": []}'
)
ASSISTANT_FIRST = (  # recorded
    b'{"type": "assistant", "message": {"id": "msg_scripted_0001", "type": "message", "role": "assistant", "model": "claude-opus-5-5", "content": [{"type": "text", "text": "first answer"}], "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 1}, "context_management": null}, "parent_tool_use_id": null, "session_id": "affcadb5-4920-4baa-ad73-2a2b7e3e8571", "uuid": "a8e61405-35fd-4ebd-b58a-687677a7dceb", "timestamp": "2026-11-30T12:50:54.889Z", "request_id": "req_scripted_0001", "user_message_uuid": "11111111-1111-4111-8111-111111111111", "user_message_uuids": ["11111111-1111-4111-8111-111111111111"]}'
)
RESULT_WITH_PROMPT_UUID = (  # recorded
    b'{"duration_api_ms": 31, "stop_reason": "end_turn", "session_id": "affcadb5-4920-4baa-ad73-2a2b7e3e8571", "total_cost_usd": 0.00014000000000000001, "permission_denials": [], "terminal_reason": "completed", "fast_mode_state": "off", "fast_mode_disabled_reason": "sdk_opt_in_required", "safety_stops": 0, "is_error": false, "num_turns": 1, "subtype": "success", "api_error_status": null, "result": "first answer", "ttft_ms": 168, "type": "result", "duration_ms": 181, "uuid": "985e0a9b-4543-460d-adba-a527c53ac599", "ttft_stream_ms": 164, "time_to_request_ms": 150, "first_content_frame_ms": 165, "user_message_uuid": "11111111-1111-4111-8111-111111111111", "user_message_uuids": ["11111111-1111-4111-8111-111111111111"], "request_sent_wall_ms": 1796043054872, "first_request_input_tokens": 10, "first_request_cache_read_input_tokens": 0, "queued_turn_count": 0, "result_index": 0}'
)
USER_REPLAY_WITH_ORIGIN = (  # recorded, with --replay-user-messages
    b'{"type": "user", "message": {"role": "user", "content": "hi"}, "session_id": "3086e6c2-5a25-4a00-a27f-b7c8c4a3206e", "parent_tool_use_id": null, "uuid": "33333333-3333-4333-8333-333333333333", "timestamp": "2026-11-30T12:50:55.620Z", "isReplay": true, "origin": {"kind": "human"}}'
)
RESULT_DEFERRED = (  # recorded: a PreToolUse hook answered "defer"
    b'{"duration_api_ms": 43, "stop_reason": "tool_deferred", "session_id": "e395d178-cdf5-4f6e-a8f7-ca6359323b92", "total_cost_usd": 0.00014000000000000001, "permission_denials": [], "terminal_reason": "tool_deferred", "fast_mode_state": "off", "fast_mode_disabled_reason": "sdk_opt_in_required", "safety_stops": 0, "is_error": false, "num_turns": 1, "subtype": "success", "result": "", "deferred_tool_use": {"id": "toolu_scripted_0001", "name": "Bash", "input": {"command": "echo hi", "description": "x"}}, "type": "result", "duration_ms": 136, "uuid": "6bef8b90-4776-4927-8a20-e9771db0a11c", "queued_turn_count": 0, "result_index": 0}'
)
TASK_UPDATED = (  # recorded: a background Bash command finished
    b'{"type": "system", "subtype": "task_updated", "task_id": "brkm5sfw8", "run_id": "0mx39nwru-347f3030", "patch": {"status": "completed", "end_time": 1796043059083}, "uuid": "3dca18a0-1d0e-4e8c-9470-4216453b1910", "session_id": "e41703ae-f0f2-4aca-9bbc-5a91ce15fa8f"}'
)
RESULT_TASK_NOTIFICATION_TURN = (  # recorded: the turn the session started to report that task
    b'{"duration_api_ms": 224, "stop_reason": "end_turn", "session_id": "e41703ae-f0f2-4aca-9bbc-5a91ce15fa8f", "total_cost_usd": 0.00042, "permission_denials": [], "terminal_reason": "completed", "fast_mode_state": "off", "fast_mode_disabled_reason": "sdk_opt_in_required", "origin": {"kind": "task-notification", "producer": "session-task", "runId": "0mx39nwru-347f3030"}, "safety_stops": 0, "is_error": false, "num_turns": 1, "subtype": "success", "api_error_status": null, "result": "it finished", "ttft_ms": 32, "type": "result", "duration_ms": 37, "uuid": "321380af-d1e0-4ea2-84db-6bb597195b63", "ttft_stream_ms": 32, "time_to_request_ms": 26, "first_content_frame_ms": 32, "queued_turn_count": 0, "result_index": 1}'
)
# fmt: on


def _frame(**fields: Any) -> bytes:
    return json.dumps(fields).encode()


def _result(**fields: Any) -> bytes:
    """A result frame with the keys every result has (the official parser requires them)."""
    required = {"duration_ms": 10, "duration_api_ms": 5, "is_error": False, "num_turns": 1, "session_id": SESSION}
    return _frame(**{"type": "result", "subtype": "success", **required, **fields})


# -- which prompt a turn answered ---------------------------------------------------------


def test_user_message_uuids_on_stream_event_assistant_and_result() -> None:
    event = decode_frame(STREAM_EVENT_FIRST)
    assert isinstance(event, StreamEvent)
    assert (event.user_message_uuid, event.user_message_uuids) == (PROMPT, [PROMPT])

    assistant = decode_frame(ASSISTANT_FIRST)
    assert isinstance(assistant, AssistantMessage)
    assert (assistant.user_message_uuid, assistant.user_message_uuids) == (PROMPT, [PROMPT])

    result = decode_frame(RESULT_WITH_PROMPT_UUID)
    assert isinstance(result, ResultMessage)
    assert (result.user_message_uuid, result.user_message_uuids) == (PROMPT, [PROMPT])
    assert (result.origin, result.deferred_tool_use) == (None, None)


def test_frames_without_the_new_fields_default_to_none() -> None:
    event = decode_frame(_frame(type="stream_event", uuid="u", session_id="s", event={"type": "ping"}))
    assert isinstance(event, StreamEvent)
    assert (event.user_message_uuid, event.user_message_uuids) == (None, None)
    user = decode_frame(_frame(type="user", message={"role": "user", "content": "x"}))
    assert isinstance(user, UserMessage) and user.origin is None
    result = decode_frame(_result())
    assert isinstance(result, ResultMessage)
    assert (result.origin, result.deferred_tool_use, result.user_message_uuid, result.user_message_uuids) == (
        None,
        None,
        None,
        None,
    )


def test_uuid_fields_survive_the_slow_path() -> None:
    # An unknown content block sends the frame down the forgiving path.
    data = json.loads(ASSISTANT_FIRST)
    data["message"]["content"].append({"type": "hologram", "x": 1})
    assistant = decode_frame(json.dumps(data).encode(), keep_unrecognized=True)
    assert isinstance(assistant, AssistantMessage)
    assert isinstance(assistant.content[1], UnknownBlock)
    assert (assistant.user_message_uuid, assistant.user_message_uuids) == (PROMPT, [PROMPT])


def test_slow_path_drops_badly_typed_extras_instead_of_the_frame() -> None:
    data = json.loads(ASSISTANT_FIRST)
    data["message"]["content"].append({"type": "hologram"})
    data["user_message_uuid"] = 5
    data["user_message_uuids"] = ["ok", 6]
    assistant = decode_frame(json.dumps(data).encode())
    assert isinstance(assistant, AssistantMessage)
    assert (assistant.user_message_uuid, assistant.user_message_uuids) == (None, None)

    for origin in ({"no_kind": 1}, "human", {"kind": 3}):
        line = _frame(type="user", message={"role": "user", "content": [{"type": "hologram"}]}, origin=origin)
        user = decode_frame(line)
        assert isinstance(user, UserMessage) and user.origin is None


# -- origin --------------------------------------------------------------------------------


def test_origin_on_replayed_user_message_and_on_results() -> None:
    user = decode_frame(USER_REPLAY_WITH_ORIGIN)
    assert isinstance(user, UserMessage)
    assert user.origin == {"kind": "human"}

    result = decode_frame(RESULT_TASK_NOTIFICATION_TURN)
    assert isinstance(result, ResultMessage)
    assert result.origin is not None
    assert result.origin["kind"] == "task-notification"
    # Keys the official type does not list are kept as the binary wrote them.
    assert result.origin == {"kind": "task-notification", "producer": "session-task", "runId": "0mx39nwru-347f3030"}


def test_peer_origin_with_keyword_key_and_unknown_kind_pass_through() -> None:
    # Not produced in our runs (needs peer sessions); the shape is MessageOrigin's.
    peer: dict[str, Any] = {
        "kind": "peer",
        "from": "uds:/tmp/x.sock",
        "name": "other",
        "fromSession": "s2",
        "senderTaskId": "t1",
        "body": "hello",
        "verifiedPeerPid": 4242,
    }
    user = decode_frame(_frame(type="user", message={"role": "user", "content": "hello"}, origin=peer))
    assert isinstance(user, UserMessage) and user.origin == peer
    assert user.origin["from"] == "uds:/tmp/x.sock"

    novel = {"kind": "hologram", "subkind": "scheduled-trigger", "brand_new": [1]}
    result = decode_frame(_result(origin=novel))
    assert isinstance(result, ResultMessage) and result.origin == novel


@pytest.mark.parametrize(
    "extras",
    [
        {"origin": "human"},
        {"user_message_uuid": 7, "user_message_uuids": "not-a-list"},
        {"deferred_tool_use": {"name": "Bash"}},
        {"deferred_tool_use": []},
    ],
)
def test_result_with_odd_extras_is_still_a_result(extras: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    # A result that arrived as UnknownMessage would never end the turn; the
    # extras only annotate it, so the result comes through without them.
    good = {"origin": {"kind": "human"}, "user_message_uuid": PROMPT, "user_message_uuids": [PROMPT]}
    line = _result(is_error=True, result="boom", **{**good, **extras})
    m = decode_frame(line)
    assert isinstance(m, ResultMessage)
    assert (m.subtype, m.is_error, m.result) == ("success", True, "boom")
    for name, value in good.items():
        assert getattr(m, name) == (None if name in extras else value)
    assert m.deferred_tool_use is None
    assert "malformed extras" in caplog.text


def test_origin_without_a_kind_counts_as_no_origin() -> None:
    for kindless in ({"no_kind": True}, {"kind": None}, {}):
        result = decode_frame(_result(origin=kindless, user_message_uuid=PROMPT))
        assert isinstance(result, ResultMessage)
        assert (result.origin, result.user_message_uuid) == (None, PROMPT)
        user = decode_frame(_frame(type="user", message={"role": "user", "content": "x"}, origin=kindless))
        assert isinstance(user, UserMessage) and user.origin is None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["kind", "id", "name", "input", "x"]), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["origin", "deferred_tool_use", "user_message_uuid", "user_message_uuids"]), json_values
    )
)
def test_any_extras_on_a_sound_result_still_give_a_result(extras: dict[str, Any]) -> None:
    m = decode_frame(_result(num_turns=2, **extras))
    assert isinstance(m, ResultMessage)
    assert m.num_turns == 2
    assert m.origin is None or isinstance(m.origin.get("kind"), str)
    assert m.user_message_uuids is None or all(isinstance(u, str) for u in m.user_message_uuids)


def test_result_with_a_bad_core_field_stays_unknown_even_with_extras() -> None:
    line = _result(is_error="yes", origin="human", user_message_uuid=PROMPT)
    m = decode_frame(line)
    assert isinstance(m, UnknownMessage)
    assert m.error and "is_error" in m.error


# -- deferred tool use ------------------------------------------------------------------------


def test_deferred_tool_use_on_result() -> None:
    result = decode_frame(RESULT_DEFERRED)
    assert isinstance(result, ResultMessage)
    assert result.deferred_tool_use == DeferredToolUse(
        id="toolu_scripted_0001", name="Bash", input={"command": "echo hi", "description": "x"}
    )
    assert (result.stop_reason, result.terminal_reason) == ("tool_deferred", "tool_deferred")


def test_deferred_tool_use_builds_positionally_and_tolerates_no_input() -> None:
    assert DeferredToolUse("toolu_1", "Bash", {"command": "ls"}).input == {"command": "ls"}
    # The official parser raises without "input"; the call is kept with none.
    result = decode_frame(_result(deferred_tool_use={"id": "t", "name": "Read"}))
    assert isinstance(result, ResultMessage) and result.deferred_tool_use == DeferredToolUse("t", "Read", {})
    null = decode_frame(_result(deferred_tool_use=None))
    assert isinstance(null, ResultMessage) and null.deferred_tool_use is None


def test_result_with_new_fields_rebuilds_from_its_fields() -> None:
    for line in (RESULT_DEFERRED, RESULT_TASK_NOTIFICATION_TURN, RESULT_WITH_PROMPT_UUID):
        m = decode_frame(line)
        assert isinstance(m, ResultMessage)
        fields = {f.name: getattr(m, f.name) for f in dataclasses.fields(m)}
        assert ResultMessage(**fields) == m
        assert json.loads(msgspec.json.encode(m)) == json.loads(json.dumps(dataclasses.asdict(m)))


@pytest.mark.parametrize(
    "line", [ASSISTANT_FIRST, STREAM_EVENT_FIRST, USER_REPLAY_WITH_ORIGIN, RESULT_DEFERRED, TASK_UPDATED]
)
def test_key_order_does_not_matter(line: bytes) -> None:
    reordered = dict(reversed(list(json.loads(line).items())))
    assert decode_frame(json.dumps(reordered).encode()) == decode_frame(line)


# -- tasks ---------------------------------------------------------------------------------


def test_task_updated_status_comes_from_the_patch() -> None:
    m = decode_frame(TASK_UPDATED)
    assert isinstance(m, TaskUpdatedMessage)
    assert m.status == "completed"
    assert m.patch == {"status": "completed", "end_time": 1796043059083}
    assert m.data == json.loads(TASK_UPDATED)


@pytest.mark.parametrize(
    ("patch", "status"),
    [
        ({"status": "killed"}, "killed"),
        ({"status": "running"}, "running"),
        ({"end_time": 1}, None),  # a patch without a status says nothing about it
        ({"status": None}, None),
        ({"status": 3}, 3),  # passed on as the binary wrote it, as the official parser does
        ({"status": "archived"}, "archived"),  # a value newer binaries may add
    ],
)
def test_task_updated_status_values(patch: dict[str, Any], status: Any) -> None:
    m = decode_frame(_frame(type="system", subtype="task_updated", task_id="t", patch=patch))
    assert isinstance(m, TaskUpdatedMessage)
    assert m.status == status
    assert m.patch == patch


def test_terminal_task_statuses_cover_both_vocabularies() -> None:
    assert isinstance(TERMINAL_TASK_STATUSES, frozenset)
    assert TERMINAL_TASK_STATUSES == {"completed", "failed", "stopped", "killed"}
    assert set(typing.get_args(TaskNotificationStatus)) <= TERMINAL_TASK_STATUSES
    assert {"pending", "running", "paused"}.isdisjoint(TERMINAL_TASK_STATUSES)
    assert set(typing.get_args(TaskUpdatedStatus)) - TERMINAL_TASK_STATUSES == {"pending", "running", "paused"}


def test_task_notification_status_and_usage_by_key() -> None:
    line = _frame(
        type="system",
        subtype="task_notification",
        task_id="t",
        status="stopped",
        output_file="/o",
        summary="s",
        uuid="u",
        session_id="s",
        usage={"total_tokens": 7, "tool_uses": 2, "duration_ms": 30},
    )
    m = decode_frame(line)
    assert isinstance(m, TaskNotificationMessage)
    assert m.status == "stopped"
    # TaskUsage is a TypedDict, as in the official package: the frame's own dict.
    assert m.usage == {"total_tokens": 7, "tool_uses": 2, "duration_ms": 30}
    assert m.usage is m.data["usage"]


# -- typed strings that stay open --------------------------------------------------------------


def test_literal_typed_fields_accept_values_beyond_the_literal() -> None:
    data = json.loads(ASSISTANT_FIRST)
    data["error"] = "brand_new_error"
    data["message"]["content"] = [{"type": "server_tool_use", "id": "srv_1", "name": "new_server_tool", "input": {}}]
    m = decode_frame(json.dumps(data).encode())
    assert isinstance(m, AssistantMessage)
    assert m.error == "brand_new_error"
    assert m.content == [ServerToolUseBlock(id="srv_1", name="new_server_tool", input={})]

    known = decode_frame(_frame(type="assistant", message={"model": "m", "content": []}, error="rate_limit"))
    assert isinstance(known, AssistantMessage) and known.error == "rate_limit"


def test_rate_limit_info_keeps_the_raw_object_and_open_statuses() -> None:
    # rate_limit_event needs subscription rate-limit headers; 2.1.328 sent none
    # against the scripted model with an API key, so this frame is hand-made.
    info = {
        "status": "allowed_warning",
        "resetsAt": 1764500000,
        "rateLimitType": "seven_day_opus",
        "utilization": 0.5,
        "overageStatus": "rejected",
        "isUsingOverage": False,
        "surpassedThreshold": 0.5,
    }
    m = decode_frame(_frame(type="rate_limit_event", rate_limit_info=info, uuid="u", session_id="s"))
    assert isinstance(m, RateLimitEvent)
    assert (m.rate_limit_info.status, m.rate_limit_info.rate_limit_type) == ("allowed_warning", "seven_day_opus")
    assert m.rate_limit_info.overage_status == "rejected"
    assert m.rate_limit_info.raw == info

    newer = decode_frame(
        _frame(
            type="rate_limit_event",
            rate_limit_info={"status": "throttled", "rateLimitType": "hourly"},
            uuid="u",
            session_id="s",
        )
    )
    assert isinstance(newer, RateLimitEvent)
    assert (newer.rate_limit_info.status, newer.rate_limit_info.rate_limit_type) == ("throttled", "hourly")


@pytest.mark.parametrize("info", [3, None, [], {"status": 5}])
def test_malformed_rate_limit_info_is_unknown_message_with_error(info: Any) -> None:
    line = _frame(type="rate_limit_event", rate_limit_info=info, uuid="u", session_id="s")
    m = decode_frame(line)
    assert isinstance(m, UnknownMessage)
    assert (m.type, m.data) == ("rate_limit_event", json.loads(line))
    assert m.error and "rate_limit_info" in m.error


# -- system/init ---------------------------------------------------------------------------


INIT_FIELDS: dict[str, Any] = {
    "type": "system",
    "subtype": "init",
    "cwd": "/w",
    "session_id": "s",
    "tools": ["Bash"],
    "model": "m",
    "mcp_servers": [{"name": "calc", "status": "connected", "source": "sdk"}],
    "permissionMode": "default",
    "slash_commands": ["doctor"],
    "terminal_slash_commands": ["doctor"],
    "apiKeySource": "ANTHROPIC_API_KEY",
    "claude_code_version": "2.1.328",
    "output_style": "default",
    "agents": [],
    "skills": [],
    "plugins": [{"name": "p", "path": "builtin", "source": "p@builtin"}],
    "capabilities": ["interrupt_receipt_v1"],
    "uuid": "init-uuid",
    "fast_mode_state": "off",
    "fast_mode_disabled_reason": "sdk_opt_in_required",
}


def test_init_typed_fields() -> None:
    message = decode_frame(json.dumps(INIT_FIELDS).encode())
    m = InitSystemMessage.of(message)
    assert m is not None
    assert m.uuid == "init-uuid"
    assert m.mcp_servers == [{"name": "calc", "status": "connected", "source": "sdk"}]
    assert m.plugins == [{"name": "p", "path": "builtin", "source": "p@builtin"}]
    assert (m.fast_mode_state, m.fast_mode_disabled_reason) == ("off", "sdk_opt_in_required")
    assert (m.capabilities, m.terminal_slash_commands) == (["interrupt_receipt_v1"], ["doctor"])
    assert (m.plugin_errors, m.betas) == (None, None)
    assert (m.permission_mode, m.api_key_source) == ("default", "ANTHROPIC_API_KEY")
    assert message.data == INIT_FIELDS


def test_init_fields_not_sent_by_2_1_328_are_accepted() -> None:
    errors = [{"plugin": "inline[0]", "type": "path-not-found", "message": "no such dir", "path": "/nope"}]
    frame = {**INIT_FIELDS, "plugin_errors": errors, "betas": ["context-1m"], "fast_mode_state": "warp"}
    m = InitSystemMessage.of(decode_frame(json.dumps(frame).encode()))
    assert m is not None
    assert m.plugin_errors == errors
    assert m.betas == ["context-1m"]
    assert m.fast_mode_state == "warp"  # values the Literal does not list pass through


# -- the shapes themselves ------------------------------------------------------------------


def test_typed_dict_keys() -> None:
    assert MessageOrigin.__required_keys__ == {"kind"}
    assert {"from", "server", "name", "fromSession", "senderTaskId", "body", "verifiedPeerPid", "subkind"} <= (
        MessageOrigin.__optional_keys__
    )
    assert ModelUsage.__required_keys__ == {
        "inputTokens",
        "outputTokens",
        "cacheReadInputTokens",
        "cacheCreationInputTokens",
        "webSearchRequests",
        "costUSD",
        "contextWindow",
        "maxOutputTokens",
    }
    assert {"canonicalModel", "provider"} <= ModelUsage.__optional_keys__
    assert SystemInitMcpServer.__required_keys__ == {"name", "status"}
    assert SystemInitPlugin.__required_keys__ == {"name", "path"}
    assert SystemInitPluginError.__required_keys__ == {"plugin", "type", "message"}
    assert {"type", "subtype", "uuid", "session_id", "model", "permissionMode", "plugins"} <= (
        SystemInitData.__required_keys__
    )
    assert BackgroundTaskSummary.__required_keys__ == {"id", "type", "status", "description"}
    assert SessionCronSummary.__required_keys__ == {"id", "schedule", "recurring", "prompt"}
    for shape in (MessageOrigin, ModelUsage, SystemInitData, BackgroundTaskSummary, SessionCronSummary):
        typing.get_type_hints(shape)  # resolvable at run time


def test_literal_values() -> None:
    assert "task-notification" in typing.get_args(MessageOriginKind)
    assert typing.get_args(TaskNotificationOriginSubkind) == ("scheduled-trigger", "peer-send-message")
    assert typing.get_args(RateLimitStatus) == ("allowed", "allowed_warning", "rejected")
    assert "five_hour" in typing.get_args(RateLimitType)
    assert {"advisor", "web_search", "web_fetch"} <= set(typing.get_args(ServerToolName))
    assert {"rate_limit", "server_error", "unknown"} <= set(typing.get_args(AssistantMessageError))
    assert typing.get_args(FastModeState) == ("off", "cooldown", "on")
    assert "sdk_opt_in_required" in typing.get_args(FastModeDisabledReason)


def test_shapes_module_stays_light() -> None:
    import subprocess
    import sys

    script = (
        "import sys\n"
        "import claude_wrap._wire.shapes\n"
        "heavy = [m for m in ('msgspec', 'pydantic', 'anyio', 'claude_wrap._launch.options') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)


@pytest.mark.parametrize(
    ("fields", "outcome"),
    [
        ({"subtype": "success"}, "completed"),
        (
            {"subtype": "success", "is_error": True, "api_error_status": 529, "terminal_reason": "api_error"},
            "api_error",
        ),
        ({"subtype": "error_max_turns", "is_error": True, "terminal_reason": "max_turns"}, "max_turns"),
        ({"subtype": "error_max_budget_usd", "is_error": True}, "budget"),
        ({"subtype": "error_during_execution", "is_error": True, "terminal_reason": "aborted_tools"}, "interrupted"),
        ({"subtype": "success", "terminal_reason": "tool_deferred"}, "deferred"),
        ({"subtype": "error_max_structured_output_retries", "is_error": True}, "output_invalid"),
        ({"subtype": "error_during_execution", "is_error": True, "terminal_reason": "model_error"}, "error"),
        ({"subtype": "error_during_execution", "is_error": True}, "error"),
    ],
)
def test_result_outcome(fields: dict[str, Any], outcome: str) -> None:
    message = decode_frame(_result(**fields))
    assert isinstance(message, ResultMessage) and message.outcome == outcome
