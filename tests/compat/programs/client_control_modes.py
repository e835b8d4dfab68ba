"""Client control calls that change things: permission mode and model between turns."""

import asyncio

from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient, ResultMessage, SystemMessage
from twin import note


async def turn(client, prompt):
    await client.query(prompt)
    async for message in client.receive_response():
        if isinstance(message, SystemMessage) and message.subtype == "init":
            note("init", {k: message.data.get(k) for k in ("permissionMode", "model")})
        elif isinstance(message, ResultMessage):
            print("result:", message.subtype, message.result)


async def main():
    async with ClaudeSDKClient(ClaudeAgentOptions(model="claude-sonnet-4-5")) as client:
        await turn(client, "First")
        await client.set_permission_mode("acceptEdits")
        await client.set_model("claude-haiku-4-5")
        await turn(client, "Second")
        await client.set_permission_mode("default")
        await client.set_model(None)
        await turn(client, "Third")


asyncio.run(main())
