"""File checkpoints: a Write, then rewind_files() to the prompt's message."""

import asyncio
from pathlib import Path

from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient, ResultMessage, UserMessage
from twin import note


async def main():
    Path("story.txt").write_text("draft 1\n")
    options = ClaudeAgentOptions(
        enable_file_checkpointing=True,
        permission_mode="acceptEdits",
        extra_args={"replay-user-messages": None},
    )
    async with ClaudeSDKClient(options) as client:
        await client.query("Rewrite story.txt")
        checkpoint = None
        async for message in client.receive_response():
            if isinstance(message, UserMessage) and message.uuid and checkpoint is None:
                checkpoint = message.uuid
            if isinstance(message, ResultMessage):
                print("result:", message.subtype)
        note("after the turn", Path("story.txt").read_text())
        await client.rewind_files(checkpoint)
        note("after rewind", Path("story.txt").read_text())


asyncio.run(main())
