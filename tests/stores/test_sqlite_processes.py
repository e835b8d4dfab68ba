"""One SQLite store file written by several processes at once.

The embedded default store must be safe for a service that runs several
worker processes on one host: every append lands, each writer's entries
keep their order, and the session summaries stay those of the whole
transcript.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from _store_views import assert_summary_consistent

from claude_wrap import SQLiteSessionStore

pytestmark = pytest.mark.anyio

# Each writer: a fresh store on the shared file; for each round, one entry
# in the session all writers share and one in its own session.
_WRITER = r"""
import sys, anyio
from claude_wrap import SQLiteSessionStore

path, shared, own, n, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])

async def main():
    store = SQLiteSessionStore(path)
    for r in range(rounds):
        entry = {"type": "x", "writer": n, "round": r, "customTitle": f"w{n} r{r}"}
        if r == 0:
            first = {"type": "user", "message": {"role": "user", "content": f"writer {n}"}}
            await store.append({"project_key": "proj", "session_id": shared}, [first, entry])
        else:
            await store.append({"project_key": "proj", "session_id": shared}, [entry])
        await store.append({"project_key": "proj", "session_id": own}, [entry])
    store.close()

anyio.run(main)
"""


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_several_processes_append_to_one_file(tmp_path: Path, anyio_backend: str) -> None:
    path, writers, rounds = tmp_path / "sessions.db", 4, 60
    shared = str(uuid.uuid4())
    own = [str(uuid.uuid4()) for _ in range(writers)]
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(path), shared, own[n], str(n), str(rounds)])
        for n in range(writers)
    ]
    for proc in procs:
        assert proc.wait(timeout=120) == 0

    store = SQLiteSessionStore(path)
    try:
        entries = await store.load({"project_key": "proj", "session_id": shared})
        assert entries is not None and len(entries) == writers * (rounds + 1)
        for n in range(writers):
            mine = [e["round"] for e in entries if e.get("writer") == n]
            assert mine == list(range(rounds)), f"writer {n}'s entries lost or reordered"
            alone = await store.load({"project_key": "proj", "session_id": own[n]})
            assert [e["round"] for e in alone or []] == list(range(rounds))
        listed = {s["session_id"] for s in await store.list_sessions("proj")}
        assert listed == {shared, *own}
        for sid in (shared, *own):
            await assert_summary_consistent(store, "proj", sid)
    finally:
        store.close()
