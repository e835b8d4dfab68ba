"""An in-process MCP tool whose input_schema is a plain annotated class."""

import asyncio

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, create_sdk_mcp_server, query, tool
from twin import note


class Greeting:
    name: str
    times: int


try:

    @tool("greet", "Greet someone", Greeting)
    async def greet(args):
        note("greet args", args)
        return {"content": [{"type": "text", "text": f"hello {args['name']}"}]}
except Exception as exc:  # what happens to a class schema is the point
    note("tool() raised", exc)
    raise SystemExit(0)


async def main():
    server = create_sdk_mcp_server("greeter", tools=[greet])

    async def prompt():
        yield {"type": "user", "message": {"role": "user", "content": "Greet Ada"}}

    options = ClaudeAgentOptions(mcp_servers={"greeter": server}, allowed_tools=["mcp__greeter__greet"])
    async for message in query(prompt=prompt(), options=options):
        if isinstance(message, ResultMessage):
            print("result:", message.subtype, message.result)


asyncio.run(main())
