#!/usr/bin/env python3
"""Benchmarks for claude_wrap, measured side by side on this machine.

    python scripts/bench.py              # default: 15 import runs, 10 query runs
    python scripts/bench.py --quick      # fewer runs, smaller decode load
    python scripts/bench.py --runs 20    # query runs per side
    python scripts/bench.py --json       # machine-readable results on stdout
    python scripts/bench.py --record     # re-record tests/fixtures/recorded_stream.ndjson

Three measurements:

1. Import cost in fresh interpreters, minus ``python -c "import asyncio"``:
   ``import claude_wrap``, and what a script pays before its first run
   (``from claude_wrap import query, ClaudeAgentOptions;
   ClaudeAgentOptions(max_turns=3)``), each beside the official package's
   same line when its interpreter is found (``--official-python``, or
   ``build/official-venv``, which ``make official`` makes). All
   variants are interleaved; wall-time and CPU-time medians are reported.
2. One-prompt ``query()`` wall time against the bare binary, both driven by
   the same ``ScriptedModel`` and timed from start to process exit (both
   include shutdown). The A/B runs are interleaved so machine noise hits both.
3. Decode throughput of ``claude_wrap.decode_line`` over a recorded stream
   (``tests/fixtures/recorded_stream.ndjson``) against the official parser
   (``json.loads`` + ``parse_message``, run in the official package's venv:
   ``--official-python``), interleaved, with and without the stream events.

More parts (``--only pool``, ``--only fleet``, ``--only rss``, ``--only
official``, ``--only script``, ``--only payload``):

* ``pool``: ``query()`` call to ``ResultMessage``, cold against a warm
  ``ClaudePool`` member, and the same with ``bare=True`` (``--bare``),
  rotated rounds, medians.
* ``fleet``: ``run_many`` one task after another, against ``pool.query()``
  on a pool of one and against cold ``query()`` calls (wall time per task,
  rotated rounds); tasks per minute for 40 one-prompt tasks, three at a
  time, on the local pool, on a Ray cluster of one node and on one of three
  nodes (a head and two workers), all started on this machine; and how long
  the tool gate of a durable batch (``batch_id``) holds each tool call.

* ``rss``: peak RSS growth (``ru_maxrss``) of a fresh Python process while
  one 100 MiB JSON line streams through ``SubprocessTransport`` and is decoded.
* ``official``: the same one-prompt query through the official
  ``claude-agent-sdk`` (in build/official-venv: ``make official`` or
  ``--setup-official`` creates it, see scripts/official_venv.py) and through
  ``claude_wrap``, interleaved, plus both import times.
* ``script``: a one-prompt script (``asyncio.run`` of ``async for m in
  query(prompt="hi", options=ClaudeAgentOptions(max_turns=1))``) as a fresh
  process, start to exit: with claude_wrap, with the official package, the
  bare binary given the same command line and prompt line, and an empty
  ``asyncio.run()`` script (the floor any Python program pays); rotated
  rounds, medians and quartiles, ratios to the bare binary.
* ``payload``: a ~50 MiB string prompt and a scripted turn whose in-process
  MCP tool returns ~100 MiB of text, the same program on claude_wrap and on
  the official package, each in a child interpreter, timed from the
  ``query()`` call to the ``ResultMessage``; interleaved rounds, medians,
  the child's CPU time and peak RSS (``ru_maxrss``).

Nothing here asserts on time: it prints what it measured.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's claude_wrap, in this process and (PYTHONPATH) its children
FIXTURE = ROOT / "tests" / "fixtures" / "recorded_stream.ndjson"

# What query() passes for options(setting_sources=[]), see ClaudeAgentOptions.explain().
BASE_ARGS = [
    "--output-format", "stream-json", "--verbose", "--system-prompt", "", "--setting-sources=",
    "--input-format", "stream-json",
]  # fmt: skip

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

# What a script pays before its first run: the options built, query imported.
SETUP_LINE = "from {package} import query, ClaudeAgentOptions; ClaudeAgentOptions(max_turns=3)"

IMPORT_VARIANTS = {
    "import claude_wrap": "import asyncio; import claude_wrap",
    "query + ClaudeAgentOptions(max_turns=3)": "import asyncio; " + SETUP_LINE.format(package="claude_wrap"),
}
OFFICIAL_IMPORT_VARIANTS = {
    "import claude_agent_sdk": "import asyncio; import claude_agent_sdk",
    "official: query + ClaudeAgentOptions(max_turns=3)": "import asyncio; "
    + SETUP_LINE.format(package="claude_agent_sdk"),
}
BASELINE = "import asyncio"


@dataclasses.dataclass
class Timed:
    wall_s: float
    cpu_s: float  # user + system time of the child: less sensitive to a busy machine


def _time_interpreter(code: str, python: str = sys.executable) -> Timed:
    env = dict(os.environ)
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    if python == sys.executable:  # ours from this checkout, whatever the current directory
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # Run from a neutral directory: with "-c", the current directory comes first on sys.path.
    subprocess.run([python, "-c", code], check=True, env=env, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return Timed(wall, cpu)


def bench_import(runs: int, official: Path | None) -> dict[str, Any]:
    """Each variant minus ``python -c "import asyncio"`` in the same
    interpreter; ours and the official package's interleaved, medians."""
    jobs: dict[str, tuple[str, str]] = {"baseline": (sys.executable, BASELINE)}
    jobs.update({name: (sys.executable, code) for name, code in IMPORT_VARIANTS.items()})
    if official is not None:
        jobs["official baseline"] = (str(official), BASELINE)
        jobs.update({name: (str(official), code) for name, code in OFFICIAL_IMPORT_VARIANTS.items()})
    samples: dict[str, list[Timed]] = {name: [] for name in jobs}
    for python, code in jobs.values():  # warm the page cache and .pyc files
        _time_interpreter(code, python)
    for i in range(runs):
        # rotate the order each round so no variant always runs first
        names = list(jobs)
        names = names[i % len(names) :] + names[: i % len(names)]
        for name in names:
            samples[name].append(_time_interpreter(jobs[name][1], jobs[name][0]))

    def stats(name: str, base: str) -> dict[str, float]:
        wall = [t.wall_s for t in samples[name]]
        cpu = [t.cpu_s for t in samples[name]]
        base_wall = median([t.wall_s for t in samples[base]])
        base_cpu = median([t.cpu_s for t in samples[base]])
        base_min = min(t.wall_s for t in samples[base])
        return {
            "median_ms": (median(wall) - base_wall) * 1000,
            "p90_ms": (p90(wall) - base_wall) * 1000,
            # noise only ever adds time: the fastest runs show the cost itself
            "min_ms": (min(wall) - base_min) * 1000,
            "cpu_median_ms": (median(cpu) - base_cpu) * 1000,
            "raw_median_ms": median(wall) * 1000,
        }

    out: dict[str, Any] = {
        "runs": runs,
        "baseline_ms": median([t.wall_s for t in samples["baseline"]]) * 1000,
        "variants": {name: stats(name, "baseline") for name in IMPORT_VARIANTS},
    }
    if official is not None:
        out["official"] = {name: stats(name, "official baseline") for name in OFFICIAL_IMPORT_VARIANTS}
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


def _fresh_dirs(model: Any, tmp: str) -> tuple[dict[str, str], str]:
    """A fresh HOME and cwd per run, so no run sees another's session files."""
    d = Path(tempfile.mkdtemp(dir=tmp))
    (d / "cwd").mkdir()
    return model.env(d / "home"), str(d / "cwd")


def _interleave(label: str, runs: int, sides: list[tuple[list[RunTiming], Callable[[], RunTiming]]]) -> None:
    """One uncounted warm-up run per side, then ``runs`` pairs in ABBA order,
    so drift in machine load hits both sides alike."""
    log(f"{label}: warm-up (1 run each, not counted)")
    for _, fn in sides:
        fn()
    for i in range(runs):
        for sink, fn in sides if i % 2 == 0 else list(reversed(sides)):
            sink.append(fn())
        log(f"{label}: pair {i + 1}/{runs}: " + ", ".join(f"{sink[-1].exit_s * 1000:.0f} ms" for sink, _ in sides))


def bench_query(runs: int) -> dict[str, Any]:
    from claude_wrap import find_binary
    from claude_wrap._launch.argv import AGENT_SDK_VERSION
    from claude_wrap.testing import Reply, ScriptedModel

    binary = os.fspath(find_binary())
    prompt = "Say hello"
    bare: list[RunTiming] = []
    ours: list[RunTiming] = []
    with (
        ScriptedModel(Reply.text("Hello from the scripted model.").sticky()) as model,
        tempfile.TemporaryDirectory(prefix="claude-wrap-bench-") as tmp,
    ):
        # One event loop for all our runs (asyncio.Runner needs Python 3.11).
        loop = asyncio.new_event_loop()

        def one_bare() -> RunTiming:
            env, cwd = _fresh_dirs(model, tmp)
            # The same child environment query() builds (see ClaudeAgentOptions.explain()).
            child = {k: v for k, v in os.environ.items() if k != "CLAUDECODE"}
            child.update({"CLAUDE_CODE_ENTRYPOINT": "sdk-py"}, **env)
            child.update({"CLAUDE_AGENT_SDK_VERSION": AGENT_SDK_VERSION, "PWD": cwd})
            return run_bare(binary, child, cwd, prompt)

        def one_ours() -> RunTiming:
            env, cwd = _fresh_dirs(model, tmp)
            return loop.run_until_complete(run_ours(env, cwd, prompt))

        try:
            _interleave("query", runs, [(bare, one_bare), (ours, one_ours)])
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


DECODE_TARGET_RATIO = 2.5

# The official parser, as its package runs it on each stdout line: json.loads,
# then parse_message. Runs in the official venv and times rounds on request,
# so both sides can be interleaved: each stdin line "<stream> <repeat>" gets
# back the seconds one round took. First it prints the repr of every message,
# so the caller can check both sides produce the same messages.
_OFFICIAL_DECODE = r"""
import json, sys, time
from claude_agent_sdk._internal.message_parser import parse_message

lines = [ln for ln in open(sys.argv[1], "rb").read().splitlines() if ln.strip()]
streams = {"all": lines, "messages": [ln for ln in lines if json.loads(ln).get("type") != "stream_event"]}
print(json.dumps([repr(parse_message(json.loads(ln))) for ln in lines]), flush=True)
for command in sys.stdin:
    name, repeat = command.split()
    chosen = streams[name]
    start = time.perf_counter()
    for _ in range(int(repeat)):
        for ln in chosen:
            parse_message(json.loads(ln))
    print(time.perf_counter() - start, flush=True)
"""


def bench_decode(target_messages: int, rounds: int, python: Path | None) -> dict[str, Any] | None:
    """``decode_line`` against the official parser on the same recorded lines,
    interleaved round by round: the whole stream (partial messages on, mostly
    stream events) and the same stream without its stream events."""
    from claude_wrap import decode_line

    if not FIXTURE.exists():
        log(f"decode: {FIXTURE} missing, recording it")
        record_stream(FIXTURE)
    lines = [ln for ln in FIXTURE.read_bytes().splitlines() if ln.strip()]
    kinds: dict[str, int] = {}
    for ln in lines:
        k = json.loads(ln).get("type", "?")
        kinds[k] = kinds.get(k, 0) + 1
    streams = {"all": lines, "messages": [ln for ln in lines if json.loads(ln).get("type") != "stream_event"]}
    if python is None:
        log("decode: skipped, no official package (create its venv or pass --official-python)")
        return None
    worker = subprocess.Popen(
        [str(python), "-c", _OFFICIAL_DECODE, str(FIXTURE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert worker.stdin is not None and worker.stdout is not None
    try:
        theirs_reprs = json.loads(worker.stdout.readline())
        same = theirs_reprs == [repr(decode_line(ln)) for ln in lines]

        def official_round(name: str, repeat: int) -> float:
            worker.stdin.write(f"{name} {repeat}\n")  # type: ignore[union-attr]
            worker.stdin.flush()  # type: ignore[union-attr]
            return float(worker.stdout.readline())  # type: ignore[union-attr]

        def our_round(name: str, repeat: int) -> float:
            chosen = streams[name]
            start = time.perf_counter()
            for _ in range(repeat):
                for ln in chosen:
                    decode_line(ln)
            return time.perf_counter() - start

        out: dict[str, Any] = {
            "fixture": str(FIXTURE.relative_to(ROOT)),
            "frame_types": kinds,
            "rounds": rounds,
            "same_messages": same,
        }
        for name, chosen in streams.items():
            repeat = max(1, target_messages // len(chosen))
            ours: list[float] = []
            theirs: list[float] = []
            for i in range(rounds):  # interleaved, alternating order
                sides = [(ours, our_round), (theirs, official_round)]
                for sink, fn in sides if i % 2 == 0 else reversed(sides):
                    sink.append(fn(name, repeat))
            total = repeat * len(chosen)
            out[name] = {
                "lines": len(chosen),
                "messages_per_round": total,
                "ours_msgs_per_s": total / median(ours),
                "official_msgs_per_s": total / median(theirs),
                "ratio": median(theirs) / median(ours),
            }
        return out
    finally:
        worker.stdin.close()
        worker.wait(timeout=30)


# ---------------------------------------------------------------------------
# control round trips (Python side only: request line in -> response line out)
# ---------------------------------------------------------------------------

ROUNDTRIP_TARGET_MS = 1.0


def _control_request(rid: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"type": "control_request", "request_id": rid, "request": body}


def _mcp_call(rid: str, msg_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
    message = {"method": method, "jsonrpc": "2.0", "id": msg_id, "params": params}
    return _control_request(rid, {"subtype": "mcp_message", "server_name": "calc", "message": message})


def _calc_server(kind: str) -> Any:
    """The same ``add`` tool, declared each way a user can declare it."""
    from pydantic import BaseModel

    from claude_wrap import create_sdk_mcp_server, tool

    class Pair(BaseModel):
        a: float
        b: float

    if kind == "mcp_package":
        import mcp_types as types
        from mcp.server.lowlevel import Server

        async def call_tool(ctx: Any, params: Any) -> Any:
            total = params.arguments["a"] + params.arguments["b"]
            return types.CallToolResult(content=[types.TextContent(type="text", text=str(total))])

        return {"type": "sdk", "name": "calc", "instance": Server("calc", on_call_tool=call_tool)}
    if kind == "pydantic":

        @tool("add", "Add", Pair)
        async def add_model(args: Pair) -> str:
            return str(args.a + args.b)

        return create_sdk_mcp_server("calc", tools=[add_model])
    if kind == "sync":

        @tool("add", "Add", {"a": float, "b": float})
        def add_sync(args: dict[str, Any]) -> str:
            return str(args["a"] + args["b"])

        return create_sdk_mcp_server("calc", tools=[add_sync])
    schema: Any = {"a": float, "b": float}
    if kind == "json_schema":
        schema = {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        }

    @tool("add", "Add", schema)
    async def add(args: dict[str, Any]) -> str:
        return str(args["a"] + args["b"])

    return create_sdk_mcp_server("calc", tools=[add])


def _roundtrip_setup(kind: str) -> tuple[Any, list[dict[str, Any]], Any]:
    """Options, warm-up frames, and a factory of the i-th request for ``kind``."""
    from claude_wrap import ClaudeAgentOptions, HookMatcher, PermissionResultAllow

    tool_input = {"command": "echo hi", "description": "print"}
    if kind == "hook":

        async def hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
            return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}

        body = {
            "subtype": "hook_callback",
            "callback_id": "hook_0",
            "tool_use_id": "toolu_1",
            "input": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": tool_input},
        }
        return (
            ClaudeAgentOptions(hooks={"PreToolUse": [HookMatcher("Bash", [hook])]}),
            [],
            lambda i, rid: _control_request(rid, body),
        )
    if kind == "can_use_tool":

        async def allow(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
            return PermissionResultAllow()

        body = {"subtype": "can_use_tool", "tool_name": "Bash", "input": tool_input, "tool_use_id": "toolu_1"}
        return ClaudeAgentOptions(can_use_tool=allow), [], lambda i, rid: _control_request(rid, body)
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "claude-code", "version": "2"}}
    return (
        ClaudeAgentOptions(mcp_servers={"calc": _calc_server(kind)}),
        [_mcp_call("warm-init", 0, "initialize", init)],
        lambda i, rid: _mcp_call(rid, i + 1, "tools/call", {"name": "add", "arguments": {"a": i, "b": 2}}),
    )


async def _roundtrips(kind: str, n: int) -> list[float]:
    """Milliseconds from a request line handed to the session to its answer
    line written, through the real pump and control plane."""
    from claude_wrap._launch.control_plane import control_plane
    from claude_wrap._run.protocol import Connection
    from claude_wrap.testing import MockTransport

    options, warmup, make_request = _roundtrip_setup(kind)
    transport = MockTransport(lambda frame: None)
    session = Connection(transport, handlers=control_plane(options).handlers)
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
    for frame in warmup:
        transport.feed(frame)
        await session._drive(lambda rid=frame["request_id"]: rid in answered)  # type: ignore[misc]
    timings.clear()
    for i in range(n):
        rid = f"bench-{i}"
        transport.feed(make_request(i, rid))
        await session._drive(lambda rid=rid: rid in answered)  # type: ignore[misc]
        reply = transport.sent[-1]["response"]
        assert reply["subtype"] == "success", reply
    await session.aclose()
    return timings


ROUNDTRIP_KINDS = {
    "hook": "`hook_callback`",
    "can_use_tool": "`can_use_tool`",
    "dict": "MCP `tools/call`, dict schema",
    "pydantic": "MCP `tools/call`, pydantic model",
    "json_schema": "MCP `tools/call`, raw JSON Schema",
    "sync": "MCP `tools/call`, sync handler (thread)",
    "mcp_package": "MCP `tools/call`, `mcp` Server instance",
}


def bench_roundtrip(n: int) -> dict[str, Any]:
    import importlib.util

    import anyio

    out: dict[str, Any] = {"n": n}
    for kind in ROUNDTRIP_KINDS:
        if kind == "mcp_package" and importlib.util.find_spec("mcp") is None:
            continue
        runs = n if kind != "mcp_package" else max(50, n // 10)
        timings = anyio.run(_roundtrips, kind, runs)[runs // 10 :]  # drop warm-up
        ordered = sorted(timings)
        out[kind] = {
            "p50_ms": ordered[len(ordered) // 2],
            "p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
            "n": runs,
        }
    return out


# ---------------------------------------------------------------------------
# warm pool: query() call to ResultMessage, pooled vs cold
# ---------------------------------------------------------------------------

POOL_TARGET_RATIO = 0.15
# Each side's run, in rotated order; "bare": ClaudeAgentOptions(bare=True);
# "client": a ClaudeSDKClient connected at the round's start, whose first and
# second turns are timed back to back (the second is the binary's floor: no
# spawn, no handshake, no first-turn work).
POOL_SIDES = ("cold", "cold bare", "pooled", "pooled bare", "client")
POOL_SAMPLES = ("cold", "cold bare", "pooled", "pooled bare", "client 1st", "client 2nd")


async def _pool_runs(env: dict[str, str], cwd: str, runs: int) -> dict[str, list[float]]:
    from contextlib import aclosing

    from claude_wrap import ClaudeAgentOptions, ClaudePool, ClaudeSDKClient, ResultMessage, query

    options = {
        "": ClaudeAgentOptions(env=env, cwd=cwd, setting_sources=[]),
        "bare": ClaudeAgentOptions(env=env, cwd=cwd, setting_sources=[], bare=True),
    }
    samples: dict[str, list[float]] = {side: [] for side in POOL_SAMPLES}

    async def to_result(messages: Any) -> float:
        start = time.perf_counter()
        async with aclosing(messages):  # the run is closed before the next one starts
            async for message in messages:
                if isinstance(message, ResultMessage):
                    return time.perf_counter() - start
        raise RuntimeError("no ResultMessage")

    async with ClaudePool(options[""], size=1) as pool, ClaudePool(options["bare"], size=1) as bare_pool:
        pools = {"": pool, "bare": bare_pool}

        async def ready() -> None:
            await pool.wait_ready()
            await bare_pool.wait_ready()

        async def client_turns(client: Any) -> list[float]:
            turns = []
            for prompt in ("Say hello", "Say hello again"):
                start = time.perf_counter()
                await client.query(prompt)
                async for message in client.receive_response():
                    if isinstance(message, ResultMessage):
                        turns.append(time.perf_counter() - start)
            return turns

        n = len(POOL_SIDES)
        for i in range(runs + 1):  # the first round is warm-up
            client = ClaudeSDKClient(options[""])
            await client.connect()
            try:
                await ready()
                for side in POOL_SIDES[i % n :] + POOL_SIDES[: i % n]:
                    kind, _, flavour = side.partition(" ")
                    # query() and pool.query() are lazy: the clock in to_result()
                    # starts before the first message is asked for, so a cold run
                    # includes its spawn and handshake, as a caller sees it.
                    if kind == "client":
                        first, second = await client_turns(client)
                        timed = {"client 1st": first, "client 2nd": second}
                    elif kind == "cold":
                        timed = {side: await to_result(query(prompt="Say hello", options=options[flavour]))}
                    else:
                        timed = {side: await to_result(pools[flavour].query(prompt="Say hello"))}
                    if i:
                        for name, elapsed in timed.items():
                            samples[name].append(elapsed * 1000)
                    await ready()
            finally:
                await client.disconnect()
    return samples


def bench_pool(runs: int) -> dict[str, Any]:
    import anyio

    from claude_wrap.testing import Reply, ScriptedModel

    with (
        ScriptedModel(Reply.text("Hello from the scripted model.").sticky()) as model,
        tempfile.TemporaryDirectory(prefix="claude-wrap-bench-pool-") as tmp,
    ):
        log(f"pool: {runs} rotated rounds of {', '.join(POOL_SIDES)}")
        samples = anyio.run(_pool_runs, model.env(Path(tmp) / "home"), tmp, runs)
    medians = {side: median(values) for side, values in samples.items()}
    return {
        "runs": runs,
        "median_ms": medians,
        "cold_median_ms": medians["cold"],
        "pooled_median_ms": medians["pooled"],
        "ratio_median": medians["pooled"] / medians["cold"],
        "ratio_bare_median": medians["pooled bare"] / medians["cold"],
        "ratio_cold_bare": medians["cold bare"] / medians["cold"],
        "ratio_client_first": medians["client 1st"] / medians["cold"],
        "ratio_client_second": medians["client 2nd"] / medians["cold"],
        "samples_ms": {side: [round(v, 1) for v in values] for side, values in samples.items()},
    }


# ---------------------------------------------------------------------------
# fleet: run_many's overhead, and tasks per minute on the local pool vs Ray
# ---------------------------------------------------------------------------

FLEET_OVERHEAD_TARGET = 1.05
FLEET_SIDES = ("cold query()", "pooled query()", "fleet")


async def _fleet_overhead(env: dict[str, str], cwd: str, rounds: int, per_round: int) -> dict[str, list[float]]:
    """Wall time per task of ``per_round`` one-prompt tasks run one after
    the other: cold ``query()``s, ``pool.query()``s on a ``ClaudePool`` of
    one, and a ``run_many`` batch of concurrency one (its own pool of one)."""
    from contextlib import aclosing

    from claude_wrap import ClaudeAgentOptions, ClaudePool, query
    from claude_wrap.fleet import run_many

    options = ClaudeAgentOptions(env=env, cwd=cwd, setting_sources=[])
    per_task: dict[str, list[float]] = {side: [] for side in FLEET_SIDES}

    async def drain(messages: Any) -> None:
        async with aclosing(messages):
            async for _ in messages:
                pass

    async def one_round(side: str) -> float:
        start = time.perf_counter()
        if side == "fleet":
            async with run_many(["Say hello"] * per_round, options=options, concurrency=1, warm=1) as batch:
                if not all([o.ok async for o in batch]):
                    raise RuntimeError("a fleet task failed")
        elif side == "pooled query()":
            async with ClaudePool(options, size=1) as pool:
                for _ in range(per_round):
                    await drain(pool.query(prompt="Say hello"))
        else:
            for _ in range(per_round):
                await drain(query(prompt="Say hello", options=options))
        return (time.perf_counter() - start) / per_round * 1000

    for i in range(rounds + 1):  # the first round is warm-up
        for side in FLEET_SIDES[i % 3 :] + FLEET_SIDES[: i % 3]:
            ms = await one_round(side)
            if i:
                per_task[side].append(ms)
            log(f"fleet: round {i}/{rounds}: {side} {ms:.0f} ms per task")
    return per_task


async def _fleet_rate(env: dict[str, str], cwd: str, tasks: int, backend: str, concurrency: int) -> tuple[float, float]:
    """Tasks per minute (``tasks`` one-prompt tasks, from ``run_many`` to the
    last outcome), and the median task's own time (``Outcome.duration_ms``:
    from its dispatch to its outcome, the batch's start left out)."""
    from claude_wrap import ClaudeAgentOptions
    from claude_wrap.fleet import run_many

    options = ClaudeAgentOptions(env=env, cwd=cwd, setting_sources=[])
    start = time.perf_counter()
    # A warm binary per slot on both sides (the default).
    async with run_many(["Say hello"] * tasks, options=options, backend=backend, concurrency=concurrency) as batch:  # type: ignore[arg-type]
        outcomes = [o async for o in batch]
    elapsed = time.perf_counter() - start
    if len(outcomes) != tasks or not all(o.ok for o in outcomes):
        raise RuntimeError(f"the {backend} fleet did not finish every task")
    return tasks / elapsed * 60, median([float(o.duration_ms) for o in outcomes])


RAY_TASK_TARGET = 1.10  # a task on a Ray node against the same task in this process
GATE_CALLS = 4  # tool calls per task in the gate's measure
GATE_TARGET_MS = 5.0


def _calls_so_far(request: Any) -> int:
    return sum(
        1
        for m in request.messages
        if m["role"] == "assistant" and isinstance(m["content"], list)
        for b in m["content"]
        if b.get("type") == "tool_use"
    )


async def _gate_cost(env: dict[str, str], cwd: str, tasks: int) -> dict[str, Any]:
    """How long the fleet's tool gate holds each tool call: a durable local
    batch (``batch_id``, a SQLite store) of ``tasks`` tasks, each making
    ``GATE_CALLS`` Bash calls; every wait of the gate is timed, and the
    batch's time per task is set beside the same batch without
    ``batch_id`` (no eager mirror, no gate)."""
    from claude_wrap import ClaudeAgentOptions, SQLiteSessionStore
    from claude_wrap._run.mirror import StoredToolCalls
    from claude_wrap.fleet import run_many

    holds: list[float] = []
    wait = StoredToolCalls.wait

    async def timed_wait(self: StoredToolCalls, tool_use_id: str, limit: float) -> bool:
        start = time.perf_counter()
        try:
            return await wait(self, tool_use_id, limit)
        finally:
            holds.append((time.perf_counter() - start) * 1000)

    store = SQLiteSessionStore(Path(cwd) / "gate.db")
    per_task: dict[str, float] = {}
    try:
        StoredToolCalls.wait = timed_wait  # type: ignore[method-assign]
        for side, batch_id in (("no gate", None), ("gate", "bench-gate"), ("no gate", None), ("gate", "bench-gate-2")):
            options = ClaudeAgentOptions(
                env=env, cwd=cwd, setting_sources=[], allowed_tools=["Bash"], session_store=store
            )
            start = time.perf_counter()
            async with run_many(["Run the checks"] * tasks, options=options, concurrency=2, batch_id=batch_id) as batch:
                if not all([o.ok async for o in batch]):
                    raise RuntimeError("a gate task failed")
            ms = (time.perf_counter() - start) / tasks * 1000
            per_task[side] = min(per_task.get(side, ms), ms)
            log(f"fleet: gate: {side}: {ms:.0f} ms per task of {GATE_CALLS} tool calls")
    finally:
        StoredToolCalls.wait = wait  # type: ignore[method-assign]
        store.close()
    return {
        "calls": len(holds),
        "hold_median_ms": median(holds),
        "hold_p90_ms": p90(holds),
        "per_task_ms": per_task,
        "per_call_overhead_ms": (per_task["gate"] - per_task["no gate"]) / GATE_CALLS,
    }


def bench_fleet(tasks: int, rounds: int) -> dict[str, Any]:
    import warnings

    import anyio

    # The scripted model's key is in the options' env, which a Ray batch warns about.
    warnings.filterwarnings("ignore", "options.env holds")

    from claude_wrap.testing import Reply, ScriptedModel

    out: dict[str, Any] = {"tasks": tasks, "rounds": rounds}
    with (
        ScriptedModel(
            Reply.tool_use("Bash", {"command": "true", "description": "check"})
            .sticky()
            .match_if(lambda r: _calls_so_far(r) < GATE_CALLS),
            Reply.text("Checked.").sticky(),
        ) as model,
        tempfile.TemporaryDirectory(prefix="claude-wrap-bench-gate-") as tmp,
    ):
        gate_tasks = 6 if tasks < 40 else 12
        log(f"fleet: the tool gate: {gate_tasks} tasks of {GATE_CALLS} tool calls, with and without batch_id")
        out["gate"] = anyio.run(_gate_cost, model.env(Path(tmp) / "home"), tmp, gate_tasks)
    with (
        ScriptedModel(Reply.text("Hello from the scripted model.").sticky()) as model,
        tempfile.TemporaryDirectory(prefix="claude-wrap-bench-fleet-") as tmp,
    ):
        env = model.env(Path(tmp) / "home")
        per_round = 8
        log(f"fleet: {rounds} rotated rounds of {per_round} tasks each: {', '.join(FLEET_SIDES)}")
        per_task = anyio.run(_fleet_overhead, env, tmp, rounds, per_round)
        medians = {side: median(values) for side, values in per_task.items()}
        out["per_task_median_ms"] = medians
        out["ratio_to_pooled"] = medians["fleet"] / medians["pooled query()"]
        out["ratio_to_cold"] = medians["fleet"] / medians["cold query()"]
        out["per_task_samples_ms"] = {side: [round(v, 1) for v in values] for side, values in per_task.items()}
        # Three tasks at a time on both: three pool members here, one on
        # each of three Ray nodes (all on this machine).
        log(f"fleet: {tasks} tasks, local pool (concurrency 3)")
        out["local_per_min"], out["local_task_ms"] = anyio.run(_fleet_rate, env, tmp, tasks, "local", 3)
        try:
            sys.path.insert(0, str(ROOT / "tests" / "support"))
            from _ray import ray_cluster
        except ImportError:  # pragma: no cover - ray is a dev dependency
            log("fleet: ray is not installed; the Ray side is skipped")
            return out
        log(f"fleet: {tasks} tasks, Ray cluster of 1 node on this machine (concurrency 3)")
        with ray_cluster(workers=0, cpus=3):
            out["ray_1_node_per_min"], out["ray_1_node_task_ms"] = anyio.run(_fleet_rate, env, tmp, tasks, "ray", 3)
        log(f"fleet: {tasks} tasks, Ray cluster of 3 nodes on this machine (concurrency 1 per node)")
        with ray_cluster(workers=2):
            out["ray_per_min"], out["ray_task_ms"] = anyio.run(_fleet_rate, env, tmp, tasks, "ray", 1)
        out["ray_1_node_to_local"] = out["ray_1_node_per_min"] / out["local_per_min"]
        out["ray_to_local"] = out["ray_per_min"] / out["local_per_min"]
        out["ray_1_node_task_ratio"] = out["ray_1_node_task_ms"] / out["local_task_ms"]
    return out


# ---------------------------------------------------------------------------
# peak memory while one huge line streams
# ---------------------------------------------------------------------------

RSS_LINE_MB = 100

# The child: one JSON line of ``size`` bytes of text, written 1 MiB at a time.
_RSS_WRITER = r"""
import sys
size, out = int(sys.argv[1]), sys.stdout.buffer
out.write(b'{"type":"assistant","message":{"model":"m","content":[{"type":"text","text":"')
chunk = b"x" * (1 << 20)
for _ in range(size >> 20):
    out.write(chunk)
out.write(b'"}]}}\n')
out.flush()
"""

# The reader, in a fresh interpreter so earlier parts don't raise its peak.
_RSS_READER = r"""
import anyio, json, resource, sys
from claude_wrap._wire.codec import decode_frame
from claude_wrap._process.transport import SubprocessTransport

size, writer = int(sys.argv[1]), sys.argv[2]

async def main():
    transport = SubprocessTransport([sys.executable, "-c", writer, str(size)])
    await transport.start()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    line = await transport.receive()
    message = decode_frame(line)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert len(message.content[0].text) == size
    await transport.aclose()
    print(json.dumps({"before_kib": before, "after_kib": after, "line_bytes": len(line)}))

anyio.run(main)
"""


def bench_rss() -> dict[str, Any]:
    size = RSS_LINE_MB << 20
    out = subprocess.run(
        [sys.executable, "-c", _RSS_READER, str(size), _RSS_WRITER],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    data = json.loads(out.strip().splitlines()[-1])
    growth = (data["after_kib"] - data["before_kib"]) * 1024
    return {
        "line_mib": data["line_bytes"] / (1 << 20),
        "peak_growth_mib": growth / (1 << 20),
        "bytes_per_line_byte": growth / data["line_bytes"],
    }


# ---------------------------------------------------------------------------
# the official package, same query, same binary, same scripted model
# ---------------------------------------------------------------------------

# scripts/official_venv.py pins the official package and owns its venv.
import official_venv  # noqa: E402 - scripts/ is sys.path[0] when this runs


def official_python(given: str | None = None) -> Path | None:
    """The interpreter that has the official package: ``--official-python``,
    else the venv ``make official`` makes (``None`` if there is none)."""
    path = Path(given) if given else official_venv.python()
    return path if path.exists() else None


_OFFICIAL_RUN = """
import anyio, json, sys, time
from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query

config = json.loads(sys.argv[1])

async def main():
    start = time.perf_counter()
    result_at = None
    options = ClaudeAgentOptions(cli_path=config["cli"], env=config["env"], cwd=config["cwd"], setting_sources=[])
    async for message in query(prompt="Say hello", options=options):
        if isinstance(message, ResultMessage):
            result_at = time.perf_counter()
    print(json.dumps({"result_s": result_at - start, "exit_s": time.perf_counter() - start}))

anyio.run(main)
"""


def setup_official() -> int:
    """Create the official package's venv (kept apart from ours) unless it is there."""
    print(f"official SDK {official_venv.VERSION} installed in {official_venv.ensure_venv().parent.parent}")
    return 0


def bench_official(runs: int, python: Path | None) -> dict[str, Any]:
    from claude_wrap import find_binary
    from claude_wrap.testing import Reply, ScriptedModel

    if python is None:
        print("official SDK not installed: run `make official` (or scripts/bench.py --setup-official)", file=sys.stderr)
        return {"installed": False}
    cli = os.fspath(find_binary())
    ours: list[RunTiming] = []
    theirs: list[RunTiming] = []
    with (
        ScriptedModel(Reply.text("Hello from the scripted model.").sticky()) as model,
        tempfile.TemporaryDirectory(prefix="claude-wrap-bench-official-") as tmp,
    ):
        loop = asyncio.new_event_loop()

        def one_official() -> RunTiming:
            env, cwd = _fresh_dirs(model, tmp)
            config = json.dumps({"cli": cli, "env": env, "cwd": cwd})
            out = subprocess.run([str(python), "-c", _OFFICIAL_RUN, config], capture_output=True, text=True, check=True)
            data = json.loads(out.stdout.strip().splitlines()[-1])
            return RunTiming(data["result_s"], data["exit_s"])

        def one_ours() -> RunTiming:
            env, cwd = _fresh_dirs(model, tmp)
            return loop.run_until_complete(run_ours(env, cwd, "Say hello"))

        try:
            _interleave("official", runs, [(theirs, one_official), (ours, one_ours)])
        finally:
            loop.close()

    ours_exit = median([t.exit_s for t in ours])
    theirs_exit = median([t.exit_s for t in theirs])
    return {
        "installed": True,
        "runs": runs,
        "ours_median_ms": ours_exit * 1000,
        "official_median_ms": theirs_exit * 1000,
        "ratio_median": ours_exit / theirs_exit,
        "ratio_result_median": median([t.result_s for t in ours]) / median([t.result_s for t in theirs]),
    }


# ---------------------------------------------------------------------------
# a one-prompt script, whole process: ours, the official package, the bare binary
# ---------------------------------------------------------------------------

SCRIPT_TARGET_RATIO = 1.10

# What a user runs, word for word, with either package's name.
_SCRIPT = """\
import asyncio
from {package} import query, ClaudeAgentOptions
async def main():
    async for m in query(prompt="hi", options=ClaudeAgentOptions(max_turns=1)):
        pass
asyncio.run(main())
"""

# What any Python script pays before it does anything: the interpreter,
# asyncio, an event loop, and their teardown.
_EMPTY_SCRIPT = """\
import asyncio
async def main():
    pass
asyncio.run(main())
"""

SCRIPT_SIDES = ("bare", "claude_wrap", "official", "python")


def _quartiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return values[0], values[0]
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q3


def _timed_child(argv: list[str], env: dict[str, str], cwd: str, stdin: bytes | None = None) -> tuple[float, bytes]:
    """Wall time of one child from spawn to exit (stdin written and closed,
    stdout read to its end), and its stdout; raises if it fails."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=cwd,
        start_new_session=True,
    )
    out, err = proc.communicate(stdin)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[0]} exited {proc.returncode}: {err.decode(errors='replace')[-2000:]}")
    return wall, out


def bench_script(runs: int, official: Path | None) -> dict[str, Any]:
    """The one-prompt script above as a fresh process (start to exit): with
    claude_wrap, with the official package (when its venv is there), the bare
    binary with the command line and stdin line the script's run gives it,
    and an empty asyncio script (the floor any Python program pays). All
    against one ScriptedModel in this process, each run with a fresh HOME and
    cwd, the sides' order rotated each round."""
    from claude_wrap import ClaudeAgentOptions, find_binary
    from claude_wrap.testing import Reply, ScriptedModel

    binary = os.fspath(find_binary())
    # What the script's run starts, found here with the same options.
    plan = ClaudeAgentOptions(max_turns=1).explain()
    bare_argv = [binary, *plan.argv[1:]]
    prompt_line = _user_line("hi")
    jobs: dict[str, Callable[[dict[str, str], str], float]] = {}

    def python_job(python: str, code: str, ours: bool = False) -> Callable[[dict[str, str], str], float]:
        def run(env: dict[str, str], cwd: str) -> float:
            if ours:  # this checkout's claude_wrap, found through its binary variable
                env = {**env, "PYTHONPATH": str(ROOT), "CLAUDE_WRAP_CLI": binary}
            return _timed_child([python, "-c", code], env, cwd)[0]

        return run

    def bare(env: dict[str, str], cwd: str) -> float:
        child = {**env, **{k: v for k, v in plan.env_changes.items() if v is not None}}
        for key in (k for k, v in plan.env_changes.items() if v is None):
            child.pop(key, None)
        wall, out = _timed_child(bare_argv, child, cwd, stdin=prompt_line)
        if b'"type":"result"' not in out:
            raise RuntimeError("the bare binary ended without a result")
        return wall

    jobs["bare"] = bare
    jobs["claude_wrap"] = python_job(sys.executable, _SCRIPT.format(package="claude_wrap"), ours=True)
    if official is not None:
        jobs["official"] = python_job(str(official), _SCRIPT.format(package="claude_agent_sdk"))
    jobs["python"] = python_job(sys.executable, _EMPTY_SCRIPT)

    samples: dict[str, list[float]] = {name: [] for name in jobs}
    with (
        ScriptedModel(Reply.text("Hello from the scripted model.").sticky()) as model,
        tempfile.TemporaryDirectory(prefix="claude-wrap-bench-script-") as tmp,
    ):

        def one(name: str) -> float:
            d = Path(tempfile.mkdtemp(dir=tmp))
            (d / "cwd").mkdir()
            env = model.env(d / "home", extra={"ANTHROPIC_API_KEY": "x"})
            return jobs[name](env, str(d / "cwd"))

        log(f"script: warm-up (1 run each, not counted), then {runs} rounds of {', '.join(jobs)}")
        for name in jobs:
            one(name)
        for i in range(runs):
            names = list(jobs)
            names = names[i % len(names) :] + names[: i % len(names)]
            for name in names:
                samples[name].append(one(name))
            log(f"script: round {i + 1}/{runs}: " + ", ".join(f"{n} {samples[n][-1] * 1000:.0f} ms" for n in jobs))

    def side(name: str) -> dict[str, float]:
        q1, q3 = _quartiles(samples[name])
        return {"median_ms": median(samples[name]) * 1000, "q1_ms": q1 * 1000, "q3_ms": q3 * 1000}

    out: dict[str, Any] = {"runs": runs, "sides": {name: side(name) for name in jobs}}
    bare_ms = out["sides"]["bare"]["median_ms"]
    packages = [name for name in ("claude_wrap", "official") if name in jobs]
    out["ratio"] = {name: out["sides"][name]["median_ms"] / bare_ms for name in packages}
    # Each round's own ratio: the sides of one round ran under the same load.
    out["ratio_paired"] = {name: median([a / b for a, b in zip(samples[name], samples["bare"])]) for name in packages}
    # No script can beat the bare binary plus what the empty script costs.
    out["floor_ratio"] = (bare_ms + out["sides"]["python"]["median_ms"]) / bare_ms
    out["samples_ms"] = {name: [round(v * 1000, 1) for v in values] for name, values in samples.items()}
    return out


# ---------------------------------------------------------------------------
# big payloads: a huge prompt out, a huge in-process MCP tool result out
# ---------------------------------------------------------------------------

PAYLOAD_TARGET_RATIO = 1.0
PAYLOAD_PROMPT_MB = 50
PAYLOAD_TOOL_MB = 100

# One program, run with either package's name in a fresh interpreter, so both
# sides pay the same start-up, left out of the time: it builds the payload
# first, then times query() from the call to its ResultMessage. Peak memory
# is the child's own ru_maxrss (whole process, payload included), and its
# value just before the call, so the difference is what the run itself took.
_PAYLOAD_RUN = """
import json, resource, sys, time
import anyio
from {package} import ClaudeAgentOptions, ResultMessage, create_sdk_mcp_server, query, tool

config = json.loads(sys.argv[1])


def text(size):
    # Numbered lines, newlines and quotes to escape, like a real file or log;
    # one MiB of them repeated, so building it peaks at its own size.
    line = 'line "{{:09d}}" of a big payload\\n'
    width = len(line.format(0))
    block = "".join(line.format(i) for i in range((1 << 20) // width)).ljust(1 << 20, ".")
    return block * (size >> 20)


async def main():
    fields = dict(cli_path=config["cli"], env=config["env"], cwd=config["cwd"], setting_sources=[])
    if config["kind"] == "prompt":
        prompt = text(config["size"])
    else:
        body = text(config["size"])

        @tool("dump", "A lot of text", {{}})
        async def dump(args):
            return {{"content": [{{"type": "text", "text": body}}]}}

        fields["mcp_servers"] = {{"big": create_sdk_mcp_server("big", tools=[dump])}}
        fields["allowed_tools"] = ["mcp__big__dump"]
        prompt = "Dump it."
    options = ClaudeAgentOptions(**fields)
    used = resource.getrusage(resource.RUSAGE_SELF)
    before = used.ru_maxrss
    start = time.perf_counter()
    result_s = None
    result = ""
    error = None
    try:
        async for message in query(prompt=prompt, options=options):
            if isinstance(message, ResultMessage):
                result_s = time.perf_counter() - start
                result = message.result or ""
    except Exception as exc:  # an error result raises after its ResultMessage (both packages)
        error = type(exc).__name__
    end = resource.getrusage(resource.RUSAGE_SELF)
    peak = end.ru_maxrss
    cpu_s = end.ru_utime + end.ru_stime - used.ru_utime - used.ru_stime
    print(json.dumps({{
        "result_s": result_s, "exit_s": time.perf_counter() - start, "result": result[:200], "error": error, "cpu_s": cpu_s,
        "before_kib": before, "peak_kib": peak,
    }}))

anyio.run(main)
"""


_PACKAGES = {"claude_wrap": "claude_wrap", "official": "claude_agent_sdk"}


def bench_payload(rounds: int, official: Path | None) -> dict[str, Any]:
    """A ~50 MB string prompt through ``query()`` (the binary answers "Prompt
    is too long" without asking the model: the write path and the binary's
    read of the line), and a scripted turn whose in-process MCP tool returns
    ~100 MB of text (the binary's control request, the tool, our encoded
    answer and its write), each timed from the call to the ``ResultMessage``
    inside a child interpreter, on claude_wrap and on the official package:
    one warm-up each, then ``rounds`` interleaved rounds in alternating order."""
    from claude_wrap import find_binary
    from claude_wrap.testing import Reply, ScriptedModel

    if official is None:
        log("payload: skipped, no official package (create its venv or pass --official-python)")
        return {"installed": False}
    cli = os.fspath(find_binary())
    sides = {"claude_wrap": sys.executable, "official": str(official)}
    rows = {"prompt": PAYLOAD_PROMPT_MB << 20, "tool": PAYLOAD_TOOL_MB << 20}
    out: dict[str, Any] = {"installed": True, "rounds": rounds, "memory": "child ru_maxrss"}
    with tempfile.TemporaryDirectory(prefix="claude-wrap-bench-payload-") as tmp:
        for kind, size in rows.items():
            # The prompt row never reaches the model; the text answers it if it does.
            script = [Reply.text("done").sticky()] if kind == "prompt" else []
            with ScriptedModel(*script) as model:

                def one(name: str, kind: str = kind, size: int = size, model: Any = model) -> dict[str, Any]:
                    if kind == "tool":
                        model.add(Reply.tool_use("mcp__big__dump", {}), Reply.text("done"))
                    env, cwd = _fresh_dirs(model, tmp)
                    config = json.dumps({"cli": cli, "env": env, "cwd": cwd, "kind": kind, "size": size})
                    # Bytecode cached for both sides, in a folder of this run: the
                    # official package's was written when it was installed, and ours
                    # must not be compiled from source in every run (a shell that sets
                    # PYTHONDONTWRITEBYTECODE would make it so).
                    child = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
                    child["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "pycache")
                    if name == "claude_wrap":
                        child["PYTHONPATH"] = str(ROOT)
                    proc = subprocess.run(
                        [sides[name], "-c", _PAYLOAD_RUN.format(package=_PACKAGES[name]), config],
                        capture_output=True,
                        text=True,
                        env=child,
                        check=False,
                    )
                    if proc.returncode != 0:
                        raise RuntimeError(f"payload {kind} on {name} exited {proc.returncode}:\n{proc.stderr[-3000:]}")
                    data: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
                    if data["result_s"] is None:
                        raise RuntimeError(f"payload {kind} on {name}: no ResultMessage ({data['error']})")
                    return data

                log(f"payload {kind} ({size >> 20} MiB): warm-up (1 run each, not counted), then {rounds} rounds")
                samples: dict[str, list[dict[str, Any]]] = {name: [] for name in sides}
                results: dict[str, str] = {}
                for name in sides:
                    first = one(name)
                    results[name] = first["result"] + (f" ({first['error']} raised)" if first["error"] else "")
                for i in range(rounds):
                    for name in list(sides) if i % 2 == 0 else list(reversed(sides)):
                        samples[name].append(one(name))
                    log(
                        f"payload {kind}: round {i + 1}/{rounds}: "
                        + ", ".join(f"{n} {samples[n][-1]['result_s'] * 1000:.0f} ms" for n in sides)
                    )

            def side(runs: list[dict[str, Any]], size: int = size) -> dict[str, Any]:
                growth = median([(r["peak_kib"] - r["before_kib"]) * 1024 for r in runs])
                return {
                    "median_ms": median([r["result_s"] for r in runs]) * 1000,
                    "samples_ms": [round(r["result_s"] * 1000, 1) for r in runs],
                    "cpu_median_ms": median([r["cpu_s"] for r in runs]) * 1000,
                    "peak_rss_mib": max(r["peak_kib"] for r in runs) / 1024,
                    "growth_mib": growth / (1 << 20),
                    "growth_per_payload_byte": growth / size,
                }

            row = {name: side(samples[name]) for name in sides}
            out[kind] = {
                "payload_mib": size / (1 << 20),
                "result": results,
                **row,
                "ratio": row["claude_wrap"]["median_ms"] / row["official"]["median_ms"],
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
        theirs = imp.get("official", {})
        pairs = [
            ("import claude_wrap", "import claude_agent_sdk", ""),
            (
                "query + ClaudeAgentOptions(max_turns=3)",
                "official: query + ClaudeAgentOptions(max_turns=3)",
                f"≤ {IMPORT_TARGET_MS:.0f} ms",
            ),
        ]
        for name, official_name, target in pairs:
            v = imp["variants"][name]
            other = theirs.get(official_name)
            rows.append(
                (
                    f"`{name}` (fresh interpreter, minus `import asyncio`)",
                    f"{v['median_ms']:.1f} ms (min {v['min_ms']:.1f}, p90 {v['p90_ms']:.1f})",
                    f"CPU {v['cpu_median_ms']:.1f} ms; baseline {imp['baseline_ms']:.0f} ms, n={imp['runs']}",
                    target,
                )
            )
            if other:
                rows.append(
                    (
                        f"`{official_name.removeprefix('official: ')}`, official package (the same measure)",
                        f"{other['median_ms']:.1f} ms (min {other['min_ms']:.1f}, p90 {other['p90_ms']:.1f})",
                        f"CPU {other['cpu_median_ms']:.1f} ms; its own `import asyncio` baseline",
                        "",
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
        for name, label in (("all", "recorded stream"), ("messages", "same, without stream events")):
            part = d[name]
            rows.append(
                (
                    f"decode, {label}: `decode_line` vs official parser",
                    f"{part['ours_msgs_per_s'] / 1000:.0f} vs {part['official_msgs_per_s'] / 1000:.0f} k msg/s",
                    f"{part['lines']} lines × {part['messages_per_round'] // part['lines']}; "
                    f"median of {d['rounds']} interleaved rounds",
                    "",
                )
            )
            rows.append(
                (
                    f"decode, {label}: ours / official",
                    f"{part['ratio']:.2f}×",
                    "same messages (repr)" if d["same_messages"] else "MESSAGES DIFFER",
                    f"≥ {DECODE_TARGET_RATIO:.1f}×",
                )
            )
    r = results.get("roundtrip")
    if r:
        for kind, label in ROUNDTRIP_KINDS.items():
            if kind not in r:
                continue
            rows.append(
                (
                    f"{label} round trip, Python side (line in → line out)",
                    f"p50 {r[kind]['p50_ms'] * 1000:.0f} µs, p99 {r[kind]['p99_ms'] * 1000:.0f} µs",
                    f"n={r[kind]['n']} through the real session pump, in-memory transport",
                    f"p50 ≤ {ROUNDTRIP_TARGET_MS:.0f} ms" if kind == "hook" else "",
                )
            )
    rs = results.get("rss")
    if rs:
        rows.append(
            (
                f"peak RSS growth while one {rs['line_mib']:.0f} MiB stdout line streams",
                f"{rs['peak_growth_mib']:.0f} MiB",
                f"{rs['bytes_per_line_byte']:.2f} bytes per byte of line (fresh process)",
                "",
            )
        )
    of = results.get("official")
    if of and of.get("installed"):
        rows.append(
            (
                "one-prompt run: `claude_wrap` / official `claude-agent-sdk`",
                f"{of['ratio_median']:.2f}× ({of['ours_median_ms']:.0f} vs {of['official_median_ms']:.0f} ms)",
                f"to result: {of['ratio_result_median']:.2f}×; n={of['runs']} interleaved pairs, same binary",
                "",
            )
        )
    sc = results.get("script")
    if sc:
        whole = "one-prompt script, whole process: "
        labels = {
            "bare": (whole + "bare binary (spawn → exit)", "the script's command line and prompt line, stdin closed"),
            "claude_wrap": (whole + "`claude_wrap`", "fresh `python -c`, start → exit"),
            "official": (whole + "official `claude-agent-sdk`", "the same script, its own venv and bundled binary"),
            "python": (
                "an empty `asyncio.run()` script, whole process",
                "interpreter, asyncio, teardown: what any script pays",
            ),
        }
        for name, side in sc["sides"].items():
            label, note = labels[name]
            rows.append((label, f"{side['median_ms']:.0f} ms (IQR {side['q1_ms']:.0f}–{side['q3_ms']:.0f})", note, ""))
        for name, ratio in sc["ratio"].items():
            rows.append(
                (
                    f"one-prompt script / bare binary: {labels[name][0].removeprefix(whole)}",
                    f"{ratio:.2f}× (per round {sc['ratio_paired'][name]:.2f}×)",
                    f"floor (bare + empty script): {sc['floor_ratio']:.2f}×; n={sc['runs']} rotated rounds"
                    if name == "claude_wrap"
                    else f"n={sc['runs']} rotated rounds",
                    f"≤ {SCRIPT_TARGET_RATIO:.2f}×" if name == "claude_wrap" else "",
                )
            )
    pa = results.get("payload")
    if pa and pa.get("installed"):
        labels = {
            "prompt": "a {:.0f} MiB string prompt: `query()` call → `ResultMessage`",
            "tool": "a {:.0f} MiB in-process MCP tool result: `query()` call → `ResultMessage`",
        }
        for kind, label in labels.items():
            row = pa[kind]
            ours, theirs = row["claude_wrap"], row["official"]
            rows.append(
                (
                    label.format(row["payload_mib"]) + ", `claude_wrap` / official",
                    f"{row['ratio']:.2f}× ({ours['median_ms']:.0f} vs {theirs['median_ms']:.0f} ms)",
                    f"Python CPU {ours['cpu_median_ms']:.0f} vs {theirs['cpu_median_ms']:.0f} ms; "
                    f"peak RSS {ours['peak_rss_mib']:.0f} vs {theirs['peak_rss_mib']:.0f} MiB (growth during the run "
                    f"{ours['growth_per_payload_byte']:.2f} vs {theirs['growth_per_payload_byte']:.2f} bytes per "
                    f"payload byte, child ru_maxrss); n={pa['rounds']} interleaved rounds, child interpreters",
                    f"≤ {PAYLOAD_TARGET_RATIO:.2f}×",
                )
            )
    pl = results.get("pool")
    if pl:
        m = pl["median_ms"]
        rows.append(
            (
                "`query()` call → `ResultMessage`: cold vs warm `ClaudePool`",
                f"{pl['cold_median_ms']:.0f} ms vs {pl['pooled_median_ms']:.0f} ms",
                f"ratio {pl['ratio_median']:.2f}×; n={pl['runs']} rotated rounds",
                f"≤ {POOL_TARGET_RATIO:.2f}×",
            )
        )
        rows.append(
            (
                "… warm `ClaudePool` of `bare=True` members vs cold",
                f"{m['pooled bare']:.0f} ms vs {m['cold']:.0f} ms",
                f"ratio {pl['ratio_bare_median']:.2f}×; a cold `bare=True` run: {pl['ratio_cold_bare']:.2f}× a cold one",
                f"≤ {POOL_TARGET_RATIO:.2f}×",
            )
        )
        rows.append(
            (
                "… a connected `ClaudeSDKClient`'s first and second turn vs cold",
                f"{m['client 1st']:.0f} ms, {m['client 2nd']:.0f} ms vs {m['cold']:.0f} ms",
                f"ratios {pl['ratio_client_first']:.2f}×, {pl['ratio_client_second']:.2f}× (the second turn is the "
                "binary's floor; pooled − 1st = our hand-over, 1st − 2nd = the binary's first-turn work)",
                "—",
            )
        )
    fl = results.get("fleet")
    if fl:
        m = fl["per_task_median_ms"]
        rows.append(
            (
                "one task after another: `run_many` vs `pool.query()` (pool of one)",
                f"{m['fleet']:.0f} vs {m['pooled query()']:.0f} ms per task",
                f"ratio {fl['ratio_to_pooled']:.2f}×; to cold `query()`s ({m['cold query()']:.0f} ms): "
                f"{fl['ratio_to_cold']:.2f}×; {fl['rounds']} rounds of 8",
                f"≤ {FLEET_OVERHEAD_TARGET:.2f}×",
            )
        )
        if "ray_per_min" in fl:
            rows.append(
                (
                    f"{fl['tasks']} one-prompt tasks, 3 at a time: local pool vs Ray, 1 node vs 3 nodes (one machine)",
                    f"{fl['local_per_min']:.0f} vs {fl['ray_1_node_per_min']:.0f} vs {fl['ray_per_min']:.0f} tasks/min",
                    f"Ray 1 node / local: {fl['ray_1_node_to_local']:.2f}×, 3 nodes / local: "
                    f"{fl['ray_to_local']:.2f}×; run_many to the last outcome, actors' start included",
                    "",
                )
            )
            rows.append(
                (
                    "a task's own time (dispatch to outcome, median): local vs Ray 1 node vs 3 nodes",
                    f"{fl['local_task_ms']:.0f} vs {fl['ray_1_node_task_ms']:.0f} vs {fl['ray_task_ms']:.0f} ms",
                    f"Ray 1 node / local: {fl['ray_1_node_task_ratio']:.2f}× (the batch's start left out)",
                    f"≤ {RAY_TASK_TARGET:.2f}×",
                )
            )
        g = fl["gate"]
        rows.append(
            (
                f"the fleet's tool gate: how long a tool call is held (SQLite store, {g['calls']} calls)",
                f"{g['hold_median_ms']:.1f} ms",
                f"p90 {g['hold_p90_ms']:.1f} ms; a task of {GATE_CALLS} calls, with vs without batch_id: "
                f"{g['per_task_ms']['gate']:.0f} vs {g['per_task_ms']['no gate']:.0f} ms "
                f"({g['per_call_overhead_ms']:+.1f} ms per call, eager mirror included)",
                f"< {GATE_TARGET_MS:.0f} ms",
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
    parser.add_argument(
        "--runs", type=int, default=None, help="query() and bare-binary runs each (default 10; script rounds: 15)"
    )
    parser.add_argument(
        "--import-runs", type=int, default=None, help="fresh interpreters per import variant (default 15)"
    )
    parser.add_argument("--quick", action="store_true", help="fewer runs and a smaller decode load")
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    parser.add_argument("--record", action="store_true", help=f"re-record {FIXTURE.relative_to(ROOT)} and exit")
    parser.add_argument(
        "--only",
        choices=["import", "query", "decode", "roundtrip", "pool", "fleet", "rss", "official", "script", "payload"],
        action="append",
        help="run only these parts (repeatable)",
    )
    parser.add_argument(
        "--setup-official",
        action="store_true",
        help=f"create {official_venv.VENV.relative_to(official_venv.ROOT)} with the official claude-agent-sdk "
        "for the 'official' part (as `make official` does), and exit",
    )
    parser.add_argument(
        "--official-python",
        help="the interpreter that has the official package (default: build/official-venv/bin/python)",
    )
    args = parser.parse_args(argv)
    if args.setup_official:
        return setup_official()

    if args.record:
        n = record_stream(FIXTURE)
        print(f"recorded {n} lines into {FIXTURE}")
        return 0

    runs = args.runs if args.runs is not None else (3 if args.quick else 10)
    import_runs = args.import_runs or (5 if args.quick else 15)
    decode_target = 50_000 if args.quick else 200_000
    decode_rounds = 3 if args.quick else 7
    parts = set(
        args.only or ["import", "query", "decode", "roundtrip", "pool", "fleet", "rss", "official", "script", "payload"]
    )

    results: dict[str, Any] = {"machine": machine()}
    if "import" in parts:
        log(f"import: {import_runs} runs per variant")
        results["import"] = bench_import(import_runs, official_python(args.official_python))
    if "query" in parts:
        results["query"] = bench_query(runs)
    if "decode" in parts:
        log(f"decode: ~{decode_target} messages × {decode_rounds} rounds per side")
        decode = bench_decode(decode_target, decode_rounds, official_python(args.official_python))
        if decode is not None:
            results["decode"] = decode

    if "roundtrip" in parts:
        log("control round trips")
        results["roundtrip"] = bench_roundtrip(500 if args.quick else 5000)
    if "pool" in parts:
        results["pool"] = bench_pool(runs)
    if "fleet" in parts:
        results["fleet"] = bench_fleet(20 if args.quick else 40, 2 if args.quick else 5)
    if "rss" in parts:
        log(f"rss: one {RSS_LINE_MB} MiB line through SubprocessTransport in a fresh process")
        results["rss"] = bench_rss()
    if "official" in parts:
        results["official"] = bench_official(runs, official_python(args.official_python))
    if "script" in parts:
        script_runs = args.runs if args.runs is not None else (3 if args.quick else 15)
        results["script"] = bench_script(script_runs, official_python(args.official_python))
    if "payload" in parts:
        results["payload"] = bench_payload(3 if args.quick else 5, official_python(args.official_python))

    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(render(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
