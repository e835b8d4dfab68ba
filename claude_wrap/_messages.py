"""Typed messages and content blocks, as the binary writes them on stdout.

Class and field names match the official ``claude-agent-sdk`` package, so
``isinstance(message, AssistantMessage)`` and ``block.text`` port unchanged.
All of them are msgspec ``Struct`` types: fast to build, compare and encode.

Forward compatibility: a frame type or content block this version does not
know arrives as ``UnknownMessage`` / ``UnknownBlock`` carrying its raw data;
it never ends the stream.

Fields typed with a ``Literal`` or a ``TypedDict`` (see ``_message_shapes``)
are decoded as plain ``str`` / ``dict``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Union

import msgspec

from ._message_shapes import (
    ResultOutcome,
    _AssistantError,
    _FastModeDisabledReason,
    _FastModeState,
    _McpServers,
    _ModelUsageByModel,
    _Origin,
    _PluginErrors,
    _Plugins,
    _RateLimitStatus,
    _RateLimitType,
    _ServerToolName,
    _TaskNotificationStatus,
    _TaskUpdatedStatus,
)

__all__ = [
    "ApiRetryMessage",
    "AssistantMessage",
    "CitationsDelta",
    "CompactBoundaryMessage",
    "ContentBlock",
    "ConversationResetMessage",
    "DeferredToolUse",
    "Delta",
    "HookEventMessage",
    "ImageBlock",
    "InformationalMessage",
    "InitSystemMessage",
    "Message",
    "MirrorErrorMessage",
    "RateLimitEvent",
    "RateLimitInfo",
    "RedactedThinkingBlock",
    "ResultMessage",
    "ServerToolResultBlock",
    "ServerToolUseBlock",
    "SignatureDelta",
    "StatusMessage",
    "StreamEvent",
    "SystemMessage",
    "TaskNotificationMessage",
    "TaskProgressMessage",
    "TaskStartedMessage",
    "TaskUpdatedMessage",
    "TaskUsage",
    "TextBlock",
    "TextDelta",
    "ThinkingBlock",
    "ThinkingDelta",
    "ToolInputDelta",
    "ToolResultBlock",
    "ToolUseBlock",
    "UnknownBlock",
    "UnknownDelta",
    "UnknownMessage",
    "UserMessage",
]


# --------------------------------------------------------------------------
# Content blocks: one tagged union on "type", decoded in a single pass.
# --------------------------------------------------------------------------


class _Block(msgspec.Struct, tag_field="type", frozen=True):
    pass


class TextBlock(_Block, frozen=True, tag="text"):
    """Text written by the model (or by the user, in a user message)."""

    text: str


class ThinkingBlock(_Block, frozen=True, tag="thinking"):
    """The model's extended thinking, with its signature."""

    thinking: str
    signature: str = ""


class RedactedThinkingBlock(_Block, frozen=True, tag="redacted_thinking"):
    """Thinking the API returned encrypted."""

    data: str = ""


class ToolUseBlock(_Block, frozen=True, tag="tool_use"):
    """A tool call made by the model."""

    id: str
    name: str
    input: dict[str, Any] = msgspec.field(default_factory=dict)


class ToolResultBlock(_Block, frozen=True, tag="tool_result"):
    """The result of a tool call, sent back to the model in a user message."""

    tool_use_id: str
    content: str | list[dict[str, Any]] | None = None
    is_error: bool | None = None


class ImageBlock(_Block, frozen=True, tag="image"):
    """An image in a user message (``source`` as the Messages API defines it)."""

    source: dict[str, Any] = msgspec.field(default_factory=dict)


class ServerToolUseBlock(_Block, frozen=True, tag="server_tool_use"):
    """A call to a tool the API runs itself (web search, web fetch, ...)."""

    id: str
    name: _ServerToolName
    input: dict[str, Any] = msgspec.field(default_factory=dict)


class ServerToolResultBlock(_Block, frozen=True, tag="advisor_tool_result"):
    """The result of a server-side tool; ``content`` is kept as the API sent it."""

    tool_use_id: str
    content: Any = None


class _WebSearchToolResultBlock(ServerToolResultBlock, frozen=True, tag="web_search_tool_result"):
    pass


class _WebFetchToolResultBlock(ServerToolResultBlock, frozen=True, tag="web_fetch_tool_result"):
    pass


class _CodeExecutionToolResultBlock(ServerToolResultBlock, frozen=True, tag="code_execution_tool_result"):
    pass


class UnknownBlock(msgspec.Struct, frozen=True):
    """A content block of a type this version does not know; ``data`` is raw."""

    type: str
    data: dict[str, Any]


_KnownBlock = Union[
    TextBlock,
    ThinkingBlock,
    RedactedThinkingBlock,
    ToolUseBlock,
    ToolResultBlock,
    ImageBlock,
    ServerToolUseBlock,
    ServerToolResultBlock,
    _WebSearchToolResultBlock,
    _WebFetchToolResultBlock,
    _CodeExecutionToolResultBlock,
]

ContentBlock = Union[
    TextBlock,
    ThinkingBlock,
    RedactedThinkingBlock,
    ToolUseBlock,
    ToolResultBlock,
    ImageBlock,
    ServerToolUseBlock,
    ServerToolResultBlock,
    UnknownBlock,
]
"""Any content block a message can hold."""


# --------------------------------------------------------------------------
# Messages.
# --------------------------------------------------------------------------


class UserMessage(msgspec.Struct, frozen=True):
    """A user turn: the prompt, tool results, or a replay of either."""

    content: str | list[ContentBlock]
    uuid: str | None = None
    parent_tool_use_id: str | None = None
    tool_use_result: Any = None
    session_id: str | None = None
    is_synthetic: bool = False
    origin: _Origin | None = None
    """Who or what sent this message (see ``MessageOrigin``); ``None`` when the
    binary did not say. Tool results never carry one."""


class AssistantMessage(msgspec.Struct, frozen=True):
    """One frame of the model's reply.

    The binary writes one content block per frame; frames of one API message
    share ``message_id``.
    """

    content: list[ContentBlock]
    model: str
    parent_tool_use_id: str | None = None
    error: _AssistantError | None = None
    usage: dict[str, Any] | None = None
    message_id: str | None = None
    stop_reason: str | None = None
    session_id: str | None = None
    uuid: str | None = None
    user_message_uuid: str | None = None
    """The ``uuid`` of the user message being answered (see
    ``ResultMessage.user_message_uuid``). Only on the first top-level frame
    after it is set or changes; ``None`` on the rest."""
    user_message_uuids: list[str] | None = None
    """Every user-message ``uuid`` the turn has taken in so far, on the same
    frames as ``user_message_uuid``. Later arrivals may show up only on the
    result."""


class SystemMessage(msgspec.Struct, frozen=True):
    """A system frame. ``data`` is the whole frame as the binary wrote it.

    Common subtypes arrive as typed subclasses (``InitSystemMessage``,
    ``ApiRetryMessage``, ...); ``isinstance(m, SystemMessage)`` holds for all.
    """

    subtype: str
    data: dict[str, Any] = msgspec.field(default_factory=dict)


class InitSystemMessage(SystemMessage, frozen=True):
    """``system/init``: sent at the start of every turn.

    ``data`` holds the whole frame; ``SystemInitData`` describes its keys.
    """

    session_id: str = ""
    model: str = ""
    cwd: str = ""
    tools: list[str] = msgspec.field(default_factory=list)
    mcp_servers: _McpServers = msgspec.field(default_factory=list)
    permission_mode: str = msgspec.field(default="", name="permissionMode")
    slash_commands: list[str] = msgspec.field(default_factory=list)
    agents: list[str] = msgspec.field(default_factory=list)
    skills: list[str] = msgspec.field(default_factory=list)
    claude_code_version: str = ""
    api_key_source: str = msgspec.field(default="", name="apiKeySource")
    output_style: str = ""
    uuid: str = ""
    plugins: _Plugins = msgspec.field(default_factory=list)
    plugin_errors: _PluginErrors | None = None
    fast_mode_state: _FastModeState | None = None
    fast_mode_disabled_reason: _FastModeDisabledReason | None = None
    capabilities: list[str] | None = None
    terminal_slash_commands: list[str] | None = None
    betas: list[str] | None = None


class ApiRetryMessage(SystemMessage, frozen=True):
    """``system/api_retry``: the binary is retrying a failed API call."""

    attempt: int = 0
    max_retries: int = 0
    retry_delay_ms: float = 0
    error_status: int | None = None
    error: str | None = None


class CompactBoundaryMessage(SystemMessage, frozen=True):
    """``system/compact_boundary``: the conversation was compacted here."""

    compact_metadata: dict[str, Any] | None = None


class StatusMessage(SystemMessage, frozen=True):
    """``system/status``: what the binary is doing now (e.g. ``requesting``)."""

    status: str | None = None


class InformationalMessage(SystemMessage, frozen=True):
    """``system/informational``: a notice meant for the user."""

    content: str | None = None
    level: str | None = None


class TaskUsage(msgspec.Struct, frozen=True):
    """Resource use of a background task so far.

    Read it as attributes, or by key as with the official package's
    TypedDict: ``usage["total_tokens"]``, ``usage.get("tool_uses")``.
    """

    total_tokens: int = 0
    tool_uses: int = 0
    duration_ms: int = 0

    def __getitem__(self, key: str) -> int:
        if key not in self.__struct_fields__:
            raise KeyError(key)
        value: int = getattr(self, key)
        return value

    def get(self, key: str, default: int | None = None) -> int | None:
        return self[key] if key in self.__struct_fields__ else default


class TaskStartedMessage(SystemMessage, frozen=True):
    """``system/task_started``: a subagent or background task began."""

    task_id: str = ""
    description: str = ""
    uuid: str = ""
    session_id: str = ""
    tool_use_id: str | None = None
    task_type: str | None = None


class TaskProgressMessage(SystemMessage, frozen=True):
    """``system/task_progress``: a running task reports progress."""

    task_id: str = ""
    description: str = ""
    usage: TaskUsage | None = None
    uuid: str = ""
    session_id: str = ""
    tool_use_id: str | None = None
    last_tool_name: str | None = None


class TaskNotificationMessage(SystemMessage, frozen=True):
    """``system/task_notification``: a task finished, failed or was stopped."""

    task_id: str = ""
    status: _TaskNotificationStatus = ""
    output_file: str = ""
    summary: str = ""
    uuid: str = ""
    session_id: str = ""
    tool_use_id: str | None = None
    usage: TaskUsage | None = None


class TaskUpdatedMessage(SystemMessage, frozen=True):
    """``system/task_updated``: a task's state changed.

    ``patch`` holds the changed fields. ``status`` is ``patch["status"]`` when
    the patch has one; a status in ``TERMINAL_TASK_STATUSES`` means the task
    is over, and for a background task this frame may be the only sign of it.
    """

    task_id: str = ""
    patch: dict[str, Any] = msgspec.field(default_factory=dict)
    session_id: str = ""
    uuid: str = ""
    status: _TaskUpdatedStatus | None = None


class HookEventMessage(SystemMessage, frozen=True):
    """``system/hook_started`` / ``hook_response`` (with ``include_hook_events``)."""

    hook_event_name: str = ""
    session_id: str = ""
    uuid: str = ""


class MirrorErrorMessage(SystemMessage, frozen=True):
    """``system/mirror_error``: mirroring the transcript to the session store
    failed (after retries). Made by claude_wrap, never by the binary; the
    entries stay queued and the next flush tries them again.

    ``key`` is the transcript's ``SessionKey`` (``None`` if unknown).
    """

    key: dict[str, Any] | None = None
    error: str = ""


class DeferredToolUse(msgspec.Struct, frozen=True):
    """The tool call a PreToolUse hook put off by answering ``"defer"``.

    The turn ends there without running the tool (``stop_reason`` and
    ``terminal_reason`` are ``"tool_deferred"``); the caller decides later
    whether to run it.
    """

    id: str
    name: str
    input: dict[str, Any] = msgspec.field(default_factory=dict)


class ResultMessage(msgspec.Struct, frozen=True, tag_field="type", tag="result"):
    """The end of a turn: exactly one per user message.

    ``is_error`` is the field to test: API failures arrive with
    ``subtype == "success"`` and ``is_error`` true.
    """

    subtype: str
    duration_ms: int = 0
    duration_api_ms: int = 0
    is_error: bool = False
    num_turns: int = 0
    session_id: str = ""
    stop_reason: str | None = None
    total_cost_usd: float | None = None
    usage: dict[str, Any] | None = None
    result: str | None = None
    structured_output: Any = None
    model_usage: _ModelUsageByModel | None = msgspec.field(default=None, name="modelUsage")
    permission_denials: list[Any] | None = None
    errors: list[str] | None = None
    api_error_status: int | None = None
    api_error_type: str | None = None
    uuid: str | None = None
    terminal_reason: str | None = None
    result_index: int | None = None
    deferred_tool_use: DeferredToolUse | None = None
    origin: _Origin | None = None
    """What started this turn (see ``MessageOrigin``), e.g. ``{"kind":
    "task-notification"}`` for a turn the session began by itself. It does
    not tell whether your prompt was answered here; ``user_message_uuids``
    does."""
    user_message_uuid: str | None = None
    """The ``uuid`` of the user message that started this turn (the last one
    if several started it together), or on a turn the session started by
    itself, the last one taken in while it ran. Only messages sent with a
    ``uuid`` count, so a plain-string prompt leaves this ``None``. Error
    results carry it too."""
    user_message_uuids: list[str] | None = None
    """The ``uuid`` of each user message this turn took in, in order (at most
    64). May be empty after an interrupt."""

    @property
    def outcome(self) -> ResultOutcome:
        """How the turn ended, in one word (see ``ResultOutcome``); one test
        instead of reading ``subtype``, ``is_error`` and ``terminal_reason``
        together (an API failure, for one, says ``subtype="success"``)."""
        reason = self.terminal_reason
        if self.deferred_tool_use is not None or reason == "tool_deferred":
            return "deferred"
        if self.subtype == "error_max_turns" or reason == "max_turns":
            return "max_turns"
        if self.subtype == "error_max_budget_usd":
            return "budget"
        if reason in ("aborted_streaming", "aborted_tools"):
            return "interrupted"
        if self.subtype == "error_max_structured_output_retries" or reason == "structured_output_retry_exhausted":
            return "output_invalid"
        if not self.is_error:
            return "completed"
        if reason == "api_error" or self.api_error_status is not None:
            return "api_error"
        return "error"


class TextDelta(msgspec.Struct, frozen=True):
    """A piece of the text block at ``index`` of the message being streamed."""

    index: int
    text: str


class ThinkingDelta(msgspec.Struct, frozen=True):
    """A piece of the thinking block at ``index``."""

    index: int
    thinking: str


class SignatureDelta(msgspec.Struct, frozen=True):
    """The signature of the thinking block at ``index``; sent once, at its end."""

    index: int
    signature: str


class ToolInputDelta(msgspec.Struct, frozen=True):
    """A piece of the input JSON of the tool call at ``index``.

    The pieces only parse once joined: ``json.loads("".join(pieces))`` after
    the block's ``content_block_stop``.
    """

    index: int
    partial_json: str


class CitationsDelta(msgspec.Struct, frozen=True):
    """A citation added to the text block at ``index`` (as the API sent it)."""

    index: int
    citation: dict[str, Any]


class UnknownDelta(msgspec.Struct, frozen=True):
    """A delta of a type this version does not know; ``data`` is the raw delta."""

    index: int
    type: str
    data: dict[str, Any]


Delta = Union[TextDelta, ThinkingDelta, SignatureDelta, ToolInputDelta, CitationsDelta, UnknownDelta]
"""What ``StreamEvent.delta`` gives for a ``content_block_delta`` event."""


# Delta type on the wire -> (our type, the field holding its payload, that payload's type).
_DELTAS: dict[str, tuple[Callable[[int, Any], Delta], str, type]] = {
    "text_delta": (TextDelta, "text", str),
    "input_json_delta": (ToolInputDelta, "partial_json", str),
    "thinking_delta": (ThinkingDelta, "thinking", str),
    "signature_delta": (SignatureDelta, "signature", str),
    "citations_delta": (CitationsDelta, "citation", dict),
}


def _delta_of(event: dict[str, Any]) -> Delta | None:
    if event.get("type") != "content_block_delta":
        return None
    raw = event.get("delta")
    if not isinstance(raw, dict):
        return None
    index = event.get("index", 0)
    if not isinstance(index, int):
        return None
    kind = raw.get("type")
    # Built straight from the already decoded dict: no encode/convert pass.
    known = _DELTAS.get(kind) if isinstance(kind, str) else None
    if known is not None:
        cls, field, want = known
        value = raw.get(field)
        if isinstance(value, want):
            return cls(index, value)
    return UnknownDelta(index, kind if isinstance(kind, str) else "", raw)


class StreamEvent(msgspec.Struct, frozen=True, tag_field="type", tag="stream_event"):
    """A raw Messages API streaming event (with ``include_partial_messages``).

    ``event`` is the event as the API sent it. ``delta`` and ``message_id``
    read the two things most callers want from it; both are worked out on
    access, so decoding costs the same whether or not they are used.
    """

    uuid: str
    session_id: str
    event: dict[str, Any]
    parent_tool_use_id: str | None = None
    user_message_uuid: str | None = None
    """As on ``AssistantMessage``: set only on the first event after it changes."""
    user_message_uuids: list[str] | None = None
    """As on ``AssistantMessage``."""

    @property
    def delta(self) -> Delta | None:
        """The typed delta of a ``content_block_delta`` event; ``None`` for
        every other event. A delta type this version does not know (or one
        with an odd shape) comes back as ``UnknownDelta``."""
        return _delta_of(self.event)

    @property
    def message_id(self) -> str | None:
        """The API message id, on the ``message_start`` event only.

        Later events of the same message do not repeat it; the final
        ``AssistantMessage`` frames carry it as ``message_id``, which is how
        streamed output and usage are joined to them.
        """
        event = self.event
        if event.get("type") != "message_start":
            return None
        message = event.get("message")
        mid = message.get("id") if isinstance(message, dict) else None
        return mid if isinstance(mid, str) else None


class RateLimitInfo(msgspec.Struct, frozen=True, rename="camel"):
    """The rate-limit state the binary reports.

    ``raw`` is the whole ``rate_limit_info`` object, keys this type does not
    name included.
    """

    status: _RateLimitStatus | None = None
    resets_at: int | None = None
    rate_limit_type: _RateLimitType | None = None
    utilization: float | None = None
    overage_status: _RateLimitStatus | None = None
    overage_resets_at: int | None = None
    overage_disabled_reason: str | None = None
    raw: dict[str, Any] = msgspec.field(default_factory=dict)


class RateLimitEvent(msgspec.Struct, frozen=True, tag_field="type", tag="rate_limit_event"):
    """A change in rate-limit state."""

    rate_limit_info: RateLimitInfo
    uuid: str = ""
    session_id: str = ""


class ConversationResetMessage(msgspec.Struct, frozen=True, tag_field="type", tag="conversation_reset"):
    """The conversation was cleared (``/clear``); later turns use a new session id."""

    new_conversation_id: str = ""
    uuid: str = ""
    session_id: str = ""


class UnknownMessage(msgspec.Struct, frozen=True):
    """A frame this version does not know, or a known one that did not fit
    its type (then ``error`` says why). ``data`` is the frame as written."""

    type: str
    subtype: str | None
    data: dict[str, Any]
    error: str | None = None


Message = Union[
    UserMessage,
    AssistantMessage,
    SystemMessage,
    ResultMessage,
    StreamEvent,
    RateLimitEvent,
    ConversationResetMessage,
    UnknownMessage,
]
"""Any message ``query()`` and ``ClaudeSDKClient`` yield."""

MessageKind = Literal["user", "assistant", "system", "result", "stream_event", "rate_limit_event"]
