"""Hooks given as objects shaped like HookMatcher, and events this version may not know."""

import asyncio
from types import SimpleNamespace

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query
from twin import note


async def before_bash(input_data, tool_use_id, context):
    note("pre input", input_data["tool_input"])
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "Checked by a hook."}}


async def never(input_data, tool_use_id, context):
    note("unexpected", input_data)
    return {}


async def main():
    options = ClaudeAgentOptions(
        allowed_tools=["Bash"],
        hooks={
            "PreToolUse": [SimpleNamespace(matcher="Bash", hooks=[before_bash], timeout=30)],
            "PreSkillShellCommand": [SimpleNamespace(hooks=[never])],
            "NoSuchEvent": [SimpleNamespace(matcher=None, hooks=[never])],
            "Stop": [],
        },
    )
    async for message in query(prompt="Run a command", options=options):
        if isinstance(message, ResultMessage):
            print("result:", message.subtype, message.result)


asyncio.run(main())
