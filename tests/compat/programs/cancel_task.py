"""A task running query() is cancelled mid-turn; the binary must not outlive the program."""

import asyncio

from claude_agent_sdk import ResultMessage, query
from twin import main_requests, note


async def main():
    started = asyncio.Event()
    seen = []

    async def run():
        async for message in query(prompt="Take your time"):
            seen.append(type(message).__name__)
            started.set()

    task = asyncio.create_task(run())
    await started.wait()
    await main_requests(1)  # the answer is on its way (it never comes)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        note("cancelled", True)
    note("seen", seen)

    async for message in query(prompt="Quick one"):
        if isinstance(message, ResultMessage):
            print("after cancel:", message.subtype, message.result)


asyncio.run(main())
