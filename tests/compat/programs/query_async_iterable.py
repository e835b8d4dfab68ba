"""query() with an async iterable of user messages: two turns, one stream."""

import asyncio

from claude_agent_sdk import AssistantMessage, ResultMessage, TextBlock, query
from twin import note


async def prompts():
    yield {"type": "user", "message": {"role": "user", "content": "First question"}}
    await asyncio.sleep(1.5)
    yield {"type": "user", "message": {"role": "user", "content": "Second question"}}


async def main():
    results = 0
    async for message in query(prompt=prompts()):
        if isinstance(message, AssistantMessage):
            print([b.text for b in message.content if isinstance(b, TextBlock)])
        elif isinstance(message, ResultMessage):
            results += 1
    note("results", results)


asyncio.run(main())
