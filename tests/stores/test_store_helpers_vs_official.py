"""The store helpers give what the official package's give.

Each program runs on the official ``claude-agent-sdk`` and on claude_wrap
(tests/support/_official.py) with the same store contents, and every result is
compared: listings (both the summary path and the load-every-session path,
with a store whose ``load`` fails for one session), messages, subagents,
edits, forks, imports, and the errors of stores that lack a method. Our
SQLite, PostgreSQL and Redis stores are also driven by the official helpers.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from _official import MINIMAL_STORE, run
from _servers import PostgresServer, RedisServer
from _session_fixture import IDS, PROGRESS_UUIDS, SID, Placeholders, build, compare, ranked

pytestmark = pytest.mark.stores

# Stores written to the official protocol, then the scenario. `store_spec`
# picks the store; each store keeps its own write times, which differ
# between runs, so times are compared by rank.
_STORES = (
    MINIMAL_STORE
    + r'''
import anyio, json, os, time
import claude_wrap

class Listing(Minimal):
    """Lists sessions (with mtimes) and subkeys, but keeps no summaries."""
    def __init__(self):
        super().__init__()
        self.mtimes = {}
        self.clock = 1_800_000_000_000
    async def append(self, key, entries):
        await super().append(key, entries)
        self.clock += 1
        self.mtimes[(key["project_key"], key["session_id"], key.get("subpath"))] = self.clock
    async def list_sessions(self, project_key):
        return [{"session_id": s, "mtime": m} for (p, s, sub), m in self.mtimes.items() if p == project_key and sub is None]
    async def list_subkeys(self, key):
        return [sub for (p, s, sub) in self.data if (p, s) == (key["project_key"], key["session_id"]) and sub]

class FailingLoad(Listing):
    """A store whose load fails for one session."""
    async def load(self, key):
        if key["session_id"] == args["ids"][2]:
            raise ConnectionError("backend down")
        return await super().load(key)

class SummariesOnly(claude_wrap.InMemorySessionStore):
    list_sessions = None

def make_store(spec):
    kind = spec["kind"]
    if kind == "memory":
        return sdk.InMemorySessionStore()
    if kind == "sqlite":
        return claude_wrap.SQLiteSessionStore(spec["path"])
    if kind == "postgres":
        return claude_wrap.PostgresSessionStore(spec["url"], table=spec["table"])
    if kind == "redis":
        return claude_wrap.RedisSessionStore(spec["url"], prefix=spec["prefix"])
    return {"minimal": Minimal, "listing": Listing, "failing": FailingLoad, "summaries-only": SummariesOnly}[kind]()

async def close(store):
    closer = getattr(store, "aclose", None) or getattr(store, "close", None)
    if closer is not None:
        done = closer()
        if hasattr(done, "__await__"):
            await done
'''
)

_SCENARIO = r'''
async def step(fn, *a):
    """A write, then a pause: stores with a millisecond clock get no ties."""
    done = await attempt_async(fn, *a)
    await anyio.sleep(0.003)
    return done

async def main():
    store = make_store(args["store"])
    directory, project = args["project"], args["project_key"]
    out = {}
    # The same transcripts as on disk, a session at a time, in mtime order.
    for sid, entries in args["sessions"]:
        for start in range(0, len(entries), 7):
            await store.append({"project_key": project, "session_id": sid}, entries[start:start + 7])
        await anyio.sleep(0.003)  # stores with a millisecond clock: no ties
    for subpath, entries in args["subagents"]:
        await store.append({"project_key": project, "session_id": args["ids"][0], "subpath": subpath}, entries)
    out["list"] = await attempt_async(sdk.list_sessions_from_store, store, directory)
    for limit, offset in ((2, 0), (2, 2), (None, 3), (0, 1), (3, -1)):
        out[f"list page {limit} {offset}"] = await attempt_async(sdk.list_sessions_from_store, store, directory, limit, offset)
    out["list elsewhere"] = await attempt_async(sdk.list_sessions_from_store, store, args["elsewhere"])
    for sid in args["ids"] + ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]:
        out[f"info {sid}"] = await attempt_async(sdk.get_session_info_from_store, store, sid, directory)
        out[f"messages {sid}"] = await attempt_async(sdk.get_session_messages_from_store, store, sid, directory)
        out[f"subagents {sid}"] = await attempt_async(sdk.list_subagents_from_store, store, sid, directory)
    out["messages page"] = await attempt_async(sdk.get_session_messages_from_store, store, args["ids"][1], directory, 3, 2)
    for agent in ("abc", "def", "twice", "nope", ""):
        out[f"subagent {agent}"] = await attempt_async(sdk.get_subagent_messages_from_store, store, args["ids"][0], agent, directory)
    sid = args["ids"][2]
    out["rename"] = await step(sdk.rename_session_via_store, store, sid, "  Renamed é ", directory)
    out["rename unknown"] = await step(sdk.rename_session_via_store, store, "00000000-0000-4000-8000-000000000000", "x", directory)
    out["rename blank"] = await step(sdk.rename_session_via_store, store, sid, " ", directory)
    out["rename bad"] = await step(sdk.rename_session_via_store, store, "nope", "x", directory)
    out["tag"] = await step(sdk.tag_session_via_store, store, sid, "\u200bkeep\u202e", directory)
    out["tag blank"] = await step(sdk.tag_session_via_store, store, sid, "\ufeff", directory)
    out["tag clear"] = await step(sdk.tag_session_via_store, store, args["ids"][1], None, directory)
    out["fork"] = await step(sdk.fork_session_via_store, store, args["ids"][0], directory)
    out["fork titled"] = await step(sdk.fork_session_via_store, store, args["ids"][2], directory, None, " Mine ")
    out["fork up to"] = await step(sdk.fork_session_via_store, store, args["ids"][9], directory, args["up_to"])
    out["fork up to missing"] = await step(sdk.fork_session_via_store, store, args["ids"][9], directory, "00000000-0000-4000-8000-000000000000")
    out["fork up to bad"] = await step(sdk.fork_session_via_store, store, args["ids"][1], directory, "x")
    out["fork missing"] = await step(sdk.fork_session_via_store, store, "00000000-0000-4000-8000-000000000000", directory)
    out["fork bad"] = await step(sdk.fork_session_via_store, store, "nope", directory)
    out["fork side"] = await step(sdk.fork_session_via_store, store, args["ids"][4], directory)
    out["delete bad"] = await step(sdk.delete_session_via_store, store, "nope", directory)
    out["delete"] = await step(sdk.delete_session_via_store, store, args["ids"][3], directory)
    out["after"] = await attempt_async(sdk.list_sessions_from_store, store, directory)
    for sid in args["ids"] + [v["session_id"] for k, v in out.items() if k.startswith("fork") and isinstance(v, dict) and "session_id" in v]:
        try:
            out[f"stored {sid}"] = await store.load({"project_key": project, "session_id": sid})
        except Exception as exc:
            out[f"stored {sid}"] = norm(exc)
    await close(store)
    emit(out)

anyio.run(main)
'''


def _sessions(config: Path, project_key: str) -> tuple[list[Any], list[Any]]:
    """The fixture's transcripts as entries, oldest first, and its subagents."""
    pdir = config / "projects" / project_key
    files = sorted(pdir.glob("*.jsonl"), key=lambda p: p.stat().st_mtime)
    sessions = []
    for file in files:
        entries = []
        for line in file.read_text(encoding="utf-8").split("\n"):
            try:
                entries.append(json.loads(line))
            except ValueError:
                continue
        if entries:
            sessions.append([file.stem, entries])
    subagents = []
    for file in sorted((pdir / SID / "subagents").rglob("agent-*.jsonl")):
        sub = file.relative_to(pdir / SID).with_suffix("").as_posix()
        entries = [json.loads(line) for line in file.read_text().splitlines() if line.startswith("{")]
        subagents.append([sub, entries + [{"type": "agent_metadata", "toolUseId": f"toolu-{file.stem}"}]])
    # The same agent id under a second path: listed once.
    subagents.append(
        [
            "subagents/agent-twice",
            [{"type": "user", "uuid": "tw1", "parentUuid": None, "message": {"role": "user", "content": "one"}}],
        ]
    )
    subagents.append(
        [
            "subagents/workflows/r2/agent-twice",
            [{"type": "user", "uuid": "tw2", "parentUuid": None, "message": {"role": "user", "content": "two"}}],
        ]
    )
    return sessions, subagents


@pytest.fixture
def scenario(tmp_path: Path) -> dict[str, Any]:
    project, other = tmp_path / "my project ü", tmp_path / "other"
    project.mkdir()
    other.mkdir()
    build(tmp_path / "config", project, other)
    from claude_wrap import project_key_for_directory

    key = project_key_for_directory(project)
    sessions, subagents = _sessions(tmp_path / "config", key)
    return {
        "project": str(project), "project_key": key, "elsewhere": str(other), "ids": IDS,
        "sessions": sessions, "subagents": subagents, "up_to": PROGRESS_UUIDS[4],
    }  # fmt: skip


def _both(scenario: dict[str, Any], store: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    results = [
        run(package, _STORES + _SCENARIO, {**scenario, "store": store})
        for package in ("claude_agent_sdk", "claude_wrap")
    ]
    official, ours = (ranked(Placeholders(set(IDS)).result(r)) for r in results)
    compare(official, ours)
    return official, ours


@pytest.mark.parametrize("kind", ["memory", "minimal", "listing", "failing", "summaries-only"])
def test_store_helpers(scenario: dict[str, Any], kind: str) -> None:
    official, ours = _both(scenario, {"kind": kind})
    if kind == "failing":
        assert {"summary": "", "session_id": IDS[2]}.items() <= next(
            i for i in ours["list"] if i["session_id"] == IDS[2]
        ).items()
    if kind == "minimal":
        assert "ValueError" in ours["list"]["mro"] and "ValueError" in ours["subagents " + SID]["mro"]
    if kind in ("memory", "listing"):
        assert ours["subagents " + SID].count("twice") == 1
        # The fork keeps the session's content replacements, and its title
        # entry is stamped like the others.
        fork = ours["stored " + ours["fork up to"]["session_id"]]
        assert [e["type"] for e in fork[-2:]] == ["content-replacement", "custom-title"]
        assert all(e["uuid"].startswith("<new") and e["timestamp"] == "<now>" for e in fork[-2:])


def test_our_stores_under_the_official_helpers(
    scenario: dict[str, Any], tmp_path: Path, postgres_server: PostgresServer, redis_server: RedisServer
) -> None:
    specs = [
        {"kind": "sqlite", "path": str(tmp_path / "s.db")},
        {"kind": "postgres", "url": postgres_server.url, "table": "t_" + uuid.uuid4().hex[:12]},
        {"kind": "redis", "url": redis_server.url, "prefix": f"t:{uuid.uuid4().hex}:"},
    ]
    for spec in specs:
        # A fresh database or key space per package run.
        official = run("claude_agent_sdk", _STORES + _SCENARIO, {**scenario, "store": spec})
        spec = {
            **spec,
            "path": str(tmp_path / "s2.db"),
            "table": "t_" + uuid.uuid4().hex[:12],
            "prefix": f"t:{uuid.uuid4().hex}:",
        }
        ours = run("claude_wrap", _STORES + _SCENARIO, {**scenario, "store": spec})
        compare(*(ranked(Placeholders(set(IDS)).result(r)) for r in (official, ours)))
