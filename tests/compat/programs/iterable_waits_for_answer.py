"""A prompt iterable that waits for each answer before its next prompt (the
reading loop tells it): in query(), and given to ClaudeSDKClient.connect()."""

import asyncio

from claude_agent_sdk import AssistantMessage, ClaudeSDKClient, ResultMessage, TextBlock, query
from twin import note


def conversation(first, second, answered):
    async def prompts():
        yield {"type": "user", "message": {"role": "user", "content": first}}
        await answered.wait()
        yield {"type": "user", "message": {"role": "user", "content": second}}

    return prompts()


async def read(messages, answered, label):
    results = []
    async for message in messages:
        if isinstance(message, AssistantMessage):
            print(label, [b.text for b in message.content if isinstance(b, TextBlock)])
        elif isinstance(message, ResultMessage):
            results.append(message.result)
            answered.set()
    note(label, results)


async def main():
    answered = asyncio.Event()
    await read(query(prompt=conversation("Pick a number", "Double it", answered)), answered, "query")

    answered = asyncio.Event()
    client = ClaudeSDKClient()
    await client.connect(conversation("Pick a colour", "Name its opposite", answered))
    try:
        await read(client.receive_messages(), answered, "client")  # ends when the binary exits
    finally:
        await client.disconnect()


asyncio.run(main())
