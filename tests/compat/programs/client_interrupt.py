"""interrupt() while the model is still answering, then another turn on the same client."""

import asyncio

from claude_agent_sdk import AssistantMessage, ClaudeSDKClient, ResultMessage, TextBlock
from twin import main_requests, note


async def main():
    async with ClaudeSDKClient() as client:
        await client.query("Write a long story")
        seen = []

        async def consume():
            async for message in client.receive_response():
                seen.append(type(message).__name__)
                if isinstance(message, ResultMessage):
                    note("interrupted result", {"subtype": message.subtype, "is_error": message.is_error})

        task = asyncio.create_task(consume())
        await main_requests(1)  # the answer is on its way (it never comes)
        await client.interrupt()
        await task
        note("seen before and after the interrupt", seen)

        await client.query("Just say done")
        async for message in client.receive_response():
            if isinstance(message, AssistantMessage):
                print([b.text for b in message.content if isinstance(b, TextBlock)])


asyncio.run(main())
