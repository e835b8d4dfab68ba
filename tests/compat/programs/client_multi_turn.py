"""Three turns on one client; the model sees the history, results keep one session."""

import asyncio

from claude_agent_sdk import AssistantMessage, ClaudeSDKClient, ResultMessage, TextBlock
from twin import note


async def main():
    sessions = []
    async with ClaudeSDKClient() as client:
        for prompt in ("Pick a number", "Double it", "Now halve it"):
            await client.query(prompt)
            async for message in client.receive_response():
                if isinstance(message, AssistantMessage):
                    print(prompt, "->", [b.text for b in message.content if isinstance(b, TextBlock)])
                elif isinstance(message, ResultMessage):
                    sessions.append(message.session_id)
    note("one session", len(set(sessions)) == 1)


asyncio.run(main())
