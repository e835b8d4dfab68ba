"""``RedisSessionStore``: session transcripts in Redis (redis-py).

Install with ``pip install 'claude-wrap[redis]'``; redis is imported only
when the store is first used. Layout, under a key prefix:

* ``<prefix>e:<project>\\x1f<session>\\x1f<subpath>``: a list of JSON entries;
* ``<prefix>s:<project>``: a sorted set of the project's sessions, scored by mtime (ms);
* ``<prefix>k:<project>\\x1f<session>``: the set of a session's subpaths.

Each append is one ``MULTI``/``EXEC`` transaction, so a batch lands whole
or not at all.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

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

__all__ = ["RedisSessionStore"]

_SEP = "\x1f"  # cannot appear in a project key; unlikely anywhere else


class RedisSessionStore(SessionStore):
    """A session store in Redis.

    ``client`` is a URL (``"redis://localhost:6379/0"``): the store then
    uses a synchronous redis-py client (thread-safe, pooled, reconnecting)
    from worker threads, so it works under asyncio and trio alike. Or pass
    an existing ``redis.asyncio.Redis`` (asyncio only) or ``redis.Redis``.
    """

    def __init__(self, client: Any, *, prefix: str = "claude:session:") -> None:
        self.prefix = prefix
        self._url = client if isinstance(client, str) else None
        self._client: Any = None if isinstance(client, str) else client
        self._owned = isinstance(client, str)

    def _get(self) -> Any:
        if self._client is None:
            import redis

            assert self._url is not None
            self._client = redis.Redis.from_url(self._url, socket_connect_timeout=5, socket_timeout=30)
        return self._client

    async def _pipe(self, build: Callable[[Any], None], *, transaction: bool = True) -> list[Any]:
        client = self._get()
        pipe = client.pipeline(transaction=transaction)
        build(pipe)
        if inspect.iscoroutinefunction(pipe.execute):
            result = await pipe.execute()
            await pipe.reset()
            return list(result)

        def run() -> list[Any]:
            with pipe:
                return list(pipe.execute())

        return await anyio.to_thread.run_sync(run)

    def _entries_key(self, pk: str, sid: str, sub: str) -> str:
        return f"{self.prefix}e:{pk}{_SEP}{sid}{_SEP}{sub}"

    def _sessions_key(self, pk: str) -> str:
        return f"{self.prefix}s:{pk}"

    def _subkeys_key(self, pk: str, sid: str) -> str:
        return f"{self.prefix}k:{pk}{_SEP}{sid}"

    async def append(self, key: SessionKey, entries: list[SessionStoreEntry]) -> None:
        if not entries:
            return
        pk, sid, sub = key_parts(key)
        values = [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in entries]

        def build(pipe: Any) -> None:
            pipe.rpush(self._entries_key(pk, sid, sub), *values)
            if sub:
                pipe.sadd(self._subkeys_key(pk, sid), sub)
            else:
                pipe.zadd(self._sessions_key(pk), {sid: now_ms()})

        await self._pipe(build)

    async def load(self, key: SessionKey) -> list[SessionStoreEntry] | None:
        (raw,) = await self._pipe(lambda p: p.lrange(self._entries_key(*key_parts(key)), 0, -1), transaction=False)
        return [json.loads(v) for v in raw] or None

    async def list_sessions(self, project_key: str) -> list[SessionStoreListEntry]:
        (rows,) = await self._pipe(
            lambda p: p.zrange(self._sessions_key(project_key), 0, -1, withscores=True), transaction=False
        )
        return [{"session_id": _text(sid), "mtime": int(score)} for sid, score in rows]

    async def delete(self, key: SessionKey) -> None:
        pk, sid, sub = key_parts(key)
        if sub:
            def build_one(pipe: Any) -> None:
                pipe.delete(self._entries_key(pk, sid, sub))
                pipe.srem(self._subkeys_key(pk, sid), sub)

            await self._pipe(build_one)
            return
        subs = await self.list_subkeys({"project_key": pk, "session_id": sid})

        def build_all(pipe: Any) -> None:
            pipe.delete(self._entries_key(pk, sid, ""), *(self._entries_key(pk, sid, s) for s in subs))
            pipe.delete(self._subkeys_key(pk, sid))
            pipe.zrem(self._sessions_key(pk), sid)

        await self._pipe(build_all)

    async def list_subkeys(self, key: SessionListSubkeysKey) -> list[str]:
        (members,) = await self._pipe(
            lambda p: p.smembers(self._subkeys_key(key["project_key"], key["session_id"])), transaction=False
        )
        return sorted(_text(m) for m in members)

    async def aclose(self) -> None:
        """Close the client the store made from a URL (not one you passed)."""
        if self._owned and self._client is not None:
            client, self._client = self._client, None
            await anyio.to_thread.run_sync(client.close)


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)
