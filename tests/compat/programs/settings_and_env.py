"""settings (inline JSON), env, add_dirs, extra_args, model options: argv and environment, and a tool that reads them."""

import asyncio
import json
import os

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, ToolResultBlock, UserMessage, query

os.makedirs("shared", exist_ok=True)


async def main():
    options = ClaudeAgentOptions(
        settings=json.dumps({"permissions": {"allow": ["Bash(echo:*)"]}, "env": {"FROM_SETTINGS": "yes"}}),
        env={"MY_VAR": "from-options", "CLAUDE_CODE_ENTRYPOINT": "custom-entry"},
        add_dirs=[os.path.abspath("shared")],
        extra_args={"strict-mcp-config": None},
        model="claude-sonnet-4-5",
        fallback_model="claude-haiku-4-5",
        max_thinking_tokens=2048,
        effort="low",
        setting_sources=["user"],
        user=None,
    )
    async for message in query(prompt="Show the variables", options=options):
        if isinstance(message, UserMessage) and isinstance(message.content, list):
            for block in message.content:
                if isinstance(block, ToolResultBlock):
                    print("tool said:", block.content)
        elif isinstance(message, ResultMessage):
            print("result:", message.subtype)


asyncio.run(main())
