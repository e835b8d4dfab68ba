"""Bytes in, typed frames out (and back): the only module that touches JSON.

Every stdout line is decoded once, straight from ``bytes``, by one msgspec
decoder over a tagged union of all frame types. Only when that fails do we
take the slow, forgiving path, which turns unknown frame types and unknown
content blocks into ``UnknownMessage`` / ``UnknownBlock`` instead of failing.
"""

from __future__ import annotations

import logging
from typing import Any, Union

import msgspec
import msgspec.json

from ._exceptions import CLIJSONDecodeError
from ._messages import (
    ApiRetryMessage,
    AssistantMessage,
    ConversationResetMessage,
    CompactBoundaryMessage,
    ContentBlock,
    HookEventMessage,
    InformationalMessage,
    InitSystemMessage,
    MirrorErrorMessage,
    Message,
    RateLimitEvent,
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
    error: str | None = None


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


class _SystemFrame(msgspec.Struct, tag_field="type", tag="system"):
    subtype: str = ""


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
    RateLimitEvent,
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
        raise CLIJSONDecodeError("stdout line is nested too deeply to decode", line[:512], exc) from exc
    except msgspec.DecodeError as exc:
        if not line.strip():
            return None
        raise CLIJSONDecodeError(
            f"stdout line is not valid JSON: {exc}", line[:512], exc
        ) from exc
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
    if isinstance(wire, (StreamEvent, ResultMessage, RateLimitEvent, ConversationResetMessage)):
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
        )
    if isinstance(wire, _SystemFrame):
        return _system(wire.subtype, line)
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
    return msgspec.structs.replace(typed, data=data)


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


def _decode_slow(line: bytes) -> Frame | None:
    """The forgiving path: unknown frame types and content blocks."""
    try:
        data = _any_decoder.decode(line)
    except RecursionError as exc:
        raise CLIJSONDecodeError("stdout line is nested too deeply to decode", line[:512], exc) from exc
    except msgspec.DecodeError as exc:  # pragma: no cover - the fast path saw JSON
        raise CLIJSONDecodeError(f"stdout line is not valid JSON: {exc}", line[:512], exc) from exc
    if not isinstance(data, dict):
        raise CLIJSONDecodeError("stdout line is JSON but not an object", line[:512])
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
            )
    except (KeyError, TypeError, AttributeError) as exc:
        log.warning("claude_wrap: malformed %s frame kept as UnknownMessage: %s", kind_s, exc)
        return UnknownMessage(type=kind_s, subtype=subtype_s, data=data, error=str(exc))
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
