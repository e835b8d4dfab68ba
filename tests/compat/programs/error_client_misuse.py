"""A client used out of order: before connect(), and after disconnect()."""

import asyncio

from claude_agent_sdk import ClaudeSDKClient, ResultMessage
from twin import note


async def attempt(label, action):
    try:
        result = await action()
        note(label, {"returned": result})
    except Exception as exc:
        note(label, exc)


async def main():
    client = ClaudeSDKClient()
    await attempt("query before connect", lambda: client.query("Hello"))
    await attempt("interrupt before connect", client.interrupt)
    await attempt("disconnect before connect", client.disconnect)

    await client.connect()
    await client.query("Hello")
    async for message in client.receive_response():
        if isinstance(message, ResultMessage):
            print("result:", message.subtype)
    await client.disconnect()
    await attempt("query after disconnect", lambda: client.query("Again"))
    await attempt("disconnect twice", client.disconnect)


asyncio.run(main())
