"""No child outlives its owner: Ctrl-C, interpreter exit and generators left
open, in real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from _procs import guards_of, interrupt_once_running, processes_where, start_python, wait_until

from claude_wrap.testing import Reply, ScriptedModel

pytestmark = pytest.mark.e2e

SCRIPT_HEAD = """
import json, sys, anyio
from claude_wrap import ClaudeAgentOptions, ClaudeSDKClient, query

config = json.loads(sys.argv[1])
options = ClaudeAgentOptions(env=config["env"], cwd=config["cwd"], setting_sources=[], allowed_tools=["Bash"])
"""


def _run_script(tmp_path: Path, body: str, config: dict[str, Any]) -> subprocess.Popen[str]:
    return start_python(tmp_path / "owner.py", SCRIPT_HEAD + textwrap.dedent(body), config)


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_ctrl_c_during_a_tool_leaves_no_process(
    backend: str, scripted_model: ScriptedModel, tmp_path: Path, workdir: Path
) -> None:
    marker = f"claude-wrap-ctrlc-{os.getpid()}-{backend}"
    scripted_model.add(
        Reply.tool_use("Bash", {"command": f"python3 -c 'import time; time.sleep(120)' {marker}", "description": "w"})
    )
    config = {"env": scripted_model.env(tmp_path / "home"), "cwd": str(workdir)}
    proc = _run_script(
        tmp_path,
        f"""
        async def main():
            async for message in query(prompt="run it", options=options):
                pass

        anyio.run(main, backend={backend!r})
        """,
        config,
    )
    stderr = interrupt_once_running(proc, marker)
    assert "KeyboardInterrupt" in stderr
    assert processes_where(cmdline_contains=marker) == []
    assert processes_where(cwd=workdir) == []


def test_interpreter_exit_with_an_open_client_leaves_no_process(
    scripted_model: ScriptedModel, tmp_path: Path, workdir: Path
) -> None:
    config = {"env": scripted_model.env(tmp_path / "home"), "cwd": str(workdir)}
    proc = _run_script(
        tmp_path,
        """
        async def main():
            client = ClaudeSDKClient(options)
            await client.connect()
            print(client.pid, flush=True)
            # no disconnect(): the interpreter exits with the binary running

        anyio.run(main)
        """,
        config,
    )
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 0, stderr
    pid = int(stdout.split()[0])
    wait_until(lambda: not os.path.exists(f"/proc/{pid}") or "Z" in _state(pid), limit=10)
    assert processes_where(cwd=workdir) == []
    wait_until(lambda: not guards_of(proc.pid), limit=10, what="the guard outlived its host")


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0]
    except (OSError, IndexError):
        return ""


LEFT_AT = ["first message", "result", "open until shutdown"]


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
@pytest.mark.parametrize("left_at", LEFT_AT)
def test_returning_from_inside_the_loop_prints_nothing_and_leaves_no_process(
    backend: str, left_at: str, scripted_model: ScriptedModel, tmp_path: Path, workdir: Path
) -> None:
    """``return`` from inside ``async for ... in query(...)``: the event loop
    closes the generator it left, while the program runs on or as the loop
    shuts down (the last one; ``asyncio.run()`` cancels the task that would
    close it before that task starts). Nothing may be printed, and the
    binary must be gone when the interpreter exits."""
    scripted_model.add(Reply.text("one").slow(between_events=0.2), Reply.text("two").slow(between_events=0.2))
    config = {"env": scripted_model.env(tmp_path / "home"), "cwd": str(workdir)}
    proc = _run_script(
        tmp_path,
        f"""
        from claude_wrap import ResultMessage

        left_at = {left_at!r}
        still_open = []

        async def first_answer(prompt):
            messages = query(prompt=prompt, options=options)
            if left_at == "open until shutdown":
                still_open.append(messages)
            async for message in messages:
                if left_at != "result" or isinstance(message, ResultMessage):
                    return type(message).__name__

        async def main():
            print(await first_answer("one"))
            print(await first_answer("two"))

        anyio.run(main, backend={backend!r})
        """,
        config,
    )
    stdout, stderr = proc.communicate(timeout=120)
    assert (proc.returncode, stderr) == (0, "")
    assert stdout.split() == (["ResultMessage"] * 2 if left_at == "result" else ["SystemMessage"] * 2)
    assert processes_where(cwd=workdir) == []


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_leaving_the_loop_as_the_program_ends_lets_the_close_finish(
    backend: str, scripted_model: ScriptedModel, tmp_path: Path, workdir: Path
) -> None:
    """``break`` at the result, and the program ends while the run's close
    is under way: ``asyncio.run()`` cancels every task left, which an anyio
    shield does not hold against. The close must finish all the same (else
    the binary is reaped after the loop has gone, and on a busy machine
    asyncio prints "Loop ... that handles pid N is closed")."""
    scripted_model.add(Reply.text("done"))
    config = {"env": scripted_model.env(tmp_path / "home"), "cwd": str(workdir)}
    proc = _run_script(
        tmp_path,
        f"""
        import logging
        from claude_wrap import ResultMessage

        logging.basicConfig(format="%(name)s %(message)s")
        logging.getLogger("claude_wrap").setLevel(logging.DEBUG)  # a close cut short says so here

        async def main():
            async for message in query(prompt="one", options=options):
                if isinstance(message, ResultMessage):
                    break
            await anyio.sleep(0.05)  # the close has started: it waits for the binary's exit
            print("left")

        anyio.run(main, backend={backend!r})
        """,
        config,
    )
    stdout, stderr = proc.communicate(timeout=120)
    assert (proc.returncode, stdout.split()) == (0, ["left"]), stderr
    assert "ended with an error" not in stderr and "is closed" not in stderr, stderr
    assert processes_where(cwd=workdir) == []


def _leaving_behind(marker: str) -> str:
    """A Bash command that leaves two commands running, each in a session of
    its own with its parent shell gone; the second also clears its
    environment, so no run tag finds it."""
    sleeper = f"-c 'import time; time.sleep(300)' {marker}"
    return (
        f"(setsid {sys.executable} {sleeper}-tagged >/dev/null 2>&1 &); "
        f"(setsid env -i {sys.executable} {sleeper}-untagged >/dev/null 2>&1 &); echo started"
    )


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_a_query_that_ends_normally_leaves_no_tagged_command(
    scripted_model: ScriptedModel, make_options: Any, workdir: Path
) -> None:
    # query() closes the binary's input after the prompt; the binary exits
    # by itself at the end, and what it adopted goes to init then: the tag
    # sweep of the close finds what kept its environment.
    from _e2e import run

    marker = f"claude-wrap-left-{os.getpid()}-{id(workdir)}"
    scripted_model.add(
        Reply.tool_use("Bash", {"command": _leaving_behind(marker), "description": "go"}), Reply.text("done")
    )
    try:
        messages = await run("go", make_options(allowed_tools=["Bash"]))
        assert messages[-1].result == "done"
        wait_until(
            lambda: not processes_where(cmdline_contains=marker + "-tagged"),
            limit=10,
            what="a command outlived its run",
        )
    finally:
        for pid in processes_where(cmdline_contains=marker):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_a_client_that_closes_leaves_nothing_its_run_started(
    scripted_model: ScriptedModel, make_options: Any, workdir: Path
) -> None:
    # A client's binary lives until the close: what it adopted, the command
    # that cleared its environment included, is found below it.
    from _e2e import turn

    from claude_wrap import ClaudeSDKClient

    marker = f"claude-wrap-client-left-{os.getpid()}-{id(workdir)}"
    scripted_model.add(
        Reply.tool_use("Bash", {"command": _leaving_behind(marker), "description": "go"}), Reply.text("done")
    )
    async with ClaudeSDKClient(make_options(allowed_tools=["Bash"])) as client:
        messages = await turn(client, "go")
        assert messages[-1].result == "done"
        wait_until(lambda: len(processes_where(cmdline_contains=marker)) == 2, limit=10, what="the commands never ran")
    wait_until(lambda: not processes_where(cmdline_contains=marker), limit=10, what="a command outlived its run")


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_a_query_cancelled_mid_tool_leaves_nothing_its_run_started(
    scripted_model: ScriptedModel, make_options: Any, workdir: Path
) -> None:
    # The binary's input closed with the prompt; the cancel interrupts it
    # (SIGINT), and what it adopted is looked at first: the command that
    # cleared its environment is found too.
    import anyio

    from claude_wrap import query

    marker = f"claude-wrap-cancelled-{os.getpid()}-{id(workdir)}"
    command = f"{_leaving_behind(marker)}; {sys.executable} -c 'import time; time.sleep(300)' {marker}-fg"
    scripted_model.add(Reply.tool_use("Bash", {"command": command, "description": "go"}), Reply.text("done"))
    with anyio.fail_after(60):
        with anyio.CancelScope() as scope:
            async for _ in query(prompt="go", options=make_options(allowed_tools=["Bash"])):
                while len(processes_where(cmdline_contains=marker)) < 3:
                    await anyio.sleep(0.02)
                scope.cancel()
    wait_until(lambda: not processes_where(cmdline_contains=marker), limit=10, what="a command outlived its run")
