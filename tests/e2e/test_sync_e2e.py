"""The synchronous facade against the real binary: plain code, a running loop, Ctrl-C."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _e2e import check_tool_change, mul_tool, script_tool_change
from _procs import interrupt_once_running, processes_where, start_python

from claude_wrap import (
    AssistantMessage,
    ClaudeAgentOptions,
    InitSystemMessage,
    ResultError,
    ResultMessage,
    TextBlock,
    sync,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = pytest.mark.e2e

Options = Callable[..., ClaudeAgentOptions]


def _texts(messages: list[Any]) -> list[str]:
    return [b.text for m in messages if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, TextBlock)]


def test_query_is_a_plain_iterator(scripted_model: ScriptedModel, make_options: Options, workdir: Path) -> None:
    scripted_model.add(Reply.text("sync hello"))
    messages = list(sync.query(prompt="hi", options=make_options()))

    assert InitSystemMessage.of(messages[0]) is not None
    assert _texts(messages) == ["sync hello"]
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "sync hello"
    assert processes_where(cwd=workdir) == []


def test_error_result_raises_after_yielding_it(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.error(500, "scripted outage"))
    seen: list[Any] = []
    with pytest.raises(ResultError) as info:
        for message in sync.query(prompt="hi", options=make_options()):
            seen.append(message)
    assert isinstance(seen[-1], ResultMessage) and seen[-1].is_error
    assert info.value.api_error_status == 500


def test_break_closes_the_run(scripted_model: ScriptedModel, make_options: Options, workdir: Path) -> None:
    scripted_model.add(Reply.tool_use("Bash", {"command": "sleep 60", "description": "wait"}))
    for message in sync.query(prompt="go", options=make_options(allowed_tools=["Bash"])):
        assert InitSystemMessage.of(message) is not None
        break
    assert processes_where(cwd=workdir) == []


def test_client_over_two_turns(scripted_model: ScriptedModel, make_options: Options, workdir: Path) -> None:
    scripted_model.add(Reply.text("first"), Reply.text("second"))
    with sync.ClaudeSDKClient(make_options()) as client:
        assert client.pid is not None
        assert client.get_server_info() is not None
        client.query("one")
        first = list(client.receive_response())
        client.query("two")
        second = list(client.receive_response())
    assert _texts(first) == ["first"] and _texts(second) == ["second"]
    assert isinstance(second[-1], ResultMessage)
    assert client.pid is None
    assert processes_where(cwd=workdir) == []


def test_client_that_lost_its_binary_reconnects(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("noted: KIWI"), Reply.text("you said KIWI"))
    with sync.ClaudeSDKClient(make_options()) as client:
        client.query("remember KIWI")
        assert isinstance(list(client.receive_response())[-1], ResultMessage)
        assert client.is_alive and client.exit_info is None and client.pid is not None
        os.kill(client.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while client.is_alive and time.monotonic() < deadline:
            time.sleep(0.02)
        info = client.exit_info
        assert info is not None and info.signal == "SIGKILL"
        client.reconnect()
        client.query("what did I say?")
        assert _texts(list(client.receive_response())) == ["you said KIWI"]
        assert "remember KIWI" in json.dumps(scripted_model.main_requests[-1].body)
    assert processes_where(cwd=workdir) == []


def test_works_inside_a_running_event_loop(scripted_model: ScriptedModel, make_options: Options, workdir: Path) -> None:
    """As in Jupyter: the calling thread already runs a loop (and is blocked by us)."""
    scripted_model.add(Reply.text("from a loop"), Reply.text("client in a loop"))

    async def notebook_cell() -> tuple[list[Any], list[Any]]:
        asyncio.get_running_loop()  # a loop is running in this thread
        messages = list(sync.query(prompt="hi", options=make_options()))
        with sync.ClaudeSDKClient(make_options()) as client:
            client.query("hi again")
            replies = list(client.receive_response())
        return messages, replies

    messages, replies = asyncio.run(asyncio.wait_for(notebook_cell(), 60))
    assert _texts(messages) == ["from a loop"]
    assert _texts(replies) == ["client in a loop"]
    assert processes_where(cwd=workdir) == []


def test_not_connected_client_says_so() -> None:
    from claude_wrap import CLIConnectionError

    client = sync.ClaudeSDKClient()
    with pytest.raises(CLIConnectionError, match=r"^Not connected\. Call connect\(\) first\.$"):
        client.query("x")
    with pytest.raises(CLIConnectionError, match="Not connected"):
        client.receive_response()
    client.disconnect()
    with pytest.raises(CLIConnectionError, match="Not connected"):
        client.query("x")


SCRIPT = """
import json, sys
from claude_wrap import ClaudeAgentOptions
from claude_wrap import sync

config = json.loads(sys.argv[1])
options = ClaudeAgentOptions(env=config["env"], cwd=config["cwd"], setting_sources=[], allowed_tools=["Bash"])
if config["kind"] == "query":
    for message in sync.query(prompt="run it", options=options):
        pass
else:
    with sync.ClaudeSDKClient(options) as client:
        client.query("run it")
        for message in client.receive_response():
            pass
"""


@pytest.mark.parametrize("kind", ["query", "client"])
def test_ctrl_c_leaves_no_process(kind: str, scripted_model: ScriptedModel, tmp_path: Path, workdir: Path) -> None:
    marker = f"claude-wrap-sync-ctrlc-{os.getpid()}-{kind}"
    scripted_model.add(
        Reply.tool_use("Bash", {"command": f"python3 -c 'import time; time.sleep(120)' {marker}", "description": "w"})
    )
    config = {"env": scripted_model.env(tmp_path / "home"), "cwd": str(workdir), "kind": kind}
    proc = start_python(tmp_path / "owner.py", SCRIPT, config)
    stderr = interrupt_once_running(proc, marker)
    assert "KeyboardInterrupt" in stderr
    assert processes_where(cmdline_contains=marker) == []
    assert processes_where(cwd=workdir) == []


def test_a_tool_added_and_removed_while_connected(scripted_model: ScriptedModel, make_options: Options) -> None:
    from claude_wrap import create_sdk_mcp_server

    script_tool_change(scripted_model)
    options = make_options(mcp_servers={"calc": create_sdk_mcp_server("calc")}, allowed_tools=["mcp__calc__mul"])
    with sync.ClaudeSDKClient(options) as client:
        client.query("hi")
        list(client.receive_response())
        client.add_mcp_tool("calc", mul_tool())
        client.query("multiply")
        list(client.receive_response())
        client.remove_mcp_tool("calc", "mul")
        client.query("multiply again")
        list(client.receive_response())
        client.notify_mcp_tools_changed("calc")  # nothing changed: the binary just lists them again
        with pytest.raises(KeyError, match="no in-process"):
            client.add_mcp_tool("nowhere", mul_tool())
    check_tool_change(scripted_model)
