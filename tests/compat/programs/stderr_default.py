"""Without a stderr callback, what the binary writes to stderr (a settings warning) reaches the terminal."""

import asyncio
import json
from pathlib import Path

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query

Path(".claude").mkdir(exist_ok=True)
Path(".claude/settings.json").write_text(json.dumps({"permissions": {"allow": ["Bash(", "NotATool(x", "Read"]}}))


async def main():
    lines = []
    for label, options in (
        ("default", ClaudeAgentOptions(setting_sources=["project"])),
        ("callback", ClaudeAgentOptions(setting_sources=["project"], stderr=lines.append)),
    ):
        async for message in query(prompt="Hi", options=options):
            if isinstance(message, ResultMessage):
                print(label, "->", message.subtype)
    print("callback lines:", len(lines))


asyncio.run(main())
