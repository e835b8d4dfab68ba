"""Both conformance kits give the same verdict on the same stores.

The official kit and ours (default mode) run in one process on our stores,
the official in-memory store, one written to the official protocol with only
the required methods, and broken ones; ``strict=True`` must also catch what
only a production store must get right.
"""

from __future__ import annotations

import pytest
from _official import MINIMAL_STORE, run
from _servers import PostgresServer, RedisServer

pytestmark = pytest.mark.stores

# Stores for the two conformance kits: ours, one written to the official
# protocol, and broken ones. Each is a factory taking the test's servers.
_VERDICTS = (
    MINIMAL_STORE
    + r"""
import anyio, json, uuid
import claude_wrap
from claude_agent_sdk.testing import run_session_store_conformance as official_kit
from claude_wrap.testing import run_session_store_conformance as our_kit

class Mem(claude_wrap.InMemorySessionStore):
    pass

def broken(name, **methods):
    return type(name, (Mem,), methods)

async def _reversed(self, key):
    got = await Mem.load(self, key)
    return None if got is None else got[::-1]

async def _empty_for_unknown(self, key):
    got = await Mem.load(self, key)
    return [] if got is None else got

async def _seconds(self, project_key):
    return [{"session_id": e["session_id"], "mtime": e["mtime"] // 1000} for e in await Mem.list_sessions(self, project_key)]

async def _with_subpaths(self, project_key):
    listed = await Mem.list_sessions(self, project_key)
    return listed + [{"session_id": sid, "mtime": self._mtimes[(pk, sid, sub)]} for (pk, sid, sub) in self._data if pk == project_key and sub]

async def _no_cascade(self, key):
    self._data.pop((key["project_key"], key["session_id"], key.get("subpath") or ""), None)
    self._summaries.pop((key["project_key"], key["session_id"]), None)

async def _main_in_subkeys(self, key):
    return [""] + await Mem.list_subkeys(self, key)

async def _entry_clock(self, project_key):
    out = await Mem.list_session_summaries(self, project_key)
    for s in out:
        s["mtime"] = s["data"].get("created_at", 0)
    return out

async def _stale_summary(self, key, entries):
    frozen = {k: dict(v, data=dict(v["data"])) for k, v in self._summaries.items()}
    await Mem.append(self, key, entries)
    for k, v in frozen.items():
        self._summaries[k]["data"] = v["data"]  # never refolded after the first append

async def _reorders_keys(self, key):
    got = await Mem.load(self, key)
    return None if got is None else [dict(sorted(e.items())) for e in got]

async def _no_nul(self, key, entries):
    if any("\\u0000" in json.dumps(e) for e in entries):
        raise ValueError("NUL not supported")
    await Mem.append(self, key, entries)

async def _phantom_empty(self, key, entries):
    self._data.setdefault(claude_wrap._sessions.store.key_parts(key), [])
    if entries:
        await Mem.append(self, key, entries)

async def _unsorted_subkeys(self, key):
    return sorted(await Mem.list_subkeys(self, key), reverse=True)

STORES = {
    "in-memory": lambda: claude_wrap.InMemorySessionStore(),
    "official in-memory": lambda: sdk_official.InMemorySessionStore(),
    "sqlite": lambda: claude_wrap.SQLiteSessionStore(":memory:"),
    "postgres": lambda: claude_wrap.PostgresSessionStore(args["postgres"], table="v_" + uuid.uuid4().hex[:12]),
    "redis": lambda: claude_wrap.RedisSessionStore(args["redis"], prefix=f"v:{uuid.uuid4().hex}:"),
    "minimal": Minimal,
    "reorders keys": broken("ReordersKeys", load=_reorders_keys),
    "no NUL": broken("NoNul", append=_no_nul),
    "empty key on append([])": broken("Phantom", append=_phantom_empty),
    "unsorted subkeys": broken("Unsorted", list_subkeys=_unsorted_subkeys),
    "stale summary": broken("Stale", append=_stale_summary),
    "reversed": broken("Reversed", load=_reversed),
    "[] for unknown": broken("EmptyUnknown", load=_empty_for_unknown),
    "mtime in seconds": broken("Seconds", list_sessions=_seconds),
    "lists subpaths": broken("Subpaths", list_sessions=_with_subpaths),
    "delete does not cascade": broken("NoCascade", delete=_no_cascade),
    "main in subkeys": broken("MainSubkeys", list_subkeys=_main_in_subkeys),
    "summary on entry clock": broken("EntryClock", list_session_summaries=_entry_clock),
}

import claude_agent_sdk as sdk_official

async def verdict(kit, make, **kw):
    try:
        await kit(make, **kw)
    except Exception as exc:
        return type(exc).__name__
    return "pass"

async def main():
    out = {}
    for name, make in STORES.items():
        out[name] = [await verdict(official_kit, make), await verdict(our_kit, make), await verdict(our_kit, make, strict=True)]
        out[name + " skipping"] = [await verdict(official_kit, make, skip_optional=frozenset({"delete", "list_sessions"})),
                                   await verdict(our_kit, make, skip_optional=frozenset({"delete", "list_sessions"}))]
    emit(out)

anyio.run(main)
"""
)


def test_both_conformance_kits_give_the_same_verdict(
    postgres_server: PostgresServer, redis_server: RedisServer
) -> None:
    verdicts = run("claude_wrap", _VERDICTS, {"postgres": postgres_server.url, "redis": redis_server.url}, timeout=600)
    for name, (official, ours, strict) in ((k, v) for k, v in verdicts.items() if not k.endswith(" skipping")):
        assert ours == official, (name, verdicts[name])
        assert verdicts[name + " skipping"][0] == verdicts[name + " skipping"][1], (name, verdicts[name + " skipping"])
    # The kit is not blind: broken stores fail both, and strict catches what
    # only a production store must get right.
    for name in (
        "reversed",
        "[] for unknown",
        "mtime in seconds",
        "lists subpaths",
        "delete does not cascade",
        "main in subkeys",
        "summary on entry clock",
    ):
        assert verdicts[name][:2] == ["AssertionError", "AssertionError"], (name, verdicts[name])
    for name in (
        "in-memory",
        "official in-memory",
        "sqlite",
        "postgres",
        "redis",
        "minimal",
        "reorders keys",
        "empty key on append([])",
        "unsorted subkeys",
    ):
        assert verdicts[name] == ["pass", "pass", "pass"], (name, verdicts[name])
    assert verdicts["stale summary"] == ["pass", "pass", "AssertionError"]
    assert verdicts["no NUL"] == ["pass", "pass", "ValueError"]
