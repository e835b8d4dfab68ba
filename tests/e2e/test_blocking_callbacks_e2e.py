"""Callbacks that block or never return, against the real binary.

A plain (sync) callback runs in a worker thread, so blocking code in it
stalls neither its own session nor any other in the process, and the time
limits hold for it as for a coroutine. The idle watchdog never blames the
binary for time the event loop spent elsewhere.

The limits in these tests are hang guards; the blocking callbacks wait on
events that the test sets when it ends, so no thread outlives it for long.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options, bash, run, tool_results

from claude_wrap import (
    AssistantMessage,
    CallbackTimeoutMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    HookMatcher,
    PermissionResultAllow,
    ResultMessage,
    StreamEvent,
    TurnTimeoutError,
    create_sdk_mcp_server as sdk_server,
    tool,
)
from claude_wrap.testing import RecordedRequest, Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """Set when the test ends: what blocking callbacks wait for."""
    event = threading.Event()
    yield event
    event.set()


async def _streamed_turn(options: ClaudeAgentOptions, into: list[Any], streaming: Callable[[], object]) -> None:
    """One turn on a client (its watchdog starts with the turn, not with the
    binary's start-up): its messages go ``into`` the list; ``streaming()`` at
    each ``StreamEvent``."""
    async with ClaudeSDKClient(options) as client:
        await client.query("hi")
        async for message in client.receive_response():
            into.append(message)
            if isinstance(message, StreamEvent):
                streaming()


def _gate(opened: threading.Event) -> Any:
    """A reply predicate that holds the model's answer until ``opened`` is set."""

    def hold(request: RecordedRequest) -> bool:
        return opened.wait(60)

    return hold


async def test_a_blocking_sync_hook_stalls_no_other_session(
    scripted_model: ScriptedModel, make_options: Options, tmp_path: Path, release: threading.Event
) -> None:
    # Session B streams its answer (a delta every 0.1 s) under idle_timeout=2;
    # once it does, session A's sync PreToolUse hook blocks for up to 8 s. A
    # hook run on the event loop would hold B's reader past its idle deadline.
    text = "word " * 60
    b_streaming = threading.Event()
    hook_started = threading.Event()

    def slow_hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        hook_started.set()
        release.wait(8)
        return {}

    scripted_model.add(Reply.text(text).chunked(1 << 16, delta_chars=5).slow(between_events=0.1))
    b_messages: list[Any] = []
    with ScriptedModel() as model_a:
        model_a.add(bash("echo from A").match_if(_gate(b_streaming)), Reply.text("A is done"))
        options_a = make_options(
            env=model_a.env(tmp_path / "home-a"),
            allowed_tools=["Bash"],
            hooks={"PreToolUse": [HookMatcher("Bash", [slow_hook])]},
        )

        async def session_b() -> None:
            options_b = make_options(idle_timeout=2, include_partial_messages=True)
            await _streamed_turn(options_b, b_messages, b_streaming.set)
            release.set()  # A's hook may end now: B is what this test is about

        with anyio.fail_after(90):
            async with anyio.create_task_group() as tg:
                tg.start_soon(session_b)
                tg.start_soon(run, "go", options_a, 90)
    assert hook_started.is_set()  # the sessions did overlap
    assert isinstance(b_messages[-1], ResultMessage) and b_messages[-1].result == text


def _blocking_callback(kind: str, release: threading.Event, returned: threading.Event, **limits: Any) -> Any:
    """Options whose plain-function ``kind`` callback (a PreToolUse hook
    that blocks the tool when it fails, or ``can_use_tool``) blocks until
    the test ends; ``returned`` is set if it ever returns."""

    def blocking(first: Any, second: Any, context: Any) -> Any:
        release.wait(30)
        returned.set()
        return PermissionResultAllow() if kind == "can_use_tool" else {}

    if kind == "can_use_tool":
        return {"can_use_tool": blocking, **limits}
    matcher = HookMatcher("Bash", [blocking], on_failure="block")
    return {"allowed_tools": ["Bash"], "hooks": {"PreToolUse": [matcher]}, **limits}


CALLBACK_KINDS = pytest.mark.parametrize("kind", ["can_use_tool", "PreToolUse hook"])


@CALLBACK_KINDS
async def test_a_blocking_sync_callback_ends_at_callback_timeout(
    kind: str, scripted_model: ScriptedModel, make_options: Options, workdir: Path, release: threading.Event
) -> None:
    returned = threading.Event()
    scripted_model.add(bash("touch allowed.txt"), Reply.text("ok"))
    options = make_options(**_blocking_callback(kind, release, returned, callback_timeout=1))
    messages = await run("go", options, limit=25)

    assert not returned.is_set()  # the run did not wait for the callback
    assert not (workdir / "allowed.txt").exists()
    result = tool_results(messages)[0]
    # Both deny, and the model reads why.
    assert result.is_error and "did not finish within 1 s (callback_timeout)" in str(result.content)
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "ok"
    (notice,) = [m for m in messages if isinstance(m, CallbackTimeoutMessage)]
    assert notice.timeout == 1 and notice.tool_use_id == result.tool_use_id


@CALLBACK_KINDS
async def test_a_blocking_sync_callback_ends_at_turn_timeout(
    kind: str, scripted_model: ScriptedModel, make_options: Options, workdir: Path, release: threading.Event
) -> None:
    returned = threading.Event()
    scripted_model.add(bash("touch allowed.txt"), Reply.text("never"))
    options = make_options(**_blocking_callback(kind, release, returned, turn_timeout=3))
    with pytest.raises(TurnTimeoutError):
        await run("go", options, limit=25)
    assert not returned.is_set()
    assert not (workdir / "allowed.txt").exists()


@tool("forever", "Never returns", {})
async def forever_async(args: dict[str, Any]) -> dict[str, Any]:
    await anyio.sleep_forever()
    raise AssertionError("unreachable")


_tool_release = threading.Event()


@tool("forever_sync", "Never returns, blocking", {})
def forever_sync(args: dict[str, Any]) -> dict[str, Any]:
    _tool_release.wait(60)
    return {"content": [{"type": "text", "text": "too late"}]}


def _mcp_package_server() -> Any:
    """A server built with the ``mcp`` package whose one tool never returns."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=[types.Tool(name="forever", input_schema={"type": "object"})])

    async def call_tool(ctx: Any, params: Any) -> Any:
        await anyio.sleep_forever()

    return {"type": "sdk", "name": "slow", "instance": Server("slow", on_list_tools=list_tools, on_call_tool=call_tool)}


@pytest.mark.parametrize("kind", ["async", "sync", "mcp package"])
async def test_an_mcp_tool_that_never_returns_ends_at_callback_timeout(
    kind: str, scripted_model: ScriptedModel, make_options: Options
) -> None:
    if kind == "mcp package":
        name, server = "mcp__slow__forever", _mcp_package_server()
    else:
        handler = forever_async if kind == "async" else forever_sync
        name, server = f"mcp__slow__{handler.name}", sdk_server("slow", tools=[handler])
    scripted_model.add(Reply.tool_use(name, {}), Reply.text("the tool timed out"))
    options = make_options(mcp_servers={"slow": server}, allowed_tools=[name], callback_timeout=1)
    _tool_release.clear()
    try:
        messages = await run("go", options, limit=30)
    finally:
        _tool_release.set()
    result = tool_results(messages)[0]
    assert result.is_error and "callback_timeout" in str(result.content)
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "the tool timed out"


async def test_a_stalled_event_loop_does_not_trip_the_idle_watchdog(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    # The binary streams deltas every 0.1 s; plain blocking code in another
    # task holds the event loop for 3 s, past idle_timeout=1, while the
    # reader waits. The output it wrote meanwhile is waiting in the pipe.
    text = "word " * 60
    scripted_model.add(Reply.text(text).chunked(1 << 16, delta_chars=5).slow(between_events=0.1))
    streaming = anyio.Event()
    stalled = False
    messages: list[Any] = []

    async def stall() -> None:
        nonlocal stalled
        await streaming.wait()
        await anyio.wait_all_tasks_blocked()  # the reader waits for the binary's next line
        time.sleep(3)  # blocking on purpose: the event loop does nothing meanwhile
        stalled = True

    options = make_options(idle_timeout=1, include_partial_messages=True)
    with anyio.fail_after(60):
        async with anyio.create_task_group() as tg:
            tg.start_soon(_streamed_turn, options, messages, streaming.set)
            tg.start_soon(stall)
    assert stalled
    final = [m for m in messages if isinstance(m, AssistantMessage)]
    assert final and isinstance(messages[-1], ResultMessage) and messages[-1].result == text


async def test_a_stalled_event_loop_does_not_time_out_a_prompt_being_written(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    # A prompt far larger than the pipe buffer waits for the binary (stopped
    # for a moment, so the write surely waits); then plain blocking code
    # holds the event loop for 5 s, past idle_timeout=2, while the binary,
    # running again, takes the input in. The write goes on where it was.
    # (idle_timeout leaves a loaded machine's binary time to read.)
    prompt = "x" * 2_000_000
    scripted_model.add(Reply.text("read it"))
    written = stalled = False

    async with ClaudeSDKClient(make_options(idle_timeout=2)) as client:
        pid = client.pid
        assert pid is not None

        async def write() -> None:
            nonlocal written
            await client.query(prompt)
            written = True

        async def stall() -> None:
            nonlocal stalled
            await anyio.wait_all_tasks_blocked()  # the write waits for the pipe
            assert not written
            os.kill(pid, signal.SIGCONT)
            time.sleep(5)  # blocking on purpose: the event loop does nothing meanwhile
            stalled = True

        os.kill(pid, signal.SIGSTOP)
        try:
            with anyio.fail_after(60):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(write)
                    tg.start_soon(stall)
                messages = [m async for m in client.receive_response()]
        finally:
            with suppress(ProcessLookupError):  # killed as a binary that took no input
                os.kill(pid, signal.SIGCONT)
    assert stalled and written
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "read it"
