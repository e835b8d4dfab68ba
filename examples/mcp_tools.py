"""In-process MCP tools with pydantic inputs: the handler gets a validated
instance, and the model sees the model class's JSON Schema.

    python examples/mcp_tools.py

The tools run inside this process: no subprocess, no port, no mcp package.
Arguments that fail validation go back to the model as an error result.
"""

from __future__ import annotations

import anyio
from pydantic import BaseModel, Field

from claude_wrap import ClaudeAgentOptions, ResultMessage, ToolAnnotations, create_sdk_mcp_server, query, tool

stock: dict[str, int] = {"coffee": 2}


class Delivery(BaseModel):
    item: str = Field(description="what arrived")
    quantity: int = Field(ge=1, description="how many")


class Lookup(BaseModel):
    item: str


class Stock(BaseModel):
    item: str
    in_stock: int


@tool("receive", "Record a delivery into the stock", Delivery)
async def receive(delivery: Delivery) -> str:
    stock[delivery.item] = stock.get(delivery.item, 0) + delivery.quantity
    return f"{delivery.item}: {stock[delivery.item]} in stock"


@tool("count", "How many of an item are in stock", Lookup, annotations=ToolAnnotations(readOnlyHint=True))
async def count(lookup: Lookup) -> Stock:
    return Stock(item=lookup.item, in_stock=stock.get(lookup.item, 0))  # the model gets it as JSON text


async def main() -> None:
    server = create_sdk_mcp_server("inventory", tools=[receive, count])
    options = ClaudeAgentOptions(
        mcp_servers={"inventory": server},
        allowed_tools=["mcp__inventory"],  # every tool of the server
    )
    prompt = "Twelve bagels just arrived; record them, then tell me how many bagels we have."
    async for message in query(prompt=prompt, options=options):
        if isinstance(message, ResultMessage):
            print(message.result)
    print("stock:", stock)


if __name__ == "__main__":
    anyio.run(main)
