"""A client whose binary dies: it says so, fails fast, and can start again.

The binary is killed with SIGKILL (what an OOM kill looks like) between
turns and in the middle of one; the scripted model's requests show whether
the conversation came back.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options, bash, kill_binary, turn
from _procs import processes_where, wait_until

from claude_wrap import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    CLIConnectionError,
    ProcessError,
    ResultMessage,
    ToolUseBlock,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


def _history(scripted_model: ScriptedModel) -> str:
    """What the binary showed the model in its latest main request."""
    return str(scripted_model.main_requests[-1].messages)


async def test_killed_between_turns_fails_fast_and_reconnect_resumes(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("noted: PINEAPPLE"), Reply.text("it was PINEAPPLE"))
    client = ClaudeSDKClient(make_options())
    assert not client.is_alive and client.exit_info is None
    async with client:
        assert client.is_alive and client.exit_info is None
        first = await turn(client, "remember the word PINEAPPLE")
        sid = first[-1].session_id
        old_pid = client.pid
        await kill_binary(client)

        info = client.exit_info
        assert info is not None
        assert (info.exit_code, info.signal, info.session_id) == (-9, "SIGKILL", sid)

        started = time.monotonic()
        with pytest.raises(ProcessError) as sent:
            await client.query("are you there?")
        assert time.monotonic() - started < 1.0
        assert isinstance(sent.value, CLIConnectionError)  # what the official package raises for a write
        text = str(sent.value)
        assert text.startswith("Cannot write to terminated process")
        assert "SIGKILL" in text and "await client.reconnect()" in text and sid in text
        assert sent.value.exit_code == -9
        with pytest.raises(ProcessError, match="reconnect"):
            await client.get_usage()
        with pytest.raises(ProcessError, match="reconnect"):
            await turn(client, "still there?")
        assert len(scripted_model.main_requests) == 1  # nothing reached the model

        await client.reconnect()
        assert client.is_alive and client.exit_info is None
        assert client.pid != old_pid
        second = await turn(client, "what was the word?")
        assert isinstance(second[-1], ResultMessage) and second[-1].result == "it was PINEAPPLE"
        assert "remember the word PINEAPPLE" in _history(scripted_model)
        assert "noted: PINEAPPLE" in _history(scripted_model)
    assert processes_where(cwd=workdir) == []


async def test_killed_mid_turn_the_reader_gets_the_error_and_the_turn_is_not_repeated(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(bash("echo ran >> runs.txt && sleep 4 && echo end"), Reply.text("after the crash"))
    async with ClaudeSDKClient(make_options(allowed_tools=["Bash"], auto_reconnect=1)) as client:
        await client.query("start the long job")
        with pytest.raises(ProcessError) as lost:
            with anyio.fail_after(60):
                async for message in client.receive_response():
                    if isinstance(message, AssistantMessage) and any(
                        isinstance(b, ToolUseBlock) for b in message.content
                    ):
                        while not (workdir / "runs.txt").exists():
                            await anyio.sleep(0.02)
                        await kill_binary(client)
        assert "turn in progress is lost" in str(lost.value) and "SIGKILL" in str(lost.value)
        info = client.exit_info
        assert info is not None and info.signal == "SIGKILL" and info.error is lost.value.__cause__

        # auto_reconnect: the next prompt goes to a new binary resuming the session.
        messages = await turn(client, "what happened?")
        assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "after the crash"
        assert "start the long job" in _history(scripted_model)
    assert (workdir / "runs.txt").read_text() == "ran\n"  # the lost turn was not sent again
    # The Bash tool ran its command in a session of its own, out of reach of
    # the binary's process group; closing the killed binary's session swept
    # it (long before its `sleep 4` would have ended by itself).
    wait_until(lambda: processes_where(cwd=workdir) == [], limit=3, what="processes left in the workdir")


async def test_auto_reconnect_budget_is_per_client(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("one"), Reply.text("two"))
    async with ClaudeSDKClient(make_options(auto_reconnect=1)) as client:
        await turn(client, "first prompt")
        await kill_binary(client)
        started = time.monotonic()
        messages = await turn(client, "second prompt")
        respawn = time.monotonic() - started
        assert messages[-1].result == "two"
        assert "first prompt" in _history(scripted_model)
        assert respawn < 30

        await kill_binary(client)
        started = time.monotonic()
        with pytest.raises(ProcessError, match="reconnect"):
            await client.query("third prompt")
        assert time.monotonic() - started < 1.0
        assert len(scripted_model.main_requests) == 2
    assert processes_where(cwd=workdir) == []


async def test_reconnect_restarts_a_live_client(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("hello"), Reply.text("again"))
    async with ClaudeSDKClient(make_options()) as client:
        await turn(client, "say hello")
        old_pid = client.pid
        await client.reconnect()
        assert client.is_alive and client.exit_info is None
        assert old_pid is not None and not os.path.exists(f"/proc/{old_pid}")
        messages = await turn(client, "say it again")
        assert messages[-1].result == "again"
        assert "say hello" in _history(scripted_model)
    assert not client.is_alive
    assert client.exit_info is not None and client.exit_info.signal is None
    assert processes_where(cwd=workdir) == []


async def test_reconnect_before_any_turn_starts_fresh(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("fresh"))
    async with ClaudeSDKClient(make_options()) as client:
        await kill_binary(client)
        assert client.exit_info is not None and client.exit_info.session_id is None
        await client.reconnect()
        messages = await turn(client, "hi")
        assert messages[-1].result == "fresh"
    assert processes_where(cwd=workdir) == []


@pytest.mark.parametrize("value", [-1, 1.5, "2", True])
def test_auto_reconnect_must_be_a_non_negative_int(value: Any) -> None:
    with pytest.raises(ValueError, match="auto_reconnect"):
        ClaudeAgentOptions(auto_reconnect=value)


async def test_reconnect_resumes_from_a_session_store(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, tmp_path: Path
) -> None:
    from claude_wrap import SQLiteSessionStore

    scripted_model.add(Reply.text("stored: MANGO"), Reply.text("it was MANGO"))
    store = SQLiteSessionStore(tmp_path / "s.db")
    try:
        async with ClaudeSDKClient(make_options(session_store=store)) as client:
            await turn(client, "remember the word MANGO")
            await kill_binary(client)
            await client.reconnect()
            messages = await turn(client, "what was the word?")
            assert messages[-1].result == "it was MANGO"
            assert "remember the word MANGO" in _history(scripted_model)
    finally:
        store.close()
    assert processes_where(cwd=workdir) == []


async def test_a_cleanly_ended_session_says_so_and_can_be_resumed(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    from claude_wrap import SessionStateError

    scripted_model.add(Reply.text("first"), Reply.text("second"))
    async with ClaudeSDKClient(make_options(auto_reconnect=3)) as client:
        await turn(client, "the first prompt")
        await client.end_session()
        with anyio.fail_after(30):
            async for _ in client.receive_messages():
                pass
            while client.is_alive:
                await anyio.sleep(0.01)
        info = client.exit_info
        assert info is not None and info.exit_code == 0 and info.signal is None
        with pytest.raises(SessionStateError, match="reconnect"):
            await client.query("no automatic restart after a clean end")
        await client.reconnect()
        messages = await turn(client, "the second prompt")
        assert messages[-1].result == "second"
        assert "the first prompt" in _history(scripted_model)
    assert processes_where(cwd=workdir) == []
