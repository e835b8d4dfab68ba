"""PreToolUse hooks: deny, allow with a rewritten input, ask (then can_use_tool), plus what hooks receive."""

import asyncio

from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    HookMatcher,
    PermissionResultAllow,
    ResultMessage,
    TextBlock,
)
from twin import note


async def guard(input_data, tool_use_id, context):
    note("hook input", input_data)
    note("hook tool_use_id", tool_use_id)
    note("hook context", context)
    command = input_data["tool_input"]["command"]
    if command.startswith("rm "):
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "deleting is not allowed here",
            }
        }
    if command.startswith("echo one"):
        return {
            "systemMessage": "the guard rewrote a command",
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "updatedInput": {"command": "echo rewritten", "description": "Echo"},
            },
        }
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}


async def approve(tool_name, tool_input, context):
    note("can_use_tool", {"tool_name": tool_name, "input": tool_input, "context": context})
    return PermissionResultAllow()


async def main():
    options = ClaudeAgentOptions(
        allowed_tools=["Bash"],
        can_use_tool=approve,
        hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[guard])]},
    )
    async with ClaudeSDKClient(options=options) as client:
        await client.query("Clean up, then say one and three")
        async for message in client.receive_response():
            if isinstance(message, AssistantMessage):
                for block in message.content:
                    if isinstance(block, TextBlock):
                        print("Claude:", block.text)
            elif isinstance(message, ResultMessage):
                print("result:", message.subtype, message.num_turns)


asyncio.run(main())
