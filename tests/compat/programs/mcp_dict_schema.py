"""In-process MCP tools with dict schemas: arguments as sent, an error result, a raising tool."""

import asyncio

from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    ResultMessage,
    ToolAnnotations,
    create_sdk_mcp_server,
    tool,
)
from twin import note


@tool(
    "scale",
    "Scale a number",
    {"value": float, "times": int, "label": str, "exact": bool},
    annotations=ToolAnnotations(readOnlyHint=True),
)
async def scale(args):
    note("scale args", {k: [type(v).__name__, v] for k, v in args.items()})
    return {"content": [{"type": "text", "text": f"{args['label']}: {args['value'] * args['times']}"}]}


@tool("check", "Check a value", {"value": int})
async def check(args):
    return {"content": [{"type": "text", "text": f"{args['value']} is too big"}], "is_error": True}


@tool("explode", "Always fails", {"why": str})
async def explode(args):
    raise ValueError(f"exploded because {args['why']}")


async def main():
    server = create_sdk_mcp_server("numbers", version="1.2.3", tools=[scale, check, explode])
    note("server config keys", sorted(server))
    options = ClaudeAgentOptions(
        mcp_servers={"numbers": server},
        allowed_tools=["mcp__numbers__scale", "mcp__numbers__check", "mcp__numbers__explode"],
    )
    async with ClaudeSDKClient(options=options) as client:
        await client.query("Use the number tools")
        async for message in client.receive_response():
            if isinstance(message, ResultMessage):
                print("result:", message.subtype, message.num_turns)
            elif isinstance(message, AssistantMessage):
                print("assistant blocks:", [type(b).__name__ for b in message.content])


asyncio.run(main())
