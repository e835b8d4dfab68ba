"""``PostgresSessionStore``: session transcripts in PostgreSQL (psycopg 3).

Install with ``pip install 'claude-wrap[postgres]'``; psycopg is imported
only when the store is first used. One table holds every entry as JSON text
(kept byte for byte, unlike ``jsonb``, which also refuses ``\\u0000``), in
append order, with an index on the key. Each append is one transaction
with one round trip.
"""

from __future__ import annotations

import re
import threading
import zlib
from typing import TYPE_CHECKING, Any

import anyio.to_thread

from ._session_store import (
    SessionKey,
    SessionListSubkeysKey,
    SessionStore,
    SessionStoreEntry,
    SessionStoreListEntry,
    key_parts,
    now_ms,
)

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresSessionStore"]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")
Step = tuple[str, tuple[Any, ...]]


class PostgresSessionStore(SessionStore):
    """A session store in a PostgreSQL table (created if missing).

    ``conninfo`` is a connection string (``"postgresql://user@host/db"`` or
    ``"host=... dbname=..."``): the store then owns one connection, used
    from a worker thread (so it works under asyncio and trio alike) and
    reopened after the server comes back. Or pass an existing psycopg
    ``AsyncConnection`` / ``AsyncConnectionPool`` (asyncio only) or
    ``Connection`` / ``ConnectionPool``, in autocommit mode.
    """

    def __init__(self, conninfo: Any, *, table: str = "claude_session_entries", connect_timeout: float = 10.0) -> None:
        if not _IDENT.match(table):
            raise ValueError(f"table must be a plain SQL identifier, got {table!r}")
        self.table = table
        self.connect_timeout = connect_timeout
        self._conninfo = conninfo if isinstance(conninfo, str) else None
        self._client = None if isinstance(conninfo, str) else conninfo
        self._conn: psycopg.Connection[Any] | None = None
        self._lock = threading.Lock()
        self._ready = False

    # -- plumbing ----------------------------------------------------------------

    def _schema(self) -> list[Step]:
        t = self.table
        return [
            # Two stores creating the table at once would race without this.
            ("SELECT pg_advisory_xact_lock(%s)", (zlib.crc32(t.encode()),)),
            (
                f"CREATE TABLE IF NOT EXISTS {t} (id BIGSERIAL PRIMARY KEY, project_key TEXT NOT NULL, "
                "session_id TEXT NOT NULL, subpath TEXT NOT NULL DEFAULT '', entry TEXT NOT NULL, mtime BIGINT NOT NULL)",
                (),
            ),
            (f"CREATE INDEX IF NOT EXISTS {t}_key ON {t} (project_key, session_id, subpath, id)", ()),
        ]

    async def _tx(self, steps: list[Step]) -> list[tuple[Any, ...]]:
        """Run ``steps`` in one transaction; the rows of the last one."""
        if not self._ready:
            steps = self._schema() + steps
        client = self._client
        if client is None or not _is_async(client):
            rows = await anyio.to_thread.run_sync(self._tx_sync, steps)
        elif hasattr(client, "connection") and not hasattr(client, "cursor"):
            async with client.connection() as conn:
                rows = await _tx_async(conn, steps)
        else:
            rows = await _tx_async(client, steps)
        self._ready = True
        return rows

    def _tx_sync(self, steps: list[Step]) -> list[tuple[Any, ...]]:
        with self._lock:
            if self._client is not None:
                if hasattr(self._client, "connection") and not hasattr(self._client, "cursor"):
                    with self._client.connection() as conn:
                        return _tx_sync(conn, steps)
                return _tx_sync(self._client, steps)
            import psycopg

            if self._conn is None or self._conn.closed:
                assert self._conninfo is not None
                self._conn = psycopg.connect(self._conninfo, autocommit=True, connect_timeout=int(self.connect_timeout))
            try:
                return _tx_sync(self._conn, steps)
            except psycopg.OperationalError:
                # The server went away: reconnect on the next call.
                self._conn.close()
                self._conn = None
                raise

    # -- the protocol ------------------------------------------------------------------

    async def append(self, key: SessionKey, entries: list[SessionStoreEntry]) -> None:
        if not entries:
            return
        import json

        texts = [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in entries]
        await self._tx(
            [
                (
                    f"INSERT INTO {self.table} (project_key, session_id, subpath, entry, mtime) "
                    "SELECT %s, %s, %s, u.e, %s FROM unnest(%s::text[]) WITH ORDINALITY AS u(e, n) ORDER BY u.n",
                    (*key_parts(key), now_ms(), texts),
                )
            ]
        )

    async def load(self, key: SessionKey) -> list[SessionStoreEntry] | None:
        import json

        rows = await self._tx(
            [
                (
                    f"SELECT entry FROM {self.table} WHERE project_key = %s AND session_id = %s AND subpath = %s "
                    "ORDER BY id",
                    key_parts(key),
                )
            ]
        )
        return [json.loads(r[0]) for r in rows] or None

    async def list_sessions(self, project_key: str) -> list[SessionStoreListEntry]:
        rows = await self._tx(
            [
                (
                    f"SELECT session_id, max(mtime) FROM {self.table} WHERE project_key = %s AND subpath = '' "
                    "GROUP BY session_id",
                    (project_key,),
                )
            ]
        )
        return [{"session_id": sid, "mtime": int(mtime)} for sid, mtime in rows]

    async def delete(self, key: SessionKey) -> None:
        pk, sid, sub = key_parts(key)
        if sub:
            step: Step = (f"DELETE FROM {self.table} WHERE project_key = %s AND session_id = %s AND subpath = %s", (pk, sid, sub))
        else:
            step = (f"DELETE FROM {self.table} WHERE project_key = %s AND session_id = %s", (pk, sid))
        await self._tx([step])

    async def list_subkeys(self, key: SessionListSubkeysKey) -> list[str]:
        rows = await self._tx(
            [
                (
                    f"SELECT DISTINCT subpath FROM {self.table} WHERE project_key = %s AND session_id = %s "
                    "AND subpath <> '' ORDER BY subpath",
                    (key["project_key"], key["session_id"]),
                )
            ]
        )
        return [r[0] for r in rows]

    async def aclose(self) -> None:
        """Close the connection the store opened itself (not one you passed)."""

        def close() -> None:
            with self._lock:
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None

        await anyio.to_thread.run_sync(close)


def _is_async(client: Any) -> bool:
    import inspect

    probe = getattr(client, "execute", None) or getattr(client, "connection", None)
    return inspect.iscoroutinefunction(probe) or type(client).__name__.startswith("Async")


def _tx_sync(conn: Any, steps: list[Step]) -> list[tuple[Any, ...]]:
    with conn.transaction(), conn.cursor() as cur:
        for sql, params in steps:
            cur.execute(sql, params)
        return list(cur.fetchall()) if cur.description is not None else []


async def _tx_async(conn: Any, steps: list[Step]) -> list[tuple[Any, ...]]:
    async with conn.transaction(), conn.cursor() as cur:
        for sql, params in steps:
            await cur.execute(sql, params)
        return list(await cur.fetchall()) if cur.description is not None else []
