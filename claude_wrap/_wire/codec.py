"""Bytes in, typed frames out (and back): the only module that touches JSON.

Every stdout line is decoded once, straight from ``bytes``, by one msgspec
decoder over a tagged union of internal wire structs, nested the way the
binary writes them; each then builds its public dataclass (``_wire.messages``).
The union lists exactly what the official package models, so the common
line takes this fast path. When it fails, the forgiving path decodes the
line to plain data and works out what it is:

* a frame of a type nobody models becomes ``UnknownMessage`` (``error``
  unset); the session drops it unless ``keep_unrecognized`` is on;
* a content block the official package does not model is dropped, or with
  ``keep_unrecognized`` kept as ``ImageBlock`` / ``RedactedThinkingBlock`` /
  ``UnknownBlock`` (or as what we do model, e.g. thinking in a user message);
* a known frame that does not fit its type (a key missing, a wrong type)
  becomes ``UnknownMessage`` with ``error`` saying why, and a warning is
  logged: the official package raises ``MessageParseError`` there, which
  would end a run that is otherwise healthy;
* keys that only annotate a frame (``origin``, ``user_message_uuid(s)``,
  ``deferred_tool_use``) are dropped when their shape is odd, rather than
  lose the frame (an undelivered result would leave its turn open);
* lone UTF-16 surrogate escapes (``"\\ud83c"``, valid JSON that JavaScript
  writes for a string cut in the middle of an emoji, but no UTF-8 text) read
  as U+FFFD: the line is repaired and decoded again, only once it failed.

A line that is no JSON object at all raises ``CLIJSONDecodeError``; the
session skips it when it does not even look like one (stray console output)
and otherwise hands out ``undecodable()``'s ``UnknownMessage`` in its place.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any, Union, cast

import msgspec
import msgspec.json

from claude_wrap._exceptions import CLIJSONDecodeError
from claude_wrap._wire.messages import (
    ActiveGoalMessage,
    AssistantMessage,
    AuthStatusMessage,
    CallbackTimeoutMessage,
    ContentBlock,
    ConversationResetMessage,
    DeferredToolUse,
    HookEventMessage,
    ImageBlock,
    Message,
    MirrorErrorMessage,
    PromptSuggestionMessage,
    RateLimitEvent,
    RateLimitInfo,
    RedactedThinkingBlock,
    ResultMessage,
    ServerToolResultBlock,
    ServerToolUseBlock,
    StreamEvent,
    SystemMessage,
    TaskNotificationMessage,
    TaskProgressMessage,
    TaskStartedMessage,
    TaskUpdatedMessage,
    TextBlock,
    ThinkingBlock,
    ToolProgressMessage,
    ToolResultBlock,
    ToolUseBlock,
    ToolUseSummaryMessage,
    UnknownBlock,
    UnknownMessage,
    UserMessage,
)
from claude_wrap._wire.nesting import MAX_NESTING, TOO_DEEP_TEXT, may_nest_too_deep, nests_too_deep, pruned
from claude_wrap._wire.shapes import (
    WireAssistantError,
    WireOrigin,
    WireRateLimitStatus,
    WireRateLimitType,
    WireServerToolName,
)

__all__ = [
    "ControlCancel",
    "ControlRequest",
    "ControlRequestIn",
    "ControlResponseIn",
    "Frame",
    "decode_frame",
    "decode_line",
    "decode_value",
    "encode_line",
    "encode_value",
    "undecodable",
    "without_lone_surrogates",
]

log = logging.getLogger("claude_wrap")


# --------------------------------------------------------------------------
# Content blocks on the wire. gc=False: decoded JSON holds no cycles, and
# these structs live only until the public block is built.
# --------------------------------------------------------------------------


class _Block(msgspec.Struct, tag_field="type", gc=False):
    def public(self) -> ContentBlock:
        raise NotImplementedError


class _Text(_Block, tag="text"):
    text: str

    def public(self) -> ContentBlock:
        return TextBlock(self.text)


class _Thinking(_Block, tag="thinking"):
    thinking: str
    signature: str

    def public(self) -> ContentBlock:
        return ThinkingBlock(self.thinking, self.signature)


class _ToolUse(_Block, tag="tool_use"):
    id: str
    name: str
    input: dict[str, Any]

    def public(self) -> ContentBlock:
        return ToolUseBlock(self.id, self.name, self.input)


class _ToolResult(_Block, tag="tool_result"):
    tool_use_id: str
    content: Any = None  # passed through as sent, like the official parser
    is_error: bool | None = None

    def public(self) -> ContentBlock:
        return ToolResultBlock(self.tool_use_id, self.content, self.is_error)


class _ServerToolUse(_Block, tag="server_tool_use"):
    id: str
    name: WireServerToolName
    input: dict[str, Any]

    def public(self) -> ContentBlock:
        return ServerToolUseBlock(self.id, self.name, self.input)


class _ServerToolResult(_Block, tag="advisor_tool_result"):
    tool_use_id: str
    content: Any

    def public(self) -> ContentBlock:
        return ServerToolResultBlock(self.tool_use_id, self.content)


# Only with keep_unrecognized: blocks the official package drops.


class _WebSearchToolResult(_ServerToolResult, tag="web_search_tool_result"):
    pass


class _WebFetchToolResult(_ServerToolResult, tag="web_fetch_tool_result"):
    pass


class _CodeExecutionToolResult(_ServerToolResult, tag="code_execution_tool_result"):
    pass


class _RedactedThinking(_Block, tag="redacted_thinking"):
    data: str = ""

    def public(self) -> ContentBlock:
        return RedactedThinkingBlock(self.data)


class _Image(_Block, tag="image"):
    source: dict[str, Any] = {}

    def public(self) -> ContentBlock:
        return ImageBlock(self.source)


_UserBlock = Union[_Text, _ToolUse, _ToolResult]
_AssistantBlock = Union[_Text, _Thinking, _ToolUse, _ToolResult, _ServerToolUse, _ServerToolResult]
_AnyBlock = Union[
    _Text,
    _Thinking,
    _ToolUse,
    _ToolResult,
    _ServerToolUse,
    _ServerToolResult,
    _WebSearchToolResult,
    _WebFetchToolResult,
    _CodeExecutionToolResult,
    _RedactedThinking,
    _Image,
]

# The block types the official parser keeps, per frame type; it drops the rest.
_MODELLED_BLOCKS = {
    "user": frozenset({"text", "tool_use", "tool_result"}),
    "assistant": frozenset({"text", "thinking", "tool_use", "tool_result", "server_tool_use", "advisor_tool_result"}),
}


# --------------------------------------------------------------------------
# Frames on the wire: each builds its public message.
# --------------------------------------------------------------------------


class _Frame(msgspec.Struct, tag_field="type", gc=False):
    def build(self, line: bytes) -> Message:
        """The public message; may raise ``msgspec.ValidationError`` for a
        part checked only here (a system subtype's keys)."""
        raise NotImplementedError


class _ApiMessage(msgspec.Struct, gc=False):
    content: list[_AssistantBlock]
    model: str
    id: str | None = None
    usage: dict[str, Any] | None = None
    stop_reason: str | None = None


class _AssistantFrame(_Frame, tag="assistant"):
    message: _ApiMessage
    parent_tool_use_id: str | None = None
    session_id: str | None = None
    uuid: str | None = None
    error: WireAssistantError | None = None
    user_message_uuid: str | None = None
    user_message_uuids: list[str] | None = None

    def build(self, line: bytes) -> Message:
        msg = self.message
        return AssistantMessage(
            [b.public() for b in msg.content],
            msg.model,
            self.parent_tool_use_id,
            self.error,
            msg.usage,
            msg.id,
            msg.stop_reason,
            self.session_id,
            self.uuid,
            self.user_message_uuid,
            self.user_message_uuids,
        )


class _UserPayload(msgspec.Struct, gc=False):
    content: Union[str, list[_UserBlock]]


class _UserFrame(_Frame, tag="user"):
    message: _UserPayload
    uuid: str | None = None
    parent_tool_use_id: str | None = None
    tool_use_result: Any = None
    session_id: str | None = None
    isSynthetic: bool = False  # noqa: N815 - wire name
    origin: WireOrigin | None = None

    def build(self, line: bytes) -> Message:
        content = self.message.content
        origin = self.origin
        message = UserMessage(
            content if isinstance(content, str) else [b.public() for b in content],
            self.uuid,
            self.parent_tool_use_id,
            self.tool_use_result,
            origin if origin is None else _opt_origin(origin),
        )
        # Not official fields: kept out of sight (see UserMessage).
        setattr(message, "_session_id", self.session_id)
        setattr(message, "_is_synthetic", self.isSynthetic)
        return message


class _SystemFrame(_Frame, tag="system"):
    subtype: str

    def build(self, line: bytes) -> Message:
        return _system_message(self.subtype, _any_decoder.decode(line))


def _system_message(subtype: str, data: dict[str, Any]) -> SystemMessage:
    """The class the official parser picks for the subtype; ``data`` is the
    whole frame. May raise ``msgspec.ValidationError`` (task subtypes)."""
    special = _SYSTEM_SUBTYPES.get(subtype)
    return SystemMessage(subtype, data) if special is None else special(subtype, data)


def _task_updated(subtype: str, data: dict[str, Any]) -> SystemMessage:
    # Never fails, as in the official parser: the patch may be absent.
    patch = data.get("patch")
    if not isinstance(patch, dict):
        patch = {}
    return TaskUpdatedMessage(
        subtype, data, data.get("task_id", ""), patch, patch.get("status"), data.get("session_id"), data.get("uuid")
    )


def _hook_event(subtype: str, data: dict[str, Any]) -> SystemMessage:
    name = data.get("hook_event") or data.get("hook_name") or data.get("hook_event_name") or ""
    return HookEventMessage(subtype, data, name, data.get("session_id"), data.get("uuid"))


def _mirror_error(subtype: str, data: dict[str, Any]) -> SystemMessage:
    return MirrorErrorMessage(subtype, data, data.get("key"), data.get("error", ""))


def _callback_timeout(subtype: str, data: dict[str, Any]) -> SystemMessage:
    timeout = data.get("timeout")
    return CallbackTimeoutMessage(
        subtype,
        data,
        str(data.get("callback", "")),
        float(timeout) if isinstance(timeout, (int, float)) else 0.0,
        _opt_str(data.get("tool_use_id")),
    )


# The keys the task subtypes require, checked against the decoded frame; the
# message then takes the frame's own values.


class _TaskStarted(msgspec.Struct, gc=False):
    task_id: str
    description: str
    uuid: str
    session_id: str
    tool_use_id: str | None = None
    task_type: str | None = None


class _TaskProgress(msgspec.Struct, gc=False):
    task_id: str
    description: str
    usage: dict[str, Any]
    uuid: str
    session_id: str
    tool_use_id: str | None = None
    last_tool_name: str | None = None


class _TaskNotification(msgspec.Struct, gc=False):
    task_id: str
    status: str
    output_file: str
    summary: str
    uuid: str
    session_id: str
    tool_use_id: str | None = None
    usage: dict[str, Any] | None = None


def _checked(cls: type[SystemMessage], wire: type[msgspec.Struct]) -> Callable[[str, dict[str, Any]], SystemMessage]:
    names = wire.__struct_fields__

    def build(subtype: str, data: dict[str, Any]) -> SystemMessage:
        msgspec.convert(data, wire)
        return cls(subtype, data, **{n: data[n] for n in names if n in data})

    return build


# Subtypes with a class of their own (the official parser's choice; every
# other subtype, init included, is a plain SystemMessage).
_SYSTEM_SUBTYPES: dict[str, Callable[[str, dict[str, Any]], SystemMessage]] = {
    "task_started": _checked(TaskStartedMessage, _TaskStarted),
    "task_progress": _checked(TaskProgressMessage, _TaskProgress),
    "task_notification": _checked(TaskNotificationMessage, _TaskNotification),
    "task_updated": _task_updated,
    "hook_started": _hook_event,
    "hook_response": _hook_event,
    "mirror_error": _mirror_error,
    "callback_timeout": _callback_timeout,
}


class _DeferredToolUse(msgspec.Struct, gc=False):
    id: str
    name: str
    input: dict[str, Any] = {}


class _ResultFrame(_Frame, tag="result"):
    subtype: str
    duration_ms: int
    duration_api_ms: int
    is_error: bool
    num_turns: int
    session_id: str
    stop_reason: str | None = None
    total_cost_usd: int | float | None = None  # an int stays an int, as the binary wrote it
    usage: dict[str, Any] | None = None
    result: str | None = None
    structured_output: Any = None
    modelUsage: dict[str, Any] | None = None  # noqa: N815 - wire name
    permission_denials: list[Any] | None = None
    deferred_tool_use: _DeferredToolUse | None = None
    errors: list[str] | None = None
    api_error_status: int | None = None
    uuid: str | None = None
    terminal_reason: str | None = None
    origin: WireOrigin | None = None
    user_message_uuid: str | None = None
    user_message_uuids: list[str] | None = None
    # Not official fields: kept out of sight (see ResultMessage).
    api_error_type: Any = None
    result_index: Any = None

    def build(self, line: bytes) -> Message:
        deferred = self.deferred_tool_use
        origin = self.origin
        message = ResultMessage(
            self.subtype,
            self.duration_ms,
            self.duration_api_ms,
            self.is_error,
            self.num_turns,
            self.session_id,
            self.stop_reason,
            self.total_cost_usd,
            self.usage,
            self.result,
            self.structured_output,
            self.modelUsage,  # ModelUsage dicts, unchecked
            self.permission_denials,
            None if deferred is None else DeferredToolUse(deferred.id, deferred.name, deferred.input),
            self.errors,
            self.api_error_status,
            self.uuid,
            self.terminal_reason,
            origin if origin is None else _opt_origin(origin),
            self.user_message_uuid,
            self.user_message_uuids,
        )
        index = self.result_index
        setattr(message, "_api_error_type", _opt_str(self.api_error_type))
        setattr(message, "_result_index", index if isinstance(index, int) and not isinstance(index, bool) else None)
        # The rest of the frame, for ResultDetails (a reference, not a copy).
        setattr(message, "_line", line if type(line) is bytes else bytes(line))
        return message


class _StreamEventFrame(_Frame, tag="stream_event"):
    uuid: str
    session_id: str
    event: dict[str, Any]
    parent_tool_use_id: str | None = None
    user_message_uuid: str | None = None
    user_message_uuids: list[str] | None = None

    def build(self, line: bytes) -> Message:
        return StreamEvent(
            self.uuid,
            self.session_id,
            self.event,
            self.parent_tool_use_id,
            self.user_message_uuid,
            self.user_message_uuids,
        )


class _RateLimitInfo(msgspec.Struct, rename="camel", gc=False):
    status: WireRateLimitStatus
    resets_at: int | None = None
    rate_limit_type: WireRateLimitType | None = None
    utilization: int | float | None = None
    overage_status: WireRateLimitStatus | None = None
    overage_resets_at: int | None = None
    overage_disabled_reason: str | None = None


class _RateLimitFrame(_Frame, tag="rate_limit_event"):
    rate_limit_info: dict[str, Any]
    uuid: str
    session_id: str

    def build(self, line: bytes) -> Message:
        raw = self.rate_limit_info
        try:
            w = msgspec.convert(raw, _RateLimitInfo)
        except msgspec.ValidationError as exc:
            raise _located(exc, "rate_limit_info") from None
        info = RateLimitInfo(
            w.status,
            w.resets_at,
            w.rate_limit_type,
            w.utilization,
            w.overage_status,
            w.overage_resets_at,
            w.overage_disabled_reason,
            raw,
        )
        return RateLimitEvent(info, self.uuid, self.session_id)


class _ConversationResetFrame(_Frame, tag="conversation_reset"):
    new_conversation_id: str
    uuid: str
    session_id: str

    def build(self, line: bytes) -> Message:
        return ConversationResetMessage(self.new_conversation_id, self.uuid, self.session_id)


# --------------------------------------------------------------------------
# Control frames: passed to the protocol layer as they are.
# --------------------------------------------------------------------------


class _Control(msgspec.Struct, tag_field="type"):
    def build(self, line: bytes) -> Frame:
        return cast("Frame", self)  # handled by the protocol layer as it is


class ControlRequestIn(_Control, tag="control_request"):
    """A request the binary sends us, as it is on the wire; it builds a ``ControlRequest``."""

    request: msgspec.Raw
    request_id: Union[str, int, None] = None

    def build(self, line: bytes) -> Frame:
        try:
            body = _any_decoder.decode(self.request)
        except msgspec.DecodeError as exc:  # the envelope's pass skips strings unchecked
            repaired = without_lone_surrogates(line)
            if repaired is not None:
                return _decode(repaired, False)  # type: ignore[return-value]  # a control request again
            request = _unreadable_request(line, exc)
            assert request is not None  # the line decoded as a control request
            return request
        return ControlRequest.of(self.request_id, body)


class ControlRequest:
    """A request from the binary, ready to be answered.

    ``error`` is set when it cannot be served as it stands (its body nested
    too deep, was no object, did not decode): it is refused, not handed to
    a callback. ``request_id`` is what the answer must carry; ``None`` when
    it could not be read, and then no answer can reach the binary.
    """

    __slots__ = ("request_id", "subtype", "body", "error")

    def __init__(
        self, request_id: str | int | None, subtype: str | None, body: dict[str, Any], error: str | None = None
    ) -> None:
        self.request_id = request_id
        self.subtype = subtype
        self.body = body
        self.error = error

    @classmethod
    def of(cls, request_id: Any, body: Any, error: str | None = None) -> ControlRequest:
        """From a decoded request id and body, checking their shapes."""
        if not isinstance(request_id, (str, int)) or isinstance(request_id, bool):
            request_id, error = None, error or "the request has no request_id"
        if not isinstance(body, dict):
            body, error = {}, error or "the request is not a JSON object"
        subtype = body.get("subtype")
        if not isinstance(subtype, str):
            subtype, error = None, error or "the request has no subtype"
        return cls(request_id, subtype, body, error)

    def __repr__(self) -> str:
        return f"ControlRequest({self.request_id!r}, {self.subtype!r}, error={self.error!r})"


class _ControlResponseBody(msgspec.Struct):
    subtype: str
    request_id: str | None = None
    response: msgspec.Raw = msgspec.Raw(b"null")
    error: str | None = None
    error_code: str | None = None


class ControlResponseIn(_Control, tag="control_response"):
    """The binary's answer to one of our control requests."""

    response: _ControlResponseBody


class ControlCancel(_Control, tag="control_cancel_request"):
    """The binary gave up on one of its own requests."""

    request_id: str | None = None


_CONTROL_TYPES = frozenset({ControlRequestIn, ControlResponseIn, ControlCancel})
_CONTROL_FRAMES = frozenset({ControlRequest, ControlResponseIn, ControlCancel})

_WireFrame = Union[
    _StreamEventFrame,
    _SystemFrame,
    _AssistantFrame,
    _UserFrame,
    _ResultFrame,
    _RateLimitFrame,
    _ConversationResetFrame,
    ControlRequestIn,
    ControlResponseIn,
    ControlCancel,
]

# Frame type -> its wire struct, for the forgiving path.
_WIRE_TYPES: dict[str, type[_Frame] | type[_Control]] = {
    t.__struct_config__.tag: t
    for t in _WireFrame.__args__  # type: ignore[attr-defined]
}

Frame = Union[Message, ControlRequest, ControlResponseIn, ControlCancel]
"""What one stdout line decodes to."""

_frame_decoder = msgspec.json.Decoder(_WireFrame)
_SYSTEM_PREFIX = b'{"type":"system",'
_any_decoder = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()


def encode_line(obj: Any) -> bytes:
    """Encode one outbound frame as a newline-terminated JSON line."""
    # The newline written by the encoder itself: ``encode(obj) + b"\n"``
    # copies the whole line once more, which for a 100 MB tool result or
    # prompt is a second 100 MB and a tenth of a second.
    return _encoder.encode_lines((obj,))


def encode_value(obj: Any) -> bytes:
    """Encode ``obj`` as JSON, without a newline (a line for a transport
    that hands over decoded frames)."""
    return _encoder.encode(obj)


def decode_value(raw: bytes | msgspec.Raw, type_: Any = Any) -> Any:
    """Decode a sub-tree (for example a control request body) into ``type_``."""
    if type_ is Any:
        return _any_decoder.decode(raw)
    return msgspec.json.decode(raw, type=type_)


_KEPT_OF_A_BAD_LINE = 512


def _bad_line(line: bytes, cause: Exception) -> CLIJSONDecodeError:
    """The error for a line that is no JSON object; it keeps the line's start
    only (a bad line can be megabytes)."""
    return CLIJSONDecodeError(line[:_KEPT_OF_A_BAD_LINE].decode("utf-8", "replace"), cause)


def decode_frame(line: bytes, *, keep_unrecognized: bool = False) -> Frame | None:
    """Decode one stdout line. Returns ``None`` for blank lines.

    A frame of an unknown type comes back as ``UnknownMessage`` whatever
    ``keep_unrecognized`` says (the caller decides whether to pass it on);
    the flag decides whether content blocks the official package does not
    model are kept or dropped. Raises ``CLIJSONDecodeError`` only for a line
    that is not JSON at all (invalid UTF-8 too) or not a JSON object; a
    frame that does not fit its type comes back as ``UnknownMessage`` with
    ``error`` set. Lone surrogate escapes read as U+FFFD.

    A line nested deeper than ``MAX_NESTING`` is decoded with the values
    below that depth read as ``TOO_DEEP_TEXT`` (``_wire.nesting``); a request
    comes back with ``error`` set, to be refused. A control request that cannot be decoded at all
    still comes back as a ``ControlRequest`` (its ``request_id``, if it can
    be read, and ``error``), so that it gets an answer.
    """
    if may_nest_too_deep(line):
        try:
            too_deep = nests_too_deep(_any_decoder.decode(line))
        except RecursionError:
            too_deep = True
        except msgspec.DecodeError:
            too_deep = False  # not JSON: the typed pass says what is wrong
        if too_deep:
            return _decode_pruned(line, keep_unrecognized)
    return _decode(line, keep_unrecognized)


def _decode(line: bytes, keep_unrecognized: bool) -> Frame | None:
    if line.startswith(_SYSTEM_PREFIX):
        # The binary writes "type" first. A system message holds the whole
        # frame as a dict anyway, so one generic pass is all it takes.
        try:
            data = _any_decoder.decode(line)
            subtype = data["subtype"]
            if type(subtype) is str:
                return _system_message(subtype, data)
        except msgspec.ValidationError as exc:
            return _malformed(data, exc)
        except (msgspec.DecodeError, KeyError, TypeError):
            pass  # the general path says what is wrong
    try:
        wire = _frame_decoder.decode(line)
    except msgspec.ValidationError:
        return _decode_slow(line, keep_unrecognized)
    except msgspec.DecodeError as exc:
        if not line.strip():
            return None
        return _decode_repaired(line, exc, keep_unrecognized)
    # No isinstance() here: against msgspec Struct classes it costs more
    # than building the message. Every wire struct knows how to build.
    try:
        return wire.build(line)
    except msgspec.ValidationError as exc:
        return _malformed(_any_decoder.decode(line), exc)


def _decode_pruned(line: bytes, keep: bool) -> Frame | None:
    """A line nested too deep, decoded with each value below the limit
    replaced by ``TOO_DEEP_TEXT``: a message keeps its type (a result must
    still end its turn), a request is marked, to be refused."""
    why = f"the frame nests deeper than {MAX_NESTING} levels"
    try:
        frame = _decode(pruned(line), keep)
    except CLIJSONDecodeError as exc:  # cut off inside the deep part
        request = _unreadable_request(line, exc.original_error)
        if request is not None:
            return request
        raise
    if type(frame) is ControlRequest:
        frame.error = frame.error or why
    elif type(frame) not in _CONTROL_FRAMES and frame is not None:
        log.warning("claude_wrap: %s; its deepest values read as %r", why, TOO_DEEP_TEXT)
    return frame


def _type_of(line: bytes) -> str | None:
    match = _TYPE_FIELD.match(line)
    return match.group(1).decode() if match else None


# How the binary starts every frame: its type first (and a request's id next).
_TYPE_FIELD = re.compile(rb'\s*\{\s*"type"\s*:\s*"([a-z_]+)"')
_REQUEST_ID_FIELD = re.compile(rb'\s*\{\s*"type"\s*:\s*"control_request"\s*,\s*"request_id"\s*:\s*"([^"\\]*)"')


def _decode_repaired(line: bytes, error: msgspec.DecodeError, keep: bool) -> Frame | None:
    """Decode ``line`` again without its lone surrogates, or raise ``error``
    as a ``CLIJSONDecodeError`` when it has none (a control request still
    comes back, to be refused: see ``_unreadable_request``)."""
    repaired = without_lone_surrogates(line)
    if repaired is None:
        request = _unreadable_request(line, error)
        if request is not None:
            return request
        raise _bad_line(line, error) from error
    log.debug("claude_wrap: a stdout line held lone UTF-16 surrogates; they read as U+FFFD")
    return decode_frame(repaired, keep_unrecognized=keep)


def _unreadable_request(line: bytes, error: Exception) -> ControlRequest | None:
    """A control request that is no valid JSON (invalid UTF-8, cut off): as
    much of it as can be read, with ``error`` saying why, so that it is
    refused rather than left unanswered; ``None`` for any other line.

    Read with invalid UTF-8 replaced if that makes it decode; else only the
    id the binary writes right after the type, before anything the model
    wrote."""
    if _type_of(line) != "control_request":
        return None
    why = f"the request could not be decoded: {error}"
    try:
        data = _any_decoder.decode(line.decode("utf-8", "replace"))
    except (msgspec.DecodeError, RecursionError):
        match = _REQUEST_ID_FIELD.match(line)
        return ControlRequest(match.group(1).decode() if match else None, None, {}, why)
    if not isinstance(data, dict):
        return ControlRequest(None, None, {}, why)
    return ControlRequest.of(data.get("request_id"), data.get("request"), why)


# A JSON string escape: a surrogate pair, a lone high or low surrogate, or any
# other escape (consumed whole, so the JSON text \\ud83c stays a backslash and text).
_ESCAPE = re.compile(
    rb"\\(?:(u[dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?|(u[dD][c-fC-F][0-9a-fA-F]{2})|.)",
    re.DOTALL,
)
_REPLACEMENT = rb"\ufffd"


def _fix_escape(match: re.Match[bytes]) -> bytes:
    high, low, lone_low = match.groups()
    if (high is not None and low is None) or lone_low is not None:
        return _REPLACEMENT
    return match.group()


def without_lone_surrogates(line: bytes) -> bytes | None:
    """``line`` with each lone surrogate escape (``"\\ud83c"`` not followed by
    its low half, or a low half alone) replaced by ``"\\ufffd"``; ``None``
    if it has none.

    JavaScript writes these when it cuts a string in the middle of a
    character (a tool's or an MCP server's output cut at a length): valid
    JSON that msgspec refuses, since no UTF-8 string can hold them. Only a
    line that failed to decode is looked at, so this costs nothing otherwise.
    """
    if b"\\u" not in line:
        return None
    repaired = _ESCAPE.sub(_fix_escape, line)
    return None if repaired == line else repaired


def undecodable(error: CLIJSONDecodeError) -> UnknownMessage:
    """What a session hands out for a line that looked like a JSON object
    but could not be decoded (invalid JSON or UTF-8, nested too deeply):
    an ``UnknownMessage`` with no type, ``data={"line": <its start>}`` and
    ``error`` saying why, in the line's place; the run goes on."""
    why = f"undecodable stdout line: {error.original_error}"
    return UnknownMessage("", None, {"line": error.line}, why)


def decode_line(line: bytes, *, keep_unrecognized: bool = False) -> Message | None:
    """Decode one line of the binary's stream-json output into a message.

    For replaying recorded output and for benchmarks: gives what a session
    would yield for the line, and ``None`` for control frames, blank lines
    and (unless ``keep_unrecognized``) frames of an unknown type. A line that
    is no JSON object raises ``CLIJSONDecodeError`` (a session skips it, or
    hands out an ``UnknownMessage`` with ``error`` set if it began like one).
    """
    frame = decode_frame(line, keep_unrecognized=keep_unrecognized)
    kind = type(frame)
    if kind in _CONTROL_FRAMES or (kind in UNKNOWN_KINDS and not keep_unrecognized and is_unrecognized(frame)):
        return None
    return frame  # type: ignore[return-value]  # not a control frame


UNKNOWN_KINDS = frozenset(
    (UnknownMessage, ToolProgressMessage, ToolUseSummaryMessage, AuthStatusMessage, PromptSuggestionMessage,
     ActiveGoalMessage)
)  # fmt: skip
"""``UnknownMessage`` and its typed kinds: what the official package drops
(for ``type()`` tests on the hot path)."""


def is_unrecognized(frame: object) -> bool:
    """True for an ``UnknownMessage`` of a type nobody models (not a
    malformed known frame, which is always delivered)."""
    return isinstance(frame, UnknownMessage) and frame.error is None


# --------------------------------------------------------------------------
# Frames the official package drops, typed where the TypeScript SDK types them.
# --------------------------------------------------------------------------


def _seconds(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _strings(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _ids(data: dict[str, Any]) -> dict[str, Any]:
    return {"uuid": _opt_str(data.get("uuid")), "session_id": _opt_str(data.get("session_id"))}


def _unmodelled(kind: str, data: dict[str, Any]) -> UnknownMessage:
    """An ``UnknownMessage``, of the typed subclass where there is one."""
    subtype = _opt_str(data.get("subtype"))
    if kind == "tool_progress":
        return ToolProgressMessage(
            kind,
            subtype,
            data,
            tool_use_id=_opt_str(data.get("tool_use_id")) or "",
            tool_name=_opt_str(data.get("tool_name")) or "",
            parent_tool_use_id=_opt_str(data.get("parent_tool_use_id")),
            elapsed_time_seconds=_seconds(data.get("elapsed_time_seconds")),
            heartbeat=data.get("heartbeat") is True,
            task_id=_opt_str(data.get("task_id")),
            **_ids(data),
        )
    if kind == "tool_use_summary":
        return ToolUseSummaryMessage(
            kind, subtype, data, summary=_opt_str(data.get("summary")) or "",
            preceding_tool_use_ids=_strings(data.get("preceding_tool_use_ids")), **_ids(data),
        )  # fmt: skip
    if kind == "auth_status":
        return AuthStatusMessage(
            kind, subtype, data, is_authenticating=data.get("isAuthenticating") is True,
            output=_strings(data.get("output")), auth_error=_opt_str(data.get("error")), **_ids(data),
        )  # fmt: skip
    if kind == "prompt_suggestion":
        return PromptSuggestionMessage(
            kind, subtype, data, suggestion=_opt_str(data.get("suggestion")) or "", **_ids(data)
        )
    if kind == "active_goal":
        value = data.get("value")
        return ActiveGoalMessage(kind, subtype, data, value=value if isinstance(value, dict) else None, **_ids(data))
    return UnknownMessage(kind, subtype, data)


# --------------------------------------------------------------------------
# The forgiving path.
# --------------------------------------------------------------------------


def _decode_slow(line: bytes, keep: bool) -> Frame:
    try:
        data = _any_decoder.decode(line)
    except msgspec.DecodeError as exc:  # the typed pass stopped before the bad part
        frame = _decode_repaired(line, exc, keep)
        assert frame is not None  # a blank line is no object
        return frame
    if not isinstance(data, dict):
        raise _bad_line(line, ValueError("the line is JSON but not an object"))
    kind = data.get("type")
    wire_type = _WIRE_TYPES.get(kind) if isinstance(kind, str) else None
    if wire_type is None:
        if not isinstance(kind, str) or not kind:
            return _malformed(data, "the frame has no `type`")
        log.debug("claude_wrap: frame of unknown type %r", kind)
        return _unmodelled(kind, data)
    if wire_type in _CONTROL_TYPES:
        try:  # a control frame that failed once fails again, saying why
            _frame_decoder.decode(line)
        except msgspec.ValidationError as exc:
            if wire_type is ControlRequestIn:
                # Answered all the same, refused: an unanswered request hangs the run.
                return ControlRequest.of(data.get("request_id"), data.get("request"), f"malformed request: {exc}")
            return _malformed(data, exc)
        raise AssertionError("unreachable: the fast path rejected this line")  # pragma: no cover
    extras: dict[int, ContentBlock] = {}
    try:
        fitted = _without_odd_annotations(data)
        if kind in _MODELLED_BLOCKS:
            fitted = _with_modelled_blocks(kind, fitted, keep, extras)
        message = msgspec.convert(fitted, wire_type).build(line)
    except msgspec.ValidationError as exc:
        return _malformed(data, exc)
    except _BadBlock as exc:
        return _malformed(data, str(exc))
    if extras:
        content = cast("list[ContentBlock]", cast(Union[AssistantMessage, UserMessage], message).content)
        for position in sorted(extras):
            content.insert(position, extras[position])
    return message


class _BadBlock(Exception):
    pass


def _with_modelled_blocks(
    kind: str, data: dict[str, Any], keep: bool, extras: dict[int, ContentBlock]
) -> dict[str, Any]:
    """``data`` with only the content blocks the official parser models; the
    others go to ``extras`` (by final position) if ``keep``, else nowhere."""
    message = data.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(message, dict) or not isinstance(content, list):
        return data  # the conversion says what is wrong
    modelled = _MODELLED_BLOCKS[kind]
    kept: list[Any] = []
    for i, item in enumerate(content):
        if not isinstance(item, dict) or "type" not in item:
            raise _BadBlock(f"content block {i} is not an object with a `type` - at `$.message.content[{i}]`")
        block_type = item["type"]
        if block_type in modelled:
            kept.append(item)
        elif keep:
            extras[len(kept) + len(extras)] = _unmodelled_block(item)
        else:
            log.debug("claude_wrap: dropped a %r content block of a %s frame", block_type, kind)
    return {**data, "message": {**message, "content": kept}}


def _unmodelled_block(item: dict[str, Any]) -> ContentBlock:
    try:
        block: _Block = msgspec.convert(item, _AnyBlock)
        return block.public()
    except msgspec.ValidationError:
        return UnknownBlock(str(item["type"]), item)


def _malformed(data: Any, why: Exception | str) -> UnknownMessage:
    kind = data.get("type") if isinstance(data, dict) else None
    kind_s = kind if isinstance(kind, str) else ""
    log.warning("claude_wrap: malformed %s frame kept as UnknownMessage: %s", kind_s or "untyped", why)
    subtype = data.get("subtype") if isinstance(data, dict) else None
    return UnknownMessage(kind_s, _opt_str(subtype), data if isinstance(data, dict) else {}, str(why))


def _located(exc: msgspec.ValidationError, key: str) -> msgspec.ValidationError:
    """``exc`` with its location moved under ``$.key``."""
    text = str(exc)
    if "- at `$" in text:
        return msgspec.ValidationError(text.replace("- at `$", f"- at `$.{key}", 1))
    return msgspec.ValidationError(f"{text} - at `$.{key}`")


def _opt_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _opt_strs(value: Any) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return None


def _opt_origin(value: Any) -> WireOrigin | None:
    # The one key every origin has; without it the object says nothing.
    if isinstance(value, dict) and isinstance(value.get("kind"), str):
        return value  # type: ignore[return-value]
    return None


def _opt_deferred(value: Any) -> Any:
    try:
        return msgspec.convert(value, _DeferredToolUse | None) and value
    except msgspec.ValidationError:
        return None


# Keys that only annotate a frame: an odd one is dropped, not the frame.
_ANNOTATIONS = {
    "origin": _opt_origin,
    "user_message_uuid": _opt_str,
    "user_message_uuids": _opt_strs,
    "deferred_tool_use": _opt_deferred,
}


def _without_odd_annotations(data: dict[str, Any]) -> dict[str, Any]:
    odd = [k for k, fit in _ANNOTATIONS.items() if data.get(k) is not None and fit(data[k]) is None]
    if not odd:
        return data
    log.warning("claude_wrap: %s frame with malformed extras %s; those were dropped", data.get("type"), odd)
    return {k: v for k, v in data.items() if k not in odd}
