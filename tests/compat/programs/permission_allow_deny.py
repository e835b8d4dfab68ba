"""can_use_tool: allow one tool, deny another with a message, deny a third and interrupt."""

import asyncio

from claude_agent_sdk import (
    ClaudeAgentOptions,
    ClaudeSDKError,
    PermissionResultAllow,
    PermissionResultDeny,
    ResultMessage,
    ToolResultBlock,
    UserMessage,
    query,
)
from twin import note


async def decide(tool_name, tool_input, context):
    note("asked", {"tool_name": tool_name, "input": tool_input, "context": context})
    if tool_name == "Write":
        return PermissionResultAllow()
    if "stop-here" in tool_input.get("command", ""):
        # The binary asks as soon as the tool call's block is complete, while
        # the reply's last events may still be on their way; an interrupt
        # that lands before them ends the run differently ("aborted_streaming"
        # instead of "aborted_tools"). Answer once the reply has surely ended.
        await asyncio.sleep(0.5)
        return PermissionResultDeny(message="Stopping here.", interrupt=True)
    return PermissionResultDeny(message="No shell commands, please.")


async def main():
    options = ClaudeAgentOptions(can_use_tool=decide)

    async def prompt():
        yield {"type": "user", "message": {"role": "user", "content": "Write a file, then run two commands"}}

    try:
        async for message in query(prompt=prompt(), options=options):
            if isinstance(message, UserMessage) and isinstance(message.content, list):
                for block in message.content:
                    if isinstance(block, ToolResultBlock):
                        print("tool result:", block.is_error, block.content)
            elif isinstance(message, ResultMessage):
                print("result:", message.subtype, message.is_error, message.permission_denials)
    except ClaudeSDKError as exc:  # the interrupt ends the run with an error result
        note("raised", exc)


asyncio.run(main())
