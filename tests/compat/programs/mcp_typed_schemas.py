"""In-process MCP tools with a TypedDict schema and a full JSON schema: what the model is offered and what tools get."""

import asyncio
from typing import TypedDict

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, create_sdk_mcp_server, query, tool
from twin import note


class Order(TypedDict):
    item: str
    quantity: int
    price: float


@tool("order", "Place an order", Order)
async def order(args):
    note("order args", {k: [type(v).__name__, v] for k, v in args.items()})
    return {"content": [{"type": "text", "text": f"ordered {args['quantity']} x {args['item']}"}]}


SEARCH_SCHEMA = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "What to look for"},
        "limit": {"type": "integer", "minimum": 1, "default": 5},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["query"],
}


@tool("search", "Search the catalogue", SEARCH_SCHEMA)
async def search(args):
    note("search args", {k: [type(v).__name__, v] for k, v in args.items()})
    return {"content": [{"type": "text", "text": f"found 2 results for {args['query']}"}]}


async def main():
    server = create_sdk_mcp_server("shop", tools=[order, search])
    options = ClaudeAgentOptions(mcp_servers={"shop": server}, allowed_tools=["mcp__shop__order", "mcp__shop__search"])

    async def prompt():
        yield {"type": "user", "message": {"role": "user", "content": "Search, then order"}}

    async for message in query(prompt=prompt(), options=options):
        if isinstance(message, ResultMessage):
            print("result:", message.subtype, message.result)


asyncio.run(main())
