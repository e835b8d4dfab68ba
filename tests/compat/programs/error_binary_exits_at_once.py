"""A binary that writes to stderr and exits 3 right after starting, like a bad flag or a crash at start.

It waits a second before exiting: with an instant exit the official package
raises CLIConnectionError or ProcessError depending on whether its first
write won the race, so only this variant has one right answer to compare.
"""

import asyncio
import os
import stat
from pathlib import Path

from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient, query
from twin import note

fake = Path("fake-claude")
fake.write_text("#!/bin/sh\necho 'error: unknown option --bogus' >&2\nsleep 1\nexit 3\n")
fake.chmod(fake.stat().st_mode | stat.S_IXUSR)


async def main():
    options = ClaudeAgentOptions(cli_path=os.path.abspath(fake))
    try:
        async for message in query(prompt="Hello", options=options):
            note("got a message", message)
    except Exception as exc:
        note("query raised", exc)
    try:
        async with ClaudeSDKClient(options) as client:
            await client.query("Hello")
            async for message in client.receive_response():
                note("got a message", message)
    except Exception as exc:
        note("client raised", exc)


asyncio.run(main())
