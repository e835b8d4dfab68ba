"""``RedisSessionStore``: session transcripts in Redis (redis-py).

Install with ``pip install 'claude-wrap-sdk[redis]'``; redis is imported only
when the store is first used. Layout, under a key prefix:

* ``<prefix>e:<project>\\x1f<session>\\x1f<subpath>``: a list of JSON entries;
* ``<prefix>s:<project>``: a sorted set of the project's sessions, scored by mtime (ms);
* ``<prefix>k:<project>\\x1f<session>``: the set of a session's subpaths;
* ``<prefix>m:<project>\\x1f<session>``: the session's summary (JSON).

Each append is one ``MULTI``/``EXEC`` transaction, so a batch lands whole
or not at all. An append to a main transcript also rewrites its summary,
which needs the summary as it was: it ``WATCH``es the summary key, reads
and folds it, and starts over if another append to the same session got in
first (``EXEC`` then fails). A Lua script could not do this, because the
fold is Python; optimistic retries cost nothing while sessions are
written one writer at a time, which is the normal case.
"""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Callable, Generator
from typing import Any, TypeVar

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

__all__ = ["RedisSessionStore"]

_SEP = "\x1f"


def _part(text: str) -> str:
    """One part of a key, with the separator (and the escape) escaped, so
    that no two keys of different parts join to the same name: ``p\x1fq`` +
    ``r`` and ``p`` + ``q\x1fr`` stay apart. Parts as the binary names them
    (project keys, uuids, ``subagents/agent-<id>``) hold neither, and read
    as they always did."""
    if "%" not in text and _SEP not in text:
        return text
    return text.replace("%", "%25").replace(_SEP, "%1F")


_MAX_ATTEMPTS = 1000
T = TypeVar("T")
# One attempt at a WATCH transaction: yields (pipeline method, args), receives
# each call's result. Written once for the sync and the asyncio clients.
Attempt = Generator[tuple[str, tuple[Any, ...]], Any, T]


class RedisSessionStore(SpooledStore, SessionStore):
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
        where = without_secrets(client) if isinstance(client, str) else _client_address(client)
        self.spool_key: str | bool = f"redis:{where}#{prefix}"
        """Names this store's spool on this machine (``claude_wrap.flush_pending``)."""

    def _get(self) -> Any:
        if self._client is None:
            redis = import_extra("redis", "redis", "RedisSessionStore with a URL")
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
                anyio.from_thread.check_cancelled()  # given up on before it ran
                return list(pipe.execute())

        # A caller that stops waiting (a mirror deadline, a cancellation) is
        # not held up by a server that does not answer.
        return await anyio.to_thread.run_sync(run, abandon_on_cancel=True)

    def _entries_key(self, pk: str, sid: str, sub: str) -> str:
        return f"{self.prefix}e:{_part(pk)}{_SEP}{_part(sid)}{_SEP}{_part(sub)}"

    def _sessions_key(self, pk: str) -> str:
        return f"{self.prefix}s:{_part(pk)}"

    def _subkeys_key(self, pk: str, sid: str) -> str:
        return f"{self.prefix}k:{_part(pk)}{_SEP}{_part(sid)}"

    def _summary_key(self, pk: str, sid: str) -> str:
        return f"{self.prefix}m:{_part(pk)}{_SEP}{_part(sid)}"

    async def _optimistic(self, attempt: Callable[[], Attempt[T]]) -> T:
        """Run ``attempt`` until its ``EXEC`` is not beaten by a write to a
        watched key. Every round lets at least one contender through, so
        this ends; the random pause spreads out the ones that retry. The
        cap only guards against a loop nobody foresaw."""
        from redis.exceptions import WatchError

        client = self._get()
        is_async = inspect.iscoroutinefunction(client.execute_command)
        for tries in range(1, _MAX_ATTEMPTS + 1):
            try:
                if is_async:
                    return await _attempt_async(client, attempt())
                return await anyio.to_thread.run_sync(_attempt_sync, client, attempt(), abandon_on_cancel=True)
            except WatchError:
                if tries == _MAX_ATTEMPTS:
                    raise
                await anyio.sleep(random.uniform(0, 0.001 * min(tries, 20)))
        raise AssertionError("unreachable")

    async def append(self, key: SessionKey, entries: list[SessionStoreEntry]) -> None:
        if not entries:
            return
        pk, sid, sub = key_parts(key)
        values = [json_text(e) for e in entries]
        if not sub:
            await self._optimistic(lambda: self._append_main(key, entries, values))
            return

        def build(pipe: Any) -> None:
            pipe.rpush(self._entries_key(pk, sid, sub), *values)
            pipe.sadd(self._subkeys_key(pk, sid), sub)

        await self._pipe(build)

    def _append_main(self, key: SessionKey, entries: list[SessionStoreEntry], values: list[str]) -> Attempt[None]:
        pk, sid, _ = key_parts(key)
        summary_key, entries_key = self._summary_key(pk, sid), self._entries_key(pk, sid, "")
        yield "watch", (summary_key, entries_key)
        raw = yield "get", (summary_key,)
        prev: SessionSummaryEntry | None = None
        if raw is not None:
            stored = json.loads(raw)
            prev = {"session_id": sid, "mtime": int(stored["mtime"]), "data": stored["data"]}
        else:
            # No summary yet: the session may hold entries written before
            # summaries existed; summarise them once.
            old = yield "lrange", (entries_key, 0, -1)
            if old:
                prev = fold_session_summary(None, key, [json.loads(v) for v in old])
        summary = fold_session_summary(prev, key, entries)
        mtime = max(now_ms(), summary["mtime"])  # the session's score never goes back
        stored_now = json_text({"mtime": mtime, "data": summary["data"]})
        yield "multi", ()
        yield "rpush", (entries_key, *values)
        yield "zadd", (self._sessions_key(pk), {sid: mtime})
        yield "set", (summary_key, stored_now)
        yield "execute", ()

    async def load(self, key: SessionKey) -> list[SessionStoreEntry] | None:
        (raw,) = await self._pipe(lambda p: p.lrange(self._entries_key(*key_parts(key)), 0, -1), transaction=False)
        return [json.loads(v) for v in raw] or None

    async def list_sessions(self, project_key: str) -> list[SessionStoreListEntry]:
        (rows,) = await self._pipe(
            lambda p: p.zrange(self._sessions_key(project_key), 0, -1, withscores=True), transaction=False
        )
        return [{"session_id": _text(sid), "mtime": int(score)} for sid, score in rows]

    async def list_session_summaries(self, project_key: str) -> list[SessionSummaryEntry]:
        (members,) = await self._pipe(lambda p: p.zrange(self._sessions_key(project_key), 0, -1), transaction=False)
        ids = [_text(m) for m in members]
        if not ids:
            return []
        (raws,) = await self._pipe(
            lambda p: p.mget([self._summary_key(project_key, sid) for sid in ids]), transaction=False
        )
        out: list[SessionSummaryEntry] = []
        for sid, raw in zip(ids, raws):
            if raw is not None:
                stored = json.loads(raw)
                out.append({"session_id": sid, "mtime": int(stored["mtime"]), "data": stored["data"]})
        return out

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
            pipe.delete(self._subkeys_key(pk, sid), self._summary_key(pk, sid))
            pipe.zrem(self._sessions_key(pk), sid)

        await self._pipe(build_all)

    async def list_subkeys(self, key: SessionListSubkeysKey) -> list[str]:
        (members,) = await self._pipe(
            lambda p: p.smembers(self._subkeys_key(key["project_key"], key["session_id"])), transaction=False
        )
        return sorted(_text(m) for m in members)

    def __getstate__(self) -> dict[str, Any]:
        """A store made from a URL travels as its URL and prefix (to a
        process pool, a Ray worker ...): the copy opens its own client."""
        if not self._owned:
            raise TypeError(
                "a RedisSessionStore built on a client object cannot be copied to another process; "
                "build it from a URL to send it there"
            )
        return {"url": self._url, "prefix": self.prefix}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["url"], prefix=state["prefix"])  # type: ignore[misc]

    async def aclose(self) -> None:
        """Close the client the store made from a URL (not one you passed)."""
        if self._owned and self._client is not None:
            client, self._client = self._client, None
            await anyio.to_thread.run_sync(client.close)


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _attempt_sync(client: Any, attempt: Attempt[T]) -> T:
    with client.pipeline(transaction=True) as pipe:
        try:
            name, args = next(attempt)
            while True:
                if name == "execute":
                    # Its caller gave up while the reads before it waited (a
                    # server that stopped answering): write nothing, so that
                    # a caller that sends the batch again does not write it twice.
                    anyio.from_thread.check_cancelled()
                name, args = attempt.send(getattr(pipe, name)(*args))
        except StopIteration as done:
            result: T = done.value
            return result


async def _attempt_async(client: Any, attempt: Attempt[T]) -> T:
    pipe = client.pipeline(transaction=True)
    try:
        name, args = next(attempt)
        while True:
            got = getattr(pipe, name)(*args)
            # Before MULTI a call runs at once (a coroutine); after it, it
            # is queued and returns the pipeline.
            name, args = attempt.send(await got if inspect.iscoroutine(got) else got)
    except StopIteration as done:
        result: T = done.value
        return result
    finally:
        await pipe.reset()


def _client_address(client: Any) -> str:
    """Where a redis-py client points, without credentials."""
    kwargs = getattr(getattr(client, "connection_pool", None), "connection_kwargs", None)
    if isinstance(kwargs, dict) and "host" in kwargs:
        return f"{kwargs['host']}:{kwargs.get('port', 6379)}/{kwargs.get('db', 0)}"
    return f"{type(client).__module__}.{type(client).__qualname__}"
