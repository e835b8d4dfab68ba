"""Session summaries on every shipped store, against real servers.

``list_sessions_from_store`` reads stored summaries when a store has them
(the fast path) and loads every transcript otherwise (the slow path): both
must give the same list, page by page (but for ``file_size``, which only a
loaded transcript has, as in the official package). Summaries must also survive appends
to one session from several connections at once, sessions written before
summaries existed, and summaries that are missing or stale.
"""

from __future__ import annotations

import dataclasses
import random
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from _servers import PostgresServer, RedisServer
from _store_views import CountingLoads, WithoutSummaries, assert_summary_consistent

from claude_wrap import (
    InMemorySessionStore,
    PostgresSessionStore,
    RedisSessionStore,
    SQLiteSessionStore,
    get_session_info_from_store,
    list_sessions_from_store,
    project_key_for_directory,
)
from claude_wrap._sessions.store import SessionKey, SessionStore, key_parts
from claude_wrap._sessions.summary import (
    fold_session_summary,
    summary_to_info,
)
from claude_wrap.testing import run_session_store_conformance

pytestmark = [pytest.mark.anyio, pytest.mark.stores]

KINDS = ["memory", "sqlite", "postgres", "redis"]


class _Stores:
    """Makes stores of one kind that share their data; closes them at the end."""

    def __init__(self, kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
        self.kind = kind
        self.made: list[Any] = []
        if kind == "memory":
            self._shared = InMemorySessionStore()
        elif kind == "sqlite":
            self.target: str = str(tmp_path / "summaries.db")
        elif kind == "postgres":
            self.target = request.getfixturevalue("postgres_server").url
            self.extra: dict[str, Any] = {"table": "sum_" + uuid.uuid4().hex[:12]}
        else:
            self.target = request.getfixturevalue("redis_server").url
            self.extra = {"prefix": f"sum:{uuid.uuid4().hex}:"}

    def new(self) -> Any:
        """Another store over the same data (its own connection, where there is one)."""
        if self.kind == "memory":
            return self._shared
        if self.kind == "sqlite":
            store: Any = SQLiteSessionStore(self.target)
        elif self.kind == "postgres":
            store = PostgresSessionStore(self.target, **self.extra)
        else:
            store = RedisSessionStore(self.target, **self.extra)
        self.made.append(store)
        return store

    async def aclose(self) -> None:
        for store in self.made:
            if isinstance(store, SQLiteSessionStore):
                store.close()
            else:
                await store.aclose()


@pytest.fixture
async def stores(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[_Stores]:
    made = _Stores(request.param, request, tmp_path)
    yield made
    await made.aclose()


# -- a varied project ---------------------------------------------------------------

_TEXTS = [
    "hello",
    "fix the bug\nplease",
    "<command-name>/init</command-name>",
    "[Request interrupted by user]",
    "x" * 250,
    "",
]


def _entry(rng: random.Random, n: int) -> dict[str, Any]:
    kind = rng.choice(["user", "user", "assistant", "custom-title", "ai-title", "tag", "x"])
    entry: dict[str, Any] = {"type": kind, "uuid": f"e{n}"}
    if rng.random() < 0.7:
        entry["timestamp"] = f"2024-03-{rng.randint(1, 28):02d}T10:{rng.randint(0, 59):02d}:00.000Z"
    if kind == "user":
        text = rng.choice(_TEXTS)
        content: Any = text if rng.random() < 0.5 else [{"type": "text", "text": text}]
        if rng.random() < 0.1:
            content = [{"type": "tool_result", "tool_use_id": "t", "content": "out"}]
        entry["message"] = {"role": "user", "content": content}
        if rng.random() < 0.1:
            entry["isMeta"] = True
    elif kind == "tag":
        entry["tag"] = rng.choice(["", "review", "wip"])
    for field, values in (("customTitle", ["Title A", ""]), ("aiTitle", ["AI title"]), ("lastPrompt", ["latest"]),
                          ("gitBranch", ["main", "dev"]), ("cwd", ["/somewhere"]), ("summary", ["a summary"])):  # fmt: skip
        if rng.random() < 0.12:
            entry[field] = rng.choice(values)
    return entry


async def _fill(store: Any, project: str, count: int, seed: int = 7) -> list[str]:
    """``count`` sessions of a few appends each, some with subagents; their ids."""
    rng = random.Random(seed)
    ids = []
    n = 0
    for i in range(count):
        sid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        ids.append(sid)
        key: SessionKey = {"project_key": project, "session_id": sid}
        for b in range(rng.randint(1, 4)):
            batch = [_entry(rng, n + j) for j in range(rng.randint(1, 5))]
            n += len(batch)
            if b == 0 and i % 9 == 4:
                batch[0]["isSidechain"] = True
            if b == 0 and i % 11 == 5:
                batch = [{"type": "permission-mode", "mode": "plan"}]  # metadata only
            await store.append(key, batch)
            if rng.random() < 0.3:
                sub: SessionKey = {**key, "subpath": f"subagents/agent-{b}"}
                await store.append(
                    sub,
                    [
                        {
                            "type": "user",
                            "isSidechain": True,
                            "customTitle": "SUB",
                            "message": {"role": "user", "content": "sub"},
                        }
                    ],
                )
        # Sessions written in the same millisecond tie, and a listing keeps
        # tied sessions in the order the store returns them, which the
        # summaries and the session list need not share.
        await anyio.sleep(0.002)
    return ids


def _sized(infos: list[Any]) -> list[Any]:
    """The infos without ``file_size`` (a summary has no file)."""
    return [dataclasses.replace(i, file_size=None) for i in infos]


async def _both(store: Any, directory: Path, **page: Any) -> tuple[list[Any], list[Any]]:
    fast = await list_sessions_from_store(store, directory=directory, **page)
    slow = await list_sessions_from_store(WithoutSummaries(store), directory=directory, **page)  # type: ignore[arg-type]
    return _sized(fast), _sized(slow)


# -- fast path = slow path ----------------------------------------------------------


@pytest.mark.parametrize("stores", KINDS, indirect=True)
async def test_the_fast_path_lists_what_the_slow_path_lists(stores: _Stores, tmp_path: Path) -> None:
    store = stores.new()
    project = project_key_for_directory(tmp_path)
    await _fill(store, project, 40)
    await _fill(store, "another-project", 5, seed=8)
    counting = CountingLoads(store)
    fast = await list_sessions_from_store(counting, directory=tmp_path)  # type: ignore[arg-type]
    assert counting.loads == [], "fresh summaries need no load"
    slow = await list_sessions_from_store(WithoutSummaries(store), directory=tmp_path)  # type: ignore[arg-type]
    assert fast == _sized(slow)
    assert 25 <= len(fast) < 40  # sidechain and metadata-only sessions are left out
    assert any(i.custom_title for i in fast) and any(i.tag for i in fast)
    assert all(i.file_size is None for i in fast) and all(i.file_size for i in slow)
    for page in ({"limit": 5}, {"limit": 7, "offset": 3}, {"offset": 30}, {"limit": 0, "offset": 2}, {"offset": 99}):
        got_fast, got_slow = await _both(store, tmp_path, **page)
        assert got_fast == got_slow, page


@pytest.mark.parametrize("stores", KINDS, indirect=True)
async def test_stale_and_missing_summaries_are_loaded_on_the_page_only(stores: _Stores, tmp_path: Path) -> None:
    store = stores.new()
    project = project_key_for_directory(tmp_path)
    ids = await _fill(store, project, 12)
    summaries = {s["session_id"]: s for s in await store.list_session_summaries(project)}

    class Lagging(CountingLoads):
        """Summaries as they were: one missing, one older than its session."""

        async def list_session_summaries(self, project_key: str) -> Any:
            current = await self.store.list_session_summaries(project_key)
            return [
                summaries[s["session_id"]] if s["session_id"] == ids[2] else s
                for s in current
                if s["session_id"] != ids[3]
            ]

    await anyio.sleep(0.005)  # a later mtime for the session written next
    await store.append({"project_key": project, "session_id": ids[2]}, [{"type": "x", "customTitle": "renamed later"}])
    lagging = Lagging(store)
    fast = await list_sessions_from_store(lagging, directory=tmp_path)  # type: ignore[arg-type]
    assert sorted(lagging.loads) == sorted([ids[2], ids[3]])
    assert _sized(fast) == _sized(await list_sessions_from_store(WithoutSummaries(store), directory=tmp_path))  # type: ignore[arg-type]
    assert next(i for i in fast if i.session_id == ids[2]).custom_title == "renamed later"
    # Loaded sessions have their size, summarised ones none.
    assert {i.session_id for i in fast if i.file_size} == {ids[2], ids[3]} & {i.session_id for i in fast}
    # ids[2] was written last: it heads the list, and a page without it loads nothing.
    lagging.loads.clear()
    await list_sessions_from_store(lagging, directory=tmp_path, limit=3, offset=len(fast) - 3)  # type: ignore[arg-type]
    assert ids[2] not in lagging.loads


async def test_in_memory_write_times_never_tie(tmp_path: Path) -> None:
    store = InMemorySessionStore()
    project = project_key_for_directory(tmp_path)
    ids = [str(uuid.uuid4()) for _ in range(50)]
    for sid in ids:  # far faster than one per millisecond
        await store.append(
            {"project_key": project, "session_id": sid}, [{"type": "user", "message": {"role": "user", "content": sid}}]
        )
    mtimes = [e["mtime"] for e in await store.list_sessions(project)]
    assert len(set(mtimes)) == len(ids) and mtimes == sorted(mtimes)
    assert [i.session_id for i in await list_sessions_from_store(store, directory=tmp_path)] == ids[::-1]


async def test_a_summary_of_a_deleted_session_is_not_listed() -> None:
    store = InMemorySessionStore()
    project = project_key_for_directory("/tmp")
    await store.append(
        {"project_key": project, "session_id": "a"}, [{"type": "user", "message": {"role": "user", "content": "hi"}}]
    )
    kept = await store.list_session_summaries(project)

    class Outdated(CountingLoads):
        async def list_session_summaries(self, project_key: str) -> Any:
            return kept

    await store.delete({"project_key": project, "session_id": "a"})
    assert await list_sessions_from_store(Outdated(store), directory="/tmp") == []  # type: ignore[arg-type]


async def test_summaries_without_list_sessions_and_a_store_with_neither() -> None:
    store = InMemorySessionStore()
    project = project_key_for_directory("/tmp")
    await store.append(
        {"project_key": project, "session_id": "a"}, [{"type": "user", "message": {"role": "user", "content": "hi"}}]
    )

    class SummariesOnly:
        async def append(self, key: Any, entries: list[Any]) -> None: ...

        async def load(self, key: Any) -> Any:
            return None

        async def list_session_summaries(self, project_key: str) -> Any:
            return await store.list_session_summaries(project_key)

    (only,) = await list_sessions_from_store(SummariesOnly(), directory="/tmp")  # type: ignore[arg-type]
    assert only.first_prompt == "hi"
    with pytest.raises(ValueError, match="implements neither list_session_summaries"):
        await list_sessions_from_store(_AppendOnly(), directory="/tmp")  # type: ignore[arg-type]


@pytest.mark.parametrize("stores", KINDS, indirect=True)
async def test_get_session_info_from_store_agrees(stores: _Stores, tmp_path: Path) -> None:
    store = stores.new()
    project = project_key_for_directory(tmp_path)
    ids = await _fill(store, project, 10)
    listed = {i.session_id: i for i in await list_sessions_from_store(WithoutSummaries(store), directory=tmp_path)}  # type: ignore[arg-type]
    for sid in ids:
        got = await get_session_info_from_store(store, sid, directory=tmp_path)
        # Its time is the last entry's (the store's write time is not asked for).
        assert (dataclasses.replace(got, last_modified=0) if got else None) == (
            dataclasses.replace(listed[sid], last_modified=0) if sid in listed else None
        )


# -- writing summaries -----------------------------------------------------------------


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
@pytest.mark.parametrize("stores", ["sqlite", "postgres", "redis"], indirect=True)
async def test_concurrent_appends_from_several_connections_lose_nothing(stores: _Stores, anyio_backend: str) -> None:
    writers, rounds = 6, 8
    clients = [stores.new() for _ in range(writers)]
    project, sid = "proj", str(uuid.uuid4())
    key: SessionKey = {"project_key": project, "session_id": sid}

    async def write(n: int) -> None:
        for r in range(rounds):
            # Every writer starts on a new session at once (the create race),
            # then keeps renaming it (the read-fold-write race).
            batch: list[dict[str, Any]] = [{"type": "x", "customTitle": f"w{n} r{r}", "pad": "p" * (n * rounds + r)}]
            if r == 0:
                batch.insert(0, {"type": "user", "message": {"role": "user", "content": f"writer {n}"}})
            await clients[n].append(key, batch)

    async with anyio.create_task_group() as tg:
        for n in range(writers):
            tg.start_soon(write, n)
    entries = await clients[0].load(key)
    assert len(entries) == writers * rounds + writers
    await assert_summary_consistent(clients[0], project, sid)
    (summary,) = await clients[0].list_session_summaries(project)
    info = summary_to_info(summary)
    assert info is not None and info.custom_title == entries[-1]["customTitle"]
    assert info.first_prompt == entries[0]["message"]["content"]


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_concurrent_appends_through_a_shared_async_client(
    postgres_server: PostgresServer, redis_server: RedisServer, anyio_backend: str
) -> None:
    import psycopg
    import redis.asyncio

    async with await psycopg.AsyncConnection.connect(postgres_server.url, autocommit=True) as conn:
        client = redis.asyncio.Redis.from_url(redis_server.url)
        try:
            for store in (
                PostgresSessionStore(conn, table="shared_" + uuid.uuid4().hex[:8]),
                RedisSessionStore(client, prefix=f"sh:{uuid.uuid4().hex}:"),
            ):
                key: SessionKey = {"project_key": "proj", "session_id": "s"}

                async def write(n: int, store: Any = store, key: SessionKey = key) -> None:
                    for r in range(5):
                        await store.append(key, [{"type": "x", "customTitle": f"{n}-{r}", "n": n}])

                async with anyio.create_task_group() as tg:
                    for n in range(8):
                        tg.start_soon(write, n)
                assert len(await store.load(key)) == 40
                await assert_summary_consistent(store, "proj", "s")
        finally:
            await client.aclose()


@pytest.mark.parametrize("stores", ["sqlite", "postgres", "redis"], indirect=True)
async def test_sessions_written_before_summaries_existed(stores: _Stores, tmp_path: Path) -> None:
    store = stores.new()
    project = project_key_for_directory(tmp_path)
    ids = await _fill(store, project, 8)
    expected = await list_sessions_from_store(WithoutSummaries(store), directory=tmp_path)  # type: ignore[arg-type]
    await _forget_summaries(store, project, ids)
    assert await store.list_session_summaries(project) == []
    counting = CountingLoads(store)
    assert await list_sessions_from_store(counting, directory=tmp_path) == expected  # type: ignore[arg-type]
    assert sorted(counting.loads) == sorted(ids)  # every one loaded instead
    # The next append to an old session summarises everything it already holds.
    await store.append({"project_key": project, "session_id": ids[0]}, [{"type": "x", "gitBranch": "later"}])
    await assert_summary_consistent(store, project, ids[0])
    assert [s["session_id"] for s in await store.list_session_summaries(project)] == [ids[0]]


async def _forget_summaries(store: Any, project: str, ids: list[str]) -> None:
    """What an older claude_wrap left behind: transcripts, no summaries."""
    if isinstance(store, SQLiteSessionStore):
        await store._run(lambda conn: conn.execute("DELETE FROM session_summaries"))
    elif isinstance(store, PostgresSessionStore):
        await store._tx([(f"DELETE FROM {store.summary_table}", ())])
    else:
        assert isinstance(store, RedisSessionStore)
        await store._pipe(lambda p: p.delete(*(store._summary_key(project, sid) for sid in ids)))


@pytest.mark.parametrize("stores", KINDS, indirect=True)
async def test_delete_drops_the_summary_and_subagents_never_touch_it(stores: _Stores) -> None:
    store = stores.new()
    key: SessionKey = {"project_key": "p", "session_id": "s"}
    await store.append(key, [{"type": "user", "message": {"role": "user", "content": "main prompt"}}])
    before = await store.list_session_summaries("p")
    await store.append(
        {**key, "subpath": "subagents/agent-1"},
        [{"type": "user", "customTitle": "sub", "message": {"role": "user", "content": "sub prompt"}}],
    )
    assert await store.list_session_summaries("p") == before
    await store.delete({**key, "subpath": "subagents/agent-1"})
    assert await store.list_session_summaries("p") == before
    await store.delete(key)
    assert await store.list_session_summaries("p") == []


# -- the conformance kit notices broken summaries --------------------------------------


class _AppendOnly:
    async def append(self, key: Any, entries: list[Any]) -> None: ...

    async def load(self, key: Any) -> Any:
        return None


class _Forgetful(InMemorySessionStore):
    """Folds each batch into a fresh summary, dropping the earlier ones."""

    async def append(self, key: Any, entries: list[Any]) -> None:
        await super().append(key, entries)
        if entries and not key.get("subpath"):
            parts = key_parts(key)
            summary = fold_session_summary(None, key, entries)
            summary["mtime"] = self._summaries[parts[:2]]["mtime"]
            self._summaries[parts[:2]] = summary


class _Racy(InMemorySessionStore):
    """Reads the summary, yields to other tasks, then writes its fold."""

    async def append(self, key: Any, entries: list[Any]) -> None:
        parts = key_parts(key)
        prev = self._summaries.get(parts[:2])
        await anyio.sleep(0.001)
        await super().append(key, entries)
        if prev is not None and not parts[2]:
            lost = fold_session_summary(prev, key, entries)
            lost["mtime"] = self._summaries[parts[:2]]["mtime"]
            self._summaries[parts[:2]] = lost


@pytest.mark.parametrize("broken", [_Forgetful, _Racy])
async def test_the_kit_catches_a_broken_summary_store(broken: Callable[[], SessionStore]) -> None:
    await run_session_store_conformance(broken)  # the official contracts do not see it
    with pytest.raises(AssertionError, match="summary"):
        await run_session_store_conformance(broken, strict=True)
