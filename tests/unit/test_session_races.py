"""Races and edge cases of the session pump, transport, query and client.

Several tasks at once (one receiving, another calling control methods, a
callback calling its own client), cancellation at awkward moments, a binary
that dies while a prompt is being fed, concurrent closes. All run on
asyncio and trio, with hang guards.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest

from claude_wrap import (
    ClaudeAgentOptions,
    ClaudeSDKClient,
    ClaudeSDKError,
    PermissionResultAllow,
    ProcessError,
    TurnTimeoutError,
    query,
)
from claude_wrap._process.transport import SubprocessTransport
from claude_wrap._run.extension import Extension
from claude_wrap._run.protocol import Connection
from claude_wrap._wire.messages import AssistantMessage, ResultMessage
from claude_wrap.testing import MockTransport, initialize_response

pytestmark = pytest.mark.anyio


# -- helpers ---------------------------------------------------------------------------


def _assistant(text: str) -> dict[str, Any]:
    return {
        "type": "assistant",
        "message": {"role": "assistant", "model": "m", "content": [{"type": "text", "text": text}]},
        "parent_tool_use_id": None,
        "session_id": "s",
    }


def _result(text: str = "ok", *, is_error: bool = False) -> dict[str, Any]:
    return {
        "type": "result",
        "subtype": "success",
        "is_error": is_error,
        "duration_ms": 1,
        "duration_api_ms": 1,
        "num_turns": 1,
        "session_id": "s",
        "result": text,
    }


def _success(frame: dict[str, Any], response: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "type": "control_response",
        "response": {"subtype": "success", "request_id": frame["request_id"], "response": response or {}},
    }


def _subtype(frame: dict[str, Any]) -> str | None:
    if frame.get("type") != "control_request":
        return None
    return frame["request"].get("subtype")


def _can_use_tool(rid: str) -> dict[str, Any]:
    return {
        "type": "control_request",
        "request_id": rid,
        "request": {"subtype": "can_use_tool", "tool_name": "Bash", "input": {"command": "ls"}, "tool_use_id": "t1"},
    }


def _replies_to_binary(mock: MockTransport) -> list[dict[str, Any]]:
    """The control_response frames the library wrote (answers to the binary)."""
    return [f for f in mock.sent if f.get("type") == "control_response"]


# -- 1. a control request from a second task is never woken ----------------------------


async def test_control_call_from_a_second_task_while_another_receives() -> None:
    """Task A reads ``receive_messages()`` (the usual "reader task" pattern);
    task B calls ``get_usage()``. The binary answers at once, but B only
    looks at its slot when A's pump ends, and A's pump only ends when a
    *message* arrives. Between turns none does: B hangs (until
    ``control_timeout``, which then wrongly reports a timeout)."""

    def handler(frame: dict[str, Any]) -> Any:
        if _subtype(frame) == "initialize":
            return [initialize_response(frame)]
        if _subtype(frame) == "get_usage":
            return [_success(frame, {"total_cost_usd": 0.5})]
        return None

    mock = MockTransport(handler)
    async with ClaudeSDKClient(ClaudeAgentOptions(), transport=mock) as client:
        async with anyio.create_task_group() as tg:

            async def reader() -> None:
                async for _ in client.receive_messages():
                    pass

            tg.start_soon(reader)
            await anyio.sleep(0.05)  # the reader now pumps, waiting for a message
            with anyio.fail_after(2):
                usage = await client.get_usage()
            assert usage == {"total_cost_usd": 0.5}
            tg.cancel_scope.cancel()


async def test_control_call_from_inside_a_callback() -> None:
    """A ``can_use_tool`` callback that calls a control method of its own
    client (here ``get_usage()``; ``interrupt()`` is the same) deadlocks:
    the callback runs inside the pump's task group, the pump waits for the
    callback, and the callback waits to be woken by the end of that pump."""
    client: ClaudeSDKClient

    async def can_use_tool(tool: str, tool_input: dict[str, Any], context: Any) -> Any:
        await client.get_usage()
        return PermissionResultAllow()

    def handler(frame: dict[str, Any]) -> Any:
        if _subtype(frame) == "initialize":
            return [initialize_response(frame)]
        if _subtype(frame) == "get_usage":
            return [_success(frame, {})]
        if frame.get("type") == "user":
            return [_can_use_tool("perm-1")]
        if frame.get("type") == "control_response":  # our answer to can_use_tool
            return [_assistant("done"), _result()]
        return None

    mock = MockTransport(handler)
    client = ClaudeSDKClient(ClaudeAgentOptions(can_use_tool=can_use_tool, control_timeout=30), transport=mock)
    async with client:
        await client.query("go")
        with anyio.fail_after(3):
            messages = [m async for m in client.receive_response()]
    assert isinstance(messages[-1], ResultMessage)
    assert _replies_to_binary(mock)[0]["response"]["subtype"] == "success"


# -- 2. the feeder (async-iterable prompt) ----------------------------------------------


async def test_binary_death_while_the_feeder_waits_ends_the_run() -> None:
    """``query()`` with an async-iterable prompt whose next message is not
    ready yet (it comes from a user, a queue ...). The binary dies. The
    pump sees EOF and calls ``_finish``, which cancels every scope in
    ``_inflight``, but the feeder's scope there was never entered by the
    feeder task, so the feeder keeps waiting, the pump's task group waits
    for it, and ``query()`` hangs instead of raising ``ProcessError``."""

    def handler(frame: dict[str, Any]) -> Any:
        if _subtype(frame) == "initialize":
            return [initialize_response(frame)]
        if frame.get("type") == "user":
            mock.close_output()  # the binary crashes mid-turn
        return None

    mock = MockTransport(handler)

    async def prompt() -> AsyncIterator[dict[str, Any]]:
        yield {"type": "user", "message": {"role": "user", "content": "one"}}
        await anyio.sleep_forever()  # the next message is not ready
        yield {"type": "user", "message": {"role": "user", "content": "two"}}  # pragma: no cover

    with anyio.fail_after(3):
        with pytest.raises(ProcessError):
            async for _ in query(prompt=prompt(), transport=mock):
                pass


async def test_turn_timeout_applies_with_streaming_prompt() -> None:
    """The pump's first read starts before the feeder writes the prompt (no
    turn open, so no deadline); the feeder's end restarts the read, which
    then runs under ``turn_timeout``."""

    def handler(frame: dict[str, Any]) -> Any:
        if _subtype(frame) == "initialize":
            return [initialize_response(frame)]
        return None  # the binary goes silent on the user message

    mock = MockTransport(handler)

    async def prompt() -> AsyncIterator[dict[str, Any]]:
        yield {"type": "user", "message": {"role": "user", "content": "hi"}}

    with anyio.fail_after(3):
        with pytest.raises(TurnTimeoutError):
            async for _ in query(prompt=prompt(), options=ClaudeAgentOptions(turn_timeout=0.3), transport=mock):
                pass


# -- 3. the watchdog ---------------------------------------------------------------------


async def test_turn_timeout_arms_a_read_already_waiting() -> None:
    """The reader-task pattern again: the reader pumps with no turn open (no
    deadline); then another task sends a prompt. The read in progress is
    never re-armed, so ``turn_timeout`` does not fire for a silent binary."""

    def handler(frame: dict[str, Any]) -> Any:
        if _subtype(frame) == "initialize":
            return [initialize_response(frame)]
        return None  # silent after the prompt

    mock = MockTransport(handler)
    caught: list[BaseException] = []
    async with ClaudeSDKClient(ClaudeAgentOptions(turn_timeout=0.3), transport=mock) as client:
        with anyio.move_on_after(3) as guard:
            async with anyio.create_task_group() as tg:

                async def reader() -> None:
                    try:
                        async for _ in client.receive_messages():
                            pass
                    except ClaudeSDKError as exc:
                        caught.append(exc)

                tg.start_soon(reader)
                await anyio.sleep(0.05)
                await client.query("hello")
    assert not guard.cancelled_caught, "turn_timeout=0.3 never fired (hung for 3 s)"
    assert caught and isinstance(caught[0], TurnTimeoutError)


async def test_idle_timeout_fires_for_a_silent_binary() -> None:
    """Baseline for the test above: without a callback, idle_timeout works."""

    def handler(frame: dict[str, Any]) -> Any:
        if _subtype(frame) == "initialize":
            return [initialize_response(frame)]
        return None

    mock = MockTransport(handler)
    async with ClaudeSDKClient(ClaudeAgentOptions(idle_timeout=0.2), transport=mock) as c:
        await c.query("go")
        with anyio.fail_after(3):
            with pytest.raises(TurnTimeoutError):
                async for _ in c.receive_response():
                    pass


# -- 4. answers the library cannot encode ---------------------------------------------------


async def test_unencodable_callback_answer_becomes_an_error_reply() -> None:
    """A ``can_use_tool`` callback returns ``updated_input`` holding a
    ``pathlib.Path`` (an easy mistake). ``encode_line`` raises ``TypeError``
    inside ``_answer``'s ``finally``: the binary never gets an answer, and
    the error escapes ``receive_response()`` wrapped in an ExceptionGroup,
    not as a ``ClaudeSDKError`` (nor as the deny reply a callback error gives)."""
    from pathlib import Path

    async def can_use_tool(tool: str, tool_input: dict[str, Any], context: Any) -> Any:
        return PermissionResultAllow(updated_input={"path": Path("/tmp/x")})

    def handler(frame: dict[str, Any]) -> Any:
        if _subtype(frame) == "initialize":
            return [initialize_response(frame)]
        if frame.get("type") == "user":
            return [_can_use_tool("perm-1")]
        if frame.get("type") == "control_response":
            return [_result()]
        return None

    mock = MockTransport(handler)
    async with ClaudeSDKClient(ClaudeAgentOptions(can_use_tool=can_use_tool), transport=mock) as c:
        await c.query("go")
        with anyio.fail_after(3):
            try:
                messages = [m async for m in c.receive_response()]
            except ClaudeSDKError:
                messages = []
        replies = _replies_to_binary(mock)
        assert replies, "the binary's can_use_tool request was never answered"
        assert messages and isinstance(messages[-1], ResultMessage)


# -- 5. cancellation -----------------------------------------------------------------------------


async def test_cancelled_receive_keeps_the_result_during_before_result_hook() -> None:
    """``receive()`` pops the ``ResultMessage`` and then awaits the
    ``before_result`` hooks (the session-store mirror flushes there). A
    timeout around ``receive()`` that lands during the hook drops the
    result: the next ``receive()`` never sees it. (The shipped mirror hook
    shields its store write, so there the window is its lock acquisition,
    i.e. a flush already running from another task; a hook that does not
    shield loses the result every time.)"""

    def handler(frame: dict[str, Any]) -> Any:
        if frame.get("type") == "user":
            return [_result("the answer")]
        return None

    class SlowFlush(Extension):
        async def before_result(self, result: ResultMessage) -> None:
            await anyio.sleep(0.2)  # e.g. a store write
            return None

    mock = MockTransport(handler)
    session = Connection(mock, extensions=[SlowFlush()])
    await session.send_user({"type": "user", "message": {"role": "user", "content": "q"}})
    with anyio.move_on_after(0.05):
        await session.receive()  # the caller polls with a short timeout
    mock.close_output()
    with anyio.fail_after(3):
        message = await session.receive()
    await session.aclose()
    assert isinstance(message, ResultMessage), f"the result was lost; got {message!r}"


async def test_transport_receive_keeps_a_chunk_read_just_before_a_cancel(tmp_path: Any) -> None:
    """The session cancels reads routinely (``_wake_reader`` when the last
    callback ends). A cancel from another task that lands after the stdout
    reader got its chunk, but before ``receive()`` returned, must not drop
    the chunk (it may hold a control_response or the result)."""
    script = tmp_path / "child.py"
    script.write_text(
        "import sys, time\n"
        "sys.stdout.write('first\\nsecond\\n'); sys.stdout.flush()\n"
        "time.sleep(0.3)\n"
        "sys.stdout.write('third\\n'); sys.stdout.flush()\n"
    )
    got_chunk = anyio.Event()

    class Racy(SubprocessTransport):
        async def _receive_some(self, stream: Any) -> bytes:  # type: ignore[override]
            data = await SubprocessTransport._receive_some(stream)
            if self._process is not None and stream is self._process.stdout and data:
                got_chunk.set()  # the canceller runs before receive() resumes
            return data

    transport = Racy([sys.executable, str(script)], shutdown_grace=1)
    await transport.start()
    try:
        with anyio.fail_after(5):
            async with anyio.create_task_group() as tg:
                with anyio.CancelScope() as scope:

                    async def canceller() -> None:
                        await got_chunk.wait()
                        scope.cancel()  # "a handler finished at this very moment"

                    tg.start_soon(canceller)
                    await transport.receive()
            lines = []
            while (line := await transport.receive()) is not None:
                lines.append(line)
    finally:
        await transport.aclose()
    assert b"third" in lines
    assert lines[:2] in ([b"first", b"second"], [b"second", b"third"]), f"lines lost: {lines!r}"


async def test_pump_cancellation_releases_the_lock_and_the_next_receive_works() -> None:
    """Cancelling a pumping ``receive()`` leaves no stale ``_read_scope`` /
    ``_waiting_done`` / lock, and the next ``receive()`` pumps again."""
    mock = MockTransport()
    session = Connection(mock)
    with anyio.move_on_after(0.05):
        await session.receive()
    assert session._read_scope is None
    assert not session._pump_lock.locked()
    mock.feed(_assistant("late"))
    with anyio.fail_after(2):
        message = await session.receive()
    assert isinstance(message, AssistantMessage)
    mock.close_output()
    with anyio.fail_after(2):
        assert await session.receive() is None
        assert await session.receive() is None  # receive() after the end stays None
    await session.aclose()


# -- 6. shutdown ---------------------------------------------------------------------------------


async def test_concurrent_aclose_runs_close_hooks_once() -> None:
    """``aclose()`` is documented idempotent, but ``_closed`` is only set
    after the ``before_close`` hooks ran: two concurrent calls (e.g.
    ``disconnect()`` from a signal handler task while the owner's ``async
    with`` exits, or pool shutdown racing a run) both run the final flush
    and both run the ``after_close`` callbacks."""
    flushes: list[int] = []
    cleanups: list[int] = []

    class Counted(Extension):
        async def before_close(self) -> None:
            flushes.append(1)
            await anyio.sleep(0.05)

        def after_close(self) -> None:
            cleanups.append(1)

    mock = MockTransport()
    session = Connection(mock, extensions=[Counted()])
    with anyio.fail_after(3):
        async with anyio.create_task_group() as tg:
            tg.start_soon(session.aclose)
            tg.start_soon(session.aclose)
    assert flushes == [1] and cleanups == [1], f"before_close ran {len(flushes)}x, after_close {len(cleanups)}x"


async def test_disconnect_while_another_task_receives_ends_that_receive() -> None:
    """``disconnect()`` from one task while another is blocked in
    ``receive_response()``: the receiver ends (None / typed error), nothing
    hangs, and the transport is closed."""

    def handler(frame: dict[str, Any]) -> Any:
        if _subtype(frame) == "initialize":
            return [initialize_response(frame)]
        if _subtype(frame) == "interrupt":
            return [_success(frame, {"still_queued": []}), _result("interrupted", is_error=True)]
        return None

    mock = MockTransport(handler)
    client = ClaudeSDKClient(ClaudeAgentOptions(), transport=mock)
    await client.connect()
    await client.query("hi")
    got: list[Any] = []
    with anyio.fail_after(3):
        async with anyio.create_task_group() as tg:

            async def reader() -> None:
                try:
                    async for m in client.receive_messages():
                        got.append(m)
                except ClaudeSDKError as exc:
                    got.append(exc)

            tg.start_soon(reader)
            await anyio.sleep(0.05)
            await client.disconnect()
    assert mock.closed
    assert any(isinstance(m, ResultMessage) for m in got)


# -- 7. control cancel racing its request ------------------------------------------------------


async def test_request_withdrawn_before_its_task_ran_is_not_handled() -> None:
    """A ``control_cancel_request`` buffered right behind its request is
    read before the ``_answer`` task runs. Since 3293a52 the scope is in
    ``_inflight`` at dispatch, so the cancel finds it and cancels it, but
    ``_answer`` still calls the handler and only drops the reply when the
    scope *caught* a cancellation. A handler that never reaches a
    checkpoint (any sync callback, or an async one that does not await)
    finishes normally: the withdrawn request is run and answered."""
    calls: list[str] = []

    async def can_use_tool(tool: str, tool_input: dict[str, Any], context: Any) -> Any:
        calls.append(tool)
        return PermissionResultAllow()

    def handler(frame: dict[str, Any]) -> Any:
        if _subtype(frame) == "initialize":
            return [initialize_response(frame)]
        if frame.get("type") == "user":
            return [
                _can_use_tool("perm-1"),
                {"type": "control_cancel_request", "request_id": "perm-1"},
                _result(),
            ]
        return None

    mock = MockTransport(handler)
    async with ClaudeSDKClient(ClaudeAgentOptions(can_use_tool=can_use_tool), transport=mock) as c:
        await c.query("go")
        with anyio.fail_after(3):
            async for _ in c.receive_response():
                pass
        assert _replies_to_binary(mock) == [], "answered a request the binary had withdrawn"
        assert calls == []


# -- 8. turn counting ------------------------------------------------------------------------------


async def test_turn_is_counted_before_the_write() -> None:
    """``send_user`` counts the turn only after ``transport.send`` returns.
    If the pump (driven by the concurrent reader) reads the turn's result
    before the writer resumes (any transport whose ``send`` yields after the
    peer already answered: a network transport with acks, or a busy loop),
    the result finds ``_turns_open == 0`` and is not matched; the count then
    stays at 1 forever. ``query()`` with a streaming prompt never sends EOF
    and never ends."""

    async def handler(frame: dict[str, Any]) -> Any:
        if _subtype(frame) == "initialize":
            return [initialize_response(frame)]
        if frame.get("type") == "user":
            mock.feed(_assistant("hi"), _result("hi"))  # the peer answered ...
            await anyio.sleep(0.05)  # ... before our write call returned
        return None

    mock = MockTransport(handler)

    async def prompt() -> AsyncIterator[dict[str, Any]]:
        yield {"type": "user", "message": {"role": "user", "content": "one"}}

    messages: list[Any] = []
    with anyio.move_on_after(2) as guard:
        async for m in query(prompt=prompt(), transport=mock):
            messages.append(m)
    assert not guard.cancelled_caught, f"query() never ended; got {messages!r}"
    assert isinstance(messages[-1], ResultMessage)
