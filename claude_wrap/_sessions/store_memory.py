"""``InMemorySessionStore``: the ``SessionStore`` in a dict, for tests and development."""

from claude_wrap._sessions.store import (
    SessionKey,
    SessionListSubkeysKey,
    SessionStore,
    SessionStoreEntry,
    SessionStoreListEntry,
    SessionSummaryEntry,
    key_parts,
    now_ms,
)

__all__ = ["InMemorySessionStore"]


class InMemorySessionStore(SessionStore):
    """A store in a dict: for tests and development (lost at exit).

    Its write times (``mtime``) strictly increase from one append to the
    next, as a real backend's commit order gives, so listings sort the same
    way on every run.
    """

    spool_key: str | bool = False
    """Never spooled: no other process could reach this store (see
    ``claude_wrap.flush_pending``)."""

    def __init__(self) -> None:
        self._data: dict[tuple[str, str, str], list[SessionStoreEntry]] = {}
        self._mtimes: dict[tuple[str, str, str], int] = {}
        self._summaries: dict[tuple[str, str], SessionSummaryEntry] = {}
        self._last_mtime = 0

    def _next_mtime(self) -> int:
        self._last_mtime = max(now_ms(), self._last_mtime + 1)
        return self._last_mtime

    async def append(self, key: SessionKey, entries: list[SessionStoreEntry]) -> None:
        parts = key_parts(key)
        self._data.setdefault(parts, []).extend(entries)
        mtime = self._next_mtime()
        if key.get("subpath") is None:
            from claude_wrap._sessions.summary import fold_session_summary  # loads the transcript reader

            # No await from here on: the fold cannot interleave with another
            # append on this event loop.
            summary = fold_session_summary(self._summaries.get(parts[:2]), key, entries)
            summary["mtime"] = mtime  # the clock list_sessions reports
            self._summaries[parts[:2]] = summary
        self._mtimes[parts] = mtime

    async def load(self, key: SessionKey) -> list[SessionStoreEntry] | None:
        entries = self._data.get(key_parts(key))
        return None if entries is None else list(entries)

    async def list_sessions(self, project_key: str) -> list[SessionStoreListEntry]:
        return [
            {"session_id": sid, "mtime": self._mtimes.get((pk, sid, sub), 0)}
            for (pk, sid, sub) in self._data
            if pk == project_key and not sub
        ]

    async def list_session_summaries(self, project_key: str) -> list[SessionSummaryEntry]:
        return [
            {"session_id": s["session_id"], "mtime": s["mtime"], "data": dict(s["data"])}
            for (pk, _), s in self._summaries.items()
            if pk == project_key
        ]

    async def delete(self, key: SessionKey) -> None:
        pk, sid, sub = key_parts(key)
        doomed = [k for k in self._data if k[:2] == (pk, sid) and (k[2] == sub or key.get("subpath") is None)]
        for k in doomed:
            del self._data[k]
            self._mtimes.pop(k, None)
        if key.get("subpath") is None:
            self._summaries.pop((pk, sid), None)

    async def list_subkeys(self, key: SessionListSubkeysKey) -> list[str]:
        return [sub for (pk, sid, sub) in self._data if (pk, sid) == (key["project_key"], key["session_id"]) and sub]

    def get_entries(self, key: SessionKey) -> list[SessionStoreEntry]:
        """Test helper: the entries under ``key`` (empty if none)."""
        return list(self._data.get(key_parts(key), []))

    @property
    def size(self) -> int:
        """Test helper: how many sessions (main transcripts) are stored."""
        return sum(1 for k in self._data if not k[2])

    def clear(self) -> None:
        """Test helper: forget everything."""
        self._data.clear()
        self._mtimes.clear()
        self._summaries.clear()
        self._last_mtime = 0
