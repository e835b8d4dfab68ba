"""A binary that stops reading (SIGSTOP: wedged, swapped out, stopped by a
debugger): writes to it end within the limits a read would, and closing it
takes one ``shutdown_grace``.

A write larger than the pipe buffer to a binary that does not read blocks
until something gives; each test here would hang (the hang guard fails it)
if writes had no deadline.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import pytest
from _e2e import Options, bash
from _procs import processes_where, wait_until

from claude_wrap import ClaudeSDKClient, ControlTimeoutError, TurnTimeoutError, query
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

BIG = "x" * 2_000_000  # far more than a pipe buffer (64 KiB on Linux)
HANG_GUARD = 60


def _gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


async def _prompt(client: ClaudeSDKClient) -> None:
    await client.query(BIG)


async def _control_request(client: ClaudeSDKClient) -> None:
    await client.rename_session(BIG)


@pytest.mark.parametrize(
    ("limits", "write", "error", "says"),
    [
        # The tightest limit wins: 3 s without taking input.
        ({"idle_timeout": 3, "turn_timeout": 5, "control_timeout": 5}, _prompt, TurnTimeoutError, "(idle_timeout)"),
        ({"turn_timeout": 2}, _prompt, TurnTimeoutError, "(turn_timeout)"),
        ({"control_timeout": 2}, _control_request, ControlTimeoutError, "Control request timeout: rename_session"),
    ],
    ids=["prompt-idle", "prompt-turn", "control-request"],
)
async def test_a_write_a_stopped_binary_does_not_take_times_out_and_kills_it(
    limits: dict[str, float],
    write: Callable[[ClaudeSDKClient], Awaitable[None]],
    error: type[Exception],
    says: str,
    make_options: Options,
) -> None:
    client = ClaudeSDKClient(make_options(**limits))
    await client.connect()
    try:
        pid = client.pid
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)
        with anyio.fail_after(HANG_GUARD):
            with pytest.raises(error) as info:
                await write(client)
        assert says in str(info.value)
        wait_until(lambda: _gone(pid), limit=10, what="the binary was not killed")
        assert client.exit_info is not None and client.exit_info.signal == "SIGKILL"
    finally:
        with anyio.fail_after(HANG_GUARD):
            await client.disconnect()


async def test_a_prompt_in_the_handshake_is_bounded_by_the_handshake(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, cli_path: str
) -> None:
    # query() writes its prompt right after initialize, before the answer:
    # a binary that stops reading then fails the handshake, with no turn limit set.
    scripted_model.add(Reply.text("never seen"))
    stopped: list[int] = []

    async def stop_it() -> None:
        # The binary's own command line: between fork and exec the child is
        # still this Python, and stopping that would stop the spawn itself.
        while not (pids := processes_where(cwd=workdir, cmdline_contains=cli_path)):
            await anyio.sleep(0.005)
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)

    with anyio.fail_after(HANG_GUARD):
        async with anyio.create_task_group() as tg:
            tg.start_soon(stop_it)
            with pytest.raises(ControlTimeoutError) as info:
                async for _ in query(prompt=BIG, options=make_options(initialize_timeout=3)):
                    pass
    assert info.value.subtype == "initialize"
    assert stopped
    wait_until(lambda: all(_gone(pid) for pid in stopped), limit=10, what="the binary was not killed")


@pytest.mark.parametrize("grace", [3.0])
async def test_closing_a_stopped_binary_takes_one_grace(
    grace: float, scripted_model: ScriptedModel, make_options: Options, workdir: Path, cli_path: str
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
                    for pid in processes_where(cwd=workdir, cmdline_contains=cli_path):
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
