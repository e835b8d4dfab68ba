"""permission_mode acceptEdits with allowed and disallowed tools: edits run, Bash is refused without asking."""

import asyncio
from pathlib import Path

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, SystemMessage, query
from twin import note


async def main():
    options = ClaudeAgentOptions(permission_mode="acceptEdits", allowed_tools=["Read"], disallowed_tools=["Bash"])
    async for message in query(prompt="Write a file and run it", options=options):
        if isinstance(message, SystemMessage) and message.subtype == "init":
            note("init", {k: message.data.get(k) for k in ("permissionMode", "tools")})
        elif isinstance(message, ResultMessage):
            print("result:", message.subtype, message.permission_denials)
    print("written:", Path("run.sh").read_text() if Path("run.sh").exists() else None)


asyncio.run(main())
