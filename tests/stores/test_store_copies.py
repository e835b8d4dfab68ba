"""Stores built from a URL travel to other processes (a fleet's nodes) by pickle.

The copy is the same store on the same server: it opens its own client and
sees what the original wrote. A store built on a live client object cannot
travel, and says how to build one that can.
"""

from __future__ import annotations

import pickle
import uuid
from typing import Any

import pytest
from _servers import PostgresServer, RedisServer

from claude_wrap import PostgresSessionStore, RedisSessionStore

pytestmark = [pytest.mark.anyio, pytest.mark.stores]

KEY: Any = {"project_key": "p", "session_id": "11111111-2222-4333-8444-555555555555"}


def _made(kind: str, url: str) -> Any:
    if kind == "redis":
        return RedisSessionStore(url, prefix=f"t:{uuid.uuid4().hex}:")
    return PostgresSessionStore(url, table="t_" + uuid.uuid4().hex[:16], connect_timeout=7.5)


@pytest.mark.parametrize("kind", ["redis", "postgres"])
async def test_a_store_built_from_a_url_is_copied_with_its_settings(
    kind: str, redis_server: RedisServer, postgres_server: PostgresServer
) -> None:
    store = _made(kind, redis_server.url if kind == "redis" else postgres_server.url)
    await store.append(KEY, [{"type": "user", "uuid": "u1"}])  # the original now holds a live client
    copy = pickle.loads(pickle.dumps(store))
    try:
        assert type(copy) is type(store)
        if kind == "redis":
            assert copy.prefix == store.prefix
        else:
            assert (copy.table, copy.connect_timeout) == (store.table, 7.5)
        await copy.append(KEY, [{"type": "assistant", "uuid": "a1"}])
        assert [e["uuid"] for e in await store.load(KEY)] == ["u1", "a1"]
    finally:
        await copy.aclose()
        await store.aclose()


async def test_a_store_built_on_a_client_object_refuses_to_travel(
    redis_server: RedisServer, postgres_server: PostgresServer
) -> None:
    import psycopg
    import redis

    client = redis.Redis.from_url(redis_server.url)
    conn = psycopg.connect(postgres_server.url, autocommit=True)
    try:
        with pytest.raises(TypeError, match="build it from a URL"):
            pickle.dumps(RedisSessionStore(client))
        with pytest.raises(TypeError, match="build it from a connection string"):
            pickle.dumps(PostgresSessionStore(conn))
    finally:
        client.close()
        conn.close()
