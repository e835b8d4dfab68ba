"""cli_path names a file that does not exist: on query() and on a client."""

import asyncio
import os

from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient, query
from twin import note


async def main():
    options = ClaudeAgentOptions(cli_path=os.path.abspath("missing/claude"))
    try:
        async for message in query(prompt="Hello", options=options):
            note("got a message", message)
    except Exception as exc:
        note("query raised", exc)
    try:
        async with ClaudeSDKClient(options) as client:
            await client.query("Hello")
    except Exception as exc:
        note("client raised", exc)


asyncio.run(main())
