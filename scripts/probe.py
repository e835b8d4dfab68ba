#!/usr/bin/env python3
"""Reliability probe: what a user's worst day does to a run (not part of the test suite).

    python scripts/probe.py                      # every case, under asyncio
    python scripts/probe.py --backend trio
    python scripts/probe.py host-sigkill stopped-write
    python scripts/probe.py --list

Each case runs the real binary against the scripted model
(``claude_wrap.testing.ScriptedModel``, served from this process so that it
outlives the hosts killed here) in a host process of its own, under a hard
time limit, so a case that hangs shows as ``hung`` instead of hanging the
probe. Every process of a case carries a marker in its environment; once the
case is over the probe counts the ones still alive ("left"), then kills
them. It prints a table: case, what happened, time to end, processes left.

The cases:

* ``host-sigkill`` / ``host-sigterm`` / ``group-sigterm``: the host runs a
  query whose Bash tool starts a child in the background and a long command
  in the foreground; the probe SIGKILLs the host, SIGTERMs it, or SIGTERMs
  its process group. Time to end: from the signal until no process of the
  run is left.
* ``blocking-callback``: one query's synchronous ``PreToolUse`` hook sleeps
  5 s while another query (``idle_timeout=2``) streams steadily. Does the
  healthy one get a false ``TurnTimeoutError``?
* ``sync-hook-limits``: a synchronous hook sleeps 30 s under
  ``callback_timeout=2`` and ``turn_timeout=5``. When does the run end?
* ``stopped-write``: a client (``idle_timeout=3``, ``turn_timeout=5``,
  ``control_timeout=5``) whose binary is SIGSTOPped is sent a 2 MB prompt.
* ``stopped-read``: a query (``idle_timeout=3``) whose binary is SIGSTOPped
  during its turn.
* ``hung-store``: a session store whose ``append`` never returns, a query
  with ``turn_timeout=10`` under ``move_on_after(15)``.
* ``close-hung``: a query whose binary is SIGSTOPped while a tool runs is
  cancelled (``shutdown_grace=5``). Time to end: from the cancel until the
  query returned.
* ``polling-deny``: 20 tool calls, each denied by a ``PreToolUse`` hook that
  takes 0.4 s, read by a client polling with ``move_on_after(0.1)``. How
  often did the tool run?
* ``timeout-guard``: a ``PreToolUse`` hook that hangs past
  ``callback_timeout=1``. Did the tool run?
* ``deep-input``: an in-process tool called with an input nested 1,500
  levels deep, no time limits set. When does the run end, and how?
* ``store-down-at-close``: a SQLite store locked by another connection from
  turn 2 until after the client closed. How much of the run waited in the
  spool, and was written once the lock was gone?
* ``cancel-detached``: a query cancelled while its tool runs, the tool
  having left two commands behind in sessions of their own, one with its
  environment cleared. How many are left?

Nothing here asserts; the tests do. Linux only (it reads /proc).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [
    str(ROOT),
    str(ROOT / "tests" / "support"),
]  # this checkout's claude_wrap, here and (PYTHONPATH) in the hosts

from _procs import carrying, guards_of, kill_host, processes_where, start_python  # noqa: E402

MARKER = "CLAUDE_WRAP_PROBE"
CASE_LIMIT = 240.0  # a case still running after this long is reported as hung
SETTLE = 30.0  # how long the processes of a dead host get to go away


# -- processes ------------------------------------------------------------------------


def kill_all(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


# -- the host side: what runs inside each case's process ------------------------------------

HOST = r"""
import json, os, signal, sys, time
import anyio
from claude_wrap import (
    ClaudeAgentOptions, ClaudeSDKClient, HookMatcher, InMemorySessionStore, ResultMessage, query,
)

config = json.loads(sys.argv[1])
case = config["case"]


def options(env, **extra):
    return ClaudeAgentOptions(env=env, cwd=config["cwd"], setting_sources=[], **extra)


def report(outcome, seconds=None):
    print(json.dumps({"outcome": outcome, "seconds": seconds}), flush=True)


def error_name(exc):
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text[:70]}"


def binary_pids():
    return [
        int(p) for p in os.listdir("/proc")
        if p.isdigit() and os.path.exists(f"/proc/{p}/environ") and _is_binary(int(p))
    ]


def _is_binary(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv0 = f.read().split(b"\0")[0]
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = f.read().split(b"\0")
    except OSError:
        return False
    return argv0.endswith(b"claude") and config["marker"].encode() in env


def tool_running():
    for p in os.listdir("/proc"):
        try:
            with open(f"/proc/{p}/cmdline", "rb") as f:
                if (config["tool_marker"] + "-fg").encode() in f.read():
                    return True
        except (OSError, NotADirectoryError):
            pass
    return False


async def drain(messages):
    async for _ in messages:
        pass


async def host_death():
    # Runs until the probe signals this process.
    async for _ in query(prompt="run it", options=options(config["env"], allowed_tools=["Bash"])):
        pass


async def blocking_callback():
    def sync_hook(input_data, tool_use_id, context):
        time.sleep(5)  # blocks whatever thread runs it
        return {}

    blocker = options(config["env"], allowed_tools=["Bash"], hooks={"PreToolUse": [HookMatcher("Bash", [sync_hook])]})
    healthy = options(config["env2"], idle_timeout=2, include_partial_messages=True)
    outcome = {}

    async def run_healthy():
        start = time.monotonic()
        try:
            async for message in query(prompt="talk", options=healthy):
                if isinstance(message, ResultMessage):
                    outcome["healthy"] = ("completed", time.monotonic() - start)
        except Exception as exc:
            outcome["healthy"] = (error_name(exc), time.monotonic() - start)

    async def run_blocker():
        await anyio.sleep(1.5)  # the healthy one is streaming by then
        await drain(query(prompt="run it", options=blocker))

    async with anyio.create_task_group() as tg:
        tg.start_soon(run_healthy)
        tg.start_soon(run_blocker)
    what, seconds = outcome.get("healthy", ("no outcome", None))
    report(f"healthy query (idle_timeout=2) beside a 5 s sync hook: {what}", seconds)


async def sync_hook_limits():
    def sync_hook(input_data, tool_use_id, context):
        time.sleep(30)
        return {}

    opts = options(
        config["env"], allowed_tools=["Bash"], callback_timeout=2, turn_timeout=5,
        hooks={"PreToolUse": [HookMatcher("Bash", [sync_hook])]},
    )
    start = time.monotonic()
    try:
        await drain(query(prompt="run it", options=opts))
        what = "run completed"
    except Exception as exc:
        what = error_name(exc)
    report(f"30 s sync hook, callback_timeout=2, turn_timeout=5: {what}", time.monotonic() - start)


async def stopped_write():
    client = ClaudeSDKClient(options(config["env"], idle_timeout=3, turn_timeout=5, control_timeout=5))
    await client.connect()
    os.kill(client.pid, signal.SIGSTOP)
    start = time.monotonic()
    what = None
    with anyio.move_on_after(120):
        try:
            await client.query("x" * 2_000_000)
            what = "the prompt was written (?)"
        except Exception as exc:
            what = error_name(exc)
    seconds = time.monotonic() - start
    report(f"2 MB prompt to a stopped binary: {what or 'still blocked after 120 s'}", seconds)
    with anyio.move_on_after(60):
        await client.disconnect()


async def stopped_read():
    start = None
    what = None
    try:
        async for message in query(prompt="hi", options=options(config["env"], idle_timeout=3)):
            if start is None:
                for pid in binary_pids():
                    os.kill(pid, signal.SIGSTOP)
                start = time.monotonic()
        what = "run completed (?)"
    except Exception as exc:
        what = error_name(exc)
    report(f"binary stopped mid-turn, idle_timeout=3: {what}", None if start is None else time.monotonic() - start)


async def hung_store():
    class HungStore(InMemorySessionStore):
        async def append(self, key, entries):
            await anyio.sleep_forever()

    opts = options(config["env"], session_store=HungStore(), turn_timeout=10)
    start = time.monotonic()
    result_at = None
    with anyio.move_on_after(15) as scope:
        async for message in query(prompt="hi", options=opts):
            if isinstance(message, ResultMessage) and result_at is None:
                result_at = time.monotonic() - start
    seconds = time.monotonic() - start
    got = "no result" if result_at is None else f"result at {result_at:.1f} s"
    cut = "cancelled at 15 s, " if scope.cancelled_caught else ""
    report(f"append never returns, move_on_after(15): {got}, {cut}returned", seconds)


async def close_hung():
    started = None

    async def stop_and_cancel(scope):
        nonlocal started
        while not tool_running():
            await anyio.sleep(0.05)
        for pid in binary_pids():
            os.kill(pid, signal.SIGSTOP)
        started = time.monotonic()
        scope.cancel()

    with anyio.CancelScope() as scope:
        async with anyio.create_task_group() as tg:
            tg.start_soon(stop_and_cancel, scope)
            await drain(query(prompt="run it", options=options(config["env"], allowed_tools=["Bash"])))
    seconds = None if started is None else time.monotonic() - started
    report("cancelled with the binary stopped mid-tool (shutdown_grace=5): returned", seconds)


def _ran():
    path = os.path.join(config["cwd"], "ran.txt")
    return len(open(path).read().split()) if os.path.exists(path) else 0


async def polling_deny():
    async def guard(input_data, tool_use_id, context):
        await anyio.sleep(0.4)
        decision = {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}
        return {"hookSpecificOutput": decision}

    opts = options(config["env"], allowed_tools=["Bash"], hooks={"PreToolUse": [HookMatcher("Bash", [guard])]})
    start = time.monotonic()
    async with ClaudeSDKClient(opts) as client:
        await client.query("go")
        done = False
        while not done:
            with anyio.move_on_after(0.1):
                async for message in client.receive_response():
                    done = done or isinstance(message, ResultMessage)
    report(f"20 calls denied by a 0.4 s hook, reader polling every 0.1 s: the tool ran {_ran()} times",
           time.monotonic() - start)


async def timeout_guard():
    async def hang(input_data, tool_use_id, context):
        await anyio.sleep(60)

    opts = options(config["env"], allowed_tools=["Bash"], callback_timeout=1,
                   hooks={"PreToolUse": [HookMatcher("Bash", [hang])]})
    start = time.monotonic()
    await drain(query(prompt="run it", options=opts))
    what = "ran" if _ran() else "was denied"
    report(f"PreToolUse hook hangs past callback_timeout=1: the tool {what}", time.monotonic() - start)


async def deep_input():
    from claude_wrap import create_sdk_mcp_server, tool

    @tool("take", "Takes anything", {"x": list})
    async def take(args):
        return "taken"

    opts = options(config["env"], mcp_servers={"g": create_sdk_mcp_server("g", tools=[take])},
                   allowed_tools=["mcp__g__take"])
    start = time.monotonic()
    try:
        results = [m for m in [m async for m in query(prompt="go", options=opts)] if isinstance(m, ResultMessage)]
        what = f"run completed ({results[-1].result})"
    except Exception as exc:
        what = error_name(exc)
    report(f"tool input nested 1,500 deep, no time limits: {what}", time.monotonic() - start)


async def store_down_at_close():
    import sqlite3
    from claude_wrap import SQLiteSessionStore, flush_pending
    from claude_wrap._sessions.spool import Spool

    os.environ["CLAUDE_WRAP_SPOOL_DIR"] = os.path.join(config["cwd"], "spool")
    db = os.path.join(config["cwd"], "store.db")
    store = SQLiteSessionStore(db, timeout=0.5)
    opts = options(config["env"], session_store=store, session_store_flush_timeout=1.5)
    holder = sqlite3.connect(db, isolation_level=None)
    async with ClaudeSDKClient(opts) as client:
        for prompt in ("turn one", "turn two"):
            await client.query(prompt)
            await drain(client.receive_response())
            if prompt == "turn one":
                holder.execute("BEGIN EXCLUSIVE")
    await anyio.sleep(1.0)  # the writes it gave up on fail by their own timeout
    holder.execute("ROLLBACK")
    spooled = Spool.of(store).count()
    written = await flush_pending(store)
    report(f"store locked from turn 2 until after the close: {spooled} entries spooled, "
           f"{written} written once it answered, {Spool.of(store).count()} left", None)


async def cancel_detached():
    started = None

    def left():
        found = []
        for p in os.listdir("/proc"):
            try:
                with open(f"/proc/{p}/cmdline", "rb") as f:
                    if (config["tool_marker"] + "-left").encode() in f.read():
                        found.append(p)
            except (OSError, NotADirectoryError):
                pass
        return found

    async def cancel_once_running(scope):
        nonlocal started
        while not tool_running() or len(left()) < 2:
            await anyio.sleep(0.05)
        started = time.monotonic()
        scope.cancel()

    with anyio.CancelScope() as scope:
        async with anyio.create_task_group() as tg:
            tg.start_soon(cancel_once_running, scope)
            await drain(query(prompt="run it", options=options(config["env"], allowed_tools=["Bash"])))
    settle = time.monotonic() + 5
    while left() and time.monotonic() < settle:
        await anyio.sleep(0.05)
    report(f"cancelled mid-tool, 2 commands left detached (1 without env): {len(left())} still running",
           None if started is None else time.monotonic() - started)


CASES = {
    "host-sigkill": host_death, "host-sigterm": host_death, "group-sigterm": host_death,
    "blocking-callback": blocking_callback, "sync-hook-limits": sync_hook_limits,
    "stopped-write": stopped_write, "stopped-read": stopped_read,
    "hung-store": hung_store, "close-hung": close_hung,
    "polling-deny": polling_deny, "timeout-guard": timeout_guard, "deep-input": deep_input,
    "store-down-at-close": store_down_at_close, "cancel-detached": cancel_detached,
}
anyio.run(CASES[case], backend=config["backend"])
"""


# -- the probe side ----------------------------------------------------------------------------


@dataclass
class Row:
    case: str
    happened: str
    seconds: float | None
    left: int
    guards: int = 0


@dataclass
class Case:
    """A case: how to script its model(s), and what the probe does meanwhile."""

    name: str
    replies: Callable[[str], list[Any]]
    second_model: Callable[[], list[Any]] | None = None
    host_signal: str | None = None  # for host death: how it dies (see _procs.HOST_DEATHS)
    extra: dict[str, Any] = field(default_factory=dict)


def _sleeper(marker: str) -> str:
    return f"python3 -c 'import time; time.sleep(300)' {marker}"


def _cases() -> list[Case]:
    from claude_wrap.testing import Reply

    def bash_call(command: str) -> Any:
        return Reply.tool_use("Bash", {"command": command, "description": "run"})

    def tool_then_text(command: str) -> list[Any]:
        return [bash_call(command), Reply.text("done")]

    def deep_call(depth: int) -> Any:
        return Reply.tool_use("mcp__g__take", input_json='{"x": ' + "[" * depth + "]" * depth + "}")

    def left_behind(marker: str) -> str:
        sleeper = f"-c 'import time; time.sleep(300)' {marker}-left"
        return (
            f"(setsid {sys.executable} {sleeper} >/dev/null 2>&1 &); "
            f"(setsid env -i {sys.executable} {sleeper} >/dev/null 2>&1 &)"
        )

    def background_and_foreground(marker: str) -> list[Any]:
        return tool_then_text(f"({_sleeper(marker + '-bg')} >/dev/null 2>&1 &); {_sleeper(marker + '-fg')}")

    def steady_stream() -> list[Any]:
        text = "one steady word after another " * 6
        return [Reply.text(text).chunked(64, delta_chars=2).slow(first_byte=0.1, between_events=0.1)]

    return [
        Case("host-sigkill", background_and_foreground, host_signal="SIGKILL"),
        Case("host-sigterm", background_and_foreground, host_signal="SIGTERM"),
        Case("group-sigterm", background_and_foreground, host_signal="group SIGTERM"),
        Case("blocking-callback", lambda m: tool_then_text("true"), second_model=steady_stream),
        Case("sync-hook-limits", lambda m: tool_then_text("true")),
        Case("stopped-write", lambda m: [Reply.text("never")]),
        Case("stopped-read", lambda m: [Reply.text("never seen").slow(first_byte=8.0)]),
        Case("hung-store", lambda m: [Reply.text("stored?")]),
        Case("close-hung", lambda m: tool_then_text(_sleeper(m + "-fg"))),
        Case("polling-deny", lambda m: [*(bash_call(f"echo {i} >> ran.txt") for i in range(20)), Reply.text("done")]),
        Case("timeout-guard", lambda m: tool_then_text("touch ran.txt")),
        Case("deep-input", lambda m: [deep_call(1500), Reply.text("went on")]),
        Case("store-down-at-close", lambda m: [Reply.text("one"), Reply.text("two")]),
        Case("cancel-detached", lambda m: tool_then_text(f"{left_behind(m)}; {_sleeper(m + '-fg')}")),
    ]


def run_case(case: Case, backend: str, base: Path) -> Row:
    from claude_wrap.testing import ScriptedModel

    token = uuid.uuid4().hex
    marker = f"claude-wrap-probe-{token[:12]}"
    tag = f"{MARKER}={token}".encode()
    work = Path(tempfile.mkdtemp(prefix=f"{case.name} ", dir=base))
    with ScriptedModel() as model, ScriptedModel() as model2:
        model.add(*case.replies(marker))
        if case.second_model is not None:
            model2.add(*case.second_model())
        config = {
            "case": case.name,
            "backend": backend,
            "cwd": str(work),
            "marker": f"{MARKER}={token}",
            "tool_marker": marker,
            "env": {**model.env(work / "home"), MARKER: token},
            "env2": {**model2.env(work / "home2"), MARKER: token},
        }
        host = start_python(work / "host.py", HOST, config, start_new_session=True)
        try:
            if case.host_signal is not None:
                row = _kill_host(case, host, marker, tag)
            else:
                row = _wait_for_host(case, host)
            row.left = len(carrying(tag))
            settle = time.monotonic() + 5  # a guard that did its work exits a moment later
            while guards_of(host.pid) and time.monotonic() < settle:
                time.sleep(0.05)
            row.guards = len(guards_of(host.pid))
            return row
        finally:
            kill_all(carrying(tag) + processes_where(cmdline_contains=marker))
            if host.poll() is None:
                os.killpg(host.pid, signal.SIGKILL)
            host.wait()
            kill_all(guards_of(host.pid))


def _kill_host(case: Case, host: subprocess.Popen[str], marker: str, tag: bytes) -> Row:
    deadline = time.monotonic() + 90
    while not processes_where(cmdline_contains=marker + "-fg"):
        if host.poll() is not None or time.monotonic() > deadline:
            return Row(case.name, f"the tool never ran (host: {(host.communicate()[1] or '').strip()[-200:]})", None, 0)
        time.sleep(0.05)
    time.sleep(0.3)  # the background child is started too
    before = len(carrying(tag))
    start = time.monotonic()
    kill_host(host, str(case.host_signal))
    while carrying(tag) and time.monotonic() - start < SETTLE:
        time.sleep(0.05)
    seconds = time.monotonic() - start
    alive = len(carrying(tag))
    if alive:
        return Row(case.name, f"{before} processes of the run; {alive} still alive {SETTLE:g} s later", None, alive)
    return Row(case.name, f"{before} processes of the run (binary, shell, 2 commands); all gone", seconds, 0)


def _wait_for_host(case: Case, host: subprocess.Popen[str]) -> Row:
    try:
        out, err = host.communicate(timeout=CASE_LIMIT)
    except subprocess.TimeoutExpired:
        return Row(case.name, f"hung (killed after {CASE_LIMIT:g} s)", None, 0)
    for line in reversed(out.splitlines()):
        if line.startswith("{"):
            result = json.loads(line)
            return Row(case.name, result["outcome"], result["seconds"], 0)
    last = (err or "").strip().splitlines()[-1:] or ["no output"]
    return Row(case.name, f"host failed: {last[0][:120]}", None, 0)


def print_table(rows: list[Row]) -> None:
    headers = ("case", "what happened", "time to end", "processes left")
    cells = [
        (
            r.case,
            r.happened,
            "-" if r.seconds is None else f"{r.seconds:.1f} s",
            f"{r.left}" + (f" (+{r.guards} guard)" if r.guards else ""),
        )
        for r in rows
    ]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    print(line)
    print("  ".join("-" * w for w in widths))
    for c in cells:
        print("  ".join(v.ljust(w) for v, w in zip(c, widths)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("cases", nargs="*", help="case names (default: all)")
    parser.add_argument("--backend", default="asyncio", choices=["asyncio", "trio"])
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args(argv)
    cases = _cases()
    if args.list:
        for case in cases:
            print(case.name)
        return 0
    unknown = set(args.cases) - {c.name for c in cases}
    if unknown:
        parser.error(f"unknown case(s): {', '.join(sorted(unknown))}")
    chosen = [c for c in cases if not args.cases or c.name in args.cases]
    rows = []
    with tempfile.TemporaryDirectory(prefix="claude-wrap-probe ") as base:
        for case in chosen:
            print(f"... {case.name} ({args.backend})", file=sys.stderr, flush=True)
            rows.append(run_case(case, args.backend, Path(base)))
    print(f"claude_wrap probe, {args.backend}, {time.strftime('%Y-%m-%d %H:%M')}")
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
