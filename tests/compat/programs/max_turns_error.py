"""max_turns reached: the error result, and whatever the package raises about it."""

import asyncio

from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKError, ResultMessage, query
from twin import note


async def main():
    options = ClaudeAgentOptions(max_turns=1, allowed_tools=["Bash"])
    try:
        async for message in query(prompt="Keep running commands", options=options):
            if isinstance(message, ResultMessage):
                print("result:", message.subtype, message.is_error, message.num_turns, message.errors)
    except ClaudeSDKError as exc:
        note("raised", exc)


asyncio.run(main())
