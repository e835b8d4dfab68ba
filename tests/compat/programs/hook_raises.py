"""Hook callbacks that fail, on several events, with and without on_failure="block"."""

import asyncio
import os

from claude_agent_sdk import (
    ClaudeAgentOptions,
    HookMatcher,
    ResultMessage,
    SystemMessage,
    ToolResultBlock,
    UserMessage,
    query,
)
from twin import note


async def explode(input_data, tool_use_id, context):
    raise RuntimeError(f"{input_data['hook_event_name']} hook exploded")


async def nothing(input_data, tool_use_id, context):
    return None  # not a dict: fails like a raising hook


async def run(label, event, hook, on_failure=None):
    options = ClaudeAgentOptions(
        allowed_tools=["Bash"],
        hooks={event: [HookMatcher(matcher="Bash" if "Tool" in event else None, hooks=[hook], on_failure=on_failure)]},
    )
    async for message in query(prompt=f"Scenario {label}", options=options):
        if isinstance(message, UserMessage) and isinstance(message.content, list):
            for block in message.content:
                if isinstance(block, ToolResultBlock):
                    note(f"{label}: tool result", {"is_error": block.is_error, "content": block.content})
        elif isinstance(message, SystemMessage) and message.subtype != "init":
            note(f"{label}: system", message.data)
        elif isinstance(message, ResultMessage):
            print(f"{label}: {message.subtype} {message.num_turns} {message.result!r}")
    for name in sorted(os.listdir(".")):
        if name.endswith(".txt"):
            print(f"{label}: {name} exists")
            os.remove(name)


async def main():
    await run("pre", "PreToolUse", explode)
    await run("pre-block", "PreToolUse", explode, on_failure="block")
    await run("pre-none-block", "PreToolUse", nothing, on_failure="block")
    await run("post", "PostToolUse", explode)
    await run("prompt", "UserPromptSubmit", explode)
    await run("prompt-block", "UserPromptSubmit", explode, on_failure="block")
    await run("stop", "Stop", explode)


asyncio.run(main())
