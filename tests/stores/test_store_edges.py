"""Entries and keys at the edges, on every shipped store, against real servers.

* An entry holding a lone surrogate (text a tool cut in the middle of a
  character) is stored and reads back as it was written, rather than
  failing the append with a raw ``UnicodeEncodeError``.
* Keys whose parts hold the Redis store's separator never share a
  transcript: ``p\\x1fq`` + ``r`` and ``p`` + ``q\\x1fr`` stay apart.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from _servers import PostgresServer, RedisServer

from claude_wrap import InMemorySessionStore, PostgresSessionStore, RedisSessionStore, SQLiteSessionStore

pytestmark = [pytest.mark.anyio, pytest.mark.stores]


@pytest.fixture(params=["memory", "sqlite", "postgres", "redis"])
async def store(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_server: PostgresServer, redis_server: RedisServer
) -> AsyncIterator[Any]:
    made: Any
    if request.param == "memory":
        made = InMemorySessionStore()
    elif request.param == "sqlite":
        made = SQLiteSessionStore(tmp_path / "edges.db")
    elif request.param == "postgres":
        made = PostgresSessionStore(postgres_server.url, table=f"edges_{uuid.uuid4().hex[:12]}")
    else:
        made = RedisSessionStore(redis_server.url, prefix=f"edges:{uuid.uuid4().hex}:")
    yield made
    closing = getattr(made, "aclose", None)
    if closing is not None:
        await closing()


async def test_an_entry_with_a_lone_surrogate_is_kept_as_written(store: Any) -> None:
    key = {"project_key": "p", "session_id": str(uuid.uuid4())}
    cut = {"type": "user", "uuid": str(uuid.uuid4()), "message": {"role": "user", "content": "cut \ud83c here"}}
    whole = {"type": "user", "uuid": str(uuid.uuid4()), "message": {"role": "user", "content": "whole 🎉"}}
    await store.append(key, [cut, whole])
    assert await store.load(key) == [cut, whole]


async def test_keys_whose_parts_hold_the_separator_stay_apart(store: Any) -> None:
    first = {"project_key": "p\x1fq", "session_id": "r"}
    second = {"project_key": "p", "session_id": "q\x1fr"}
    third = {"project_key": "p%1Fq", "session_id": "r"}  # what an escape could be confused with
    for n, key in enumerate((first, second, third)):
        await store.append(key, [{"type": "user", "uuid": f"u{n}"}])
    for n, key in enumerate((first, second, third)):
        assert await store.load(key) == [{"type": "user", "uuid": f"u{n}"}]
