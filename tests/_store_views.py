"""Views of a session store for the listing tests.

``list_sessions_from_store`` lists from ``list_session_summaries`` when a
store has it. ``WithoutSummaries`` hides that method (the slow path, which
loads every transcript); ``CountingLoads`` keeps it and records each
``load``. Used by the store tests and ``scripts/bench_sessions.py``.
"""

from __future__ import annotations

from typing import Any


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
