"""include_partial_messages on query(): the stream events between the whole messages."""

import asyncio

from claude_agent_sdk import ClaudeAgentOptions, StreamEvent, query
from twin import note


async def main():
    kinds = []
    async for message in query(prompt="Think, then answer", options=ClaudeAgentOptions(include_partial_messages=True)):
        if isinstance(message, StreamEvent):
            event = message.event
            delta = event.get("delta", {}).get("type")
            kinds.append(f"{event['type']}:{delta}" if delta else event["type"])
        else:
            kinds.append(type(message).__name__)
    note("order", kinds)


asyncio.run(main())
