"""Views of a session store for the listing tests.

``list_sessions_from_store`` lists from ``list_session_summaries`` when a
store has it. ``WithoutSummaries`` hides that method (the slow path, which
loads every transcript); ``CountingLoads`` keeps it and records each
``load``. Used by the store tests and ``scripts/bench_sessions.py``.
``assert_summary_consistent`` checks a stored summary against its transcript.
"""

from __future__ import annotations

from typing import Any

from claude_wrap._sessions.store import SessionKey
from claude_wrap._sessions.summary import fold_session_summary


class WithoutSummaries:
    """Forwards ``append``, ``load`` and ``list_sessions`` to ``store``, nothing else."""

    def __init__(self, store: Any) -> None:
        self.store = store

    async def append(self, key: Any, entries: list[Any]) -> None:
        await self.store.append(key, entries)

    async def load(self, key: Any) -> Any:
        return await self.store.load(key)

    async def list_sessions(self, project_key: str) -> Any:
        return await self.store.list_sessions(project_key)


class CountingLoads(WithoutSummaries):
    """The store with its summaries, recording the session id of each ``load``."""

    def __init__(self, store: Any) -> None:
        super().__init__(store)
        self.loads: list[str] = []

    async def load(self, key: Any) -> Any:
        self.loads.append(key["session_id"])
        return await self.store.load(key)

    async def list_session_summaries(self, project_key: str) -> Any:
        return await self.store.list_session_summaries(project_key)


async def assert_summary_consistent(store: Any, project: str, sid: str) -> None:
    """The stored summary is the fold of the whole transcript, stamped with
    list_sessions' mtime."""
    key: SessionKey = {"project_key": project, "session_id": sid}
    entries = await store.load(key)
    (summary,) = [s for s in await store.list_session_summaries(project) if s["session_id"] == sid]
    mtime = next(s["mtime"] for s in await store.list_sessions(project) if s["session_id"] == sid)
    assert summary["mtime"] == mtime
    assert summary["data"] == fold_session_summary(None, key, entries)["data"]
