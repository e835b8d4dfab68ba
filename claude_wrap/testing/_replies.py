"""Scripted replies and their rendering into Anthropic Messages API bytes.

Everything here is pure: a `Reply` is an immutable description, and the
render functions turn it into the exact JSON objects and SSE bytes the real
API sends. The server in `_server.py` only adds I/O and timing.
"""

from __future__ import annotations

import dataclasses
import json
import math
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from claude_wrap.testing._recorded import RecordedRequest

__all__ = [
    "ScriptedBlock",
    "Matcher",
    "Reply",
    "ScriptedText",
    "ScriptedThinking",
    "ScriptedToolUse",
    "Usage",
]

JSONObject = dict[str, Any]

#: Decides which request a queued reply may answer: ``"main"`` (main-loop
#: requests only, the default), ``"any"`` (any Messages request), or a
#: predicate over the recorded request.
Matcher = Literal["main", "any"] | Callable[[RecordedRequest], bool]

# Base64 of "signature": the binary only stores the signature and sends it
# back on the next turn, so any opaque string works.
_DEFAULT_SIGNATURE = "c2lnbmF0dXJl"

# Error "type" strings the real API uses for each status, so the binary maps
# a scripted error to the same `api_error_type` it would for a real one.
_ERROR_TYPES: Mapping[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}


@dataclass(frozen=True)
class Usage:
    """Token usage reported for one reply (drives cost and budget logic)."""

    input_tokens: int = 10
    output_tokens: int = 5
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0

    def as_dict(self, *, output_tokens: int | None = None) -> JSONObject:
        """Return the API's ``usage`` object, optionally overriding output tokens."""
        return {
            "input_tokens": self.input_tokens,
            "cache_creation_input_tokens": self.cache_creation_input_tokens,
            "cache_read_input_tokens": self.cache_read_input_tokens,
            "output_tokens": self.output_tokens if output_tokens is None else output_tokens,
        }


@dataclass(frozen=True)
class ScriptedText:
    """A ``text`` content block."""

    text: str


@dataclass(frozen=True)
class ScriptedThinking:
    """A ``thinking`` content block, streamed as thinking deltas plus a signature."""

    thinking: str
    signature: str = _DEFAULT_SIGNATURE


@dataclass(frozen=True)
class ScriptedToolUse:
    """A ``tool_use`` content block; ``id`` defaults to a per-server counter.

    ``input_json``, when set, is the input's JSON text exactly as the model
    streams it, in place of ``input``: for inputs no dict can hold, such as
    one nested thousands of levels deep (what a prompt injection may ask the
    model to write).
    """

    name: str
    input: Mapping[str, Any] = field(default_factory=dict)
    id: str | None = None
    input_json: str | None = None

    @property
    def input_text(self) -> str:
        """The input as the model streams it."""
        if self.input_json is not None:
            return self.input_json
        return json.dumps(dict(self.input), ensure_ascii=False)


#: One content block of a scripted message.
ScriptedBlock = ScriptedText | ScriptedThinking | ScriptedToolUse


def _as_block(item: ScriptedBlock | str) -> ScriptedBlock:
    return ScriptedText(item) if isinstance(item, str) else item


@dataclass(frozen=True)
class Reply:
    """One scripted answer of the fake Messages API.

    Build replies with the class methods (`text`, `tool_use`,
    `structured_output`, `thinking`, `message`, `error`, `stall`) and adjust them with the chainable methods
    (`with_usage`, `slow`, `held`, `chunked`, `match_any`, `match_if`, `repeat`,
    `sticky`, `stall_after`); every method returns a new reply.
    """

    kind: Literal["message", "error", "stall"]
    blocks: tuple[ScriptedBlock, ...] = ()
    stop_reason: str | None = None
    usage: Usage = Usage()
    model: str | None = None
    status: int = 200
    error_type: str | None = None
    error_message: str = ""
    retry_after: float | None = None
    headers: tuple[tuple[str, str], ...] = ()
    matcher: Matcher = "main"
    count: int | None = 1
    first_byte_delay: float = 0.0
    event_delay: float = 0.0
    gate: threading.Event | None = field(default=None, compare=False)
    chunk_size: int | None = None
    stall_after_events: int | None = None
    delta_chars: int = 16

    # -- constructors -------------------------------------------------------

    @classmethod
    def message(
        cls,
        *blocks: ScriptedBlock | str,
        usage: Usage | None = None,
        stop_reason: str | None = None,
        model: str | None = None,
    ) -> Reply:
        """A message made of several blocks (a plain ``str`` is a text block).

        ``stop_reason`` defaults to ``tool_use`` when a tool_use block is
        present, else ``end_turn``; ``model`` defaults to the request's model.
        """
        return cls(
            kind="message",
            blocks=tuple(_as_block(b) for b in blocks),
            stop_reason=stop_reason,
            usage=usage or Usage(),
            model=model,
        )

    @classmethod
    def text(cls, text: str, *, usage: Usage | None = None, stop_reason: str | None = None) -> Reply:
        """A message with one text block."""
        return cls.message(ScriptedText(text), usage=usage, stop_reason=stop_reason)

    @classmethod
    def tool_use(
        cls,
        name: str,
        input: Mapping[str, Any] | None = None,  # shadows a builtin on purpose: the API's field name
        *,
        id: str | None = None,  # shadows a builtin on purpose: the API's field name
        text: str | None = None,
        usage: Usage | None = None,
        input_json: str | None = None,
    ) -> Reply:
        """A message calling one tool, optionally preceded by a text block.

        ``input_json`` streams that exact JSON text as the input instead of
        ``input`` (see ``ScriptedToolUse``)."""
        block = ScriptedToolUse(name, dict(input or {}), id, input_json)
        blocks: tuple[ScriptedBlock, ...] = (block,) if text is None else (ScriptedText(text), block)
        return cls.message(*blocks, usage=usage)

    @classmethod
    def structured_output(cls, value: Mapping[str, Any], *, usage: Usage | None = None) -> Reply:
        """The model's answer under ``output_format`` / ``output_type``: it
        calls the ``StructuredOutput`` tool the binary gives it, with
        ``value`` as the input. The binary checks ``value`` against the
        schema and ends the turn with a ``ResultMessage`` whose
        ``structured_output`` is ``value`` (one that does not fit is sent
        back to the model as a tool error, so script another reply)."""
        return cls.tool_use("StructuredOutput", value, usage=usage)

    @classmethod
    def thinking(
        cls,
        thinking: str,
        *then: ScriptedBlock | str,
        signature: str = _DEFAULT_SIGNATURE,
        usage: Usage | None = None,
    ) -> Reply:
        """A message starting with a thinking block, followed by ``then`` blocks."""
        return cls.message(ScriptedThinking(thinking, signature), *then, usage=usage)

    @classmethod
    def error(
        cls,
        status: int,
        message: str | None = None,
        *,
        retry_after: float | None = None,
        error_type: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        """An HTTP error in the real API's shape (``{"type":"error","error":{...}}``).

        ``error_type`` defaults to the API's type for ``status`` (429 →
        ``rate_limit_error``, 529 → ``overloaded_error``, ...); ``retry_after``
        sets the ``retry-after`` header in seconds.
        """
        etype = error_type or _ERROR_TYPES.get(status, "api_error")
        return cls(
            kind="error",
            status=status,
            error_type=etype,
            error_message=message if message is not None else f"scripted {etype}",
            retry_after=retry_after,
            headers=tuple((headers or {}).items()),
        )

    @classmethod
    def stall(cls) -> Reply:
        """Never answer: hold the connection open until the server closes."""
        return cls(kind="stall")

    # -- modifiers ------------------------------------------------------------

    def with_usage(
        self,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
        *,
        cache_creation_input_tokens: int | None = None,
        cache_read_input_tokens: int | None = None,
    ) -> Reply:
        """Return a copy reporting different token usage (unset fields are kept)."""
        changes = {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "cache_creation_input_tokens": cache_creation_input_tokens,
            "cache_read_input_tokens": cache_read_input_tokens,
        }
        usage = dataclasses.replace(self.usage, **{k: v for k, v in changes.items() if v is not None})
        return dataclasses.replace(self, usage=usage)

    def slow(self, first_byte: float = 0.0, between_events: float = 0.0) -> Reply:
        """Return a copy that waits before the first byte and between SSE events."""
        return dataclasses.replace(self, first_byte_delay=first_byte, event_delay=between_events)

    def held(self, gate: threading.Event) -> Reply:
        """Return a copy that sends nothing until ``gate`` is set (or the
        server closes): a test can then look at what a program shows while it
        waits for the model, and let the answer go when it has seen it."""
        return dataclasses.replace(self, gate=gate)

    def chunked(self, size: int, *, delta_chars: int | None = None) -> Reply:
        """Return a copy whose SSE bytes are written in pieces of at most ``size`` bytes.

        The pieces cut through events and UTF-8 sequences on purpose, to test
        the client's reassembly. ``delta_chars`` also changes how many
        characters each text/thinking/JSON delta carries.
        """
        if size < 1:
            raise ValueError("chunk size must be at least 1")
        return dataclasses.replace(
            self,
            chunk_size=size,
            delta_chars=delta_chars if delta_chars is not None else self.delta_chars,
        )

    def match_any(self) -> Reply:
        """Return a copy that may answer any Messages request, not only the main loop."""
        return dataclasses.replace(self, matcher="any")

    def match_if(self, predicate: Callable[[RecordedRequest], bool]) -> Reply:
        """Return a copy that answers only requests for which ``predicate`` is true."""
        return dataclasses.replace(self, matcher=predicate)

    def repeat(self, times: int) -> Reply:
        """Return a copy that stays queued for ``times`` matching requests."""
        if times < 1:
            raise ValueError("times must be at least 1")
        return dataclasses.replace(self, count=times)

    def sticky(self) -> Reply:
        """Return a copy that answers every matching request and is never used up."""
        return dataclasses.replace(self, count=None)

    def stall_after(self, events: int) -> Reply:
        """Return a copy that sends ``events`` SSE events, then hangs until shutdown."""
        return dataclasses.replace(self, stall_after_events=events)

    @property
    def effective_stop_reason(self) -> str:
        """The stop reason sent: explicit, else ``tool_use`` if a tool is called, else ``end_turn``."""
        if self.stop_reason is not None:
            return self.stop_reason
        return "tool_use" if any(isinstance(b, ScriptedToolUse) for b in self.blocks) else "end_turn"


# -- rendering ------------------------------------------------------------------


def _pieces(text: str, size: int, *, at_least: int = 1) -> list[str]:
    if not text:
        return []
    # Aim for at least `at_least` pieces so clients really exercise reassembly.
    size = max(1, min(size, math.ceil(len(text) / at_least)))
    return [text[i : i + size] for i in range(0, len(text), size)]


def content_json(block: ScriptedBlock) -> JSONObject:
    """The complete JSON form of a block, as in a non-streamed message."""
    if isinstance(block, ScriptedText):
        return {"type": "text", "text": block.text}
    if isinstance(block, ScriptedThinking):
        return {
            "type": "thinking",
            "thinking": block.thinking,
            "signature": block.signature,
        }
    return {
        "type": "tool_use",
        "id": block.id,
        "name": block.name,
        "input": dict(block.input) if block.input_json is None else json.loads(block.input_json),
    }


def message_json(reply: Reply, *, message_id: str, model: str, content: bool = True) -> JSONObject:
    """The non-streaming response body for a message reply (``content=False``:
    without its blocks, as a stream's ``message_start`` has it)."""
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": reply.model or model,
        "content": [content_json(b) for b in reply.blocks] if content else [],
        "stop_reason": reply.effective_stop_reason,
        "stop_sequence": None,
        "usage": reply.usage.as_dict(),
    }


def error_json(reply: Reply, *, request_id: str) -> JSONObject:
    """The error response body, shaped like the real API's."""
    return {
        "type": "error",
        "error": {
            "type": reply.error_type or "api_error",
            "message": reply.error_message,
        },
        "request_id": request_id,
    }


def sse_events(reply: Reply, *, message_id: str, model: str) -> list[tuple[str, JSONObject]]:
    """The (event name, data) pairs of a streamed message reply, in order."""
    start_message = message_json(reply, message_id=message_id, model=model, content=False)
    start_message["stop_reason"] = None
    # The real API reports a token or so at message_start and the final count
    # in message_delta; clients take the last value.
    start_message["usage"] = reply.usage.as_dict(output_tokens=1)
    events: list[tuple[str, JSONObject]] = [
        ("message_start", {"type": "message_start", "message": start_message}),
        ("ping", {"type": "ping"}),
    ]
    for index, block in enumerate(reply.blocks):
        events.extend(_block_events(index, block, reply.delta_chars))
    events.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {
                    "stop_reason": reply.effective_stop_reason,
                    "stop_sequence": None,
                },
                "usage": reply.usage.as_dict(),
            },
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return events


def _block_events(index: int, block: ScriptedBlock, size: int) -> list[tuple[str, JSONObject]]:
    def delta(d: JSONObject) -> tuple[str, JSONObject]:
        return (
            "content_block_delta",
            {"type": "content_block_delta", "index": index, "delta": d},
        )

    if isinstance(block, ScriptedText):
        start: JSONObject = {"type": "text", "text": ""}
        deltas = [delta({"type": "text_delta", "text": p}) for p in _pieces(block.text, size)]
    elif isinstance(block, ScriptedThinking):
        start = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [delta({"type": "thinking_delta", "thinking": p}) for p in _pieces(block.thinking, size)]
        deltas.append(delta({"type": "signature_delta", "signature": block.signature}))
    else:
        start = {"type": "tool_use", "id": block.id, "name": block.name, "input": {}}
        raw = block.input_text
        deltas = [delta({"type": "input_json_delta", "partial_json": p}) for p in _pieces(raw, size, at_least=3)]
    return [
        (
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": start},
        ),
        *deltas,
        ("content_block_stop", {"type": "content_block_stop", "index": index}),
    ]


def encode_sse(name: str, data: JSONObject) -> bytes:
    """One SSE event as the API frames it: ``event:`` and ``data:`` lines, blank line."""
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()
