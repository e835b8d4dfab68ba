#!/usr/bin/env python3
"""Soak and concurrency check for claude_wrap (not part of the test suite).

    python scripts/soak.py                  # 500 sequential queries, then 16 concurrent clients
    python scripts/soak.py --queries 100 --every 20 --clients 8
    python scripts/soak.py --backend trio

1. ``--queries`` one-prompt ``query()`` runs, one after the other, in one
   process and one event loop, against the scripted model. Open file
   descriptors (``/proc/self/fd``), OS threads (``/proc/self/status``), RSS
   and live child processes are sampled after a warm-up run, every
   ``--every`` runs and at the end; the growth from the warm-up sample is
   printed.
2. ``--clients`` ``ClaudeSDKClient`` instances connect at once and each runs
   a turn; all must end with a successful ``ResultMessage``.

The scripted model runs in a child process (``python -m claude_wrap.testing``)
so its server threads and sockets do not count as ours. Nothing here asserts
on time; the exit status is 1 if a run failed or a process was left behind.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def status_field(name: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(name + ":"):
            return int(line.split()[1])
    return -1


IGNORED_CHILDREN: set[int] = set()  # the scripted model's process


def children() -> int:
    """Live (or zombie) processes whose parent is this process (the model aside)."""
    me = os.getpid()
    n = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in IGNORED_CHILDREN:
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == me:
            n += 1
    return n


def sample() -> dict[str, int]:
    gc.collect()
    return {
        "fds": fds(),
        "threads": status_field("Threads"),
        "rss_kb": status_field("VmRSS"),
        "children": children(),
    }


def start_model(tmp: Path) -> tuple[subprocess.Popen[str], str]:
    script = tmp / "script.json"
    script.write_text(json.dumps([{"text": "Hello from the scripted model.", "sticky": True}]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "claude_wrap.testing", "--script", str(script), "--quiet"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()  # "listening on http://127.0.0.1:PORT with ..."
    if not first.startswith("listening on "):
        proc.kill()
        raise RuntimeError(f"scripted model did not start: {first!r}")
    return proc, first.split()[2]


def model_env(base_url: str, home: Path) -> dict[str, str]:
    """What ``ScriptedModel.env()`` builds, for a model in another process."""
    config = home / ".claude"
    config.mkdir(parents=True, exist_ok=True)
    return {
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "sk-test",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(config),
        "PATH": os.environ.get("PATH", os.defpath),
        "LANG": "C.UTF-8",
        "CLAUDE_CODE_MAX_RETRIES": "0",
    }


def fmt(s: dict[str, int], base: dict[str, int] | None = None) -> str:
    def col(key: str, unit: str = "") -> str:
        value = s[key] if key != "rss_kb" else s[key] / 1024
        text = f"{value:.1f}{unit}" if key == "rss_kb" else f"{value}{unit}"
        if base is not None:
            delta = s[key] - base[key]
            delta_text = f"{delta / 1024:+.1f}" if key == "rss_kb" else f"{delta:+d}"
            text += f" ({delta_text})"
        return text

    return f"fds {col('fds')}, threads {col('threads')}, rss {col('rss_kb', ' MB')}, children {col('children')}"


async def sequential(n: int, every: int, env: dict[str, str], cwd: str) -> dict[str, Any]:
    from claude_wrap import ClaudeAgentOptions, ResultMessage, query

    options = ClaudeAgentOptions(env=env, cwd=cwd, setting_sources=[])
    failures = 0

    async def one(i: int) -> None:
        nonlocal failures
        result = None
        async for message in query(prompt=f"soak {i}", options=options):
            if isinstance(message, ResultMessage):
                result = message
        if result is None or result.is_error:
            failures += 1

    await one(-1)  # warm-up: imports, first allocations
    base = sample()
    samples = [{"after": 0, **base}]
    print(f"sequential: after warm-up: {fmt(base)}", flush=True)
    start = time.perf_counter()
    for i in range(1, n + 1):
        await one(i)
        if i % every == 0 or i == n:
            s = sample()
            samples.append({"after": i, **s})
            print(f"sequential: after {i:4d}: {fmt(s, base)}", flush=True)
    elapsed = time.perf_counter() - start
    end = samples[-1]
    return {
        "queries": n,
        "failures": failures,
        "seconds": elapsed,
        "per_query_ms": elapsed / n * 1000,
        "growth": {k: end[k] - base[k] for k in base},
        "max_growth": {k: max(s[k] for s in samples) - base[k] for k in base},
        "samples": samples,
    }


async def concurrent(n: int, env: dict[str, str], cwd: str) -> dict[str, Any]:
    import anyio

    from claude_wrap import ClaudeAgentOptions, ClaudeSDKClient, ResultMessage

    options = ClaudeAgentOptions(env=env, cwd=cwd, setting_sources=[])
    done: list[int] = []
    failed: list[str] = []
    peak = {"fds": 0, "children": 0}

    async def one(i: int) -> None:
        try:
            async with ClaudeSDKClient(options) as client:
                await client.query(f"client {i}")
                async for message in client.receive_response():
                    if isinstance(message, ResultMessage) and not message.is_error:
                        done.append(i)
                peak["fds"] = max(peak["fds"], fds())
                peak["children"] = max(peak["children"], children())
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            failed.append(f"client {i}: {type(exc).__name__}: {exc}")

    before = sample()
    start = time.perf_counter()
    with anyio.fail_after(300):
        async with anyio.create_task_group() as tg:
            for i in range(n):
                tg.start_soon(one, i)
    elapsed = time.perf_counter() - start
    after = sample()
    return {
        "clients": n,
        "completed": len(done),
        "failed": failed,
        "seconds": elapsed,
        "peak_fds": peak["fds"],
        "peak_children": peak["children"],
        "before": before,
        "after": after,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--backend", choices=["asyncio", "trio"], default="asyncio")
    parser.add_argument("--json", action="store_true", help="print the results as JSON at the end")
    args = parser.parse_args(argv)

    import anyio

    with tempfile.TemporaryDirectory(prefix="claude-wrap-soak-") as tmp_name:
        tmp = Path(tmp_name)
        model, base_url = start_model(tmp)
        IGNORED_CHILDREN.add(model.pid)
        try:
            env = model_env(base_url, tmp / "home")
            cwd = tmp / "work dir ü"
            cwd.mkdir()
            results: dict[str, Any] = {"backend": args.backend}
            if args.queries:
                seq = anyio.run(sequential, args.queries, args.every, env, str(cwd), backend=args.backend)
                results["sequential"] = seq
                g, mg = seq["growth"], seq["max_growth"]
                print(
                    f"sequential: {seq['queries']} queries in {seq['seconds']:.0f} s "
                    f"({seq['per_query_ms']:.0f} ms each), {seq['failures']} failed; growth from warm-up to end: "
                    f"fds {g['fds']:+d}, threads {g['threads']:+d}, rss {g['rss_kb'] / 1024:+.1f} MB, "
                    f"children {g['children']:+d} (max growth at any sample: fds {mg['fds']:+d}, "
                    f"threads {mg['threads']:+d}, rss {mg['rss_kb'] / 1024:+.1f} MB)",
                    flush=True,
                )
            if args.clients:
                con = anyio.run(concurrent, args.clients, env, str(cwd), backend=args.backend)
                results["concurrent"] = con
                print(
                    f"concurrent: {con['completed']}/{con['clients']} clients completed a turn in "
                    f"{con['seconds']:.1f} s; peak fds {con['peak_fds']}, peak children {con['peak_children']}; "
                    f"after: {fmt(con['after'], con['before'])}",
                    flush=True,
                )
                for line in con["failed"]:
                    print(f"  {line}", flush=True)
        finally:
            model.terminate()
            model.wait(10)
    if args.json:
        print(json.dumps(results, indent=2))
    ok = True
    if "sequential" in results:
        ok &= results["sequential"]["failures"] == 0 and results["sequential"]["samples"][-1]["children"] == 0
    if "concurrent" in results:
        ok &= results["concurrent"]["completed"] == args.clients and results["concurrent"]["after"]["children"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
