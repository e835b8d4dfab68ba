"""Client control calls that report: server info, MCP status, context usage."""

import asyncio

from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient, create_sdk_mcp_server, tool
from twin import note


@tool("ping", "Answer pong", {})
async def ping(args):
    return {"content": [{"type": "text", "text": "pong"}]}


async def main():
    options = ClaudeAgentOptions(mcp_servers={"util": create_sdk_mcp_server("util", tools=[ping])})
    async with ClaudeSDKClient(options=options) as client:
        info = await client.get_server_info()
        note("server info keys", sorted(info) if info else info)
        note("commands", [c.get("name") for c in (info or {}).get("commands", [])][:10])
        note("mcp status", await client.get_mcp_status())
        await client.query("Say hi")
        async for message in client.receive_response():
            pass
        usage = await client.get_context_usage()
        note("context usage", usage)


asyncio.run(main())
