"""What production does to a run: stopped binaries, API errors, bad callbacks.

Each case ends with a typed error or a clean result, and no process left.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options, bash, run, tool_results
from _procs import processes_where, wait_until

from claude_wrap import (
    AssistantMessage,
    ClaudeSDKClient,
    HookMatcher,
    InitSystemMessage,
    ProcessError,
    ResultError,
    ResultMessage,
    TurnTimeoutError,
    query,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


async def test_stopped_binary_trips_the_watchdog(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("never seen").slow(first_byte=1.0))
    stopped: list[int] = []
    with pytest.raises(TurnTimeoutError):
        with anyio.fail_after(60):
            async for message in query(prompt="hi", options=make_options(idle_timeout=2)):
                if InitSystemMessage.of(message) is not None:
                    for pid in processes_where(cwd=workdir):
                        os.kill(pid, signal.SIGSTOP)
                        stopped.append(pid)
    assert stopped
    assert all(not os.path.exists(f"/proc/{pid}") for pid in stopped)


@pytest.mark.parametrize(
    ("status", "extra", "error"),
    [
        (401, {}, "authentication_failed"),
        (429, {"retry_after": 1}, "rate_limit"),
        (529, {}, "server_error"),  # binary 2.1.332's reading of these two
        (400, {}, "unknown"),
    ],
)
async def test_api_errors_end_with_a_typed_outcome(
    status: int, extra: dict[str, Any], error: str, scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.error(status, f"scripted {status}", **extra).sticky())
    seen: list[Any] = []
    with pytest.raises(ResultError) as info:
        with anyio.fail_after(60):
            async for message in query(prompt="hi", options=make_options()):
                seen.append(message)
    assert isinstance(seen[-1], ResultMessage) and seen[-1].is_error
    assert seen[-1].outcome == "api_error"  # its subtype says "success"
    assert [m.error for m in seen if isinstance(m, AssistantMessage) and m.error] == [error]
    assert info.value.api_error_status == status
    assert str(status) in str(info.value)


async def test_a_reply_cut_at_max_tokens_is_marked(scripted_model: ScriptedModel, make_options: Options) -> None:
    # A value the TypeScript SDK names and the official Python package does not.
    scripted_model.add(Reply.text("cut sh", stop_reason="max_tokens").sticky())
    seen: list[Any] = []
    with anyio.fail_after(60):
        try:
            async for message in query(prompt="hi", options=make_options()):
                seen.append(message)
        except ResultError:
            pass
    assert "max_output_tokens" in [m.error for m in seen if isinstance(m, AssistantMessage)]


async def test_hook_returning_garbage_fails_like_a_raising_one(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    async def garbage(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        return "this is not a hook output"

    scripted_model.add(Reply.tool_use("Bash", {"command": "touch g.txt", "description": "x"}), Reply.text("ok"))
    matcher = HookMatcher(None, [garbage], on_failure="block")
    messages = await run("go", make_options(allowed_tools=["Bash"], hooks={"PreToolUse": [matcher]}))
    assert not (workdir / "g.txt").exists()
    assert 'onFailure is "block"' in str(tool_results(messages)[0].content)


async def test_hanging_callback_times_out_and_denies(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    async def hang(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
        await anyio.sleep(3600)

    scripted_model.add(Reply.tool_use("Bash", {"command": "touch h.txt", "description": "x"}), Reply.text("ok"))
    messages = await run("go", make_options(can_use_tool=hang, callback_timeout=1))
    assert not (workdir / "h.txt").exists()
    expected = "Tool permission request failed: Error: can_use_tool did not finish within 1 s (callback_timeout)"
    assert tool_results(messages)[0].content == expected
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "ok"


async def test_stdout_line_limit_is_a_typed_error_and_kills_nothing_else(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    from claude_wrap import LineTooLongError

    scripted_model.add(Reply.text("x" * 200_000))
    with pytest.raises(LineTooLongError):
        await run("big", make_options(max_buffer_size=100_000))
    assert processes_where(cwd=workdir) == []


def _all_gone(pids: list[int]) -> None:
    # Killed processes whose parent died are reaped by init, a moment later.
    wait_until(lambda: not any(os.path.exists(f"/proc/{p}") for p in pids), limit=5, what=f"{pids} gone")


async def _running_bash(client: Any, marker: str) -> list[int]:
    """Wait until the Bash tool's command (holding ``marker``) runs; its pids."""
    with anyio.fail_after(30):
        while not (pids := processes_where(cmdline_contains=marker)):
            await anyio.sleep(0.05)
    return pids


async def test_tool_commands_do_not_outlive_a_killed_binary(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    # The Bash tool runs each command in a session of its own, so a signal to
    # the binary's process group misses it; killed outright (an OOM kill),
    # the binary stops nothing itself. The command must still not outlive it.
    scripted_model.add(bash("echo start && sleep 37.25 && echo end"), Reply.text("never"))
    errors: list[BaseException] = []
    client = ClaudeSDKClient(make_options(allowed_tools=["Bash"]))
    await client.connect()
    try:
        await client.query("run it")
        async with anyio.create_task_group() as tg:

            async def read() -> None:
                try:
                    async for _ in client.receive_response():
                        pass
                except ProcessError as exc:
                    errors.append(exc)

            tg.start_soon(read)
            pids = await _running_bash(client, "sleep 37.25")
            assert client.pid is not None and all(os.getsid(p) != client.pid for p in pids)
            os.kill(client.pid, signal.SIGKILL)
    finally:
        await client.disconnect()
    assert errors and "SIGKILL" in str(errors[0])
    _all_gone(pids)


@pytest.mark.parametrize("hung", [False, True])
async def test_disconnect_from_another_task_ends_the_reader_quietly(
    hung: bool, scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    # A UI reads messages in one task; a stop button disconnects from another,
    # mid-turn, with the binary answering or hung (SIGSTOP). The reader's loop
    # just ends, and nothing is left running.
    scripted_model.add(bash("echo start && sleep 38.5 && echo end"), Reply.text("never"))
    client = ClaudeSDKClient(make_options(allowed_tools=["Bash"], shutdown_grace=0.5))
    await client.connect()
    seen: list[Any] = []
    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:

            async def read() -> None:
                async for message in client.receive_messages():
                    seen.append(message)

            await client.query("run it")
            tg.start_soon(read)
            pids = await _running_bash(client, "sleep 38.5")
            if hung:
                assert client.pid is not None
                os.kill(client.pid, signal.SIGSTOP)
            await client.disconnect()
    assert seen and not client.is_alive
    _all_gone([*pids, *processes_where(cwd=workdir)])
