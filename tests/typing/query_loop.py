"""The quick start: one query, reading text, tool calls and the result."""

from __future__ import annotations

import anyio

from claude_wrap import (
    AssistantMessage,
    ClaudeAgentOptions,
    ResultMessage,
    TextBlock,
    ToolUseBlock,
    query,
)


async def main() -> None:
    options = ClaudeAgentOptions(cwd=".", allowed_tools=["Read", "Bash"], max_turns=10)
    async for message in query(prompt="How many Python files are here?", options=options):
        if isinstance(message, AssistantMessage):
            for block in message.content:
                if isinstance(block, TextBlock):
                    print(block.text)
                elif isinstance(block, ToolUseBlock):
                    print("tool:", block.name, block.input)
        elif isinstance(message, ResultMessage):
            cost = message.total_cost_usd or 0.0
            print(f"{message.num_turns} turns, ${cost:.4f}")


if __name__ == "__main__":
    anyio.run(main)
