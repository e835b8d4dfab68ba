"""Decoding stdout frames: real recorded frames, forward compatibility, robustness.

The frame constants below are verbatim stdout lines of recorded runs
(Claude Code 2.1.328 recordings; only the recorder's own trimming of long strings).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from claude_wrap import (
    ApiRetryMessage,
    AssistantMessage,
    ClaudeSDKError,
    CLIJSONDecodeError,
    HookEventMessage,
    ImageBlock,
    InformationalMessage,
    InitSystemMessage,
    MessageParseError,
    RateLimitEvent,
    RedactedThinkingBlock,
    ResultMessage,
    ServerToolResultBlock,
    StreamEvent,
    SystemMessage,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    UnknownBlock,
    UnknownMessage,
    UserMessage,
    decode_line,
)
from claude_wrap._wire.codec import (
    ControlCancel,
    ControlRequest,
    ControlResponseIn,
    decode_frame,
    decode_value,
    encode_line,
    encode_value,
    without_lone_surrogates,
)
from claude_wrap._wire.messages import ContentBlock, Message

# fmt: off
INIT = (
    b'{"type": "system", "subtype": "init", "cwd": "<cwd>/s01_basic", "session_id": "994dfc7c-28f7-4fc3-ab37-d895e0343c7a", "tools": ["Task", "Bash", "CronCreate", "\xe2\x80\xa6(+19 more items)"], "mcp_servers": [], "model": "claude-opus-5-5", "permissionMode": "default", "slash_commands": ["deep-research", "dataviz", "update-config", "\xe2\x80\xa6(+41 more items)"], "terminal_slash_commands": ["doctor", "color", "focus", "\xe2\x80\xa6(+1 more items)"], "apiKeySource": "ANTHROPIC_API_KEY", "claude_code_version": "2.1.328", "output_style": "default", "agents": ["claude", "Explore", "general-purpose", "\xe2\x80\xa6(+2 more items)"], "skills": ["deep-research", "dataviz", "update-config", "\xe2\x80\xa6(+13 more items)"], "plugins": [{"name": "cc-plugin-agents-md", "path": "builtin", "source": "cc-plugin-agents-md@builtin"}, {"name": "cc-plugin-privacy", "path": "builtin", "source": "cc-plugin-privacy@builtin"}, {"name": "cc-plugin-plugin-authoring", "path": "builtin", "source": "cc-plugin-plugin-authoring@builtin"}], "capabilities": ["interrupt_receipt_v1", "interrupt_cancel_queued_v1", "interrupt_send_now_v1", "\xe2\x80\xa6(+17 more items)"], "analytics_disabled": true, "product_feedback_disabled": true, "uuid": "4902c325-22d8-4401-b1d7-e4e84e3bcf52", "memory_paths": {"auto": "<home>/s01_basic/.claude/projects/-cwd-s01-basic/memory/"}, "original_cwd": "<cwd>/s01_basic", "additional_directories": [], "messaging_socket_path": "<tmpdir>/cc-socks/8858.sock", "fast_mode_state": "off", "fast_mode_disabled_reason": "sdk_opt_in_required", "per_turn_effort_active": true, "ultrathink_available": false, "ultrathink_typed_raises": false, "view_mode": "default"}'
)  # protocol.md line 58

ASSISTANT_TEXT = (
    b'{"type": "assistant", "message": {"id": "msg_fake750514", "type": "message", "role": "assistant", "model": "claude-opus-5-5", "content": [{"type": "text", "text": "Hello from the fake model."}], "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 10, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}, "context_management": null}, "parent_tool_use_id": null, "session_id": "994dfc7c-28f7-4fc3-ab37-d895e0343c7a", "uuid": "db708d81-e327-4c0a-bd4a-1698e449d354", "timestamp": "2026-11-30T09:59:10.526Z", "request_id": "req_fake1"}'
)  # protocol.md line 59

RESULT_SUCCESS = (
    b'{"duration_api_ms": 34, "stop_reason": "end_turn", "session_id": "994dfc7c-28f7-4fc3-ab37-d895e0343c7a", "total_cost_usd": 0.00014000000000000001, "usage": {"input_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 5, "output_tokens_details": {"thinking_tokens": 0}, "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0}, "service_tier": "standard", "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0}, "inference_geo": "", "iterations": [], "speed": "standard", "fallback_credit": null}, "modelUsage": {"claude-opus-5-5": {"inputTokens": 10, "outputTokens": 5, "cacheReadInputTokens": 0, "cacheCreationInputTokens": 0, "webSearchRequests": 0, "costUSD": 0.00014000000000000001, "contextWindow": 1000000, "maxOutputTokens": 128000, "thinkingTokens": 0, "cacheCreationEphemeral5mInputTokens": 0, "cacheCreationEphemeral1hInputTokens": 0, "canonicalModel": "claude-opus-5-5", "provider": "firstParty", "costBasis": "list"}}, "permission_denials": [], "terminal_reason": "completed", "fast_mode_state": "off", "fast_mode_disabled_reason": "sdk_opt_in_required", "subagent_stats": {"spawned": 0, "requested": {"background": 0, "foreground": 0, "unset": 0}, "started_in_background": 0, "max_depth": 0, "spawned_by_subagents": 0, "completed": 0, "failed": 0, "killed": {"parent": 0, "user": 0, "system": 0}, "refused": {"depth_limit": 0, "concurrency_limit": 0, "budget": 0}, "by_type": {}}, "safety_stops": 0, "is_error": false, "num_turns": 1, "subtype": "success", "api_error_status": null, "result": "Hello from the fake model.", "ttft_ms": 178, "type": "result", "duration_ms": 191, "uuid": "c6c92dc4-def5-4831-9945-e1f850dd7e27", "ttft_stream_ms": 177, "time_to_request_ms": 156, "first_content_frame_ms": 177, "queued_turn_count": 0, "result_index": 0, "model_usage_since_last_result": {"claude-opus-5-5": {"inputTokens": 10, "outputTokens": 5, "cacheReadInputTokens": 0, "cacheCreationInputTokens": 0, "webSearchRequests": 0, "costUSD": 0.00014000000000000001, "contextWindow": 1000000, "maxOutputTokens": 128000, "thinkingTokens": 0, "cacheCreationEphemeral5mInputTokens": 0, "cacheCreationEphemeral1hInputTokens": 0, "canonicalModel": "claude-opus-5-5", "provider": "firstParty", "costBasis": "list"}}}'
)  # protocol.md line 60

ASSISTANT_THINKING = (
    b'{"type": "assistant", "message": {"id": "msg_fake843129", "type": "message", "role": "assistant", "model": "claude-opus-5-5", "content": [{"type": "thinking", "thinking": "Let me think briefly.", "signature": "c2lnbmF0dXJl"}], "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 10, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}, "context_management": null}, "parent_tool_use_id": null, "session_id": "4e7e0625-1f39-4c4a-ba32-8873270313a4", "uuid": "683a27de-2641-426e-b280-fb6e67ed41b7", "timestamp": "2026-11-30T10:00:43.140Z", "request_id": "req_fake1", "thinking_duration_ms": 1, "thinking_display": "updates"}'
)  # protocol.md line 953

ASSISTANT_TOOL_USE = (
    b'{"type": "assistant", "message": {"id": "msg_fake843129", "type": "message", "role": "assistant", "model": "claude-opus-5-5", "content": [{"type": "tool_use", "id": "toolu_fake0001", "name": "Bash", "input": {"command": "echo hi", "description": "Print hi"}}], "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 10, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}, "context_management": null}, "parent_tool_use_id": null, "session_id": "4e7e0625-1f39-4c4a-ba32-8873270313a4", "uuid": "d807e5f3-d6ed-4891-a1d6-29ec923916a8", "timestamp": "2026-11-30T10:00:43.148Z", "request_id": "req_fake1"}'
)  # protocol.md line 965

USER_TOOL_RESULT = (
    b'{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "toolu_fake0001", "type": "tool_result", "content": "hi", "is_error": false}]}, "parent_tool_use_id": null, "session_id": "60c6bb2e-d2a2-45b0-9156-136af9d46b2f", "uuid": "22eb06c8-afae-4a84-94c8-112371462c75", "timestamp": "2026-11-30T09:59:13.181Z", "tool_use_result": {"stdout": "hi", "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false}, "tool_result_meta": [{"id": "toolu_fake0001", "permission_decision": {"decision": "accept", "source": "config", "reason_type": "rule"}}]}'
)  # protocol.md line 147

STREAM_EVENT_DELTA = (
    b'{"type": "stream_event", "event": {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Let me "}}, "session_id": "4e7e0625-1f39-4c4a-ba32-8873270313a4", "parent_tool_use_id": null, "uuid": "024edf5d-3f1f-49eb-be02-c0634a6debd2", "thinking_display": "updates", "api_message_id": "msg_fake843129"}'
)  # protocol.md line 947

RESULT_MAX_TURNS = (
    b'{"duration_api_ms": 235, "stop_reason": "tool_use", "session_id": "34d8ada9-8560-473a-98a1-673d3d71d4c5", "total_cost_usd": 0.00014000000000000001, "usage": {"input_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 5, "output_tokens_details": {"thinking_tokens": 0}, "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0}, "service_tier": "standard", "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0}, "inference_geo": "", "iterations": [], "speed": "standard", "fallback_credit": null}, "modelUsage": {"claude-opus-5-5": {"inputTokens": 10, "outputTokens": 5, "cacheReadInputTokens": 0, "cacheCreationInputTokens": 0, "webSearchRequests": 0, "costUSD": 0.00014000000000000001, "contextWindow": 1000000, "maxOutputTokens": 128000, "thinkingTokens": 0, "cacheCreationEphemeral5mInputTokens": 0, "cacheCreationEphemeral1hInputTokens": 0, "canonicalModel": "claude-opus-5-5", "provider": "firstParty", "costBasis": "list"}}, "permission_denials": [], "terminal_reason": "max_turns", "fast_mode_state": "off", "fast_mode_disabled_reason": "sdk_opt_in_required", "subagent_stats": {"spawned": 0, "requested": {"background": 0, "foreground": 0, "unset": 0}, "started_in_background": 0, "max_depth": 0, "spawned_by_subagents": 0, "completed": 0, "failed": 0, "killed": {"parent": 0, "user": 0, "system": 0}, "refused": {"depth_limit": 0, "concurrency_limit": 0, "budget": 0}, "by_type": {}}, "safety_stops": 0, "is_error": true, "num_turns": 2, "subtype": "error_max_turns", "errors": ["Reached maximum number of turns (1)"], "type": "result", "duration_ms": 539, "uuid": "80d7c432-41ce-4fba-9c3c-89bcd8915a87", "queued_turn_count": 0, "result_index": 0, "model_usage_since_last_result": {"claude-opus-5-5": {"inputTokens": 10, "outputTokens": 5, "cacheReadInputTokens": 0, "cacheCreationInputTokens": 0, "webSearchRequests": 0, "costUSD": 0.00014000000000000001, "contextWindow": 1000000, "maxOutputTokens": 128000, "thinkingTokens": 0, "cacheCreationEphemeral5mInputTokens": 0, "cacheCreationEphemeral1hInputTokens": 0, "canonicalModel": "claude-opus-5-5", "provider": "firstParty", "costBasis": "list"}}}'
)  # protocol.md line 931

API_RETRY = (
    b'{"type": "system", "subtype": "api_retry", "attempt": 1, "max_retries": 2, "retry_delay_ms": 625, "error_status": 500, "error": "server_error", "session_id": "9552bf23-a4f2-4359-93fe-53827338dd96", "uuid": "ed9d2f12-4407-4538-8304-47578c103453"}'
)  # protocol.md line 993

CONTROL_REQUEST_CAN_USE_TOOL = (
    b'{"type": "control_request", "request_id": "2c941fcd-984f-42ed-b96a-588734d538a0", "request": {"subtype": "can_use_tool", "tool_name": "Write", "display_name": "Write", "input": {"file_path": "<cwd>/s03a_perm_allow_deny/a.txt", "content": "original content\\n"}, "description": "a.txt", "permission_suggestions": [{"type": "setMode", "mode": "acceptEdits", "destination": "session"}], "server_policy_ask_only": true, "tool_use_id": "toolu_fake0001"}}'
)  # protocol.md line 403

CONTROL_RESPONSE = (
    b'{"type": "control_response", "response": {"subtype": "success", "request_id": "req_2", "response": {"still_queued": []}}}'
)  # protocol.md line 621

CONTROL_RESPONSE_ERROR = (
    b'{"type": "control_response", "response": {"subtype": "error", "request_id": "req_3", "error": "Cannot set permission mode: must be one of acceptEdits, auto, bypassPermissions, default, dontAsk, plan", "error_code": "invalid_mode"}}'
)  # protocol.md line 747

CONTROL_CANCEL = (
    b'{"type": "control_cancel_request", "request_id": "04e0bfd1-c9bc-484c-bb37-24c993254399"}'
)  # protocol.md line 326

HOOK_STARTED = (
    b'{"type": "system", "subtype": "hook_started", "hook_id": "677e5067-f7b0-4ece-a4d8-8200e15117e6", "hook_name": "PreToolUse:Bash", "hook_event": "PreToolUse", "uuid": "7acb9196-c140-4ba7-952b-c4d4b4702b85", "session_id": "70977b83-2d55-4eef-aac3-e70c2ad692f1"}'
)  # protocol.md line 365

INFORMATIONAL = (
    b'{"type": "system", "subtype": "informational", "content": "PreToolUse:Bash says: hook says halt", "level": "notice", "uuid": "e1755237-b364-4469-97b6-72be74c54572", "session_id": "dfe2eca6-bdae-4e74-bcdc-8cd8d27e702a"}'
)  # protocol.md line 254

INIT_TRIMMED = (
    b'{"type": "system", "subtype": "init", "cwd": "<cwd>/s07e_eof_no_init", "session_id": "2a0e27f8-e069-4694-8cee-95e48829308d", "tools": ["Task", "Bash", "CronCreate", "\xe2\x80\xa6(+19 more items)"], "mcp_servers": [], "model": "claude-opus-5-5", "permissionMode": "default", "slash_commands": "\xe2\x80\xa6", "terminal_slash_commands": "\xe2\x80\xa6", "apiKeySource": "\xe2\x80\xa6", "claude_code_version": "\xe2\x80\xa6", "output_style": "\xe2\x80\xa6", "agents": "\xe2\x80\xa6", "skills": "\xe2\x80\xa6", "plugins": "\xe2\x80\xa6", "capabilities": "\xe2\x80\xa6", "analytics_disabled": "\xe2\x80\xa6", "product_feedback_disabled": "\xe2\x80\xa6", "uuid": "\xe2\x80\xa6", "memory_paths": "\xe2\x80\xa6", "original_cwd": "\xe2\x80\xa6", "additional_directories": "\xe2\x80\xa6", "messaging_socket_path": "\xe2\x80\xa6", "fast_mode_state": "\xe2\x80\xa6", "fast_mode_disabled_reason": "\xe2\x80\xa6", "per_turn_effort_active": "\xe2\x80\xa6", "ultrathink_available": "\xe2\x80\xa6", "ultrathink_typed_raises": "\xe2\x80\xa6", "view_mode": "\xe2\x80\xa6"}'
)  # protocol.md line 83

ASSISTANT_API_ERROR = (
    b'{"type": "assistant", "message": {"diagnostics": null, "id": "54eda8bc-bfa4-4e94-957a-a7ffc8cabeab", "container": null, "model": "<synthetic>", "role": "assistant", "stop_details": null, "stop_reason": "stop_sequence", "stop_sequence": "", "type": "message", "usage": {"output_tokens_details": null, "input_tokens": 0, "output_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0}, "service_tier": null, "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0}, "inference_geo": null, "iterations": null, "speed": null, "fallback_credit": null}, "content": [{"type": "text", "text": "API Error: 500 fake error 500. This is a server-side issue, usually temporary \xe2\x80\x94 try again in a moment. If it persists, check your inference gateway (127.0.0.1:1\xe2\x80\xa6(+6 chars)"}], "context_management": null}, "parent_tool_use_id": null, "session_id": "9552bf23-a4f2-4359-93fe-53827338dd96", "uuid": "f88b9e10-44d0-4678-9784-a76737ab55c1", "timestamp": "2026-11-30T10:00:50.219Z", "error": "server_error", "request_id": "req_fake3", "is_api_error_message": true, "api_error_status": 500, "api_error_type": "api_error"}'
)  # protocol.md line 995

RESULT_API_ERROR = (
    b'{"duration_api_ms": 0, "stop_reason": "stop_sequence", "session_id": "9552bf23-a4f2-4359-93fe-53827338dd96", "total_cost_usd": 0, "usage": {"output_tokens_details": {"thinking_tokens": 0}, "input_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 0, "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0}, "service_tier": "standard", "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0}, "inference_geo": "", "iterations": [], "speed": "standard", "fallback_credit": null}, "modelUsage": {}, "permission_denials": [], "terminal_reason": "api_error", "fast_mode_state": "off", "fast_mode_disabled_reason": "sdk_opt_in_required", "subagent_stats": {"spawned": 0, "requested": {"background": 0, "foreground": 0, "unset": 0}, "started_in_background": 0, "max_depth": 0, "spawned_by_subagents": 0, "completed": 0, "failed": 0, "killed": {"parent": 0, "user": 0, "system": 0}, "refused": {"depth_limit": 0, "concurrency_limit": 0, "budget": 0}, "by_type": {}}, "safety_stops": 0, "is_error": true, "num_turns": 1, "subtype": "success", "api_error_status": 500, "api_error_type": "api_error", "result": "API Error: 500 fake error 500. This is a server-side issue, usually temporary \xe2\x80\x94 try again in a moment. If it persists, check your inference gateway (127.0.0.1:1\xe2\x80\xa6(+6 chars)", "type": "result", "duration_ms": 1947, "uuid": "20bfb7cb-e233-4c74-911e-a802fbf58bb5", "queued_turn_count": 0, "result_index": 0, "model_usage_since_last_result": {}}'
)  # protocol.md line 996
# fmt: on

# Not in the recordings (the fake API sent no rate-limit headers); the shape is
# the documented SDKRateLimitEvent with camelCase fields inside rate_limit_info.
RATE_LIMIT_EVENT = (
    b'{"type": "rate_limit_event", "rate_limit_info": {"status": "allowed_warning", "resetsAt": 1764500000,'
    b' "rateLimitType": "five_hour", "utilization": 0.91, "overageStatus": "rejected",'
    b' "overageResetsAt": null, "overageDisabledReason": "org_level_disabled", "isUsingOverage": false},'
    b' "uuid": "0f0e0d0c-aaaa-4bbb-8ccc-000000000001", "session_id": "994dfc7c-28f7-4fc3-ab37-d895e0343c7a"}'
)

TYPED = (
    UserMessage,
    AssistantMessage,
    SystemMessage,
    ResultMessage,
    StreamEvent,
    RateLimitEvent,
    UnknownMessage,
    ControlRequest,
    ControlResponseIn,
    ControlCancel,
)


# -- real frames -------------------------------------------------------------------


def test_system_init() -> None:
    message = decode_frame(INIT)
    # A plain SystemMessage, as with the official package; the view is typed.
    assert type(message) is SystemMessage
    assert message.subtype == "init"
    m = InitSystemMessage.of(message)
    assert m is not None
    assert m.session_id == "994dfc7c-28f7-4fc3-ab37-d895e0343c7a"
    assert m.model == "claude-opus-5-5"
    assert m.cwd == "<cwd>/s01_basic"
    assert m.permission_mode == "default"
    assert m.api_key_source == "ANTHROPIC_API_KEY"
    assert m.claude_code_version == "2.1.328"
    assert m.tools[:2] == ["Task", "Bash"]
    assert m.mcp_servers == []
    # The whole frame stays available, including keys without a typed field.
    assert message.data["messaging_socket_path"] == "<tmpdir>/cc-socks/8858.sock"
    assert message.data == json.loads(INIT)


def test_views_are_none_for_other_messages() -> None:
    assert InitSystemMessage.of(decode_frame(API_RETRY)) is None
    assert InitSystemMessage.of(decode_frame(ASSISTANT_TEXT)) is None
    assert ApiRetryMessage.of(decode_frame(INIT)) is None


def test_assistant_text() -> None:
    m = decode_frame(ASSISTANT_TEXT)
    assert isinstance(m, AssistantMessage)
    assert m.content == [TextBlock(text="Hello from the fake model.")]
    assert m.model == "claude-opus-5-5"
    assert m.message_id == "msg_fake750514"
    assert m.session_id == "994dfc7c-28f7-4fc3-ab37-d895e0343c7a"
    assert m.uuid == "db708d81-e327-4c0a-bd4a-1698e449d354"
    assert m.parent_tool_use_id is None
    assert m.error is None
    assert m.stop_reason is None
    assert m.usage is not None and m.usage["input_tokens"] == 10


def test_assistant_thinking() -> None:
    m = decode_frame(ASSISTANT_THINKING)
    assert isinstance(m, AssistantMessage)
    assert m.content == [ThinkingBlock(thinking="Let me think briefly.", signature="c2lnbmF0dXJl")]
    assert m.message_id == "msg_fake843129"


def test_assistant_tool_use() -> None:
    m = decode_frame(ASSISTANT_TOOL_USE)
    assert isinstance(m, AssistantMessage)
    [block] = m.content
    assert isinstance(block, ToolUseBlock)
    assert block.id == "toolu_fake0001"
    assert block.name == "Bash"
    assert block.input == {"command": "echo hi", "description": "Print hi"}


def test_assistant_api_error() -> None:
    m = decode_frame(ASSISTANT_API_ERROR)
    assert isinstance(m, AssistantMessage)
    assert m.error == "server_error"
    assert m.model == "<synthetic>"
    assert isinstance(m.content[0], TextBlock)
    assert m.content[0].text.startswith("API Error: 500")


def test_user_tool_result_with_tool_use_result() -> None:
    m = decode_frame(USER_TOOL_RESULT)
    assert isinstance(m, UserMessage)
    assert m.content == [ToolResultBlock(tool_use_id="toolu_fake0001", content="hi", is_error=False)]
    assert m.tool_use_result == {
        "stdout": "hi",
        "stderr": "",
        "interrupted": False,
        "isImage": False,
        "noOutputExpected": False,
    }
    assert m.uuid == "22eb06c8-afae-4a84-94c8-112371462c75"
    assert m.is_synthetic is False


def test_user_string_content() -> None:
    m = decode_frame(b'{"type": "user", "message": {"role": "user", "content": "hello"}, "isSynthetic": true}')
    assert isinstance(m, UserMessage)
    assert m.content == "hello"
    assert m.is_synthetic is True


def test_result_success_key_order_from_the_binary() -> None:
    # The binary writes "duration_api_ms" first and "type" in the middle.
    assert not RESULT_SUCCESS.startswith(b'{"type"')
    m = decode_frame(RESULT_SUCCESS)
    assert isinstance(m, ResultMessage)
    assert m.subtype == "success"
    assert m.is_error is False
    assert m.result == "Hello from the fake model."
    assert m.num_turns == 1
    assert m.duration_ms == 191
    assert m.duration_api_ms == 34
    assert m.stop_reason == "end_turn"
    assert m.total_cost_usd == pytest.approx(0.00014)
    assert m.session_id == "994dfc7c-28f7-4fc3-ab37-d895e0343c7a"
    assert m.terminal_reason == "completed"
    assert m.result_index == 0
    assert m.model_usage is not None and "claude-opus-5-5" in m.model_usage
    assert m.usage is not None and m.usage["output_tokens"] == 5
    assert m.permission_denials == []


def test_result_error_max_turns() -> None:
    m = decode_frame(RESULT_MAX_TURNS)
    assert isinstance(m, ResultMessage)
    assert m.subtype == "error_max_turns"
    assert m.is_error is True
    assert m.errors == ["Reached maximum number of turns (1)"]
    assert m.result is None
    assert m.terminal_reason == "max_turns"
    assert m.stop_reason == "tool_use"


def test_result_api_error_is_error_with_subtype_success() -> None:
    m = decode_frame(RESULT_API_ERROR)
    assert isinstance(m, ResultMessage)
    assert m.subtype == "success"
    assert m.is_error is True
    assert m.api_error_status == 500
    assert m.api_error_type == "api_error"
    assert m.terminal_reason == "api_error"
    assert m.result is not None and m.result.startswith("API Error: 500")


def test_stream_event() -> None:
    m = decode_frame(STREAM_EVENT_DELTA)
    assert isinstance(m, StreamEvent)
    assert m.event["type"] == "content_block_delta"
    assert m.event["delta"] == {"type": "thinking_delta", "thinking": "Let me "}
    assert m.session_id == "4e7e0625-1f39-4c4a-ba32-8873270313a4"
    assert m.parent_tool_use_id is None
    assert m.uuid


def test_system_subtypes() -> None:
    assert type(decode_frame(API_RETRY)) is SystemMessage
    retry = ApiRetryMessage.of(decode_frame(API_RETRY))
    assert retry is not None
    assert (retry.attempt, retry.max_retries, retry.error_status, retry.error) == (1, 2, 500, "server_error")
    assert retry.retry_delay_ms == 625

    assert type(decode_frame(INFORMATIONAL)) is SystemMessage
    info = InformationalMessage.of(decode_frame(INFORMATIONAL))
    assert info is not None
    assert info.level == "notice"
    assert info.content == "PreToolUse:Bash says: hook says halt"

    hook = decode_frame(HOOK_STARTED)
    assert isinstance(hook, HookEventMessage)
    assert hook.subtype == "hook_started"
    assert hook.hook_event_name == "PreToolUse"
    assert hook.data["hook_id"] == "677e5067-f7b0-4ece-a4d8-8200e15117e6"


def test_unknown_system_subtype_is_a_plain_system_message() -> None:
    line = b'{"type": "system", "subtype": "thinking_tokens", "estimated_tokens": 2, "session_id": "s"}'
    m = decode_frame(line)
    assert type(m) is SystemMessage
    assert m.subtype == "thinking_tokens"
    assert m.data == json.loads(line)


def test_control_request() -> None:
    m = decode_frame(CONTROL_REQUEST_CAN_USE_TOOL)
    assert isinstance(m, ControlRequest) and m.error is None
    assert m.request_id == "2c941fcd-984f-42ed-b96a-588734d538a0"
    body = m.body
    assert m.subtype == body["subtype"] == "can_use_tool"
    assert body["tool_name"] == "Write"
    assert body["tool_use_id"] == "toolu_fake0001"


def test_control_response_success_and_error() -> None:
    ok = decode_frame(CONTROL_RESPONSE)
    assert isinstance(ok, ControlResponseIn)
    assert ok.response.subtype == "success"
    assert ok.response.request_id == "req_2"
    assert decode_value(ok.response.response) == {"still_queued": []}

    err = decode_frame(CONTROL_RESPONSE_ERROR)
    assert isinstance(err, ControlResponseIn)
    assert err.response.subtype == "error"
    assert err.response.request_id == "req_3"
    assert err.response.error_code == "invalid_mode"
    assert err.response.error is not None and err.response.error.startswith("Cannot set permission mode")


def test_control_response_without_inner_response() -> None:
    # set_max_thinking_tokens & co. answer success with no "response" key.
    m = decode_frame(b'{"type":"control_response","response":{"subtype":"success","request_id":"req_9"}}')
    assert isinstance(m, ControlResponseIn)
    assert decode_value(m.response.response) is None


def test_control_cancel() -> None:
    m = decode_frame(CONTROL_CANCEL)
    assert isinstance(m, ControlCancel)
    assert m.request_id == "04e0bfd1-c9bc-484c-bb37-24c993254399"


def test_rate_limit_event() -> None:
    m = decode_frame(RATE_LIMIT_EVENT)
    assert isinstance(m, RateLimitEvent)
    info = m.rate_limit_info
    assert info.status == "allowed_warning"
    assert info.resets_at == 1764500000
    assert info.rate_limit_type == "five_hour"
    assert info.utilization == pytest.approx(0.91)
    assert info.overage_status == "rejected"
    assert info.overage_disabled_reason == "org_level_disabled"
    assert m.session_id == "994dfc7c-28f7-4fc3-ab37-d895e0343c7a"


@pytest.mark.parametrize(
    "line", [CONTROL_REQUEST_CAN_USE_TOOL, CONTROL_RESPONSE, CONTROL_RESPONSE_ERROR, CONTROL_CANCEL]
)
def test_decode_line_returns_none_for_control_frames(line: bytes) -> None:
    assert decode_line(line) is None


def test_decode_line_returns_messages() -> None:
    assert isinstance(decode_line(ASSISTANT_TEXT), AssistantMessage)
    assert isinstance(decode_line(RESULT_SUCCESS), ResultMessage)
    assert decode_line(b"") is None


def test_every_recorded_frame_decodes_to_its_type() -> None:
    expected = {
        INIT: SystemMessage,
        ASSISTANT_TEXT: AssistantMessage,
        RESULT_SUCCESS: ResultMessage,
        ASSISTANT_THINKING: AssistantMessage,
        ASSISTANT_TOOL_USE: AssistantMessage,
        USER_TOOL_RESULT: UserMessage,
        STREAM_EVENT_DELTA: StreamEvent,
        RESULT_MAX_TURNS: ResultMessage,
        API_RETRY: SystemMessage,
        CONTROL_REQUEST_CAN_USE_TOOL: ControlRequest,
        CONTROL_RESPONSE: ControlResponseIn,
        CONTROL_RESPONSE_ERROR: ControlResponseIn,
        CONTROL_CANCEL: ControlCancel,
        HOOK_STARTED: HookEventMessage,
        INFORMATIONAL: SystemMessage,
        ASSISTANT_API_ERROR: AssistantMessage,
        RESULT_API_ERROR: ResultMessage,
        RATE_LIMIT_EVENT: RateLimitEvent,
    }
    for line, cls in expected.items():
        assert type(decode_frame(line)) is cls, line[:80]
        # A trailing newline (as read from the pipe by some callers) changes nothing.
        assert type(decode_frame(line + b"\n")) is cls


# -- key order ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line", [ASSISTANT_TEXT, USER_TOOL_RESULT, INIT, STREAM_EVENT_DELTA, CONTROL_CANCEL, RATE_LIMIT_EVENT]
)
def test_key_order_does_not_matter(line: bytes) -> None:
    data = json.loads(line)
    reordered = dict(reversed(list(data.items())))
    assert next(iter(reordered)) != "type"
    assert decode_frame(json.dumps(reordered).encode()) == decode_frame(line)


# -- forward compatibility -------------------------------------------------------------


def test_unknown_frame_type_keeps_raw_data() -> None:
    line = b'{"type": "command_lifecycle", "subtype": "queued", "uuid": "u1", "nested": {"a": [1, 2]}}'
    m = decode_frame(line)
    assert isinstance(m, UnknownMessage)
    assert m.type == "command_lifecycle"
    assert m.subtype == "queued"
    assert m.data == json.loads(line)
    assert m.error is None
    # Skipped by default, as the official package does; yielded on request.
    assert decode_line(line) is None
    assert decode_line(line, keep_unrecognized=True) == m


def test_unknown_content_block_kept_in_place() -> None:
    data = json.loads(ASSISTANT_TEXT)
    data["message"]["content"] = [
        {"type": "text", "text": "before"},
        {"type": "fancy_new_block", "payload": {"x": 1}},
        {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": "/a"}},
        {"type": "redacted_thinking", "data": "abc"},
        {"type": "web_search_tool_result", "tool_use_id": "srv_1", "content": [{"url": "u"}]},
    ]
    line = json.dumps(data).encode()
    m = decode_frame(line)
    assert isinstance(m, AssistantMessage)
    assert m.message_id == "msg_fake750514"
    # Dropped by default, as the official package does.
    assert m.content == [TextBlock(text="before"), ToolUseBlock(id="toolu_1", name="Read", input={"file_path": "/a"})]

    kept = decode_frame(line, keep_unrecognized=True)
    assert isinstance(kept, AssistantMessage)
    assert kept.content == [
        TextBlock(text="before"),
        UnknownBlock(type="fancy_new_block", data={"type": "fancy_new_block", "payload": {"x": 1}}),
        ToolUseBlock(id="toolu_1", name="Read", input={"file_path": "/a"}),
        RedactedThinkingBlock(data="abc"),
        ServerToolResultBlock(tool_use_id="srv_1", content=[{"url": "u"}]),  # type: ignore[arg-type]
    ]


def test_unknown_block_in_user_message() -> None:
    line = (
        b'{"type":"user","message":{"role":"user","content":[{"type":"document","source":{}},'
        b'{"type":"tool_result","tool_use_id":"t","content":"x"},{"type":"image","source":{"type":"base64"}},'
        b'{"type":"thinking","thinking":"t","signature":"s"}]}}'
    )
    m = decode_frame(line)
    assert isinstance(m, UserMessage)
    assert m.content == [ToolResultBlock(tool_use_id="t", content="x")]

    kept = decode_frame(line, keep_unrecognized=True)
    assert isinstance(kept, UserMessage)
    assert kept.content == [
        UnknownBlock(type="document", data={"type": "document", "source": {}}),
        ToolResultBlock(tool_use_id="t", content="x"),
        ImageBlock(source={"type": "base64"}),
        # The official parser drops thinking in user messages; kept, it is ours to type.
        ThinkingBlock(thinking="t", signature="s"),
    ]


def test_known_block_missing_a_required_key_makes_the_frame_malformed() -> None:
    # The official parser raises MessageParseError here; the frame is kept instead.
    line = b'{"type":"assistant","message":{"model":"m","content":[{"type":"thinking","thinking":"t"}]}}'
    for keep in (False, True):
        m = decode_frame(line, keep_unrecognized=keep)
        assert isinstance(m, UnknownMessage)
        assert m.error and "signature" in m.error
        assert decode_line(line, keep_unrecognized=keep) == m  # malformed frames are always delivered


@pytest.mark.parametrize(
    "line",
    [
        b'{"type": "assistant", "session_id": "s"}',  # no message
        b'{"type": "assistant", "message": {"content": "not a list"}}',
        b'{"type": "assistant", "message": {"content": [1, 2]}}',
        b'{"type": "assistant", "message": {"content": []}}',  # no model
        b'{"type": "assistant", "message": {"model": "m", "content": [{"text": "no type"}]}}',
        b'{"type": "result", "subtype": "success"}',  # no duration_ms, is_error, ...
        b'{"type": "stream_event", "uuid": "u", "session_id": "s"}',  # no event
        b'{"type": "rate_limit_event", "rate_limit_info": {}, "uuid": "u", "session_id": "s"}',  # no status
        b'{"type": "conversation_reset", "uuid": "u"}',
        b'{"type": "system", "subtype": "task_started", "task_id": "t"}',
        b'{"subtype": "init"}',  # no type at all
        b'{"type": "user", "message": 5}',
        b'{"type": "result"}',  # no subtype
        b'{"type": "result", "subtype": "success", "is_error": "yes"}',
        b'{"type": "stream_event", "uuid": "u"}',
        b'{"type": "rate_limit_event", "rate_limit_info": 3}',
        b'{"type": "system", "subtype": 7}',
    ],
)
def test_malformed_known_frame_is_unknown_message_with_error(line: bytes, caplog: pytest.LogCaptureFixture) -> None:
    m = decode_frame(line)
    assert isinstance(m, UnknownMessage)
    assert m.type == json.loads(line).get("type", "")
    assert m.data == json.loads(line)
    assert m.error
    assert "malformed" in caplog.text
    assert decode_line(line) == m  # delivered whatever keep_unrecognized says


@pytest.mark.parametrize(
    ("line", "request_id", "why"),
    [
        (b'{"type": "control_request"}', None, "malformed request"),
        (b'{"type": "control_request", "request_id": "r", "request": [1]}', "r", "not a JSON object"),
        (b'{"type": "control_request", "request_id": 7, "request": {"subtype": "x"}}', 7, None),
        (b'{"type": "control_request", "request_id": "r", "request": {"v": 1}}', "r", "no subtype"),
        (b'{"type": "control_request", "request_id": "r", "request": {"subtype": "x", "v": "\xff"}}', "r", "UTF-8"),
        (b'{"type":"control_request","request_id":"r","request":{"subtype":"x","v":"cut', "r", "truncated"),
        (b'{"type": "control_request", "request_id": {"a": 1}, "request": {"subtype": "x"}}', None, "request_id"),
    ],
)
def test_a_control_request_of_any_shape_comes_back_to_be_answered(
    line: bytes, request_id: Any, why: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    # A request left as an UnknownMessage would never be answered, and the
    # binary would wait for it forever: each is a ControlRequest, refused
    # when ``error`` says why it cannot be served.
    m = decode_frame(line)
    assert isinstance(m, ControlRequest)
    assert m.request_id == request_id
    if why is None:
        assert m.error is None
    else:
        assert m.error is not None and why in m.error
    assert decode_line(line) is None  # control frames are never messages


def test_recorder_trimmed_init_frame_is_a_system_message_its_view_refuses() -> None:
    # "slash_commands": "…" where a list belongs: init frames are not checked
    # (nor are they by the official parser); the typed view says what is wrong.
    m = decode_frame(INIT_TRIMMED)
    assert type(m) is SystemMessage and m.subtype == "init"
    assert m.data["session_id"] == "2a0e27f8-e069-4694-8cee-95e48829308d"
    with pytest.raises(MessageParseError, match="slash_commands") as info:
        InitSystemMessage.of(m)
    assert info.value.data == m.data


# -- not JSON / not an object / blank ---------------------------------------------------


@pytest.mark.parametrize(
    "line", [b"not json", b"{", b'{"type": "assistant"', b"Error: something on stdout", b"\xff\xfe{}"]
)
def test_non_json_raises_cli_json_decode_error(line: bytes) -> None:
    with pytest.raises(CLIJSONDecodeError) as info:
        decode_frame(line)
    assert isinstance(info.value, ClaudeSDKError)
    # As in the official package: the line as text, the cause, and the message's start.
    assert info.value.line == line.decode("utf-8", "replace")
    assert isinstance(info.value.original_error, Exception)
    assert str(info.value).startswith(f"Failed to decode JSON: {info.value.line[:100]}...")


@pytest.mark.parametrize("line", [b"[]", b"[1, 2]", b'"text"', b"42", b"null", b"true"])
def test_json_that_is_not_an_object_raises(line: bytes) -> None:
    with pytest.raises(CLIJSONDecodeError):
        decode_frame(line)


@pytest.mark.parametrize("line", [b"", b"\n", b"   ", b" \t\r\n"])
def test_blank_line_is_none(line: bytes) -> None:
    assert decode_frame(line) is None
    assert decode_line(line) is None


def test_error_keeps_only_the_start_of_a_huge_bad_line() -> None:
    line = b"x" * 1_000_000
    with pytest.raises(CLIJSONDecodeError) as info:
        decode_frame(line)
    assert len(info.value.line) <= 512


def test_deeply_nested_json_does_not_escape_as_recursion_error() -> None:
    # Valid JSON nested deeper than msgspec's recursion limit (e.g. a tool result
    # carrying deeply nested data) must surface as the library's decode error
    # (or a message), never as a bare RecursionError that kills the stream.
    depth = 5000
    line = b'{"type": "user", "tool_use_result": ' + b"[" * depth + b"]" * depth + b"}"
    try:
        result = decode_frame(line)
    except CLIJSONDecodeError:
        return
    assert isinstance(result, TYPED)


# -- lone surrogates ---------------------------------------------------------------------------


def _readable(text: str) -> str:
    """``text`` as msgspec reads a repaired line: each lone surrogate as U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


@pytest.mark.parametrize(
    "text",
    ["cut \ud83c", "\udf89 low first", "\ud83c\ud83c\udf89 high, then a pair", "end \ud83c\ud83c", "\udc00"],
)
def test_lone_surrogate_escapes_read_as_replacement_characters(text: str) -> None:
    # What a JavaScript tool writes when it cuts a string inside an emoji: valid JSON.
    line = json.dumps(_assistant_frame(text)).encode()
    message = decode_frame(line)
    assert isinstance(message, AssistantMessage)
    assert message.content == [TextBlock(text=_readable(text))]
    assert "\ufffd" in message.content[0].text  # type: ignore[union-attr]


def test_lone_surrogates_anywhere_in_any_frame_kind() -> None:
    system = decode_frame(json.dumps({"type": "system", "subtype": "init", "cwd": "/x\ud800"}).encode())
    assert isinstance(system, SystemMessage) and system.data["cwd"] == "/x\ufffd"
    request = decode_frame(
        json.dumps({"type": "control_request", "request_id": "r", "request": {"subtype": "x", "v": "\udbff"}}).encode()
    )
    assert isinstance(request, ControlRequest) and request.error is None and request.body["v"] == "\ufffd"
    malformed = decode_frame(json.dumps({"type": "result", "subtype": 5, "note": "\ud83c"}).encode())
    assert isinstance(malformed, UnknownMessage) and malformed.error and malformed.data["note"] == "\ufffd"


@pytest.mark.parametrize("text", ["\\ud83c", "\\\\ud83c", "C:\\ud83c\\temp"])
def test_an_escaped_backslash_before_u_is_no_surrogate(text: str) -> None:
    line = json.dumps(_assistant_frame(text)).encode()
    assert without_lone_surrogates(line) is None
    assert decode_frame(line).content == [TextBlock(text=text)]  # type: ignore[union-attr]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0xD800, 0xDFFF) | st.integers(0, 0x10FFFF), max_size=40).map(
        lambda cps: "".join(map(chr, cps))
    )
)
def test_any_text_with_lone_surrogates_decodes(text: str) -> None:
    line = json.dumps(_assistant_frame(text)).encode()  # ensure_ascii: every surrogate escaped
    message = decode_frame(line)
    assert isinstance(message, AssistantMessage)
    assert message.content == [TextBlock(text=_readable(text))]


def _assistant_frame(text: str) -> dict[str, Any]:
    return {
        "type": "assistant",
        "message": {"model": "m", "content": [{"type": "text", "text": text}]},
        "session_id": "s",
    }


# -- big frames and round trips ---------------------------------------------------------------


def test_20mb_text_block_decodes() -> None:
    text = "0123456789abcdef\u00e9\u4e2d" * (20 * 1024 * 1024 // 21)
    data = json.loads(ASSISTANT_TEXT)
    data["message"]["content"] = [{"type": "text", "text": text}]
    line = msgspec.json.encode(data)
    assert len(line) > 20 * 1024 * 1024
    m = decode_frame(line)
    assert isinstance(m, AssistantMessage)
    [block] = m.content
    assert isinstance(block, TextBlock)
    assert len(block.text) == len(text)
    assert block.text == text


@pytest.mark.parametrize(
    "block",
    [
        TextBlock(text='héllo\n"quoted"'),
        ThinkingBlock(thinking="hmm", signature="sig"),
        ToolUseBlock(id="toolu_1", name="Bash", input={"command": "ls -la", "n": [1, 2.5, None, True]}),
        ToolResultBlock(tool_use_id="toolu_1", content=[{"type": "text", "text": "5"}], is_error=True),
        ToolResultBlock(tool_use_id="toolu_2", content="plain"),
    ],
)
def test_content_block_round_trip(block: ContentBlock) -> None:
    kind = {TextBlock: "text", ThinkingBlock: "thinking", ToolUseBlock: "tool_use", ToolResultBlock: "tool_result"}
    encoded = msgspec.json.encode({"type": kind[type(block)], **dataclasses.asdict(block)})
    frame = b'{"type":"assistant","message":{"model":"m","content":[' + encoded + b"]}}"
    m = decode_frame(frame)
    assert isinstance(m, AssistantMessage)
    assert m.content == [block]


# -- properties --------------------------------------------------------------------------

KNOWN_TYPES = [
    "assistant",
    "user",
    "system",
    "result",
    "stream_event",
    "rate_limit_event",
    "control_request",
    "control_response",
    "control_cancel_request",
]
OTHER_TYPES = ["", "command_lifecycle", "tool_progress", "Assistant", "résumé"]
SYSTEM_SUBTYPES = [
    "init",
    "api_retry",
    "compact_boundary",
    "status",
    "informational",
    "task_started",
    "task_progress",
    "task_notification",
    "task_updated",
    "hook_started",
    "hook_progress",
    "hook_response",
    "mystery",
]
BLOCK_TYPES = [
    "text",
    "thinking",
    "redacted_thinking",
    "tool_use",
    "tool_result",
    "image",
    "server_tool_use",
    "advisor_tool_result",
    "web_search_tool_result",
    "web_fetch_tool_result",
    "code_execution_tool_result",
    "unknown_block",
]
FIELD_NAMES = [
    "message",
    "content",
    "subtype",
    "uuid",
    "session_id",
    "parent_tool_use_id",
    "tool_use_result",
    "isSynthetic",
    "is_error",
    "result",
    "usage",
    "errors",
    "event",
    "rate_limit_info",
    "request",
    "request_id",
    "response",
    "model",
    "tools",
    "text",
    "id",
    "name",
    "input",
    "tool_use_id",
    "data",
    "hook_event_name",
    "attempt",
    "origin",
    "kind",
    "user_message_uuid",
    "user_message_uuids",
    "deferred_tool_use",
    "patch",
    "status",
    "task_id",
]

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
blocks = st.builds(
    lambda t, extra: {**extra, "type": t},
    st.sampled_from(BLOCK_TYPES),
    st.dictionaries(st.sampled_from(FIELD_NAMES), json_values, max_size=4),
)
messages = st.fixed_dictionaries(
    {}, optional={"content": st.lists(blocks | json_values, max_size=4) | json_values, "model": json_values}
)
frames = st.builds(
    lambda t, sub, msg, extra: {
        **extra,
        **({"message": msg} if msg is not None else {}),
        **({"subtype": sub} if sub is not None else {}),
        "type": t,
    },
    st.sampled_from(KNOWN_TYPES + OTHER_TYPES) | json_values,
    st.none() | st.sampled_from(SYSTEM_SUBTYPES) | json_values,
    st.none() | messages | json_values,
    st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=8), json_values, max_size=6),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frames, st.booleans())
def test_any_json_object_decodes_without_raising(frame: dict[str, Any], keep: bool) -> None:
    line = json.dumps(frame).encode()
    result = decode_frame(line, keep_unrecognized=keep)
    assert isinstance(result, TYPED)
    if isinstance(result, UnknownMessage):
        assert result.data == json.loads(line)
    line_result = decode_line(line, keep_unrecognized=keep)
    assert line_result is None or isinstance(line_result, TYPED)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=200) | st.builds(lambda f, cut: json.dumps(f).encode()[:cut], frames, st.integers(0, 200)))
def test_arbitrary_bytes_raise_only_cli_json_decode_error(data: bytes) -> None:
    try:
        result = decode_frame(data)
    except CLIJSONDecodeError:
        return
    assert result is None or isinstance(result, TYPED)


def test_message_union_covers_decoded_types() -> None:
    # Everything decode_line yields is part of the public Message union.
    members = set(Message.__args__)  # type: ignore[attr-defined]
    for line in (INIT, ASSISTANT_TEXT, USER_TOOL_RESULT, RESULT_SUCCESS, STREAM_EVENT_DELTA, RATE_LIMIT_EVENT):
        m = decode_line(line)
        assert any(isinstance(m, cls) for cls in members)


# Frames the TypeScript SDK types and the official package drops, in the
# TypeScript SDK 0.3.333's shapes (tool_progress and tool_use_summary are
# seen from the real binary in tests/e2e/test_stream_extras_e2e.py).
TYPED_EXTRAS: list[tuple[dict[str, Any], str, dict[str, Any]]] = [
    (
        {"type": "auth_status", "isAuthenticating": True, "output": ["Opening browser"], "error": "denied",
         "uuid": "u1", "session_id": "s1"},
        "AuthStatusMessage",
        {"is_authenticating": True, "output": ["Opening browser"], "auth_error": "denied", "error": None},
    ),
    (
        {"type": "prompt_suggestion", "suggestion": "run the tests", "uuid": "u2", "session_id": "s2"},
        "PromptSuggestionMessage",
        {"suggestion": "run the tests", "session_id": "s2"},
    ),
    (
        {"type": "active_goal", "value": {"condition": "tests pass", "iterations": 2, "set_at": 1, "tokens_at_start": 5},
         "uuid": "u3", "session_id": "s3"},
        "ActiveGoalMessage",
        {"value": {"condition": "tests pass", "iterations": 2, "set_at": 1, "tokens_at_start": 5}},
    ),
    ({"type": "active_goal", "value": None, "uuid": "u4", "session_id": "s4"}, "ActiveGoalMessage", {"value": None}),
    (
        {"type": "tool_progress", "tool_use_id": "t", "tool_name": "Bash", "parent_tool_use_id": None,
         "elapsed_time_seconds": "soon", "uuid": "u5", "session_id": "s5"},
        "ToolProgressMessage",
        {"tool_name": "Bash", "elapsed_time_seconds": 0.0, "heartbeat": False},  # a bad value reads as the default
    ),
]  # fmt: skip


@pytest.mark.parametrize(("frame", "cls", "fields"), TYPED_EXTRAS)
def test_frames_the_official_package_drops_decode_typed(
    frame: dict[str, Any], cls: str, fields: dict[str, Any]
) -> None:
    import claude_wrap

    line = json.dumps(frame).encode()
    message = decode_line(line, keep_unrecognized=True)
    assert type(message) is getattr(claude_wrap, cls) and isinstance(message, UnknownMessage)
    assert message.type == frame["type"] and message.data == frame
    assert {name: getattr(message, name) for name in fields} == fields
    assert decode_line(line) is None  # dropped unless asked for, as officially


def test_encode_line_is_one_line_with_its_newline() -> None:
    text = 'line "1"\nline \\2\n' * 50_000 + "\u00e9\U0001f600"
    frame = {"type": "user", "message": {"role": "user", "content": text}}
    line = encode_line(frame)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == frame
    assert encode_value(frame) == line[:-1]
    with pytest.raises(TypeError):
        encode_line({"path": object()})
