"""Sessions in a SQLite store, resumed later: by another process, on
another host, or with an empty HOME.

    python examples/sessions_sqlite.py [sessions.db]

Every transcript is mirrored into the store as the run goes; resume=<id>
with the store continues the conversation from it.
"""

from __future__ import annotations

import sys

import anyio

from claude_wrap import ClaudeAgentOptions, ResultMessage, SQLiteSessionStore, list_sessions_from_store, query


async def ask(prompt: str, options: ClaudeAgentOptions) -> ResultMessage:
    result = None
    async for message in query(prompt=prompt, options=options):
        if isinstance(message, ResultMessage):
            result = message
    assert result is not None
    print(f"> {prompt}\n{result.result}")
    return result


async def main(path: str) -> None:
    store = SQLiteSessionStore(path)
    first = await ask("Remember this number: 42. Just say OK.", ClaudeAgentOptions(cwd=".", session_store=store))

    for info in await list_sessions_from_store(store, directory="."):
        print(f"stored: {info.session_id} {info.summary!r}")

    # Later, anywhere with the same store and the same cwd path:
    resumed = ClaudeAgentOptions(cwd=".", session_store=store, resume=first.session_id)
    await ask("Which number did I ask you to remember?", resumed)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1] if len(sys.argv) > 1 else "sessions.db")
