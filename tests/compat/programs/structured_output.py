"""output_format with a JSON schema: the structured result."""

import asyncio

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query
from twin import note

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "population": {"type": "integer"}},
    "required": ["city", "population"],
}


async def main():
    options = ClaudeAgentOptions(output_format={"type": "json_schema", "schema": SCHEMA})
    async for message in query(prompt="The largest city in Japan?", options=options):
        if isinstance(message, ResultMessage):
            note("structured", message.structured_output)
            print("result:", message.subtype, message.result)


asyncio.run(main())
