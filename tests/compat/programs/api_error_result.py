"""The API answers with errors: an overloaded server, then a refused key, on query() and on a client."""

import asyncio

from claude_agent_sdk import ClaudeSDKClient, ResultMessage, query
from twin import note


async def main():
    try:
        async for message in query(prompt="Hello?"):
            if isinstance(message, ResultMessage):
                note(
                    "query result",
                    {
                        k: getattr(message, k)
                        for k in ("subtype", "is_error", "result", "api_error_status", "terminal_reason")
                    },
                )
    except Exception as exc:
        note("query raised", exc)

    try:
        async with ClaudeSDKClient() as client:
            await client.query("Hello again?")
            async for message in client.receive_response():
                if isinstance(message, ResultMessage):
                    note(
                        "client result",
                        {k: getattr(message, k) for k in ("subtype", "is_error", "result", "api_error_status")},
                    )
    except Exception as exc:
        note("client raised", exc)


asyncio.run(main())
