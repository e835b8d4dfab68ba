"""``PostgresSessionStore``: session transcripts in PostgreSQL (psycopg 3).

Install with ``pip install 'claude-wrap-sdk[postgres]'``; psycopg is imported
only when the store is first used. One table holds every entry as JSON text
(kept byte for byte, unlike ``jsonb``, which also refuses ``\\u0000``), in
append order, with an index on the key. Each append is one transaction.

Session summaries live in a second table, one row per session. An append to
a main transcript first creates or locks that row (one upsert), folds its
entries into the summary in Python, then inserts the entries and writes the
summary back in one statement: appends to the same session wait for each
other instead of overwriting each other's fold, and appends to different
sessions do not wait at all.
"""

from __future__ import annotations

import json
import re
import threading
import zlib
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import anyio.from_thread
import anyio.to_thread

from claude_wrap._distribution import import_extra
from claude_wrap._sessions.spool import SpooledStore, without_secrets
from claude_wrap._sessions.store import (
    SessionKey,
    SessionListSubkeysKey,
    SessionStore,
    SessionStoreEntry,
    SessionStoreListEntry,
    SessionSummaryEntry,
    json_text,
    key_parts,
    now_ms,
)
from claude_wrap._sessions.summary import fold_session_summary

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresSessionStore"]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")
_MAX_IDENT = 63  # longer names are silently truncated by the server
Step = tuple[str, tuple[Any, ...]]
Rows = list[tuple[Any, ...]]
T = TypeVar("T")
# A transaction's body: yields the statements to run, receives each one's rows.
Program = Generator[Step, Rows, T]


class PostgresSessionStore(SpooledStore, SessionStore):
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
        suffixed = f"{table}_summaries"
        # A truncated name could collide with another store's table: hash instead.
        self.summary_table: str = (
            suffixed if len(suffixed) <= _MAX_IDENT else f"{table[:50]}_s{zlib.crc32(table.encode()):08x}"
        )
        self.connect_timeout = connect_timeout
        self._conninfo = conninfo if isinstance(conninfo, str) else None
        self._client = None if isinstance(conninfo, str) else conninfo
        where = without_secrets(conninfo) if isinstance(conninfo, str) else _client_address(conninfo)
        self.spool_key: str | bool = f"postgresql:{where}#{table}"
        """Names this store's spool on this machine (``claude_wrap.flush_pending``)."""
        self._conn: psycopg.Connection[Any] | None = None
        self._lock = threading.Lock()
        self._async_lock: anyio.Lock | None = None
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
            (
                f"CREATE TABLE IF NOT EXISTS {self.summary_table} (project_key TEXT NOT NULL, session_id TEXT NOT NULL, "
                "mtime BIGINT NOT NULL, data TEXT, PRIMARY KEY (project_key, session_id))",
                (),
            ),
        ]

    async def _tx(self, steps: list[Step]) -> Rows:
        """Run ``steps`` in one transaction; the rows of the last one."""
        return await self._transact(_steps(steps))

    async def _transact(self, program: Program[T]) -> T:
        """Run ``program`` in one transaction; what it returns."""
        if not self._ready:
            # A transaction of its own: CREATE INDEX locks the table until
            # commit, which would deadlock with another store's append that
            # holds a summary row lock and waits to insert.
            await self._run(_steps(self._schema()))
            self._ready = True
        return await self._run(program)

    async def _run(self, program: Program[T]) -> T:
        client = self._client
        if client is None or not _is_async(client):
            # A caller that stops waiting (a mirror deadline, a cancellation)
            # is not held up by a server that does not answer.
            return await anyio.to_thread.run_sync(self._tx_sync, program, abandon_on_cancel=True)
        if hasattr(client, "connection") and not hasattr(client, "cursor"):
            async with client.connection() as conn:
                return await _tx_async(conn, program)
        # One connection holds one transaction at a time: tasks take turns.
        if self._async_lock is None:
            self._async_lock = anyio.Lock()
        async with self._async_lock:
            return await _tx_async(client, program)

    def _tx_sync(self, program: Program[T]) -> T:
        with self._lock:
            if self._client is not None:
                if hasattr(self._client, "connection") and not hasattr(self._client, "cursor"):
                    with self._client.connection() as conn:
                        return _tx_sync(conn, program)
                return _tx_sync(self._client, program)
            pg: Any = import_extra("psycopg", "postgres", "PostgresSessionStore with a conninfo string")

            if self._conn is None or self._conn.closed:
                assert self._conninfo is not None
                self._conn = pg.connect(self._conninfo, autocommit=True, connect_timeout=int(self.connect_timeout))
            try:
                return _tx_sync(self._conn, program)
            except pg.OperationalError:
                # The server went away: reconnect on the next call.
                self._conn.close()
                self._conn = None
                raise

    # -- the protocol ------------------------------------------------------------------

    def _insert(self) -> str:
        return (
            f"INSERT INTO {self.table} (project_key, session_id, subpath, entry, mtime) "
            "SELECT %s, %s, %s, u.e, %s FROM unnest(%s::text[]) WITH ORDINALITY AS u(e, n) ORDER BY u.n"
        )

    async def append(self, key: SessionKey, entries: list[SessionStoreEntry]) -> None:
        if not entries:
            return
        texts = [json_text(e) for e in entries]
        if key_parts(key)[2]:
            await self._tx([(self._insert(), (*key_parts(key), now_ms(), texts))])
        else:
            await self._transact(self._append_main(key, entries, texts))

    def _append_main(self, key: SessionKey, entries: list[SessionStoreEntry], texts: list[str]) -> Program[None]:
        pk, sid, _ = key_parts(key)
        st = self.summary_table
        # Inserts the row or locks the existing one; a concurrent append to the
        # same session waits here until this transaction ends, then sees its
        # summary (ON CONFLICT reads the latest committed row).
        (row,) = yield (
            f"INSERT INTO {st} (project_key, session_id, mtime, data) VALUES (%s, %s, 0, NULL) "
            f"ON CONFLICT (project_key, session_id) DO UPDATE SET mtime = {st}.mtime RETURNING mtime, data",
            (pk, sid),
        )
        prev: SessionSummaryEntry | None = None
        if row[1] is not None:
            prev = {"session_id": sid, "mtime": int(row[0]), "data": json.loads(row[1])}
        else:
            # New row: the session may hold entries written before summaries
            # existed; summarise them once.
            old = yield (
                f"SELECT entry, mtime FROM {self.table} WHERE project_key = %s AND session_id = %s AND subpath = '' "
                "ORDER BY id",
                (pk, sid),
            )
            if old:
                prev = fold_session_summary(None, key, [json.loads(r[0]) for r in old])
                # list_sessions takes the newest entry's mtime: stay at or past
                # it even if that writer's clock ran ahead of ours.
                prev["mtime"] = max(int(r[1]) for r in old)
        summary = fold_session_summary(prev, key, entries)
        # Read under the row lock, so this session's mtimes follow commit order
        # and the summary's mtime is the max list_sessions reports.
        mtime = max(now_ms(), summary["mtime"])
        data = json_text(summary["data"])
        yield (
            f"WITH added AS ({self._insert()}) "
            f"UPDATE {st} SET mtime = %s, data = %s WHERE project_key = %s AND session_id = %s",
            (pk, sid, "", mtime, texts, mtime, data, pk, sid),
        )

    async def load(self, key: SessionKey) -> list[SessionStoreEntry] | None:
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

    async def list_session_summaries(self, project_key: str) -> list[SessionSummaryEntry]:
        rows = await self._tx(
            [
                (
                    f"SELECT session_id, mtime, data FROM {self.summary_table} WHERE project_key = %s AND data IS NOT NULL",
                    (project_key,),
                )
            ]
        )
        return [{"session_id": sid, "mtime": int(mtime), "data": json.loads(data)} for sid, mtime, data in rows]

    async def delete(self, key: SessionKey) -> None:
        pk, sid, sub = key_parts(key)
        if sub:
            await self._tx(
                [
                    (
                        f"DELETE FROM {self.table} WHERE project_key = %s AND session_id = %s AND subpath = %s",
                        (pk, sid, sub),
                    )
                ]
            )
            return
        await self._tx(
            [
                # The summary row first: it waits for an append holding its lock,
                # and the next statement then sees (and deletes) that append's entries.
                (f"DELETE FROM {self.summary_table} WHERE project_key = %s AND session_id = %s", (pk, sid)),
                (f"DELETE FROM {self.table} WHERE project_key = %s AND session_id = %s", (pk, sid)),
            ]
        )

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

    def __getstate__(self) -> dict[str, Any]:
        """A store made from a connection string travels as its settings (to
        a process pool, a Ray worker ...): the copy opens its own connection."""
        if self._conninfo is None:
            raise TypeError(
                "a PostgresSessionStore built on a connection object cannot be copied to another process; "
                "build it from a connection string to send it there"
            )
        return {"conninfo": self._conninfo, "table": self.table, "connect_timeout": self.connect_timeout}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["conninfo"], table=state["table"], connect_timeout=state["connect_timeout"])  # type: ignore[misc]

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


def _steps(steps: list[Step]) -> Program[Rows]:
    rows: Rows = []
    for step in steps:
        rows = yield step
    return rows


def _tx_sync(conn: Any, program: Program[T]) -> T:
    with conn.transaction(), conn.cursor() as cur:
        try:
            sql, params = next(program)
            while True:
                cur.execute(sql, params)
                sql, params = program.send(list(cur.fetchall()) if cur.description is not None else [])
        except StopIteration as done:
            # Its caller gave up while the server did not answer: roll back,
            # so that a caller that sends the batch again does not write it twice.
            anyio.from_thread.check_cancelled()
            result: T = done.value
            return result


async def _tx_async(conn: Any, program: Program[T]) -> T:
    async with conn.transaction(), conn.cursor() as cur:
        try:
            sql, params = next(program)
            while True:
                await cur.execute(sql, params)
                sql, params = program.send(list(await cur.fetchall()) if cur.description is not None else [])
        except StopIteration as done:
            result: T = done.value
            return result


def _client_address(client: Any) -> str:
    """Where a psycopg connection or pool points, without credentials."""
    info = getattr(client, "info", None)
    if info is not None and getattr(info, "host", None) is not None:
        return f"{info.host}:{info.port}/{info.dbname}"
    conninfo = getattr(client, "conninfo", None)  # a pool
    if isinstance(conninfo, str):
        return without_secrets(conninfo)
    return f"{type(client).__module__}.{type(client).__qualname__}"
