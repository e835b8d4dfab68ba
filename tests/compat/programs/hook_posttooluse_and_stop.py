"""PostToolUse hooks (extra context, a block decision) and a Stop hook, on query()."""

import asyncio

from claude_agent_sdk import ClaudeAgentOptions, HookMatcher, ResultMessage, query
from twin import note


async def add_context(input_data, tool_use_id, context):
    note("post input", input_data)
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "The output was checked."}}


async def block_second(input_data, tool_use_id, context):
    if "second" in input_data["tool_input"]["command"]:
        return {"decision": "block", "reason": "The second command's output must not be used."}
    return {}


async def on_stop(input_data, tool_use_id, context):
    note("stop input", input_data)
    return {"systemMessage": "stopping now"}


async def main():
    options = ClaudeAgentOptions(
        allowed_tools=["Bash"],
        hooks={
            "PostToolUse": [HookMatcher(matcher="Bash", hooks=[add_context, block_second])],
            "Stop": [HookMatcher(hooks=[on_stop])],
        },
    )
    async for message in query(prompt="Run two commands", options=options):
        if isinstance(message, ResultMessage):
            print("result:", message.subtype, message.result)


asyncio.run(main())
