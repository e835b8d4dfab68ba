"""A conformance kit for ``SessionStore`` implementations.

``await run_session_store_conformance(make_store)`` checks the behaviour the
mirror, resume and helper functions rely on, as plain ``assert`` statements
(no pytest needed). ``make_store`` is called once per contract, so each
starts from an empty store; it may be sync or async. Contracts for the
optional methods run only when the store implements them (and they are not
named in ``skip_optional``).

The summary contracts judge a store by what matters to
``list_sessions_from_store``: the info a stored summary gives must be the
info its transcript gives, after several appends, concurrent ones included.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Awaitable, Callable
from typing import Any, Union

import anyio

from .._session_store import SessionKey, SessionStore, SessionSummaryEntry, implements
from .._store_summary import fold_session_summary, jsonl_line_size, summary_to_info
from .._transcripts import SDKSessionInfo, session_info

__all__ = ["run_session_store_conformance"]

_OPTIONAL = frozenset({"list_sessions", "list_session_summaries", "delete", "list_subkeys"})
_KEY: SessionKey = {"project_key": "proj", "session_id": "sess"}
_SUB1: SessionKey = {**_KEY, "subpath": "subagents/agent-1"}
_SUB2: SessionKey = {**_KEY, "subpath": "subagents/agent-2"}

MakeStore = Callable[[], Union[SessionStore, Awaitable[SessionStore]]]


def _e(**fields: Any) -> dict[str, Any]:
    return {"type": "x", **fields}


def _user(text: str, second: int, **fields: Any) -> dict[str, Any]:
    return {
        "type": "user",
        "uuid": f"u{second}",
        "timestamp": f"2024-01-01T00:00:{second:02d}.000Z",
        "message": {"role": "user", "content": text},
        **fields,
    }


_INFO_FIELDS = ("summary", "custom_title", "first_prompt", "git_branch", "cwd", "tag", "created_at")


def _assert_summary_matches(summary: SessionSummaryEntry, entries: list[Any] | None, what: str) -> None:
    """The summary is the fold of the whole transcript, and gives its info."""
    assert entries, what
    key: SessionKey = {"project_key": "proj", "session_id": summary["session_id"]}
    # The stored data is opaque to the store but not to the fold: it must be
    # what folding everything stored gives (the byte count aside, which only
    # stores that count it have).
    want_data = fold_session_summary(None, key, entries)["data"]
    got_data = {k: v for k, v in summary["data"].items() if k != "jsonl_bytes"}
    assert got_data == want_data, f"{what}: the summary is not the fold of the stored entries"
    got = summary_to_info(summary)
    want = session_info(summary["session_id"], entries, last_modified=0)
    assert isinstance(got, SDKSessionInfo) and want is not None, what
    for field in _INFO_FIELDS:
        assert getattr(got, field) == getattr(want, field), f"{what}: {field} {getattr(got, field)!r} != {getattr(want, field)!r}"
    if got.file_size is not None:
        size = sum(map(jsonl_line_size, entries))
        assert got.file_size == size, f"{what}: the summary missed entries ({got.file_size} != {size} bytes)"


async def run_session_store_conformance(make_store: MakeStore, *, skip_optional: frozenset[str] = frozenset()) -> int:
    """Assert the store contracts; returns how many ran (17 for a full store)."""
    unknown = skip_optional - _OPTIONAL
    assert not unknown, f"unknown optional methods in skip_optional: {sorted(unknown)}"

    async def fresh() -> SessionStore:
        made = make_store()
        return await made if inspect.isawaitable(made) else made

    probe = await fresh()
    has = {m: m not in skip_optional and implements(probe, m) for m in _OPTIONAL}
    ran = 0

    # 1. append then load: same entries, same order (deep equality).
    s = await fresh()
    batch = [_e(uuid="b", n=1), _e(uuid="a", n=2, nested={"k": [1, "é", None]}, text="nul\u0000 and \u2028")]
    await s.append(_KEY, batch)
    assert await s.load(_KEY) == batch, "append/load must round-trip entries in order"
    ran += 1

    # 2. an unknown key loads as None (also an unknown subpath of a known session).
    s = await fresh()
    assert await s.load({"project_key": "proj", "session_id": "nope"}) is None
    await s.append(_KEY, [_e(n=1)])
    assert await s.load({**_KEY, "subpath": "nope"}) is None
    ran += 1

    # 3. several appends keep call order.
    s = await fresh()
    await s.append(_KEY, [_e(n=1)])
    await s.append(_KEY, [_e(n=2), _e(n=3)])
    await s.append(_KEY, [_e(n=4)])
    assert await s.load(_KEY) == [_e(n=1), _e(n=2), _e(n=3), _e(n=4)]
    ran += 1

    # 4. append([]) changes nothing and creates nothing.
    s = await fresh()
    await s.append(_KEY, [_e(n=1)])
    await s.append(_KEY, [])
    await s.append({"project_key": "proj", "session_id": "empty"}, [])
    assert await s.load(_KEY) == [_e(n=1)]
    assert await s.load({"project_key": "proj", "session_id": "empty"}) is None
    ran += 1

    # 5. a subpath is stored apart from the main transcript.
    s = await fresh()
    await s.append(_KEY, [_e(n="main")])
    await s.append(_SUB1, [_e(n="sub")])
    assert await s.load(_KEY) == [_e(n="main")]
    assert await s.load(_SUB1) == [_e(n="sub")]
    ran += 1

    # 6. project keys are isolated.
    s = await fresh()
    await s.append({"project_key": "A", "session_id": "s1"}, [_e(p="A")])
    await s.append({"project_key": "B", "session_id": "s1"}, [_e(p="B")])
    assert await s.load({"project_key": "A", "session_id": "s1"}) == [_e(p="A")]
    assert await s.load({"project_key": "B", "session_id": "s1"}) == [_e(p="B")]
    ran += 1

    if has["list_sessions"]:
        # 7. list_sessions: the project's session ids, mtimes in epoch ms.
        s = await fresh()
        for pk, sid in (("proj", "a"), ("proj", "b"), ("other", "c")):
            await s.append({"project_key": pk, "session_id": sid}, [_e(n=1)])
        listed = await s.list_sessions("proj")
        assert sorted(x["session_id"] for x in listed) == ["a", "b"]
        assert all(math.isfinite(x["mtime"]) and x["mtime"] > 1e12 for x in listed), "mtime must be epoch ms"
        assert await s.list_sessions("never-written") == []
        ran += 1

        # 8. list_sessions leaves out subpaths.
        s = await fresh()
        await s.append(_KEY, [_e(n=1)])
        await s.append(_SUB1, [_e(n=1)])
        assert [x["session_id"] for x in await s.list_sessions("proj")] == ["sess"]
        ran += 1

    if has["delete"]:
        # 9. delete, then load is None (deleting an unknown key is fine).
        s = await fresh()
        await s.delete({"project_key": "proj", "session_id": "never-written"})
        await s.append(_KEY, [_e(n=1)])
        await s.delete(_KEY)
        assert await s.load(_KEY) is None
        ran += 1

        # 10. deleting a main transcript removes its subkeys, nothing else.
        s = await fresh()
        other: SessionKey = {"project_key": "proj", "session_id": "sess2"}
        other_project: SessionKey = {"project_key": "other", "session_id": "sess"}
        for key in (_KEY, _SUB1, _SUB2, other, other_project):
            await s.append(key, [_e(n=1)])
        await s.delete(_KEY)
        for key in (_KEY, _SUB1, _SUB2):
            assert await s.load(key) is None
        assert await s.load(other) == [_e(n=1)]
        assert await s.load(other_project) == [_e(n=1)]
        if has["list_subkeys"]:
            assert await s.list_subkeys(_KEY) == []
        if has["list_sessions"]:
            assert "sess" not in [x["session_id"] for x in await s.list_sessions("proj")]
        ran += 1

        # 11. deleting a subpath removes only it.
        s = await fresh()
        for key in (_KEY, _SUB1, _SUB2):
            await s.append(key, [_e(n=1)])
        await s.delete(_SUB1)
        assert await s.load(_SUB1) is None
        assert await s.load(_SUB2) == [_e(n=1)]
        assert await s.load(_KEY) == [_e(n=1)]
        if has["list_subkeys"]:
            assert await s.list_subkeys(_KEY) == ["subagents/agent-2"]
        ran += 1

    if has["list_subkeys"]:
        # 12. list_subkeys: the session's subpaths only.
        s = await fresh()
        await s.append(_KEY, [_e(n=1)])
        await s.append(_SUB1, [_e(n=1)])
        await s.append(_SUB2, [_e(n=1)])
        await s.append({"project_key": "proj", "session_id": "other", "subpath": "subagents/agent-x"}, [_e(n=1)])
        assert sorted(await s.list_subkeys(_KEY)) == ["subagents/agent-1", "subagents/agent-2"]
        ran += 1

        # 13. list_subkeys never lists the main transcript.
        s = await fresh()
        await s.append(_KEY, [_e(n=1)])
        assert await s.list_subkeys(_KEY) == []
        assert await s.list_subkeys({"project_key": "proj", "session_id": "never-written"}) == []
        ran += 1

    # 14. a big batch (a long turn) lands whole and in order.
    s = await fresh()
    big = [_e(i=i, pad="x" * 64) for i in range(2000)]
    await s.append(_KEY, big[:1000])
    await s.append(_KEY, big[1000:])
    assert await s.load(_KEY) == big
    ran += 1

    if has["list_session_summaries"]:
        # 15. summaries: folded over every append of the main transcript
        # (never a subpath's), one project at a time, stamped on the clock
        # list_sessions uses.
        s = await fresh()
        key = {"project_key": "proj", "session_id": "summ"}
        await s.append(key, [_user("hello there", 1, cwd="/w", gitBranch="main"), _e(timestamp="2024-01-01T00:00:02.000Z")])
        await s.append(key, [{"type": "custom-title", "customTitle": "named"}, {"type": "tag", "tag": "t1"}])
        await s.append(key, [_user("later prompt", 3, gitBranch="dev", lastPrompt="later prompt")])
        before_sub = await s.list_session_summaries("proj")
        await s.append({**key, "subpath": "subagents/agent-1"}, [_user("sub prompt", 9, isSidechain=True, customTitle="sub")])
        await s.append({"project_key": "other", "session_id": "elsewhere"}, [_user("elsewhere", 4)])
        await s.append({"project_key": "proj", "session_id": "empty"}, [])
        got = await s.list_session_summaries("proj")
        assert [x["session_id"] for x in got] == ["summ"], "one summary per main transcript of the project"
        assert got == before_sub, "a subpath's entries must not touch the session's summary"
        summ = got[0]
        assert math.isfinite(summ["mtime"]) and summ["mtime"] > 1e12, "summary mtime must be epoch ms"
        assert isinstance(summ["data"], dict)
        if has["list_sessions"]:
            mtimes = {x["session_id"]: x["mtime"] for x in await s.list_sessions("proj")}
            assert summ["mtime"] >= mtimes["summ"], "summary mtime must be the store's write time, as in list_sessions"
        _assert_summary_matches(summ, await s.load(key), "summary after three appends")
        again = fold_session_summary(summ, key, [_e(timestamp="2024-01-01T00:00:05.000Z")])
        assert (again["session_id"], again["mtime"]) == ("summ", summ["mtime"]), "the stored summary must fold further"
        assert await s.list_session_summaries("never-written") == []
        ran += 1

        # 16. appends to one session at the same time all reach its summary.
        s = await fresh()
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
        (busy,) = await s.list_session_summaries("proj")
        _assert_summary_matches(busy, await s.load(key), "summary after concurrent appends")
        ran += 1

        if has["delete"]:
            # 17. deleting a subpath keeps the summary; deleting the session drops it.
            s = await fresh()
            key = {"project_key": "proj", "session_id": "gone"}
            await s.append(key, [_user("bye", 1)])
            await s.append({**key, "subpath": "subagents/agent-1"}, [_e(n=1)])
            await s.delete({**key, "subpath": "subagents/agent-1"})
            assert [x["session_id"] for x in await s.list_session_summaries("proj")] == ["gone"]
            await s.delete(key)
            assert await s.list_session_summaries("proj") == []
            await s.append(key, [_user("again", 2)])  # a new transcript under the old id starts afresh
            (fresh_summary,) = await s.list_session_summaries("proj")
            _assert_summary_matches(fresh_summary, await s.load(key), "summary after delete and re-append")
            ran += 1
    return ran
