"""What to show while a run streams: ``StreamAccumulator``.

With ``include_partial_messages`` the binary sends each content block twice:
first as ``StreamEvent`` deltas while the model writes, then whole in an
``AssistantMessage`` frame. A UI that shows both shows everything twice; one
that shows only the frames shows nothing until a block is done. The
accumulator is fed every message of a run and hands back only what has not
been shown yet, whichever way it arrived.
"""

from __future__ import annotations

from typing import Any, Union

import msgspec
import msgspec.json

from claude_wrap._wire.messages import (
    AssistantMessage,
    Message,
    StreamEvent,
    TextBlock,
    TextDelta,
    ThinkingBlock,
    ThinkingDelta,
    ToolInputDelta,
    ToolUseBlock,
)

__all__ = ["Shown", "StreamAccumulator", "TextChunk", "ThinkingChunk", "ToolCall"]


class TextChunk(msgspec.Struct, frozen=True):
    """Text to show, in order; the chunks of one block join to its full text.

    ``whole`` is true when the chunk is an entire block that was not streamed
    (partial messages off, or the block came only in its final frame); a UI
    may then want to start it on a line of its own. ``index`` is the block's
    position in the API message when it was streamed, else ``None``.
    """

    text: str
    whole: bool = False
    index: int | None = None
    message_id: str | None = None
    parent_tool_use_id: str | None = None


class ThinkingChunk(msgspec.Struct, frozen=True):
    """Extended thinking to show; fields as on ``TextChunk``."""

    thinking: str
    whole: bool = False
    index: int | None = None
    message_id: str | None = None
    parent_tool_use_id: str | None = None


class ToolCall(msgspec.Struct, frozen=True):
    """A tool call whose input is complete: given once per tool call id."""

    id: str
    name: str
    input: dict[str, Any]
    message_id: str | None = None
    parent_tool_use_id: str | None = None


Shown = Union[TextChunk, ThinkingChunk, ToolCall]
"""What ``StreamAccumulator.feed`` returns items of."""

_TEXT, _THINKING, _TOOL = "text", "thinking", "tool_use"


class _Block:
    """One content block as streamed so far."""

    __slots__ = ("done", "kind", "length", "name", "pieces", "shown", "tool_id")

    def __init__(self, kind: str, tool_id: str = "", name: str = "") -> None:
        self.kind = kind
        self.tool_id = tool_id
        self.name = name
        self.pieces: list[str] = []
        self.length = 0  # characters streamed
        self.shown = 0  # characters handed out, from deltas or the final frame
        self.done = False  # matched to its final frame (or, for a tool, handed out)

    def streamed(self) -> str:
        if len(self.pieces) > 1:
            self.pieces = ["".join(self.pieces)]
        return self.pieces[0] if self.pieces else ""


class _Stream:
    """The API message being streamed in one thread (main or one subagent)."""

    __slots__ = ("blocks", "message_id")

    def __init__(self, message_id: str | None) -> None:
        self.message_id = message_id
        self.blocks: dict[int, _Block] = {}


# Text and thinking are handed out alike; only the item type differs.
_CHUNKS: dict[str, type[TextChunk] | type[ThinkingChunk]] = {_TEXT: TextChunk, _THINKING: ThinkingChunk}


class StreamAccumulator:
    """Turns the messages of a run into what a UI should show, each thing once.

    Feed it every message, in order, and show what ``feed`` returns::

        acc = StreamAccumulator()
        async for message in query(prompt=..., options=options):
            for item in acc.feed(message):
                if isinstance(item, TextChunk):
                    print(item.text, end="")
                elif isinstance(item, ToolCall):
                    print(f"\\n[{item.name}] {item.input}")

    - Text and thinking come as chunks while they stream. A final
      ``AssistantMessage`` adds only what its deltas did not already give: a
      block that was streamed adds nothing (or its missing tail), one that
      was not comes whole (``whole=True``). So the same loop is right with
      ``include_partial_messages`` on or off.
    - A tool call comes once, when its input is complete: at the block's
      ``content_block_stop`` (the streamed JSON, parsed) or at its final
      frame, whichever is first.
    - Subagents stream and finish in their own threads, told apart by
      ``parent_tool_use_id``, which every item carries.
    - Other messages (tool results, system frames, the result) give nothing;
      handle them in the same loop as usual.

    A streamed block is matched to its final frame by the API message id and
    by content (by id for a tool call), not by position, so a block the final
    message leaves out cannot shift the others. Not thread-safe: feed it
    from one task.
    """

    def __init__(self) -> None:
        self._streams: dict[str | None, _Stream] = {}
        self._tools_shown: set[str] = set()

    def feed(self, message: Message) -> list[Shown]:
        """Take the next message of the run; return what to show for it (often nothing)."""
        if isinstance(message, StreamEvent):
            return self._event(message)
        if isinstance(message, AssistantMessage):
            return self._final(message)
        return []

    # -- streamed events ------------------------------------------------------------

    def _event(self, message: StreamEvent) -> list[Shown]:
        scope = message.parent_tool_use_id
        delta = message.delta
        if delta is not None:
            stream = self._streams.get(scope)
            if stream is None:  # deltas without a message_start: id unknown
                stream = self._streams[scope] = _Stream(None)
            if isinstance(delta, TextDelta):
                kind, piece = _TEXT, delta.text
            elif isinstance(delta, ThinkingDelta):
                kind, piece = _THINKING, delta.thinking
            elif isinstance(delta, ToolInputDelta):
                kind, piece = _TOOL, delta.partial_json
            else:
                return []  # signatures, citations: nothing to show
            block = stream.blocks.get(delta.index)
            if block is None:
                block = stream.blocks[delta.index] = _Block(kind)
            if kind == _TOOL:
                block.pieces.append(piece)  # shown once whole, at the block's stop
                block.length += len(piece)
                return []
            text = self._fresh(block, piece)
            return [_CHUNKS[kind](text, False, delta.index, stream.message_id, scope)] if text else []
        event = message.event
        event_type = event.get("type")
        if event_type == "message_start":
            self._streams[scope] = _Stream(message.message_id)
        elif event_type == "content_block_start":
            self._block_start(scope, event)
        elif event_type == "content_block_stop":
            return self._block_stop(scope, event)
        return []

    @staticmethod
    def _fresh(block: _Block, piece: str) -> str:
        """The part of ``piece`` not handed out yet (all of it, unless the
        final frame overtook the deltas)."""
        start = block.length
        block.pieces.append(piece)
        block.length += len(piece)
        if block.length <= block.shown:
            return ""
        fresh = piece[max(0, block.shown - start) :]
        block.shown = block.length
        return fresh

    def _block_start(self, scope: str | None, event: dict[str, Any]) -> None:
        stream = self._streams.get(scope)
        if stream is None:
            stream = self._streams[scope] = _Stream(None)
        index = event.get("index")
        content = event.get("content_block")
        if not isinstance(index, int) or not isinstance(content, dict):
            return
        kind = content.get("type")
        if kind == _TOOL:
            stream.blocks[index] = _Block(_TOOL, str(content.get("id") or ""), str(content.get("name") or ""))
        elif kind in (_TEXT, _THINKING):
            stream.blocks[index] = _Block(str(kind))

    def _block_stop(self, scope: str | None, event: dict[str, Any]) -> list[Shown]:
        stream = self._streams.get(scope)
        block = stream.blocks.get(event.get("index", -1)) if stream is not None else None
        if stream is None or block is None or block.kind != _TOOL or block.done or not block.tool_id:
            return []
        raw = block.streamed()
        try:
            parsed = msgspec.json.decode(raw) if raw.strip() else {}
        except msgspec.DecodeError:
            return []  # the final frame will have it
        if not isinstance(parsed, dict):
            return []
        block.done = True
        if block.tool_id in self._tools_shown:
            return []
        self._tools_shown.add(block.tool_id)
        return [ToolCall(block.tool_id, block.name, parsed, stream.message_id, scope)]

    # -- final frames ---------------------------------------------------------------

    def _final(self, message: AssistantMessage) -> list[Shown]:
        scope = message.parent_tool_use_id
        mid = message.message_id
        stream = self._streams.get(scope)
        if stream is not None and mid is not None and stream.message_id is not None and stream.message_id != mid:
            stream = None  # a message that was not streamed
        out: list[Shown] = []
        for item in message.content:
            if isinstance(item, (TextBlock, ThinkingBlock)):
                kind, text = (_TEXT, item.text) if isinstance(item, TextBlock) else (_THINKING, item.thinking)
                chunk = _CHUNKS[kind]
                block = self._match(stream, kind, text)
                if block is None:
                    if text:
                        out.append(chunk(text, True, None, mid, scope))
                else:
                    rest = self._rest(block, text)
                    if rest:
                        out.append(chunk(rest, False, self._index(stream, block), mid, scope))
            elif isinstance(item, ToolUseBlock):
                if stream is not None:
                    for block in stream.blocks.values():
                        if block.kind == _TOOL and block.tool_id == item.id:
                            block.done = True
                if item.id not in self._tools_shown:
                    self._tools_shown.add(item.id)
                    out.append(ToolCall(item.id, item.name, item.input, mid, scope))
        return out

    @staticmethod
    def _match(stream: _Stream | None, kind: str, final: str) -> _Block | None:
        """The streamed block a final block of ``kind`` repeats, if any: the
        one whose text equals it, else the longest one that begins it."""
        if stream is None:
            return None
        best: _Block | None = None
        for block in stream.blocks.values():
            if block.done or block.kind != kind:
                continue
            text = block.streamed()
            if text == final:
                return block
            if final.startswith(text) and (best is None or block.length > best.length):
                best = block
        return best

    @staticmethod
    def _rest(block: _Block, final: str) -> str:
        block.done = True
        rest = final[block.shown :]
        block.shown = max(block.shown, len(final))
        return rest

    @staticmethod
    def _index(stream: _Stream | None, block: _Block) -> int | None:
        if stream is not None:
            for index, candidate in stream.blocks.items():
                if candidate is block:
                    return index
        return None
