"""can_use_tool raises: what the binary, the model and the program see."""

import asyncio

from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient, ResultMessage, ToolResultBlock, UserMessage
from twin import note


async def decide(tool_name, tool_input, context):
    raise RuntimeError(f"policy service unavailable for {tool_name}")


async def main():
    async with ClaudeSDKClient(ClaudeAgentOptions(can_use_tool=decide)) as client:
        await client.query("Make a directory")
        async for message in client.receive_response():
            if isinstance(message, UserMessage) and isinstance(message.content, list):
                for block in message.content:
                    if isinstance(block, ToolResultBlock):
                        note("tool result", {"is_error": block.is_error, "content": block.content})
            elif isinstance(message, ResultMessage):
                print("result:", message.subtype, message.is_error)


asyncio.run(main())
