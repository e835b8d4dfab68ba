#!/usr/bin/env python3
"""Benchmarks for claude_wrap, measured side by side on this machine.

    python scripts/bench.py              # default: 15 import runs, 10 query runs
    python scripts/bench.py --quick      # fewer runs, smaller decode load
    python scripts/bench.py --runs 20    # query runs per side
    python scripts/bench.py --json       # machine-readable results on stdout
    python scripts/bench.py --record     # re-record tests/fixtures/recorded_stream.ndjson

Three measurements:

1. ``import claude_wrap`` in a fresh interpreter, minus a bare ``-c pass``
   baseline (the three variants are interleaved, medians reported).
2. One-prompt ``query()`` wall time against the bare binary, both driven by
   the same ``ScriptedModel`` and timed from start to process exit (both
   include shutdown). The A/B runs are interleaved so machine noise hits both.
3. Decode throughput of ``claude_wrap.decode_line`` over a recorded stream
   (``tests/fixtures/recorded_stream.ndjson``) against ``json.loads`` plus a
   walk of the dict that extracts the same information.

Nothing here asserts on time: it prints what it measured.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "recorded_stream.ndjson"

BASE_ARGS = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json", "--setting-sources", ""]

IMPORT_TARGET_MS = 60.0
QUERY_TARGET_RATIO = 1.10


# ---------------------------------------------------------------------------
# statistics helpers
# ---------------------------------------------------------------------------


def median(values: list[float]) -> float:
    return statistics.median(values)


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    # nearest-rank percentile: no interpolation beyond the data
    rank = max(1, -(-9 * len(ordered) // 10))
    return ordered[rank - 1]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# 1. import time
# ---------------------------------------------------------------------------

IMPORT_VARIANTS = {
    "baseline": "pass",
    "import claude_wrap": "import claude_wrap",
    "import + query, ClaudeAgentOptions": "import claude_wrap; from claude_wrap import query, ClaudeAgentOptions",
}


def _time_interpreter(code: str) -> float:
    env = dict(os.environ)
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    start = time.perf_counter()
    # Run from a neutral directory: with "-c", the current directory comes first on sys.path.
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=tempfile.gettempdir())
    return time.perf_counter() - start


def bench_import(runs: int) -> dict[str, Any]:
    samples: dict[str, list[float]] = {name: [] for name in IMPORT_VARIANTS}
    for name, code in IMPORT_VARIANTS.items():  # warm the page cache and .pyc files
        _time_interpreter(code)
    for i in range(runs):
        # rotate the order each round so no variant always runs first
        names = list(IMPORT_VARIANTS)
        names = names[i % len(names) :] + names[: i % len(names)]
        for name in names:
            samples[name].append(_time_interpreter(IMPORT_VARIANTS[name]))
    base = median(samples["baseline"])
    out: dict[str, Any] = {"runs": runs, "baseline_ms": base * 1000, "variants": {}}
    for name in IMPORT_VARIANTS:
        if name == "baseline":
            continue
        raw = samples[name]
        out["variants"][name] = {
            "median_ms": (median(raw) - base) * 1000,
            "p90_ms": (p90(raw) - base) * 1000,
            "raw_median_ms": median(raw) * 1000,
        }
    return out


# ---------------------------------------------------------------------------
# 2. query() vs the bare binary
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class RunTiming:
    result_s: float  # start → result line/message
    exit_s: float  # start → process exited (includes shutdown)


def _user_line(text: str) -> bytes:
    frame = {
        "type": "user",
        "message": {"role": "user", "content": text},
        "parent_tool_use_id": None,
        "session_id": "",
    }
    return (json.dumps(frame) + "\n").encode()


def run_bare(binary: str, env: dict[str, str], cwd: str, prompt: str) -> RunTiming:
    """Spawn the binary, write one user line, read to the result, close stdin, wait."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [binary, *BASE_ARGS],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
        start_new_session=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(_user_line(prompt))
    proc.stdin.flush()
    result_at: float | None = None
    for line in proc.stdout:
        if b'"type":"result"' in line or json.loads(line).get("type") == "result":
            result_at = time.perf_counter()
            break
    proc.stdin.close()
    proc.stdout.read()
    proc.wait()
    end = time.perf_counter()
    if result_at is None:
        raise RuntimeError(f"bare binary ended without a result (exit {proc.returncode})")
    return RunTiming(result_at - start, end - start)


async def run_ours(env: dict[str, str], cwd: str, prompt: str) -> RunTiming:
    from claude_wrap import ClaudeAgentOptions, ResultMessage, query

    start = time.perf_counter()
    result_at: float | None = None
    options = ClaudeAgentOptions(env=env, cwd=cwd, setting_sources=[])
    async for message in query(prompt=prompt, options=options):
        if isinstance(message, ResultMessage):
            result_at = time.perf_counter()
    end = time.perf_counter()
    if result_at is None:
        raise RuntimeError("query() ended without a ResultMessage")
    return RunTiming(result_at - start, end - start)


def bench_query(runs: int) -> dict[str, Any]:
    from claude_wrap import find_binary
    from claude_wrap.testing import Reply, ScriptedModel

    binary = os.fspath(find_binary())
    prompt = "Say hello"
    bare: list[RunTiming] = []
    ours: list[RunTiming] = []
    with ScriptedModel(Reply.text("Hello from the scripted model.").sticky()) as model, tempfile.TemporaryDirectory(
        prefix="claude-wrap-bench-"
    ) as tmp:
        # One event loop for all our runs (asyncio.Runner needs Python 3.11).
        loop = asyncio.new_event_loop()

        def fresh() -> tuple[dict[str, str], str]:
            # A fresh HOME and cwd per run, so no run sees another's session files.
            d = Path(tempfile.mkdtemp(dir=tmp))
            (d / "cwd").mkdir()
            return model.env(d / "home"), str(d / "cwd")

        def one_bare() -> RunTiming:
            env, cwd = fresh()
            # The same child environment query() builds (see ClaudeAgentOptions.explain()).
            child = {k: v for k, v in os.environ.items() if k not in ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT")}
            child.update({"CLAUDE_CODE_ENTRYPOINT": "sdk-py", "PWD": cwd}, **env)
            return run_bare(binary, child, cwd, prompt)

        def one_ours() -> RunTiming:
            env, cwd = fresh()
            return loop.run_until_complete(run_ours(env, cwd, prompt))

        try:
            log("query: warm-up (1 run each, not counted)")
            one_bare()
            one_ours()
            for i in range(runs):
                # ABBA order: alternate which side goes first in each pair.
                pair: list[tuple[list[RunTiming], Callable[[], RunTiming]]] = [(bare, one_bare), (ours, one_ours)]
                if i % 2:
                    pair.reverse()
                for sink, fn in pair:
                    sink.append(fn())
                log(
                    f"query: pair {i + 1}/{runs}: bare {bare[-1].exit_s * 1000:.0f} ms, "
                    f"ours {ours[-1].exit_s * 1000:.0f} ms"
                )
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    def summary(samples: list[RunTiming]) -> dict[str, float]:
        exits = [s.exit_s * 1000 for s in samples]
        results = [s.result_s * 1000 for s in samples]
        shutdown = [(s.exit_s - s.result_s) * 1000 for s in samples]
        return {
            "median_ms": median(exits),
            "p90_ms": p90(exits),
            "result_median_ms": median(results),
            "shutdown_median_ms": median(shutdown),
        }

    b, o = summary(bare), summary(ours)
    return {
        "runs": runs,
        "bare": b,
        "ours": o,
        "ratio_median": o["median_ms"] / b["median_ms"],
        "ratio_p90": o["p90_ms"] / b["p90_ms"],
        "ratio_result_median": o["result_median_ms"] / b["result_median_ms"],
        "samples_ms": {
            "bare": [round(s.exit_s * 1000, 1) for s in bare],
            "ours": [round(s.exit_s * 1000, 1) for s in ours],
        },
    }


# ---------------------------------------------------------------------------
# 3. decode throughput
# ---------------------------------------------------------------------------


def record_stream(path: Path) -> int:
    """Record the bare binary's stdout for a partial-message run with thinking,
    text and a tool call, and save it as the decode fixture."""
    from claude_wrap import find_binary
    from claude_wrap.testing import reply_from_json

    binary = os.fspath(find_binary())
    thinking = (
        "The user wants to know how many Python files are in the project and what the "
        "largest one is. I should list the files first rather than guess, then look at "
        "the sizes. A single shell command can do both: find the .py files, count them, "
        "and sort by size. I will keep the command read-only and explain what I found. "
    ) * 4
    text = (
        "I'll look at the project layout first. Let me list the Python files with their "
        "sizes so we can see how the code is organised and which module is the largest. "
    ) * 3
    answer = (
        "There are a handful of Python files here. The largest module is the session "
        "layer, which holds the control protocol and the message pump; the codec is next, "
        "followed by the transport. Everything else is small: option handling, argv "
        "construction and the binary discovery helpers. If you want, I can summarise what "
        "each module does or look for the slowest path in a typical run. "
    ) * 4
    # The script-file form keeps this independent of the kit's block class names.
    # Real API deltas carry a few tokens each; 12 characters is in that range.
    first = reply_from_json(
        {
            "blocks": [
                {"type": "thinking", "thinking": thinking},
                {"type": "text", "text": text},
                {
                    "type": "tool_use",
                    "name": "Bash",
                    "input": {
                        "command": "find . -name '*.py' -printf '%s %p\\n' | sort -n | tail -5; find . -name '*.py' | wc -l",
                        "description": "List the largest Python files and count them",
                    },
                },
            ],
            "delta_chars": 12,
        }
    )
    second = reply_from_json(
        {
            "blocks": [
                {"type": "thinking", "thinking": thinking[: len(thinking) // 2]},
                {"type": "text", "text": answer},
            ],
            "delta_chars": 12,
        }
    )

    from claude_wrap.testing import ScriptedModel

    with ScriptedModel(first, second) as model, tempfile.TemporaryDirectory(prefix="claude-wrap-rec-") as tmp:
        cwd = Path(tmp) / "project"
        (cwd / "pkg").mkdir(parents=True)
        for name, count in (("pkg/session.py", 400), ("pkg/codec.py", 300), ("pkg/transport.py", 250), ("main.py", 20)):
            (cwd / name).write_text("x = 1\n" * count)
        env = {**model.env(Path(tmp) / "home"), "CLAUDE_CODE_ENTRYPOINT": "sdk-py", "PWD": str(cwd)}
        proc = subprocess.run(
            [binary, *BASE_ARGS, "--include-partial-messages", "--allowedTools", "Bash"],
            input=_user_line("How many Python files are in this project, and which is the largest?"),
            capture_output=True,
            env=env,
            cwd=cwd,
            timeout=120,
            check=False,
        )
        lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
        if proc.returncode != 0 or not lines or json.loads(lines[-1]).get("type") != "result":
            raise RuntimeError(f"recording failed (exit {proc.returncode}):\n{proc.stderr.decode()[-2000:]}")
        # Make the fixture independent of the temp paths of this recording.
        data = b"\n".join(lines) + b"\n"
        for raw, placeholder in ((str(cwd), "/home/user/project"), (str(Path(tmp) / "home"), "/home/user")):
            data = data.replace(raw.encode(), placeholder.encode())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return len(lines)


def _walk_stdlib(line: bytes) -> Any:
    """json.loads + the dict walk an application would do: dispatch on type,
    pull the content blocks out of messages, the event type out of stream events."""
    d = json.loads(line)
    kind = d.get("type")
    if kind == "stream_event":
        ev = d["event"]
        et = ev.get("type")
        delta = ev.get("delta")
        return ("stream_event", et, delta.get("type") if delta else None, d.get("session_id"))
    if kind in ("assistant", "user"):
        msg = d["message"]
        content = msg["content"]
        blocks: Any
        if isinstance(content, str):
            blocks = content
        else:
            blocks = []
            for b in content:
                bt = b.get("type")
                if bt == "text":
                    blocks.append((bt, b["text"]))
                elif bt == "thinking":
                    blocks.append((bt, b["thinking"], b.get("signature", "")))
                elif bt == "tool_use":
                    blocks.append((bt, b["id"], b["name"], b.get("input", {})))
                elif bt == "tool_result":
                    blocks.append((bt, b["tool_use_id"], b.get("content"), b.get("is_error")))
                else:
                    blocks.append((bt, b))
        return (kind, blocks, msg.get("model"), d.get("parent_tool_use_id"), d.get("session_id"))
    if kind == "system":
        return ("system", d.get("subtype"), d.get("session_id"), d)
    if kind == "result":
        return (
            "result",
            d.get("subtype"),
            d.get("is_error"),
            d.get("num_turns"),
            d.get("total_cost_usd"),
            d.get("result"),
            d.get("usage"),
        )
    if kind and kind.startswith("control_"):
        return None
    return (kind, d)


def bench_decode(target_messages: int, rounds: int) -> dict[str, Any]:
    from claude_wrap import decode_line

    if not FIXTURE.exists():
        log(f"decode: {FIXTURE} missing, recording it")
        record_stream(FIXTURE)
    lines = [ln for ln in FIXTURE.read_bytes().splitlines() if ln.strip()]
    kinds: dict[str, int] = {}
    for ln in lines:
        k = json.loads(ln).get("type", "?")
        kinds[k] = kinds.get(k, 0) + 1
    repeat = max(1, target_messages // len(lines))
    total = repeat * len(lines)

    # Sanity: both paths see the same frames.
    for ln in lines:
        decode_line(ln)
        _walk_stdlib(ln)

    def run(fn: Callable[[bytes], Any]) -> float:
        start = time.perf_counter()
        for _ in range(repeat):
            for ln in lines:
                fn(ln)
        return time.perf_counter() - start

    ours: list[float] = []
    stdlib: list[float] = []
    for i in range(rounds):  # interleaved, alternating order
        order = [(ours, decode_line), (stdlib, _walk_stdlib)]
        if i % 2:
            order.reverse()
        for sink, fn in order:
            sink.append(run(fn))
    ours_rate = total / median(ours)
    std_rate = total / median(stdlib)
    return {
        "fixture": str(FIXTURE.relative_to(ROOT)),
        "lines": len(lines),
        "frame_types": kinds,
        "bytes": sum(len(ln) + 1 for ln in lines),
        "messages_per_round": total,
        "rounds": rounds,
        "decode_line_msgs_per_s": ours_rate,
        "json_walk_msgs_per_s": std_rate,
        "ratio": ours_rate / std_rate,
    }


# ---------------------------------------------------------------------------
# control round trips (Python side only: request line in -> response line out)
# ---------------------------------------------------------------------------

ROUNDTRIP_TARGET_MS = 1.0


async def _roundtrips(kind: str, n: int) -> list[float]:
    from claude_wrap import ClaudeAgentOptions, HookMatcher, PermissionResultAllow
    from claude_wrap._control_plane import control_plane
    from claude_wrap._session import Session
    from claude_wrap.testing import MockTransport

    async def hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}

    async def allow(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
        return PermissionResultAllow()

    if kind == "hook":
        options = ClaudeAgentOptions(hooks={"PreToolUse": [HookMatcher("Bash", [hook])]})
    else:
        options = ClaudeAgentOptions(can_use_tool=allow)
    plane = control_plane(options)
    transport = MockTransport(lambda frame: None)
    session = Session(transport, handlers=plane.handlers)
    started: dict[str, int] = {}
    timings: list[float] = []
    answered: set[str] = set()

    def on_receive(line: bytes) -> None:
        started[json.loads(line)["request_id"]] = time.perf_counter_ns()

    def on_send(frame: dict[str, Any]) -> None:
        rid = frame["response"]["request_id"]
        timings.append((time.perf_counter_ns() - started[rid]) / 1e6)
        answered.add(rid)

    transport.on_receive = on_receive
    transport.on_send = on_send
    tool_input = {"command": "echo hi", "description": "print"}
    for i in range(n):
        rid = f"bench-{i}"
        if kind == "hook":
            body = {
                "subtype": "hook_callback",
                "callback_id": "hook_0",
                "input": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": tool_input},
                "tool_use_id": f"toolu_{i}",
            }
        else:
            body = {"subtype": "can_use_tool", "tool_name": "Bash", "input": tool_input, "tool_use_id": f"toolu_{i}"}
        transport.feed({"type": "control_request", "request_id": rid, "request": body})
        await session._drive(lambda rid=rid: rid in answered)  # type: ignore[misc]
    await session.aclose()
    return timings


def bench_roundtrip(n: int) -> dict[str, Any]:
    import anyio

    out: dict[str, Any] = {"n": n}
    for kind in ("hook", "can_use_tool"):
        timings = anyio.run(_roundtrips, kind, n)[n // 10 :]  # drop warm-up
        ordered = sorted(timings)
        out[kind] = {
            "p50_ms": ordered[len(ordered) // 2],
            "p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
        }
    return out


# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    try:
        from claude_wrap import binary_info

        version = binary_info().version
    except Exception:  # noqa: BLE001 - informational only
        version = "?"
    return {
        "date": time.strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        "platform": f"{platform.system()} {platform.machine()}",
        "python": platform.python_version(),
        "binary_version": version,
    }


def render(results: dict[str, Any]) -> str:
    m = results["machine"]
    out = [
        (
            f"claude_wrap benchmarks — {m['date']}, {m['cpus']} cores, {m['platform']}, "
            f"Python {m['python']}, Claude Code {m['binary_version']}"
        ),
        "",
    ]
    rows: list[tuple[str, str, str, str]] = []
    imp = results.get("import")
    if imp:
        for name, v in imp["variants"].items():
            target = f"≤ {IMPORT_TARGET_MS:.0f} ms" if name == "import claude_wrap" else ""
            rows.append(
                (
                    f"`{name}` (fresh interpreter, minus `-c pass`)",
                    f"{v['median_ms']:.1f} ms (p90 {v['p90_ms']:.1f})",
                    f"baseline {imp['baseline_ms']:.1f} ms, n={imp['runs']}",
                    target,
                )
            )
    q = results.get("query")
    if q:
        b, o = q["bare"], q["ours"]
        rows.append(
            (
                "one-prompt run, bare binary (spawn → exit)",
                f"{b['median_ms']:.0f} ms (p90 {b['p90_ms']:.0f})",
                f"result at {b['result_median_ms']:.0f} ms, then exit in {b['shutdown_median_ms']:.0f} ms",
                "",
            )
        )
        rows.append(
            (
                "one-prompt run, `query()` (start → exit)",
                f"{o['median_ms']:.0f} ms (p90 {o['p90_ms']:.0f})",
                f"result at {o['result_median_ms']:.0f} ms, then exit in {o['shutdown_median_ms']:.0f} ms",
                "",
            )
        )
        rows.append(
            (
                "`query()` / bare",
                f"{q['ratio_median']:.2f}× (p90 {q['ratio_p90']:.2f}×)",
                f"to result: {q['ratio_result_median']:.2f}×; n={q['runs']} interleaved pairs",
                f"≤ {QUERY_TARGET_RATIO:.2f}×",
            )
        )
    d = results.get("decode")
    if d:
        rows.append(
            (
                "`decode_line` (typed messages)",
                f"{d['decode_line_msgs_per_s'] / 1000:.0f} k msg/s",
                f"{d['lines']}-line recorded stream × {d['messages_per_round'] // d['lines']}",
                "",
            )
        )
        rows.append(
            (
                "`json.loads` + dict walk",
                f"{d['json_walk_msgs_per_s'] / 1000:.0f} k msg/s",
                f"median of {d['rounds']} interleaved rounds",
                "",
            )
        )
        rows.append(("`decode_line` / stdlib", f"{d['ratio']:.2f}×", "higher is better", ""))
    r = results.get("roundtrip")
    if r:
        for kind, label in (("hook", "hook_callback"), ("can_use_tool", "can_use_tool")):
            rows.append(
                (
                    f"`{label}` round trip, Python side (line in → line out)",
                    f"p50 {r[kind]['p50_ms'] * 1000:.0f} µs, p99 {r[kind]['p99_ms'] * 1000:.0f} µs",
                    f"n={r['n']} through the real session pump, in-memory transport",
                    f"p50 ≤ {ROUNDTRIP_TARGET_MS:.0f} ms" if kind == "hook" else "",
                )
            )
    header = ("measure", "median", "notes", "target")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]

    def fmt(r: tuple[str, ...]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"

    out.append(fmt(header))
    out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    out.extend(fmt(r) for r in rows)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=None, help="query() and bare-binary runs each (default 10)")
    parser.add_argument("--quick", action="store_true", help="fewer runs and a smaller decode load")
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    parser.add_argument("--record", action="store_true", help=f"re-record {FIXTURE.relative_to(ROOT)} and exit")
    parser.add_argument(
        "--only",
        choices=["import", "query", "decode", "roundtrip"],
        action="append",
        help="run only these parts (repeatable)",
    )
    args = parser.parse_args(argv)

    if args.record:
        n = record_stream(FIXTURE)
        print(f"recorded {n} lines into {FIXTURE}")
        return 0

    runs = args.runs if args.runs is not None else (3 if args.quick else 10)
    import_runs = 5 if args.quick else 15
    decode_target = 50_000 if args.quick else 200_000
    decode_rounds = 3 if args.quick else 5
    parts = set(args.only or ["import", "query", "decode", "roundtrip"])

    results: dict[str, Any] = {"machine": machine()}
    if "import" in parts:
        log(f"import: {import_runs} runs per variant")
        results["import"] = bench_import(import_runs)
    if "query" in parts:
        results["query"] = bench_query(runs)
    if "decode" in parts:
        log(f"decode: ~{decode_target} messages × {decode_rounds} rounds per side")
        results["decode"] = bench_decode(decode_target, decode_rounds)

    if "roundtrip" in parts:
        log("control round trips")
        results["roundtrip"] = bench_roundtrip(500 if args.quick else 5000)

    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(render(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
