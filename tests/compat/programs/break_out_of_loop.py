"""Breaking out of query()'s loop at the first answer, then running another query."""

import asyncio

from claude_agent_sdk import AssistantMessage, ResultMessage, query
from twin import note


async def main():
    async for message in query(prompt="Answer in two parts"):
        if isinstance(message, AssistantMessage):
            note("first answer", message.content)
            break
    await asyncio.sleep(1)
    async for message in query(prompt="Second query"):
        if isinstance(message, ResultMessage):
            print("second:", message.subtype, message.result)


asyncio.run(main())
