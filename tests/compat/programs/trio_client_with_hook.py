"""A client under trio (anyio), with a hook and an in-process tool."""

import anyio
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    HookMatcher,
    ResultMessage,
    TextBlock,
    create_sdk_mcp_server,
    tool,
)
from twin import note


@tool("now", "The time", {})
async def now(args):
    return {"content": [{"type": "text", "text": "noon"}]}


async def log_tool(input_data, tool_use_id, context):
    note("pre tool", input_data["tool_name"])
    return {}


async def main():
    options = ClaudeAgentOptions(
        mcp_servers={"clock": create_sdk_mcp_server("clock", tools=[now])},
        allowed_tools=["mcp__clock__now"],
        hooks={"PreToolUse": [HookMatcher(hooks=[log_tool])]},
    )
    async with ClaudeSDKClient(options) as client:
        await client.query("What time is it?")
        async for message in client.receive_response():
            if isinstance(message, AssistantMessage):
                print([b.text for b in message.content if isinstance(b, TextBlock)])
            elif isinstance(message, ResultMessage):
                print("result:", message.subtype)


anyio.run(main, backend="trio")
