"""A conformance kit for ``SessionStore`` implementations.

``await run_session_store_conformance(make_store)`` checks the contracts the
mirror, resume and helper functions rely on, as plain ``assert`` statements
(no pytest needed). ``make_store`` is called once per contract, so each
starts from an empty store; it may be sync or async. Contracts for the
optional methods run only when the store implements them (and they are not
named in ``skip_optional``).

By default these are the official package's 14 contracts, so a store that
passes its kit passes this one and the other way round. ``strict=True``
adds what a production store also needs: odd characters and big batches
stored as they are, and summaries that stay the fold of everything
appended, concurrent appends and deletes included.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Awaitable, Callable
from typing import Any, Union, cast

import anyio

from claude_wrap._sessions.store import SessionKey, SessionStore, SessionSummaryEntry, implements
from claude_wrap._sessions.summary import fold_session_summary

__all__ = ["run_session_store_conformance"]

_OPTIONAL = frozenset({"list_sessions", "list_session_summaries", "delete", "list_subkeys"})
_KEY: SessionKey = {"project_key": "proj", "session_id": "sess"}
_SUB1: SessionKey = {**_KEY, "subpath": "subagents/agent-1"}
_SUB2: SessionKey = {**_KEY, "subpath": "subagents/agent-2"}

MakeStore = Callable[[], Union[SessionStore, Awaitable[SessionStore]]]


def _e(**fields: Any) -> Any:
    return {"type": "x", **fields}


def _user(text: str, second: int, **fields: Any) -> Any:
    return {
        "type": "user",
        "uuid": f"u{second}",
        "timestamp": f"2024-01-01T00:00:{second:02d}.000Z",
        "message": {"role": "user", "content": text},
        **fields,
    }


def _is_epoch_ms(value: Any) -> bool:
    # Above 1e12: epoch seconds would read as a date in 1970.
    return math.isfinite(value) and value > 1e12


class _Kit:
    """The contracts, one method per group; each returns how many ran."""

    def __init__(self, make_store: MakeStore, has: dict[str, bool]) -> None:
        self.make_store = make_store
        self.has = has

    async def fresh(self) -> SessionStore:
        made = self.make_store()
        return await made if inspect.isawaitable(made) else made

    async def required(self) -> int:
        # 1. append then load: the same entries in the same order (deep equality).
        s = await self.fresh()
        await s.append(_KEY, [_e(uuid="b", n=1), _e(uuid="a", n=2)])
        assert await s.load(_KEY) == [_e(uuid="b", n=1), _e(uuid="a", n=2)], (
            "append/load must round-trip entries in order"
        )

        # 2. an unknown key loads as None (also an unknown subpath of a known session).
        s = await self.fresh()
        assert await s.load({"project_key": "proj", "session_id": "nope"}) is None, "an unknown key must load as None"
        await s.append(_KEY, [_e(uuid="x", n=1)])
        assert await s.load({**_KEY, "subpath": "nope"}) is None, "an unknown subpath must load as None"

        # 3. several appends keep call order.
        s = await self.fresh()
        await s.append(_KEY, [_e(uuid="z", n=1)])
        await s.append(_KEY, [_e(uuid="a", n=2), _e(uuid="m", n=3)])
        await s.append(_KEY, [_e(uuid="b", n=4)])
        want = [_e(uuid="z", n=1), _e(uuid="a", n=2), _e(uuid="m", n=3), _e(uuid="b", n=4)]
        assert await s.load(_KEY) == want, "appends must keep call order"

        # 4. append([]) leaves the entries as they are.
        s = await self.fresh()
        await s.append(_KEY, [_e(uuid="a", n=1)])
        await s.append(_KEY, [])
        assert await s.load(_KEY) == [_e(uuid="a", n=1)], "append([]) must change nothing"

        # 5. a subpath is stored apart from the main transcript.
        s = await self.fresh()
        await s.append(_KEY, [_e(uuid="m", n=1)])
        await s.append(_SUB1, [_e(uuid="s", n=1)])
        assert await s.load(_KEY) == [_e(uuid="m", n=1)], "a subpath's entries must not reach the main transcript"
        assert await s.load(_SUB1) == [_e(uuid="s", n=1)], "a subpath must keep its own entries"

        # 6. project keys are isolated.
        s = await self.fresh()
        a: SessionKey = {"project_key": "A", "session_id": "s1"}
        b: SessionKey = {"project_key": "B", "session_id": "s1"}
        await s.append(a, [_e(**{"from": "A"})])
        await s.append(b, [_e(**{"from": "B"})])
        assert await s.load(a) == [_e(**{"from": "A"})], "project keys must be isolated"
        assert await s.load(b) == [_e(**{"from": "B"})], "project keys must be isolated"
        if self.has["list_sessions"]:
            assert len(await s.list_sessions("A")) == 1 and len(await s.list_sessions("B")) == 1, (
                "one session per project"
            )
        return 6

    async def listing(self) -> int:
        # 7. list_sessions: the project's session ids, mtimes in epoch ms.
        s = await self.fresh()
        for pk, sid in (("proj", "a"), ("proj", "b"), ("other", "c")):
            await s.append({"project_key": pk, "session_id": sid}, [_e(n=1)])
        listed = await s.list_sessions("proj")
        assert sorted(x["session_id"] for x in listed) == ["a", "b"], "list_sessions must list the project's sessions"
        assert all(_is_epoch_ms(x["mtime"]) for x in listed), "list_sessions mtime must be epoch ms"
        assert await s.list_sessions("never-appended-project") == [], "an unknown project has no sessions"

        # 8. list_sessions leaves out subpaths.
        s = await self.fresh()
        main: SessionKey = {"project_key": "proj", "session_id": "main"}
        await s.append(main, [_e(n=1)])
        await s.append({**main, "subpath": "subagents/agent-1"}, [_e(n=1)])
        assert [x["session_id"] for x in await s.list_sessions("proj")] == ["main"], (
            "list_sessions must leave out subpaths"
        )
        return 2

    async def summaries(self) -> int:
        # 14. the stored summary is the fold's output, stamped with the
        # store's write time (the list_sessions clock), and folds further; a
        # subpath's entries do not touch it.
        s = await self.fresh()
        key: SessionKey = {"project_key": "proj", "session_id": "summ-sess"}
        await s.append(
            key,
            [_e(timestamp="2024-01-01T00:00:00.000Z", customTitle="first"), _e(timestamp="2024-01-01T00:00:01.000Z")],
        )
        await s.append(key, [_e(timestamp="2024-01-01T00:00:02.000Z", customTitle="second")])
        await s.append({"project_key": "other", "session_id": "elsewhere"}, [_e(timestamp="2024-01-01T00:00:00.000Z")])
        by_id = {x["session_id"]: x for x in await s.list_session_summaries("proj")}
        assert set(by_id) == {"summ-sess"}, "one summary per main transcript of the project"
        summ = by_id["summ-sess"]
        assert _is_epoch_ms(summ["mtime"]), "summary mtime must be epoch ms"
        if self.has["list_sessions"]:
            mtimes = {x["session_id"]: x["mtime"] for x in await s.list_sessions("proj")}
            assert summ["mtime"] >= mtimes["summ-sess"], (
                "summary mtime must be the store's write time, as in list_sessions"
            )
        assert isinstance(summ["data"], dict), "summary data must be a dict"
        again = fold_session_summary(summ, key, [_e(timestamp="2024-01-01T00:00:03.000Z")])
        assert (again["session_id"], again["mtime"]) == ("summ-sess", summ["mtime"]), (
            "the stored summary must fold further"
        )
        await s.append(
            {**key, "subpath": "subagents/agent-1"}, [_e(timestamp="2024-01-01T00:00:09.000Z", customTitle="subagent")]
        )
        after = {x["session_id"]: x for x in await s.list_session_summaries("proj")}
        assert after["summ-sess"]["data"] == summ["data"], "a subpath's entries must not touch the session's summary"
        assert await s.list_session_summaries("never-appended-project") == [], "an unknown project has no summaries"
        if self.has["delete"]:
            await s.delete(key)
            assert await s.list_session_summaries("proj") == [], "deleting a session must drop its summary"
        return 1

    async def deleting(self) -> int:
        # 9. delete, then load is None (deleting an unknown key is fine).
        s = await self.fresh()
        await s.delete({"project_key": "proj", "session_id": "never-written"})
        await s.append(_KEY, [_e(n=1)])
        await s.delete(_KEY)
        assert await s.load(_KEY) is None, "a deleted transcript must load as None"

        # 10. deleting a main transcript removes its subkeys, nothing else.
        s = await self.fresh()
        other: SessionKey = {"project_key": "proj", "session_id": "sess2"}
        other_project: SessionKey = {"project_key": "other-proj", "session_id": _KEY["session_id"]}
        for key in (_KEY, _SUB1, _SUB2, other, other_project):
            await s.append(key, [_e(n=1)])
        await s.delete(_KEY)
        for key in (_KEY, _SUB1, _SUB2):
            assert await s.load(key) is None, "deleting a session must delete its subkeys"
        for key in (other, other_project):
            kept = await s.load(key)
            assert kept is not None and len(kept) == 1, "deleting a session must keep the others"
        if self.has["list_subkeys"]:
            assert await s.list_subkeys(_KEY) == [], "a deleted session has no subkeys"
        if self.has["list_sessions"]:
            listed = [x["session_id"] for x in await s.list_sessions(_KEY["project_key"])]
            assert _KEY["session_id"] not in listed, "a deleted session must not be listed"

        # 11. deleting a subpath removes only it.
        s = await self.fresh()
        for key in (_KEY, _SUB1, _SUB2):
            await s.append(key, [_e(n=1)])
        await s.delete(_SUB1)
        assert await s.load(_SUB1) is None, "a deleted subpath must load as None"
        for key in (_SUB2, _KEY):
            kept = await s.load(key)
            assert kept is not None and len(kept) == 1, "deleting a subpath must keep the rest"
        if self.has["list_subkeys"]:
            assert await s.list_subkeys(_KEY) == ["subagents/agent-2"], "a deleted subpath must not be listed"
        return 3

    async def subkeys(self) -> int:
        # 12. list_subkeys: the session's subpaths only.
        s = await self.fresh()
        await s.append(_KEY, [_e(n=1)])
        await s.append(_SUB1, [_e(n=1)])
        await s.append(_SUB2, [_e(n=1)])
        await s.append({"project_key": "proj", "session_id": "other-sess", "subpath": "subagents/agent-x"}, [_e(n=1)])
        got = await s.list_subkeys(_KEY)
        assert sorted(got) == ["subagents/agent-1", "subagents/agent-2"], (
            "list_subkeys must list the session's subpaths"
        )

        # 13. list_subkeys never lists the main transcript.
        s = await self.fresh()
        await s.append(_KEY, [_e(n=1)])
        assert await s.list_subkeys(_KEY) == [], "list_subkeys must not list the main transcript"
        assert await s.list_subkeys({"project_key": "proj", "session_id": "never-appended"}) == []
        return 2

    # -- strict -------------------------------------------------------------------------

    async def faithful(self) -> int:
        # S1. entries come back exactly: nesting, non-ASCII, NUL, line separators.
        s = await self.fresh()
        batch = [
            _e(uuid="b", n=1),
            _e(uuid="a", n=2, nested={"k": [1, "é", None, 2.5]}, text="nul\u0000 and \u2028 \U0001f600"),
        ]
        await s.append(_KEY, batch)
        assert await s.load(_KEY) == batch, "entries must come back exactly as appended"

        # S2. a big batch (a long turn) lands whole and in order.
        s = await self.fresh()
        big = [_e(i=i, pad="x" * 64) for i in range(2000)]
        await s.append(_KEY, big[:1000])
        await s.append(_KEY, big[1000:])
        assert await s.load(_KEY) == big, "big batches must land whole and in order"
        return 2

    async def _assert_is_fold(self, s: SessionStore, key: SessionKey, what: str) -> SessionSummaryEntry:
        (summary,) = [
            x for x in await s.list_session_summaries(key["project_key"]) if x["session_id"] == key["session_id"]
        ]
        entries = await s.load(key)
        assert entries, what
        want = fold_session_summary(None, key, entries)["data"]
        assert summary["data"] == want, f"{what}: the summary is not the fold of the stored entries"
        return summary

    async def strict_summaries(self) -> int:
        # S3. the summary is the fold of everything stored, after several appends.
        s = await self.fresh()
        key: SessionKey = {"project_key": "proj", "session_id": "summ"}
        await s.append(
            key, [_user("hello there", 1, cwd="/w", gitBranch="main"), _e(timestamp="2024-01-01T00:00:02.000Z")]
        )
        await s.append(key, cast(Any, [{"type": "custom-title", "customTitle": "named"}, {"type": "tag", "tag": "t1"}]))
        await s.append(key, [_user("later prompt", 3, gitBranch="dev", lastPrompt="later prompt")])
        await self._assert_is_fold(s, key, "summary after three appends")

        # S4. appends to one session at the same time all reach its summary.
        s = await self.fresh()
        key = {"project_key": "proj", "session_id": "busy"}
        await s.append(key, [_user("first", 0)])

        async def writer(n: int) -> None:
            for i in range(4):
                # Batches set different latest-wins fields, so a lost fold shows.
                field = ("customTitle", "aiTitle", "lastPrompt", "summary", "gitBranch")[(n + i) % 5]
                await s.append(key, [_e(n=n, i=i, **{field: f"w{n}-{i}"}), _e(n=n, i=i, end=True)])

        async with anyio.create_task_group() as tg:
            for n in range(6):
                tg.start_soon(writer, n)
        await self._assert_is_fold(s, key, "summary after concurrent appends")
        ran = 2

        if self.has["delete"]:
            # S5. deleting a subpath keeps the summary; a session appended to
            # again after its deletion starts afresh.
            s = await self.fresh()
            key = {"project_key": "proj", "session_id": "gone"}
            await s.append(key, [_user("bye", 1)])
            await s.append({**key, "subpath": "subagents/agent-1"}, [_e(n=1)])
            await s.delete({**key, "subpath": "subagents/agent-1"})
            assert [x["session_id"] for x in await s.list_session_summaries("proj")] == ["gone"], (
                "a subpath's delete keeps the summary"
            )
            await s.delete(key)
            await s.append(key, [_user("again", 2)])
            await self._assert_is_fold(s, key, "summary after delete and re-append")
            ran += 1
        return ran


async def run_session_store_conformance(
    make_store: MakeStore, *, skip_optional: frozenset[str] = frozenset(), strict: bool = False
) -> int:
    """Assert the store contracts; returns how many ran (14 for a full store,
    19 with ``strict=True``). An ``AssertionError`` names the broken one."""
    unknown = skip_optional - _OPTIONAL
    assert not unknown, f"unknown optional methods in skip_optional: {sorted(unknown)}"
    kit = _Kit(make_store, {})
    probe = await kit.fresh()
    kit.has = {m: m not in skip_optional and implements(probe, m) for m in _OPTIONAL}
    ran = await kit.required()
    if kit.has["list_sessions"]:
        ran += await kit.listing()
    if kit.has["list_session_summaries"]:
        ran += await kit.summaries()
    if kit.has["delete"]:
        ran += await kit.deleting()
    if kit.has["list_subkeys"]:
        ran += await kit.subkeys()
    if strict:
        ran += await kit.faithful()
        if kit.has["list_session_summaries"]:
            ran += await kit.strict_summaries()
    return ran
