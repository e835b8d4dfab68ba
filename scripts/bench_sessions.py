"""Session-store benchmarks: append throughput per backend, listing a
project's sessions, and the latency mirroring adds to a turn.

    .venv/bin/python scripts/bench_sessions.py            # all backends
    .venv/bin/python scripts/bench_sessions.py --quick

PostgreSQL and Redis run as private servers on loopback (durable settings:
fsync on for PostgreSQL; Redis without persistence, its usual cache setup),
started and stopped by this script (`scripts/ci_services.sh` installs them).

* append throughput: entries/s for batches the size of a turn (20 entries
  of ~1 KiB, like a tool-using turn) and of a big flush (500 entries).
* listing: `list_sessions_from_store` over 200 sessions of 40 entries
  (written in 4 appends), from the stored summaries (fast path) and by
  loading every transcript (slow path, the same store with
  `list_session_summaries` hidden); median of 7 runs.
* mirroring latency: one-prompt `query()` runs against the scripted model,
  without a store and with each store (batched), interleaved; the median
  difference is what the store costs a turn.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from _servers import PostgresServer, RedisServer
from _store_views import WithoutSummaries

from claude_wrap import (
    ClaudeAgentOptions,
    InMemorySessionStore,
    PostgresSessionStore,
    RedisSessionStore,
    ResultMessage,
    SQLiteSessionStore,
    list_sessions_from_store,
    project_key_for_directory,
    query,
)
from claude_wrap.testing import Reply, ScriptedModel


def _entries(n: int) -> list[dict[str, Any]]:
    return [
        {
            "type": "assistant",
            "uuid": str(uuid.uuid4()),
            "parentUuid": None,
            "sessionId": "s",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "x" * 900}]},
        }  # fmt: skip
        for _ in range(n)
    ]


async def throughput(store: Any, batch: int, total: int) -> float:
    entries = _entries(batch)
    key = {"project_key": "bench", "session_id": str(uuid.uuid4())}
    await store.append(key, entries[:1])  # connect, create tables
    start = time.perf_counter()
    for _ in range(total // batch):
        await store.append(key, entries)
    return (total // batch) * batch / (time.perf_counter() - start)


async def listing_ms(store: Any, directory: Path, sessions: int = 200, entries: int = 40) -> dict[str, float]:
    project = project_key_for_directory(directory)
    for i in range(sessions):
        key = {"project_key": project, "session_id": str(uuid.uuid4())}
        batch = [{"type": "user", "uuid": str(uuid.uuid4()), "timestamp": "2025-01-01T00:00:00.000Z", "cwd": str(directory),
                  "message": {"role": "user", "content": f"prompt number {i}"}}, *_entries(entries - 1)]  # fmt: skip
        for start in range(0, entries, 10):
            await store.append(key, batch[start : start + 10])
    out: dict[str, float] = {}
    for name, target in (("fast", store), ("slow", WithoutSummaries(store))):
        samples = []
        for _ in range(7):
            start = time.perf_counter()
            found = await list_sessions_from_store(target, directory=directory)
            samples.append(time.perf_counter() - start)
            assert len(found) == sessions
        out[f"{name}_ms"] = round(statistics.median(samples) * 1000, 1)
    return out


async def turn_seconds(model: ScriptedModel, home: Path, cwd: Path, store: Any) -> float:
    model.add(Reply.text("ok"))
    options = ClaudeAgentOptions(env=model.env(home), cwd=cwd, setting_sources=[], session_store=store)
    start = time.perf_counter()
    async for message in query(prompt="hello", options=options):
        if isinstance(message, ResultMessage):
            return time.perf_counter() - start
    raise RuntimeError("no result")


async def main(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="cw-bench-"))
    pg, rd = PostgresServer(durable=True), RedisServer()
    pg.start()
    rd.start()
    stores: dict[str, Any] = {
        "memory": InMemorySessionStore(),
        "sqlite": SQLiteSessionStore(tmp / "bench.db"),
        "postgres": PostgresSessionStore(pg.url),
        "redis": RedisSessionStore(rd.url),
    }
    report: dict[str, Any] = {"throughput": {}, "listing": {}, "turn": {}}
    try:
        total = 2000 if args.quick else 10000
        for name, store in stores.items():
            report["throughput"][name] = {f"batch {b}": round(await throughput(store, b, total)) for b in (20, 500)}
        for name, store in stores.items():
            listing_dir = tmp / f"listing-{name}"
            listing_dir.mkdir()
            report["listing"][name] = await listing_ms(store, listing_dir)
        runs = 5 if args.quick else args.runs
        with ScriptedModel() as model:
            samples: dict[str, list[float]] = {name: [] for name in ["none", *stores]}
            for i in range(runs):
                for name in samples:  # interleaved, so noise hits every variant
                    cwd = tmp / f"cwd-{name}-{i}"
                    cwd.mkdir()
                    store = None if name == "none" else stores[name]
                    samples[name].append(await turn_seconds(model, tmp / f"home-{name}-{i}", cwd, store))
        base = statistics.median(samples["none"])
        report["turn"]["none"] = {"median_ms": round(base * 1000, 1)}
        for name in stores:
            med = statistics.median(samples[name])
            diffs = [s - n for s, n in zip(samples[name], samples["none"])]
            report["turn"][name] = {
                "median_ms": round(med * 1000, 1),
                "added_ms": round(statistics.median(diffs) * 1000, 1),
            }
        report["runs"] = runs
    finally:
        for store in stores.values():
            close = getattr(store, "aclose", None)
            if close is not None:
                await close()
        stores["sqlite"].close()
        pg.destroy()
        rd.destroy()
    return report


def _print(report: dict[str, Any]) -> None:
    print("append throughput (entries/s, ~1 KiB entries)")
    for name, row in report["throughput"].items():
        print(f"  {name:9} " + "  ".join(f"{k}: {v:>9,}" for k, v in row.items()))
    print("list_sessions_from_store, 200 sessions x 40 entries (median ms)")
    for name, row in report["listing"].items():
        print(f"  {name:9} summaries: {row['fast_ms']:>7}   loading each: {row['slow_ms']:>7}")
    print(f"one-prompt query() to its result, median of {report['runs']} interleaved runs")
    for name, row in report["turn"].items():
        extra = f"  (+{row['added_ms']} ms)" if "added_ms" in row else ""
        print(f"  {name:9} {row['median_ms']:>7} ms{extra}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    ns = parser.parse_args()
    result = anyio.run(main, ns)
    print(json.dumps(result, indent=1)) if ns.json else _print(result)
