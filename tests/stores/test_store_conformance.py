"""The conformance kit on every shipped store, against real servers.

PostgreSQL and Redis are real servers started for the test run
(tests/support/_servers.py); every contract gets a fresh table / key prefix.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from _servers import PostgresServer, RedisServer

from claude_wrap import (
    InMemorySessionStore,
    PostgresSessionStore,
    RedisSessionStore,
    SessionStore,
    SQLiteSessionStore,
)
from claude_wrap.testing import run_session_store_conformance

pytestmark = [pytest.mark.anyio, pytest.mark.stores]

FULL = 19  # strict: the official 14 contracts and ours


class _Made:
    """Stores made for one test, closed at its end."""

    def __init__(self) -> None:
        self.stores: list[Any] = []

    def add(self, store: Any) -> Any:
        self.stores.append(store)
        return store

    async def aclose(self) -> None:
        for store in self.stores:
            close = getattr(store, "aclose", None) or getattr(store, "close", None)
            if close is not None:
                result = close()
                if hasattr(result, "__await__"):
                    await result


@pytest.fixture
async def made() -> AsyncIterator[_Made]:
    bag = _Made()
    yield bag
    await bag.aclose()


def _table() -> str:
    return "t_" + uuid.uuid4().hex[:16]


async def test_in_memory() -> None:
    assert await run_session_store_conformance(InMemorySessionStore, strict=True) == FULL


async def test_sqlite(tmp_path: Path, made: _Made) -> None:
    def make() -> SessionStore:
        return made.add(SQLiteSessionStore(tmp_path / f"{uuid.uuid4().hex}.db"))

    assert await run_session_store_conformance(make, strict=True) == FULL


async def test_postgres(postgres_server: PostgresServer, made: _Made) -> None:
    def make() -> SessionStore:
        return made.add(PostgresSessionStore(postgres_server.url, table=_table()))

    assert await run_session_store_conformance(make, strict=True) == FULL


async def test_redis(redis_server: RedisServer, made: _Made) -> None:
    def make() -> SessionStore:
        return made.add(RedisSessionStore(redis_server.url, prefix=f"t:{uuid.uuid4().hex}:"))

    assert await run_session_store_conformance(make, strict=True) == FULL


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_postgres_with_an_async_connection(postgres_server: PostgresServer, anyio_backend: str) -> None:
    import psycopg

    async with await psycopg.AsyncConnection.connect(postgres_server.url, autocommit=True) as conn:
        assert (
            await run_session_store_conformance(lambda: PostgresSessionStore(conn, table=_table()), strict=True) == FULL
        )


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_redis_with_an_async_client(redis_server: RedisServer, anyio_backend: str) -> None:
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(redis_server.url)
    try:
        assert (
            await run_session_store_conformance(
                lambda: RedisSessionStore(client, prefix=f"a:{uuid.uuid4().hex}:"), strict=True
            )
            == FULL
        )
    finally:
        await client.aclose()


async def test_sync_clients_are_accepted(postgres_server: PostgresServer, redis_server: RedisServer) -> None:
    import psycopg
    import redis

    with psycopg.connect(postgres_server.url, autocommit=True) as conn:
        assert (
            await run_session_store_conformance(lambda: PostgresSessionStore(conn, table=_table()), strict=True) == FULL
        )
    client = redis.Redis.from_url(redis_server.url)
    try:
        assert (
            await run_session_store_conformance(
                lambda: RedisSessionStore(client, prefix=f"s:{uuid.uuid4().hex}:"), strict=True
            )
            == FULL
        )
    finally:
        client.close()


class _AppendOnly:
    """A duck-typed store with only the required methods."""

    def __init__(self) -> None:
        self.data: dict[str, list[Any]] = {}

    async def append(self, key: Any, entries: list[Any]) -> None:
        if entries:
            self.data.setdefault(repr(sorted(key.items())), []).extend(entries)

    async def load(self, key: Any) -> list[Any] | None:
        return list(self.data.get(repr(sorted(key.items())), [])) or None


async def test_kit_skips_optional_methods_a_store_lacks() -> None:
    assert await run_session_store_conformance(_AppendOnly) == 6
    assert await run_session_store_conformance(_AppendOnly, strict=True) == 8
    skip: Callable[[], SessionStore] = InMemorySessionStore
    assert await run_session_store_conformance(skip) == 14
    assert await run_session_store_conformance(skip, skip_optional=frozenset({"delete"})) == 11
    assert await run_session_store_conformance(skip, skip_optional=frozenset({"list_session_summaries"})) == 13
    assert (
        await run_session_store_conformance(skip, skip_optional=frozenset({"list_session_summaries"}), strict=True)
        == 15
    )


async def test_kit_catches_a_broken_store() -> None:
    class Reversed(InMemorySessionStore):
        async def load(self, key: Any) -> Any:
            got = await super().load(key)
            return None if got is None else got[::-1]

    with pytest.raises(AssertionError):
        await run_session_store_conformance(Reversed)
