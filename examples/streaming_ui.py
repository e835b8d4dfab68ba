"""Streaming a run to a terminal: text as the model writes it, each tool
call once with its complete input, and each tool's outcome.

    python examples/streaming_ui.py "What is in this directory?"

With include_partial_messages=True the binary sends every content block
twice: as deltas while the model writes, then whole. A StreamAccumulator,
fed every message, hands back only what was not shown yet.
"""

from __future__ import annotations

import sys

import anyio

from claude_wrap import (
    ClaudeAgentOptions,
    ResultMessage,
    StreamAccumulator,
    TextChunk,
    ThinkingChunk,
    ToolCall,
    ToolResultBlock,
    UserMessage,
    query,
)


def first_line(content: object) -> str:
    if isinstance(content, list):
        content = " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return str(content or "").strip().splitlines()[0] if str(content or "").strip() else ""


async def main(prompt: str) -> None:
    options = ClaudeAgentOptions(include_partial_messages=True, allowed_tools=["Bash", "Read", "Glob"])
    shown = StreamAccumulator()
    async for message in query(prompt=prompt, options=options):
        for item in shown.feed(message):
            if isinstance(item, TextChunk):
                print(item.text, end="", flush=True)
            elif isinstance(item, ThinkingChunk):
                pass  # a UI might show it dimmed
            elif isinstance(item, ToolCall):
                print(f"\n→ {item.name}({item.input})", flush=True)
        # Tool results, system messages and the result are the loop's own business.
        if isinstance(message, UserMessage) and isinstance(message.content, list):
            for block in message.content:
                if isinstance(block, ToolResultBlock):
                    mark = "✗" if block.is_error else "✓"
                    print(f"  {mark} {first_line(block.content)}", flush=True)
        elif isinstance(message, ResultMessage):
            print(f"\n[{message.subtype}]")


if __name__ == "__main__":
    anyio.run(main, " ".join(sys.argv[1:]) or "What is in this directory?")
