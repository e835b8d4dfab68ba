"""Quick start: one prompt, every message printed as it arrives.

    python examples/quick_start.py

The binary takes its endpoint and credentials from the environment, as
Claude Code does: ANTHROPIC_API_KEY for the real API, or ANTHROPIC_BASE_URL
(and any key) for another endpoint, such as a scripted model.
"""

from __future__ import annotations

import anyio

from claude_wrap import AssistantMessage, ClaudeAgentOptions, ResultMessage, TextBlock, ToolUseBlock, query


async def main() -> None:
    options = ClaudeAgentOptions(
        cwd=".",  # the project the agent works in
        allowed_tools=["Read", "Glob", "Bash"],  # approved without asking
        max_turns=10,
    )
    async for message in query(prompt="How many Python files are in this directory?", options=options):
        if isinstance(message, AssistantMessage):
            for block in message.content:
                if isinstance(block, TextBlock):
                    print(block.text)
                elif isinstance(block, ToolUseBlock):
                    print(f"tool: {block.name} {block.input}")
        elif isinstance(message, ResultMessage):
            print(f"result: {message.subtype} after {message.num_turns} turns, ${message.total_cost_usd or 0:.4f}")


if __name__ == "__main__":
    anyio.run(main)
