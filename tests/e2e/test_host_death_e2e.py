"""The binary and everything it started die with the host, however it dies.

A host process runs ``query()`` (or a ``ClaudeSDKClient``) against the real
binary and the scripted model; the model has the Bash tool start a child in
the background and then run a long command in the foreground, each in a
session of the tool's own. The test then SIGKILLs the host, SIGTERMs it, or
SIGTERMs its whole process group (what ``timeout``, shells, supervisors and
container stops send), and checks that no process carrying the run's
environment tag survives, the guard included.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _procs import carrying, environ_tag, guards_of, kill_host, processes_where, start_python, wait_until

from claude_wrap.testing import Reply, ScriptedModel

pytestmark = pytest.mark.e2e

LEFTOVER_BOUND = 30.0  # a hang guard

HOST = """
import json, sys, tempfile, anyio
from claude_wrap import ClaudeAgentOptions, ClaudeSDKClient, query

config = json.loads(sys.argv[1])
tempfile.tempdir = config["tmp"]  # where the run's private files go: the test looks there
options = ClaudeAgentOptions(
    env=config["env"],
    cwd=config["cwd"],
    setting_sources=[],
    allowed_tools=["Bash"],
    settings='{"cleanupPeriodDays": 30}',  # inline JSON: a private file for the run
)

async def main():
    if config["api"] == "query":
        async for message in query(prompt="run it", options=options):
            pass
    else:
        async with ClaudeSDKClient(options) as client:
            await client.query("run it")
            async for message in client.receive_response():
                pass

anyio.run(main, backend=config["backend"])
"""


def _sleeper(marker: str) -> str:
    return f"python3 -c 'import time; time.sleep(300)' {marker}"


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
@pytest.mark.parametrize(("how", "api"), [("SIGKILL", "query"), ("SIGTERM", "client"), ("group SIGTERM", "query")])
def test_nothing_the_run_started_outlives_a_host_that_dies(
    how: str, api: str, backend: str, scripted_model: ScriptedModel, tmp_path: Path, workdir: Path
) -> None:
    marker = f"claude-wrap-host-death-{os.getpid()}-{backend}-{api}-{how.replace(' ', '-')}"
    # One command left in the background, one that also clears its
    # environment (no tag finds it), one in the foreground.
    cleared = f"(setsid env -i {sys.executable} -c 'import time; time.sleep(300)' {marker}-cleared >/dev/null 2>&1 &)"
    command = f"({_sleeper(marker + '-bg')} >/dev/null 2>&1 &); {cleared}; {_sleeper(marker + '-fg')}"
    scripted_model.add(Reply.tool_use("Bash", {"command": command, "description": "wait"}), Reply.text("done"))
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    config = {
        "env": scripted_model.env(tmp_path / "home"),
        "cwd": str(workdir),
        "backend": backend,
        "api": api,
        "tmp": str(private_tmp),
    }
    host = start_python(
        tmp_path / "host.py",
        HOST,
        config,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own group, so the test can signal that group
    )
    try:
        wait_until(lambda: processes_where(cmdline_contains=marker + "-fg"), limit=60, what="the tool never ran")
        tool = processes_where(cmdline_contains=marker + "-fg")[0]
        tag = environ_tag(tool)
        assert tag is not None
        # The shell's own command line names both markers, so the commands
        # themselves may still be starting: wait for them.
        wait_until(
            lambda: len(carrying(tag)) >= 3,  # the binary, the background child, the foreground command
            limit=60,
            what="the commands never started",
        )
        assert processes_where(cmdline_contains=marker + "-bg")
        wait_until(lambda: processes_where(cmdline_contains=marker + "-cleared"), limit=60, what="no -cleared")
        assert [p.name for p in private_tmp.iterdir()][0].startswith("claude-wrap-")  # the settings file's folder
        assert guards_of(host.pid)
        kill_host(host, how)
        wait_until(lambda: not carrying(tag), limit=LEFTOVER_BOUND, what="a process of the run outlived the host")
        wait_until(lambda: not guards_of(host.pid), limit=LEFTOVER_BOUND, what="the guard did not exit")
        # The untagged one is killed too; it is gone once its new parent reaps it.
        wait_until(lambda: not processes_where(cmdline_contains=marker), limit=LEFTOVER_BOUND, what="-cleared lived on")
        assert list(private_tmp.iterdir()) == []  # the guard removed the run's private files
        # Its tools were frozen, not killed under it: the stopping binary did
        # not take them for failed tools and ask the model again.
        assert len(scripted_model.main_requests) == 1, [r.last_user_text for r in scripted_model.main_requests]
    finally:
        if host.poll() is None:
            host.kill()
        host.wait()
        for pid in processes_where(cmdline_contains=marker):  # a failed run's leftovers, not the next test's
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
