"""Typed messages and content blocks, as ``query()`` and the client yield them.

Every message and block the official ``claude-agent-sdk`` package defines is
here under its name, with its exact shape: a plain, mutable ``@dataclass``
with the same fields in the same order, the same defaults and the same
``repr``, so ``dataclasses.asdict`` / ``replace`` / ``fields``, attribute
assignment, ``vars()``, ``==`` and ``print(message)`` behave as they do
there. The codec (``_wire.codec``) builds them from msgspec wire structs; nothing
here decodes JSON.

What claude_wrap adds never shows up as a field:

* derived values are properties (``ResultMessage.outcome``,
  ``StreamEvent.delta``, ``StreamEvent.message_id``);
* a few frame keys the official classes have no field for are kept in
  slots outside the instance ``__dict__`` and read through properties
  (``UserMessage.session_id`` / ``is_synthetic``,
  ``ResultMessage.api_error_type`` / ``result_index``). Only decoded
  messages carry them; ``dataclasses.replace`` and the constructor start
  them over at their defaults.

Classes of our own, for what the official package does not model:
``UnknownMessage`` (a frame of an unknown type, or a known frame that did
not fit its type), ``UnknownBlock``, ``ImageBlock`` and
``RedactedThinkingBlock``. A frame that does not fit its type always arrives
as an ``UnknownMessage`` with ``error`` set; the others arrive only with
``ClaudeAgentOptions(keep_unrecognized=True)`` and are skipped otherwise, as
in the official package.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Union

import msgspec

from claude_wrap._sessions.store import SessionKey
from claude_wrap._wire.shapes import (
    AssistantMessageError,
    MessageOrigin,
    ModelUsage,
    RateLimitStatus,
    RateLimitType,
    ResultOutcome,
    ServerToolName,
    TaskNotificationStatus,
    TaskUpdatedStatus,
    TaskUsage,
)

__all__ = [
    "CallbackTimeoutMessage",
    "AssistantMessage",
    "CitationsDelta",
    "ContentBlock",
    "ConversationResetMessage",
    "DeferredToolUse",
    "Delta",
    "HookEventMessage",
    "ImageBlock",
    "Message",
    "MirrorErrorMessage",
    "RateLimitEvent",
    "RateLimitInfo",
    "RedactedThinkingBlock",
    "ResultMessage",
    "ServerToolResultBlock",
    "ServerToolUseBlock",
    "SignatureDelta",
    "StreamEvent",
    "SystemMessage",
    "TaskNotificationMessage",
    "TaskProgressMessage",
    "TaskStartedMessage",
    "TaskUpdatedMessage",
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

# Instances keep their fields in ``__dict__`` like any dataclass; the extra
# slots hold what we add, out of sight of ``vars()``, ``asdict`` and ``repr``.
_PLAIN_SLOTS = ("__dict__", "__weakref__")


# --------------------------------------------------------------------------
# Content blocks.
# --------------------------------------------------------------------------


@dataclass
class TextBlock:
    """Text written by the model (or by the user, in a user message)."""

    text: str


@dataclass
class ThinkingBlock:
    """The model's extended thinking, with its signature."""

    thinking: str
    signature: str


@dataclass
class ToolUseBlock:
    """A tool call made by the model."""

    id: str
    name: str
    input: dict[str, Any]


@dataclass
class ToolResultBlock:
    """The result of a tool call, sent back to the model in a user message."""

    tool_use_id: str
    content: str | list[dict[str, Any]] | None = None
    is_error: bool | None = None


@dataclass
class ServerToolUseBlock:
    """A call to a tool the API runs itself; ``name`` says which (``advisor``,
    ``web_search``, ...)."""

    id: str
    name: ServerToolName
    input: dict[str, Any]


@dataclass
class ServerToolResultBlock:
    """The result of a server-side tool, ``content`` as the API sent it.

    By default only ``advisor_tool_result`` blocks arrive as this type, as in
    the official package; with ``keep_unrecognized`` the web search, web
    fetch and code execution results do too.
    """

    tool_use_id: str
    content: dict[str, Any]
    """A dict for ``advisor_tool_result``; a list for the web search and web
    fetch results ``keep_unrecognized`` adds."""


@dataclass
class ImageBlock:
    """An image in a message (``source`` as the Messages API defines it).

    Not an official type: arrives only with ``keep_unrecognized``.
    """

    source: dict[str, Any] = field(default_factory=dict)


@dataclass
class RedactedThinkingBlock:
    """Thinking the API returned encrypted.

    Not an official type: arrives only with ``keep_unrecognized``.
    """

    data: str = ""


@dataclass
class UnknownBlock:
    """A content block of a type this version does not model; ``data`` is
    the block as the binary wrote it.

    Not an official type: arrives only with ``keep_unrecognized``.
    """

    type: str
    data: dict[str, Any]


ContentBlock = Union[
    TextBlock,
    ThinkingBlock,
    ToolUseBlock,
    ToolResultBlock,
    ServerToolUseBlock,
    ServerToolResultBlock,
    ImageBlock,
    RedactedThinkingBlock,
    UnknownBlock,
]
"""Any content block a message can hold (the last three only with
``keep_unrecognized``)."""


# --------------------------------------------------------------------------
# Messages.
# --------------------------------------------------------------------------


@dataclass
class UserMessage:
    """A user turn: the prompt, tool results, or a replay of either."""

    __slots__ = (*_PLAIN_SLOTS, "_session_id", "_is_synthetic")

    content: str | list[ContentBlock]
    uuid: str | None = None
    parent_tool_use_id: str | None = None
    tool_use_result: dict[str, Any] | None = None
    origin: MessageOrigin | None = None
    """Who or what sent this message (see ``MessageOrigin``); ``None`` when
    the binary did not say. Tool results never carry one."""

    @property
    def session_id(self) -> str | None:
        """The session the frame belongs to (not an official field; ``None``
        on a message built by hand)."""
        value: str | None = getattr(self, "_session_id", None)
        return value

    @property
    def is_synthetic(self) -> bool:
        """True for a message the binary wrote itself, e.g. a skill's prompt
        (the frame's ``isSynthetic``; not an official field)."""
        value: bool = getattr(self, "_is_synthetic", False)
        return value


@dataclass
class AssistantMessage:
    """One frame of the model's reply.

    The binary writes one content block per frame; frames of one API message
    share ``message_id``.
    """

    content: list[ContentBlock]
    model: str
    parent_tool_use_id: str | None = None
    error: AssistantMessageError | None = None
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


@dataclass
class SystemMessage:
    """A system frame. ``data`` is the whole frame as the binary wrote it.

    Most subtypes (``init``, ``status``, ``api_retry``, ...) arrive as this
    class itself; the task, hook and mirror-error subtypes as the
    subclasses below, exactly as in the official package. For typed access
    to ``data``, see ``InitSystemMessage.of(message)`` and its siblings.
    """

    subtype: str
    data: dict[str, Any]


@dataclass
class TaskStartedMessage(SystemMessage):
    """``system/task_started``: a subagent or background task began."""

    task_id: str
    description: str
    uuid: str
    session_id: str
    tool_use_id: str | None = None
    task_type: str | None = None


@dataclass
class TaskProgressMessage(SystemMessage):
    """``system/task_progress``: a running task reports progress.

    ``usage`` is the frame's dict (see ``TaskUsage``).
    """

    task_id: str
    description: str
    usage: TaskUsage
    uuid: str
    session_id: str
    tool_use_id: str | None = None
    last_tool_name: str | None = None


@dataclass
class TaskNotificationMessage(SystemMessage):
    """``system/task_notification``: a task finished, failed or was stopped.

    A background task may end with only a ``TaskUpdatedMessage``; check the
    status of both against ``TERMINAL_TASK_STATUSES``.
    """

    task_id: str
    status: TaskNotificationStatus
    output_file: str
    summary: str
    uuid: str
    session_id: str
    tool_use_id: str | None = None
    usage: TaskUsage | None = None


@dataclass
class TaskUpdatedMessage(SystemMessage):
    """``system/task_updated``: a task's state changed.

    ``patch`` holds the changed fields and ``status`` is ``patch["status"]``
    (``None`` when the patch has none). A status in ``TERMINAL_TASK_STATUSES``
    means the task is over; for a background task this frame may be the only
    sign of it.
    """

    task_id: str
    patch: dict[str, Any]
    status: TaskUpdatedStatus | None = None
    session_id: str | None = None
    uuid: str | None = None


@dataclass
class MirrorErrorMessage(SystemMessage):
    """``system/mirror_error``: mirroring the transcript to the session store
    failed (after retries, or it did not finish within
    ``session_store_flush_timeout``); ``error`` says why and how many entries
    wait. Made by the library, never by the binary; the entries stay queued
    and the next flush tries them again.

    ``key`` is the transcript's ``SessionKey`` (``None`` if unknown).
    """

    key: SessionKey | None = None
    error: str = ""


@dataclass
class CallbackTimeoutMessage(SystemMessage):
    """``system/callback_timeout``: a callback of ours (a hook,
    ``can_use_tool``, an in-process MCP tool, a dialog) outlived
    ``callback_timeout``. Made by the library, never by the binary, and only
    when that option is set.

    ``callback`` names it (``"PreToolUse hook guard"``, ``"tool 'search'"``),
    ``timeout`` is the limit in seconds, ``tool_use_id`` the tool call it was
    about, if any. What was answered in its place: a deciding callback
    refused (the tool denied, the prompt blocked), a tool failed with an
    error result, any other hook counted as no opinion.
    """

    callback: str = ""
    timeout: float = 0.0
    tool_use_id: str | None = None


@dataclass
class HookEventMessage(SystemMessage):
    """``system/hook_started`` and ``system/hook_response`` (with
    ``include_hook_events``); ``data`` holds the whole frame, e.g. a
    response's ``output``, ``exit_code`` and ``outcome``."""

    hook_event_name: str = ""
    session_id: str | None = None
    uuid: str | None = None


@dataclass
class DeferredToolUse:
    """The tool call a PreToolUse hook put off by answering ``"defer"``.

    The turn ends there without running the tool (``stop_reason`` and
    ``terminal_reason`` are ``"tool_deferred"``); the caller decides later
    whether to run it.
    """

    id: str
    name: str
    input: dict[str, Any]


@dataclass
class ResultMessage:
    """The end of a turn: exactly one per user message.

    ``is_error`` is the field to test: API failures arrive with
    ``subtype == "success"`` and ``is_error`` true. ``outcome`` sums it up.
    """

    __slots__ = (*_PLAIN_SLOTS, "_api_error_type", "_result_index", "_line")

    subtype: str
    duration_ms: int
    duration_api_ms: int
    is_error: bool
    num_turns: int
    session_id: str
    stop_reason: str | None = None
    total_cost_usd: float | None = None
    usage: dict[str, Any] | None = None
    result: str | None = None
    structured_output: Any = None
    model_usage: dict[str, ModelUsage] | None = None
    permission_denials: list[Any] | None = None
    deferred_tool_use: DeferredToolUse | None = None
    errors: list[str] | None = None
    api_error_status: int | None = None
    """The HTTP status of the failed API call, when the API kept failing."""
    uuid: str | None = None
    terminal_reason: str | None = None
    """Why the turn ended, e.g. ``completed``, ``max_turns``,
    ``aborted_streaming`` / ``aborted_tools`` (interrupted), ``api_error``."""
    origin: MessageOrigin | None = None
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
    def api_error_type(self) -> str | None:
        """The API's error type (e.g. ``overloaded_error``) next to
        ``api_error_status``; not an official field."""
        value: str | None = getattr(self, "_api_error_type", None)
        return value

    @property
    def result_index(self) -> int | None:
        """The position of this result among the session's results, as the
        binary counts them; not an official field."""
        value: int | None = getattr(self, "_result_index", None)
        return value

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


# --------------------------------------------------------------------------
# Streaming deltas (ours): what StreamEvent.delta gives.
# --------------------------------------------------------------------------


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
        cls, name, want = known
        value = raw.get(name)
        if isinstance(value, want):
            return cls(index, value)
    return UnknownDelta(index, kind if isinstance(kind, str) else "", raw)


@dataclass
class StreamEvent:
    """A raw Messages API streaming event (with ``include_partial_messages``).

    ``event`` is the event as the API sent it. The properties ``delta`` and
    ``message_id`` read the two things most callers want from it; both are
    worked out on access, so decoding costs the same whether or not they
    are used.
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


@dataclass
class RateLimitInfo:
    """The rate-limit state the binary reports.

    ``raw`` is the whole ``rate_limit_info`` object, keys this type does not
    name included.
    """

    status: RateLimitStatus
    resets_at: int | None = None
    rate_limit_type: RateLimitType | None = None
    utilization: float | None = None
    overage_status: RateLimitStatus | None = None
    overage_resets_at: int | None = None
    overage_disabled_reason: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)


@dataclass
class RateLimitEvent:
    """A change in rate-limit state."""

    rate_limit_info: RateLimitInfo
    uuid: str
    session_id: str


@dataclass
class ConversationResetMessage:
    """The conversation was cleared (e.g. ``/clear``) without ending the
    connection; later messages carry a new ``session_id``, and running totals
    on later results start again from zero.

    ``new_conversation_id`` keys the fresh conversation; it is not the next
    ``session_id``. ``session_id`` is the session that was reset.
    """

    new_conversation_id: str
    uuid: str
    session_id: str


@dataclass
class UnknownMessage:
    """A frame this version does not model, or a known one that did not fit
    its type (then ``error`` says why). ``data`` is the frame as written.
    A stdout line that could not be decoded at all arrives as one too, in
    its place: ``type`` ``""``, ``data`` ``{"line": <its first 512
    characters>}``, ``error`` why.

    Not an official type. A frame with ``error`` set always arrives (the
    official package raises ``MessageParseError`` or ``CLIJSONDecodeError``
    there, which ends its run); one of an unknown type only with
    ``keep_unrecognized``.
    """

    type: str
    subtype: str | None
    data: dict[str, Any]
    error: str | None = None


# -- frames the official package drops, typed (they arrive with keep_unrecognized) --
#
# Each is an UnknownMessage too, so code written against keep_unrecognized's
# UnknownMessage keeps working; the fields are read leniently from ``data``
# (a value of the wrong type reads as the default), never failing the frame.


@dataclass
class ToolProgressMessage(UnknownMessage):
    """A tool (or a hook standing in for one, with ``heartbeat``) is still
    running: the TypeScript SDK's ``tool_progress``."""

    tool_use_id: str = ""
    tool_name: str = ""
    parent_tool_use_id: str | None = None
    elapsed_time_seconds: float = 0.0
    heartbeat: bool = False
    task_id: str | None = None
    uuid: str | None = None
    session_id: str | None = None


@dataclass
class ToolUseSummaryMessage(UnknownMessage):
    """A one-line summary of the tool calls before it (``tool_use_summary``;
    the binary writes them with ``CLAUDE_CODE_EMIT_TOOL_USE_SUMMARIES=1``)."""

    summary: str = ""
    preceding_tool_use_ids: list[str] = field(default_factory=list)
    uuid: str | None = None
    session_id: str | None = None


@dataclass
class AuthStatusMessage(UnknownMessage):
    """Progress of a sign-in the binary runs (``auth_status``); its ``error``
    is ``auth_error`` here (``error`` says why a frame did not decode)."""

    is_authenticating: bool = False
    output: list[str] = field(default_factory=list)
    auth_error: str | None = None
    uuid: str | None = None
    session_id: str | None = None


@dataclass
class PromptSuggestionMessage(UnknownMessage):
    """A prompt the user might send next (``prompt_suggestion``, with
    ``ClaudeAgentOptions.prompt_suggestions``)."""

    suggestion: str = ""
    uuid: str | None = None
    session_id: str | None = None


@dataclass
class ActiveGoalMessage(UnknownMessage):
    """The session's ``/goal`` changed (``active_goal``): ``value`` holds
    ``condition``, ``iterations``, ``set_at``, ``tokens_at_start`` and
    ``last_reason``, or is ``None`` once the goal is cleared."""

    value: dict[str, Any] | None = None
    uuid: str | None = None
    session_id: str | None = None


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
