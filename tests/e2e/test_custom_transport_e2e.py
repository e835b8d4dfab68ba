"""A ``Transport`` written for the official package works here unchanged.

``tests/support/_pipe_transport.py`` is such a transport: it starts the real binary
itself and yields parsed dicts. It runs here under both anyio backends, and
the same file runs under the official package in its own interpreter; both
must see the same messages, hooks and permission prompts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import aclosing
from pathlib import Path
from typing import Any

import anyio
import pytest
from _official import official_python
from _pipe_transport import PipeTransport, binary_argv, play

import claude_wrap
import claude_wrap.testing
from claude_wrap import ClaudeSDKClient, ResultMessage, Transport, query
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.e2e]

ROOT = Path(__file__).resolve().parents[2]


def _script(scripted_model: ScriptedModel) -> None:
    for _ in range(2):  # one query() run, one client turn
        scripted_model.add(
            Reply.tool_use("Bash", {"command": "echo hi > said.txt && cat said.txt", "description": "say hi"}),
            Reply.text("done"),
        )


EXPECTED_TURN = {
    "log": [["hook", "PreToolUse", "Bash"], ["can_use_tool", "Bash", "echo hi > said.txt && cat said.txt"]],
    "closed": True,
}


@pytest.mark.anyio
async def test_an_official_style_transport_runs_query_and_client(
    scripted_model: ScriptedModel, cli_path: str, tmp_path: Path, workdir: Path
) -> None:
    _script(scripted_model)
    with anyio.fail_after(120):
        seen = await play(cli_path, scripted_model.env(tmp_path / "home"), str(workdir))
    for run in ("query", "client"):
        assert {k: seen[run][k] for k in EXPECTED_TURN} == EXPECTED_TURN, run
        messages = seen[run]["messages"]
        assert messages[0] == ["system", "init"]
        assert ["assistant", ["Bash"]] in messages
        assert ["user", ["hi"]] in messages  # the tool ran: hook and can_use_tool let it
        assert messages[-1] == ["result", "success", False, "done"]
    # What reached the model: the tool's output, in both runs.
    assert sum("hi" in json.dumps(r.tool_results) for r in scripted_model.main_requests) == 2


def _run_program(python: Path, package: str, scripted_model: ScriptedModel, cli: str, home: Path, cwd: Path) -> Any:
    config = {"cli": cli, "env": scripted_model.env(home), "cwd": str(cwd)}
    env = dict(
        os.environ, SDK_PACKAGE=package, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests" / "support")])
    )
    proc = subprocess.run(
        [str(python), str(ROOT / "tests" / "support" / "_pipe_transport.py"), json.dumps(config)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_same_transport_file_behaves_the_same_on_the_official_package(
    scripted_model: ScriptedModel, cli_path: str, tmp_path: Path, workdir: Path
) -> None:
    _script(scripted_model)
    official = _run_program(official_python(), "claude_agent_sdk", scripted_model, cli_path, tmp_path / "h1", workdir)
    _script(scripted_model)
    ours = _run_program(Path(sys.executable), "claude_wrap", scripted_model, cli_path, tmp_path / "h2", workdir)

    assert official["query"]["log"] == EXPECTED_TURN["log"]  # the official run did run the scenario
    assert ours == official


# -- the contract around the transport ------------------------------------------------------


class _Failing(Transport):
    """Connects, then fails reading after the binary said hello."""

    def __init__(self, inner: PipeTransport) -> None:
        self.inner = inner
        self.close_was_shielded: bool | None = None

    async def connect(self) -> None:
        await self.inner.connect()

    async def write(self, data: str) -> None:
        await self.inner.write(data)

    async def read_messages(self) -> AsyncIterator[dict[str, Any]]:
        async with aclosing(self.inner.read_messages()) as messages:
            async for message in messages:
                yield message
                if message.get("type") == "system" and message.get("subtype") == "init":
                    raise ConnectionResetError("the sandbox went away")

    async def end_input(self) -> None:
        await self.inner.end_input()

    async def close(self) -> None:
        self.close_was_shielded = anyio.current_effective_deadline() == float("inf")
        await self.inner.close()

    def is_ready(self) -> bool:
        return self.inner.is_ready()


@pytest.mark.anyio
async def test_an_error_from_read_messages_reaches_the_reader_and_close_still_runs(
    scripted_model: ScriptedModel, cli_path: str, tmp_path: Path, workdir: Path
) -> None:
    scripted_model.add(Reply.text("never seen").slow(first_byte=2.0))
    transport = _Failing(PipeTransport(binary_argv(cli_path), scripted_model.env(tmp_path / "home"), str(workdir)))
    seen: list[Any] = []
    with pytest.raises(ConnectionResetError, match="the sandbox went away"):
        with anyio.fail_after(60):
            async for message in query(prompt="hi", transport=transport):
                seen.append(message)
    assert [type(m).__name__ for m in seen][:1] in (["InitSystemMessage"], ["SystemMessage"])
    assert transport.inner.closed and transport.close_was_shielded


@pytest.mark.anyio
async def test_a_client_connects_its_transport_again_after_disconnect(
    scripted_model: ScriptedModel, cli_path: str, tmp_path: Path, workdir: Path
) -> None:
    scripted_model.add(Reply.text("one"), Reply.text("two"))
    transport = PipeTransport(binary_argv(cli_path), scripted_model.env(tmp_path / "home"), str(workdir))
    client = ClaudeSDKClient(transport=transport)
    for expected in ("one", "two"):
        await client.connect()
        try:
            await client.query("hi")
            with anyio.fail_after(60):
                messages = [m async for m in client.receive_response()]
        finally:
            await client.disconnect()
        assert isinstance(messages[-1], ResultMessage) and messages[-1].result == expected
        assert transport.closed


def test_the_public_transport_is_the_official_interface() -> None:
    abstract = {"connect", "write", "read_messages", "close", "is_ready", "end_input"}
    assert claude_wrap.Transport.__abstractmethods__ == abstract
    assert issubclass(claude_wrap.testing.MockTransport, claude_wrap.LineTransport)
    assert issubclass(claude_wrap.SubprocessTransport, claude_wrap.LineTransport)
    assert not issubclass(claude_wrap.LineTransport, claude_wrap.Transport)
