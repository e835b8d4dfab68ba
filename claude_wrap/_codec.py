"""Bytes in, typed frames out (and back): the only module that touches JSON.

Every stdout line is decoded once, straight from ``bytes``, by one msgspec
decoder over a tagged union of all frame types. Only when that fails do we
take the slow, forgiving path, which turns unknown frame types and unknown
content blocks into ``UnknownMessage`` / ``UnknownBlock`` instead of failing.
"""

from __future__ import annotations

import logging
from typing import Any, Union, cast

import msgspec
import msgspec.json

from ._exceptions import CLIJSONDecodeError
from ._message_shapes import _AssistantError, _Origin
from ._messages import (
    ApiRetryMessage,
    AssistantMessage,
    CompactBoundaryMessage,
    ContentBlock,
    ConversationResetMessage,
    DeferredToolUse,
    HookEventMessage,
    InformationalMessage,
    InitSystemMessage,
    Message,
    MirrorErrorMessage,
    RateLimitEvent,
    RateLimitInfo,
    ResultMessage,
    StatusMessage,
    StreamEvent,
    SystemMessage,
    TaskNotificationMessage,
    TaskProgressMessage,
    TaskStartedMessage,
    TaskUpdatedMessage,
    UnknownBlock,
    UnknownMessage,
    UserMessage,
    _KnownBlock,
)

__all__ = [
    "ControlCancel",
    "ControlRequestIn",
    "ControlResponseIn",
    "Frame",
    "decode_frame",
    "decode_line",
    "encode_line",
    "decode_value",
]

log = logging.getLogger("claude_wrap")


# --------------------------------------------------------------------------
# Wire-only shapes: nested the way the binary writes them.
# --------------------------------------------------------------------------


class _ApiMessage(msgspec.Struct):
    content: list[_KnownBlock]
    model: str = ""
    id: str | None = None
    usage: dict[str, Any] | None = None
    stop_reason: str | None = None


class _AssistantFrame(msgspec.Struct, tag_field="type", tag="assistant"):
    message: _ApiMessage
    parent_tool_use_id: str | None = None
    session_id: str | None = None
    uuid: str | None = None
    error: _AssistantError | None = None
    user_message_uuid: str | None = None
    user_message_uuids: list[str] | None = None


class _UserPayload(msgspec.Struct):
    content: Union[str, list[_KnownBlock]]
    role: str = "user"


class _UserFrame(msgspec.Struct, tag_field="type", tag="user"):
    message: _UserPayload
    uuid: str | None = None
    parent_tool_use_id: str | None = None
    tool_use_result: Any = None
    session_id: str | None = None
    isSynthetic: bool = False
    origin: _Origin | None = None


class _SystemFrame(msgspec.Struct, tag_field="type", tag="system"):
    subtype: str = ""


class _RateLimitFrame(msgspec.Struct, tag_field="type", tag="rate_limit_event"):
    # Raw, so the object can be kept whole in RateLimitInfo.raw as well as typed.
    rate_limit_info: msgspec.Raw
    uuid: str = ""
    session_id: str = ""


class ControlRequestIn(msgspec.Struct, tag_field="type", tag="control_request"):
    """A request the binary sends us; ``request`` is decoded by the protocol layer."""

    request: msgspec.Raw
    request_id: str | None = None


class _ControlResponseBody(msgspec.Struct):
    subtype: str
    request_id: str | None = None
    response: msgspec.Raw = msgspec.Raw(b"null")
    error: str | None = None
    error_code: str | None = None


class ControlResponseIn(msgspec.Struct, tag_field="type", tag="control_response"):
    """The binary's answer to one of our control requests."""

    response: _ControlResponseBody


class ControlCancel(msgspec.Struct, tag_field="type", tag="control_cancel_request"):
    """The binary gave up on one of its own requests."""

    request_id: str | None = None


_WireFrame = Union[
    _AssistantFrame,
    _UserFrame,
    _SystemFrame,
    ResultMessage,
    StreamEvent,
    _RateLimitFrame,
    ConversationResetMessage,
    ControlRequestIn,
    ControlResponseIn,
    ControlCancel,
]

Frame = Union[Message, ControlRequestIn, ControlResponseIn, ControlCancel]
"""What one stdout line decodes to."""


class _Envelope(msgspec.Struct):
    type: str = ""
    subtype: Any = None


_frame_decoder = msgspec.json.Decoder(_WireFrame)
_envelope_decoder = msgspec.json.Decoder(_Envelope)
_any_decoder = msgspec.json.Decoder()
_rate_limit_info_decoder = msgspec.json.Decoder(RateLimitInfo)
_encoder = msgspec.json.Encoder()

# Per-subtype decoders for system frames: a second, cheap pass on the same bytes.
_SYSTEM_TYPES: dict[str, type[SystemMessage]] = {
    "init": InitSystemMessage,
    "api_retry": ApiRetryMessage,
    "compact_boundary": CompactBoundaryMessage,
    "status": StatusMessage,
    "informational": InformationalMessage,
    "task_started": TaskStartedMessage,
    "task_progress": TaskProgressMessage,
    "task_notification": TaskNotificationMessage,
    "task_updated": TaskUpdatedMessage,
    "hook_started": HookEventMessage,
    "hook_progress": HookEventMessage,
    "hook_response": HookEventMessage,
    "mirror_error": MirrorErrorMessage,
}
_system_decoders = {k: msgspec.json.Decoder(v) for k, v in _SYSTEM_TYPES.items()}


def encode_line(obj: Any) -> bytes:
    """Encode one outbound frame as a newline-terminated JSON line."""
    buf = _encoder.encode(obj)
    return buf + b"\n"


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


def decode_frame(line: bytes) -> Frame | None:
    """Decode one stdout line. Returns ``None`` for blank lines.

    Raises ``CLIJSONDecodeError`` only for a line that is not JSON at all or
    not a JSON object; everything else (unknown types, unknown blocks,
    known types with surprising shapes) comes back as a message.
    """
    try:
        wire = _frame_decoder.decode(line)
    except msgspec.ValidationError:
        return _decode_slow(line)
    except RecursionError as exc:
        raise _bad_line(line, exc) from exc
    except msgspec.DecodeError as exc:
        if not line.strip():
            return None
        raise _bad_line(line, exc) from exc
    return _from_wire(wire, line)


def decode_line(line: bytes) -> Message | None:
    """Decode one line of the binary's stream-json output into a message.

    For replaying recorded transcripts and for benchmarks. Control-protocol
    frames and blank lines give ``None``.
    """
    frame = decode_frame(line)
    if isinstance(frame, (ControlRequestIn, ControlResponseIn, ControlCancel)):
        return None
    return frame


def _from_wire(wire: Any, line: bytes) -> Frame:
    # Ordered by frequency: stream events dominate partial-message runs.
    if isinstance(wire, (StreamEvent, ConversationResetMessage)):
        return wire
    if isinstance(wire, ResultMessage):
        if wire.origin is not None and _opt_origin(wire.origin) is None:
            return msgspec.structs.replace(wire, origin=None)
        return wire
    if isinstance(wire, _AssistantFrame):
        msg = wire.message
        return AssistantMessage(
            content=list(msg.content),
            model=msg.model,
            parent_tool_use_id=wire.parent_tool_use_id,
            error=wire.error,
            usage=msg.usage,
            message_id=msg.id,
            stop_reason=msg.stop_reason,
            session_id=wire.session_id,
            uuid=wire.uuid,
            user_message_uuid=wire.user_message_uuid,
            user_message_uuids=wire.user_message_uuids,
        )
    if isinstance(wire, _UserFrame):
        content = wire.message.content
        return UserMessage(
            content=content if isinstance(content, str) else list(content),
            uuid=wire.uuid,
            parent_tool_use_id=wire.parent_tool_use_id,
            tool_use_result=wire.tool_use_result,
            session_id=wire.session_id,
            is_synthetic=wire.isSynthetic,
            origin=wire.origin if wire.origin is None else _opt_origin(wire.origin),
        )
    if isinstance(wire, _SystemFrame):
        return _system(wire.subtype, line)
    if isinstance(wire, _RateLimitFrame):
        return _rate_limit(wire, line)
    return wire  # type: ignore[no-any-return]  # control frames pass through


def _system(subtype: str, line: bytes) -> SystemMessage | UnknownMessage:
    data = _any_decoder.decode(line)
    decoder = _system_decoders.get(subtype)
    if decoder is None:
        return SystemMessage(subtype=subtype, data=data)
    try:
        typed = decoder.decode(line)
    except msgspec.ValidationError as exc:
        return UnknownMessage(type="system", subtype=subtype, data=data, error=str(exc))
    if isinstance(typed, HookEventMessage):
        name = data.get("hook_event_name") or data.get("hook_event") or data.get("hook_name") or ""
        return msgspec.structs.replace(typed, data=data, hook_event_name=str(name))
    if isinstance(typed, TaskUpdatedMessage):
        # The status lives inside the patch; lifting it out saves every caller
        # the same lookup. A patch without one (only end_time, say) leaves None.
        status = typed.patch.get("status")
        return msgspec.structs.replace(typed, data=data, status=status if isinstance(status, str) else None)
    return msgspec.structs.replace(typed, data=data)


def _rate_limit(wire: _RateLimitFrame, line: bytes) -> RateLimitEvent | UnknownMessage:
    try:
        info = _rate_limit_info_decoder.decode(wire.rate_limit_info)
    except msgspec.ValidationError as exc:
        data = _any_decoder.decode(line)
        subtype = data.get("subtype")
        log.warning("claude_wrap: malformed rate_limit_event frame kept as UnknownMessage: %s", exc)
        return UnknownMessage(
            type="rate_limit_event",
            subtype=subtype if isinstance(subtype, str) else None,
            data=data,
            error=f"{exc} - at `$.rate_limit_info`",
        )
    raw = _any_decoder.decode(wire.rate_limit_info)
    return RateLimitEvent(
        rate_limit_info=msgspec.structs.replace(info, raw=raw), uuid=wire.uuid, session_id=wire.session_id
    )


def _blocks(raw: Any) -> list[ContentBlock]:
    if not isinstance(raw, list):
        raise TypeError("content is not a list")
    out: list[ContentBlock] = []
    for item in raw:
        try:
            out.append(msgspec.convert(item, _KnownBlock))
        except msgspec.ValidationError:
            if not isinstance(item, dict):
                raise TypeError(f"content block is not an object: {item!r:.80}") from None
            out.append(UnknownBlock(type=str(item.get("type", "")), data=item))
    return out


# The forgiving path keeps a frame whose optional extras have odd types, but
# drops those extras rather than put a wrongly typed value in a typed field.


def _opt_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _opt_strs(value: Any) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return None


def _opt_origin(value: Any) -> _Origin | None:
    # The one key every origin has; without it the object says nothing.
    if isinstance(value, dict) and isinstance(value.get("kind"), str):
        return cast("_Origin", value)
    return None


# Fields of a result that only annotate the turn. An undelivered result would
# leave the turn open for good, so when one of these has a shape we do not
# expect, the result is delivered without it. The others (is_error, subtype,
# ...) decide what the result means, so a bad one still makes it unknown.
_RESULT_EXTRAS = ("origin", "deferred_tool_use", "user_message_uuid", "user_message_uuids")


def _result_without_odd_extras(data: dict[str, Any]) -> ResultMessage | None:
    if not any(key in data for key in _RESULT_EXTRAS):
        return None
    try:
        core = msgspec.convert({k: v for k, v in data.items() if k not in _RESULT_EXTRAS}, ResultMessage)
    except msgspec.ValidationError:
        return None
    try:
        deferred = msgspec.convert(data.get("deferred_tool_use"), DeferredToolUse | None)
    except msgspec.ValidationError:
        deferred = None
    log.warning("claude_wrap: result frame with malformed extras; those were dropped")
    return msgspec.structs.replace(
        core,
        origin=_opt_origin(data.get("origin")),
        deferred_tool_use=deferred,
        user_message_uuid=_opt_str(data.get("user_message_uuid")),
        user_message_uuids=_opt_strs(data.get("user_message_uuids")),
    )


def _decode_slow(line: bytes) -> Frame | None:
    """The forgiving path: unknown frame types and content blocks."""
    try:
        data = _any_decoder.decode(line)
    except RecursionError as exc:
        raise _bad_line(line, exc) from exc
    except msgspec.DecodeError as exc:  # pragma: no cover - the fast path saw JSON
        raise _bad_line(line, exc) from exc
    if not isinstance(data, dict):
        raise _bad_line(line, ValueError("the line is JSON but not an object"))
    kind = data.get("type")
    kind_s = kind if isinstance(kind, str) else ""
    subtype = data.get("subtype")
    subtype_s = subtype if isinstance(subtype, str) else None
    try:
        if kind_s == "assistant":
            msg = data["message"]
            return AssistantMessage(
                content=_blocks(msg.get("content")),
                model=str(msg.get("model", "")),
                parent_tool_use_id=data.get("parent_tool_use_id"),
                error=data.get("error"),
                usage=msg.get("usage"),
                message_id=msg.get("id"),
                stop_reason=msg.get("stop_reason"),
                session_id=data.get("session_id"),
                uuid=data.get("uuid"),
                user_message_uuid=_opt_str(data.get("user_message_uuid")),
                user_message_uuids=_opt_strs(data.get("user_message_uuids")),
            )
        if kind_s == "user":
            content = data["message"]["content"]
            return UserMessage(
                content=content if isinstance(content, str) else _blocks(content),
                uuid=data.get("uuid"),
                parent_tool_use_id=data.get("parent_tool_use_id"),
                tool_use_result=data.get("tool_use_result"),
                session_id=data.get("session_id"),
                is_synthetic=bool(data.get("isSynthetic", False)),
                origin=_opt_origin(data.get("origin")),
            )
    except (KeyError, TypeError, AttributeError) as exc:
        log.warning("claude_wrap: malformed %s frame kept as UnknownMessage: %s", kind_s, exc)
        return UnknownMessage(type=kind_s, subtype=subtype_s, data=data, error=str(exc))
    if kind_s == "result":
        rescued = _result_without_odd_extras(data)
        if rescued is not None:
            return rescued
    error: str | None = None
    if kind_s in _KNOWN_TYPES:
        # A known frame whose fields did not fit: keep it, say why.
        try:
            _frame_decoder.decode(line)
        except msgspec.ValidationError as exc:
            error = str(exc)
        log.warning("claude_wrap: malformed %s frame kept as UnknownMessage: %s", kind_s, error)
    else:
        log.debug("claude_wrap: unknown frame type %r", kind_s)
    return UnknownMessage(type=kind_s, subtype=subtype_s, data=data, error=error)


_KNOWN_TYPES = frozenset(
    {
        "assistant",
        "user",
        "system",
        "result",
        "stream_event",
        "rate_limit_event",
        "conversation_reset",
        "control_request",
        "control_response",
        "control_cancel_request",
    }
)
