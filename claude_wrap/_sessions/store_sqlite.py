"""``SQLiteSessionStore``: the embedded default store (standard library only).

One SQLite file, in WAL mode, shared safely by several processes: each
append is one ``BEGIN IMMEDIATE`` transaction, and readers never block the
writer. Calls run in a worker thread so the event loop never waits on disk.
The session summaries live in their own table, folded inside the append's
transaction: its write lock is what keeps two processes' folds apart.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import anyio.from_thread
import anyio.to_thread

from claude_wrap._sessions.spool import SpooledStore
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

__all__ = ["SQLiteSessionStore"]

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS session_entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    project_key TEXT NOT NULL,
    session_id TEXT NOT NULL,
    subpath TEXT NOT NULL DEFAULT '',
    entry TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS session_entries_key ON session_entries (project_key, session_id, subpath, seq);
CREATE TABLE IF NOT EXISTS session_files (
    project_key TEXT NOT NULL,
    session_id TEXT NOT NULL,
    subpath TEXT NOT NULL DEFAULT '',
    mtime INTEGER NOT NULL,
    PRIMARY KEY (project_key, session_id, subpath)
);
CREATE TABLE IF NOT EXISTS session_summaries (
    project_key TEXT NOT NULL,
    session_id TEXT NOT NULL,
    mtime INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (project_key, session_id)
);
"""


class SQLiteSessionStore(SpooledStore, SessionStore):
    """A session store in one SQLite file (created if missing).

    ``path`` may be ``":memory:"`` for a private, process-local store.
    ``timeout`` is how long a writer waits for another process's lock.
    """

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 30.0) -> None:
        self.path: str = os.fspath(path)
        self.timeout = timeout
        self.spool_key: str | bool = False if self.path == ":memory:" else f"sqlite:{os.path.abspath(self.path)}"
        """Names this store's spool on this machine (``claude_wrap.flush_pending``)."""
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
        if self.path != ":memory:":
            _wal(conn, self.timeout)
            conn.execute("PRAGMA synchronous = NORMAL")  # durable at checkpoints; safe with WAL
        conn.executescript(_SCHEMA)
        weakref.finalize(self, conn.close)  # no unclosed-connection warning at exit
        return conn

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        def call() -> T:
            # One connection per store, used by one thread at a time.
            with self._lock:
                anyio.from_thread.check_cancelled()  # given up on while another call held the lock
                if self._conn is None:
                    self._conn = self._connect()
                return fn(self._conn)

        # A caller that stops waiting (a mirror deadline, a cancellation) is
        # not held up by another process's lock on the database.
        return await anyio.to_thread.run_sync(call, abandon_on_cancel=True)

    async def append(self, key: SessionKey, entries: list[SessionStoreEntry]) -> None:
        if not entries:
            return
        pk, sid, sub = key_parts(key)
        rows = [(pk, sid, sub, json_text(e)) for e in entries]

        def write(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN IMMEDIATE")
            try:
                # The clock is read under the write lock, so mtimes follow commit order.
                mtime = now_ms() if sub else _fold(conn, key, entries)
                conn.executemany(
                    "INSERT INTO session_entries (project_key, session_id, subpath, entry) VALUES (?, ?, ?, ?)", rows
                )
                conn.execute(
                    "INSERT INTO session_files VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET mtime = excluded.mtime",
                    (pk, sid, sub, mtime),
                )
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

        await self._run(write)

    async def load(self, key: SessionKey) -> list[SessionStoreEntry] | None:
        def read(conn: sqlite3.Connection) -> list[Any]:
            cur = conn.execute(
                "SELECT entry FROM session_entries WHERE project_key = ? AND session_id = ? AND subpath = ? ORDER BY seq",
                key_parts(key),
            )
            return [json.loads(row[0]) for row in cur]

        entries = await self._run(read)
        return entries or None

    async def list_sessions(self, project_key: str) -> list[SessionStoreListEntry]:
        def read(conn: sqlite3.Connection) -> list[SessionStoreListEntry]:
            cur = conn.execute(
                "SELECT session_id, mtime FROM session_files WHERE project_key = ? AND subpath = ''", (project_key,)
            )
            return [{"session_id": sid, "mtime": int(mtime)} for sid, mtime in cur]

        return await self._run(read)

    async def list_session_summaries(self, project_key: str) -> list[SessionSummaryEntry]:
        def read(conn: sqlite3.Connection) -> list[SessionSummaryEntry]:
            cur = conn.execute(
                "SELECT session_id, mtime, data FROM session_summaries WHERE project_key = ?", (project_key,)
            )
            return [{"session_id": sid, "mtime": int(mtime), "data": json.loads(data)} for sid, mtime, data in cur]

        return await self._run(read)

    async def delete(self, key: SessionKey) -> None:
        pk, sid, sub = key_parts(key)
        where = "project_key = ? AND session_id = ?" + (" AND subpath = ?" if sub else "")
        args = (pk, sid, sub) if sub else (pk, sid)

        def write(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(f"DELETE FROM session_entries WHERE {where}", args)
                conn.execute(f"DELETE FROM session_files WHERE {where}", args)
                if not sub:
                    conn.execute("DELETE FROM session_summaries WHERE project_key = ? AND session_id = ?", args)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

        await self._run(write)

    async def list_subkeys(self, key: SessionListSubkeysKey) -> list[str]:
        def read(conn: sqlite3.Connection) -> list[str]:
            cur = conn.execute(
                "SELECT subpath FROM session_files WHERE project_key = ? AND session_id = ? AND subpath != '' "
                "ORDER BY subpath",
                (key["project_key"], key["session_id"]),
            )
            return [row[0] for row in cur]

        return await self._run(read)

    def close(self) -> None:
        """Close the connection (it is reopened on the next call)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def _wal(conn: sqlite3.Connection, timeout: float) -> None:
    """Switch to WAL mode. Several connections opening a new file at once can
    get "database is locked" here without the busy timeout being applied,
    so wait for the others by hand."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _fold(conn: sqlite3.Connection, key: SessionKey, entries: list[SessionStoreEntry]) -> int:
    """Fold ``entries`` into the main transcript's
    stored summary, inside the caller's write transaction and before they
    are inserted; the summary's new mtime."""
    pk, sid, _ = key_parts(key)
    row = conn.execute(
        "SELECT mtime, data FROM session_summaries WHERE project_key = ? AND session_id = ?", (pk, sid)
    ).fetchone()
    prev: SessionSummaryEntry | None = None
    if row is not None:
        prev = {"session_id": sid, "mtime": int(row[0]), "data": json.loads(row[1])}
    else:
        # A session written before this table existed: summarise what is
        # already there once, then keep folding from here.
        cur = conn.execute(
            "SELECT entry FROM session_entries WHERE project_key = ? AND session_id = ? AND subpath = '' ORDER BY seq",
            (pk, sid),
        )
        old = [r[0] for r in cur]
        if old:
            prev = fold_session_summary(None, key, [json.loads(t) for t in old])
    summary = fold_session_summary(prev, key, entries)
    mtime: int = max(now_ms(), summary["mtime"])  # never behind the mtime list_sessions reports
    conn.execute(
        "INSERT INTO session_summaries VALUES (?, ?, ?, ?) "
        "ON CONFLICT DO UPDATE SET mtime = excluded.mtime, data = excluded.data",
        (pk, sid, mtime, json_text(summary["data"])),
    )
    return mtime
