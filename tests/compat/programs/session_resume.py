"""resume, fork_session and continue_conversation: the model sees the earlier turns."""

import asyncio

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query
from twin import note


async def run(prompt, **options):
    async for message in query(prompt=prompt, options=ClaudeAgentOptions(**options)):
        if isinstance(message, ResultMessage):
            return message.session_id


async def main():
    first = await run("My name is Ada")
    resumed = await run("What is my name?", resume=first)
    forked = await run("And my surname?", resume=first, fork_session=True)
    continued = await run("Say it again", continue_conversation=True)
    note("same session after resume", resumed == first)
    note("new session after fork", forked not in (first, resumed))
    note("continued the latest", continued in (first, resumed, forked))


asyncio.run(main())
