"""Session helpers after a run: list, read, rename, tag, fork, delete."""

import asyncio
import os

from claude_agent_sdk import (
    ResultMessage,
    delete_session,
    fork_session,
    get_session_info,
    get_session_messages,
    list_sessions,
    query,
    rename_session,
    tag_session,
)
from twin import note


async def main():
    session_id = None
    async for message in query(prompt="Remember the word apple"):
        if isinstance(message, ResultMessage):
            session_id = message.session_id
    here = os.getcwd()
    note("listed", list_sessions(directory=here))
    note("messages", get_session_messages(session_id, directory=here))
    note("messages page", get_session_messages(session_id, directory=here, limit=1, offset=1))
    rename_session(session_id, "Apple talk", directory=here)
    tag_session(session_id, "fruit", directory=here)
    note("info", get_session_info(session_id, directory=here))
    fork = fork_session(session_id, directory=here, title="Apple fork")
    note("fork", fork)
    # Written within the same millisecond, the fork and the original tie on
    # last_modified; then their order is the directory's, on both packages.
    listed = [(s.summary, s.custom_title, s.tag) for s in list_sessions(directory=here)]
    note("listed after fork", sorted(listed, key=repr))
    delete_session(fork.session_id, directory=here)
    note("listed after delete", len(list_sessions(directory=here)))
    note("unknown session", get_session_info("00000000-0000-4000-8000-000000000000", directory=here))


asyncio.run(main())
