"""A session store that is down when a run ends loses none of its turns.

The real binary and the scripted model, with real stores made to stop
answering in the middle of turn 2 and to stay so past the end of the run:
Redis stopped (SIGSTOP, as a network partition looks), PostgreSQL with its
table locked by another connection, SQLite with the file held by another
connection's exclusive transaction. What the run could not write goes to
this machine's spool; once the store answers again:

* a resume from the store (the binary in another, empty HOME, so only the
  store and the spool can tell it the past) sees turn 2, and its run writes
  the spool out: the store then holds every turn, in order, exactly once;
* ``flush_pending(store)`` and ``claude-wrap flush-spool`` do the same
  without a run.

The spool lives in a folder of the test's (``CLAUDE_WRAP_SPOOL_DIR``).
"""

from __future__ import annotations

import logging
import os
import signal
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from _servers import PostgresServer, RedisServer

from claude_wrap import (
    ClaudeAgentOptions,
    ClaudeSDKClient,
    MirrorErrorMessage,
    PostgresSessionStore,
    RedisSessionStore,
    ResultMessage,
    SQLiteSessionStore,
    flush_pending,
    project_key_for_directory,
)
from claude_wrap._sessions.spool import Spool
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e, pytest.mark.stores]

DEADLINE = 1.5  # session_store_flush_timeout: how long a flush waits on the stopped store


class Down:
    """A real store, and a way to make it stop answering and answer again."""

    drops_cut_writes = False
    """Whether a write the mirror gave up on never lands by itself once the
    store answers again (then only the spool can bring turn 2 in)."""

    def __init__(self, store: Any, address: str) -> None:
        self.store = store
        self.address = address  # what claude-wrap flush-spool is given

    def stop(self) -> None:
        raise NotImplementedError

    def resume(self) -> None:
        raise NotImplementedError


class StoppedRedis(Down):
    def __init__(self, server: RedisServer) -> None:
        prefix = f"spool:{uuid.uuid4().hex}:"
        super().__init__(RedisSessionStore(server.url, prefix=prefix), server.url)
        self.server = server
        self.prefix = prefix

    def stop(self) -> None:
        assert self.server.proc is not None
        os.kill(self.server.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.server.proc is not None
        os.kill(self.server.proc.pid, signal.SIGCONT)


class LockedPostgres(Down):
    """Another connection holds an exclusive lock on the store's table; the
    writes waiting for it are ended before it is let go."""

    drops_cut_writes = True

    def __init__(self, server: PostgresServer) -> None:
        self.table = f"spool_{uuid.uuid4().hex[:12]}"
        super().__init__(PostgresSessionStore(server.url, table=self.table), server.url)
        self.url = server.url
        self._holder: Any = None

    def stop(self) -> None:
        import psycopg

        self._holder = psycopg.connect(self.url)
        self._holder.execute(f"LOCK TABLE {self.table} IN ACCESS EXCLUSIVE MODE")  # held until rollback

    def resume(self) -> None:
        if self._holder is not None:
            # The store's writes the mirror gave up on still wait for the
            # lock: end them, as a lost connection would.
            self._holder.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            )
            self._holder.rollback()
            self._holder.close()
            self._holder = None


class LockedSQLite(Down):
    """Another connection holds the file in an exclusive transaction; the
    store gives up waiting for it after half a second."""

    drops_cut_writes = True

    def __init__(self, path: Path) -> None:
        super().__init__(SQLiteSessionStore(path, timeout=0.5), f"sqlite:///{path}")
        self.path = path
        self._holder: sqlite3.Connection | None = None

    def stop(self) -> None:
        self._holder = sqlite3.connect(self.path, isolation_level=None)
        self._holder.execute("BEGIN EXCLUSIVE")

    def resume(self) -> None:
        if self._holder is not None:
            self._holder.execute("ROLLBACK")
            self._holder.close()
            self._holder = None


@pytest.fixture(params=["redis", "postgres", "sqlite"])
async def down(request: pytest.FixtureRequest, postgres_server: PostgresServer, tmp_path: Path) -> AsyncIterator[Down]:
    server: RedisServer | None = None
    made: Down
    if request.param == "redis":
        server = RedisServer()  # a private one: this test stops it
        server.start()
        made = StoppedRedis(server)
    elif request.param == "postgres":
        made = LockedPostgres(postgres_server)
    else:
        made = LockedSQLite(tmp_path / "sessions.db")
    try:
        yield made
    finally:
        made.resume()
        closing = getattr(made.store, "aclose", None)
        if closing is not None:
            await closing()
        if server is not None:
            server.destroy()


@pytest.fixture(autouse=True)
def spool_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "spool"
    monkeypatch.setenv("CLAUDE_WRAP_SPOOL_DIR", str(folder))
    return folder


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path


def _options(model: ScriptedModel, home: Path, cwd: Path, store: Any, **extra: Any) -> ClaudeAgentOptions:
    return ClaudeAgentOptions(
        env=model.env(home),
        cwd=cwd,
        setting_sources=[],
        session_store=store,
        session_store_flush_timeout=DEADLINE,
        shutdown_grace=3,
        **extra,
    )


async def _turn(client: ClaudeSDKClient, prompt: str) -> list[Any]:
    await client.query(prompt)
    with anyio.fail_after(60):
        return [m async for m in client.receive_response()]


def _prompts(entries: list[Any] | None) -> list[str]:
    return [
        e["message"]["content"]
        for e in entries or []
        if e.get("type") == "user" and isinstance(e.get("message", {}).get("content"), str)
    ]


async def _leave_turn_two_unwritten(
    down: Down, model: ScriptedModel, tmp_path: Path, cwd: Path, caplog: pytest.LogCaptureFixture
) -> tuple[str, dict[str, str]]:
    """Turn 1 reaches the store; the store stops during turn 2 and stays
    stopped past the close. Returns the session id and the transcript's key."""
    model.add(Reply.text("one"), Reply.text("two"))
    async with ClaudeSDKClient(_options(model, tmp_path / "home-a", cwd, down.store)) as client:
        first = await _turn(client, "turn one")
        session_id = first[-1].session_id
        down.stop()
        second = await _turn(client, "turn two")
        assert isinstance(second[-1], ResultMessage) and second[-1].result == "two"
        assert any(isinstance(m, MirrorErrorMessage) for m in second)
    key = {"project_key": project_key_for_directory(cwd), "session_id": session_id}
    spool = Spool.of(down.store)
    assert spool is not None and "turn two" in _prompts(spool.entries_for(key))  # type: ignore[arg-type]
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(session_id in w and "kept in" in w and "transcript entries" in w for w in warned)
    if isinstance(down, LockedSQLite):
        await anyio.sleep(1.0)  # the given-up writes fail by their own timeout first
    down.resume()
    if down.drops_cut_writes:
        assert "turn two" not in _prompts(await down.store.load(key))  # only the spool has it
    return session_id, key


async def test_a_resume_elsewhere_sees_the_turn_the_store_missed(
    down: Down, scripted_model: ScriptedModel, tmp_path: Path, cwd: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="claude_wrap")
    session_id, key = await _leave_turn_two_unwritten(down, scripted_model, tmp_path, cwd, caplog)

    scripted_model.add(Reply.text("three"))
    resumed = _options(scripted_model, tmp_path / "home-b", cwd, down.store, resume=session_id)
    async with ClaudeSDKClient(resumed) as client:
        third = await _turn(client, "turn three")
    assert third[-1].result == "three"
    # The binary in the empty HOME was given turn two from the spool.
    asked = scripted_model.main_requests[-1]
    assert "turn two" in str(asked.body["messages"]) and "turn one" in str(asked.body["messages"])
    # And the resumed run wrote the spool out: every turn, in order, once.
    stored = await down.store.load(key)
    assert _prompts(stored) == ["turn one", "turn two", "turn three"]
    uuids = [e["uuid"] for e in stored or [] if "uuid" in e]
    assert len(uuids) == len(set(uuids))
    assert Spool.of(down.store).files() == []  # type: ignore[union-attr]


async def test_flush_pending_and_the_command_write_the_spool_without_a_run(
    down: Down, scripted_model: ScriptedModel, tmp_path: Path, cwd: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="claude_wrap")
    session_id, key = await _leave_turn_two_unwritten(down, scripted_model, tmp_path, cwd, caplog)

    listed = _command("flush-spool")
    assert listed.returncode == 0 and "entries of 1 session(s)" in listed.stdout
    if isinstance(down, LockedSQLite):
        # The command, as an operator runs it once the store is back.
        done = _command("flush-spool", "--store", down.address)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("wrote ") and not done.stdout.startswith("wrote 0 "), done.stdout
    else:
        assert await flush_pending(down.store) > 0
    assert await flush_pending(down.store) == 0  # nothing twice
    stored = await down.store.load(key)
    assert _prompts(stored) == ["turn one", "turn two"]
    assert _command("flush-spool").stdout.strip() == "nothing is spooled"


def _command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "claude_wrap", *args], capture_output=True, text=True, timeout=120, env=os.environ.copy()
    )
