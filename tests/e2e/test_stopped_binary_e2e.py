"""A binary that stops reading (SIGSTOP: wedged, swapped out, stopped by a
debugger): closing it takes one ``shutdown_grace``.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import anyio
import pytest
from _e2e import Options, bash
from _procs import processes_where, wait_until

from claude_wrap import query
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

HANG_GUARD = 60


@pytest.mark.parametrize("grace", [3.0])
async def test_closing_a_stopped_binary_takes_one_grace(
    grace: float, scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    # Mid-turn, with a tool running; the stopped binary answers neither the
    # interrupt, nor EOF, nor SIGTERM. Closing used to take three graces
    # (drain, then EOF and SIGTERM in the transport); now it takes one, and
    # the tool's command (in a session of its own) goes too.
    marker = f"claude-wrap-stopped-{os.getpid()}"
    scripted_model.add(bash(f"python3 -c 'import time; time.sleep(120)' {marker}"), Reply.text("never"))
    options = make_options(allowed_tools=["Bash"], shutdown_grace=grace)
    elapsed = None
    with anyio.fail_after(HANG_GUARD):
        with anyio.CancelScope() as scope:
            async with anyio.create_task_group() as tg:

                async def stop_and_cancel() -> None:
                    nonlocal elapsed
                    while not processes_where(cmdline_contains=marker):
                        await anyio.sleep(0.02)
                    for pid in processes_where(cwd=workdir):
                        if "claude" in Path(f"/proc/{pid}/cmdline").read_text():
                            os.kill(pid, signal.SIGSTOP)
                    elapsed = time.monotonic()
                    scope.cancel()

                tg.start_soon(stop_and_cancel)
                async for _ in query(prompt="run it", options=options):
                    pass
    assert scope.cancelled_caught and elapsed is not None
    elapsed = time.monotonic() - elapsed
    # One grace plus reaping a SIGKILL; three graces would be 9 s.
    assert elapsed < 2 * grace, elapsed
    wait_until(
        lambda: not processes_where(cmdline_contains=marker) and not processes_where(cwd=workdir),
        limit=10,
        what="a process outlived the close",
    )
