"""Leaving a run mid-turn (break, break with a callback, a break while the
answer streams, disconnect, cancellation), then resuming the session: what
the model sees of the turn that was left, and whether its tool finished."""

import asyncio
import os
from contextlib import aclosing

from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    PermissionResultAllow,
    ResultMessage,
    StreamEvent,
    ToolUseBlock,
    query,
)
from twin import note


def asks_for_the_tool(message):
    return isinstance(message, AssistantMessage) and any(isinstance(b, ToolUseBlock) for b in message.content)


async def allow(tool_name, tool_input, context):
    return PermissionResultAllow()


async def resume(case, session_id):
    options = ClaudeAgentOptions(allowed_tools=["Bash"], resume=session_id)
    async for message in query(prompt=f"What happened in {case}?", options=options):
        if isinstance(message, ResultMessage):
            note(f"{case}: resumed", message.result)
    note(f"{case}: the tool had finished", os.path.exists(f"{case}.done"))


async def leave_by_break(case, **options):
    prompt = f"Run the slow command for {case}"
    async with aclosing(query(prompt=prompt, options=ClaudeAgentOptions(**options))) as messages:
        async for message in messages:
            if asks_for_the_tool(message):
                session_id = message.session_id
                break
    await resume(case, session_id)


async def leave_while_streaming():
    options = ClaudeAgentOptions(include_partial_messages=True)
    async with aclosing(query(prompt="Tell a long story for streaming", options=options)) as messages:
        async for message in messages:
            if isinstance(message, StreamEvent) and message.event.get("type") == "content_block_delta":
                session_id = message.session_id
                break
    await resume("streaming", session_id)


async def leave_by_disconnect():
    async with ClaudeSDKClient(ClaudeAgentOptions(allowed_tools=["Bash"])) as client:
        await client.query("Run the slow command for disconnect")
        async for message in client.receive_response():
            if asks_for_the_tool(message):
                session_id = message.session_id
                break
    await resume("disconnect", session_id)


async def leave_by_cancellation():
    found = asyncio.Event()
    session_ids = []

    async def run():
        options = ClaudeAgentOptions(allowed_tools=["Bash"])
        async for message in query(prompt="Run the slow command for cancel", options=options):
            if asks_for_the_tool(message):
                session_ids.append(message.session_id)
                found.set()

    task = asyncio.create_task(run())
    await found.wait()
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    await resume("cancel", session_ids[0])


async def main():
    await leave_by_break("break", allowed_tools=["Bash"])
    await leave_by_break("callback", can_use_tool=allow)
    await leave_while_streaming()
    await leave_by_disconnect()
    await leave_by_cancellation()


asyncio.run(main())
