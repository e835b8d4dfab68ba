"""The warm pool against the real binary, driven by the scripted model."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from contextlib import aclosing
from pathlib import Path

import anyio
import pytest
from _procs import processes_where

from claude_wrap import ClaudeAgentOptions, ResultMessage
from claude_wrap._pool import ClaudePool, prewarm
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

Options = Callable[..., ClaudeAgentOptions]


def _pids(pool: ClaudePool) -> set[int]:
    return {m.connection.transport.pid for m in pool._idle}  # type: ignore[attr-defined]


async def test_pooled_query_skips_start_and_refills(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("one").sticky())
    with anyio.fail_after(90):
        async with prewarm(make_options(), size=2) as pool:
            await pool.wait_ready()
            warm = _pids(pool)
            assert len(warm) == 2 and pool.spawned == 2

            # No prompt went out while warming: members only did initialize.
            assert scripted_model.main_requests == []
            out = [m async for m in pool.query(prompt="hi")]
            assert isinstance(out[-1], ResultMessage) and out[-1].result == "one"
            assert scripted_model.main_requests[0].last_user_text == "hi"

            await pool.wait_ready()
            assert pool.spawned == 3
            assert len(_pids(pool) & warm) == 1  # one member used, one new

            # The client gets a member that was already ready, whichever one
            # (the pool may be reading the older one's output right now).
            ready = _pids(pool)
            async with pool.client() as client:
                assert client.pid in ready
                await client.query("again")
                got = [m async for m in client.receive_response()]
                assert isinstance(got[-1], ResultMessage) and got[-1].result == "one"
            assert client.pid is None

            # Breaking out of a pooled query stops its member.
            async with aclosing(pool.query(prompt="stop early")) as messages:
                async for _ in messages:
                    break
            await pool.wait_ready()
            assert len(processes_where(cwd=workdir)) == 2
    assert processes_where(cwd=workdir) == []


async def test_a_pooled_prompt_is_written_before_the_replacement_starts(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    """Taking a member is a queue pop: the prompt goes to its stdin first,
    and only then does the pool spawn the member that replaces it."""
    scripted_model.add(Reply.text("one").sticky())
    with anyio.fail_after(90):
        async with prewarm(make_options(), size=1) as pool:
            await pool.wait_ready()
            (member,) = pool._idle  # type: ignore[attr-defined]
            transport = member.connection.transport
            send = transport.send
            spawned_at_write: list[int] = []

            async def recording(line: bytes) -> None:
                if line.startswith(b'{"type":"user"'):
                    spawned_at_write.append(pool.spawned)
                await send(line)

            transport.send = recording
            out = [m async for m in pool.query(prompt="hi")]
            assert isinstance(out[-1], ResultMessage) and out[-1].result == "one"
            assert spawned_at_write == [1]
            await pool.wait_ready()
            assert pool.spawned == 2


# Backend-neutral logic: one backend keeps the suite lean.
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_dead_member_replaced_and_idle_recycled(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("alive").sticky())
    with anyio.fail_after(90):
        async with ClaudePool(make_options(), size=1, max_idle=2.0, check_interval=0.2) as pool:
            await pool.wait_ready()
            (first,) = _pids(pool)
            os.kill(first, signal.SIGKILL)
            # The dead member is noticed and replaced on the next check.
            while pool.spawned < 2 or pool.ready < 1:
                await anyio.sleep(0.1)
            (second,) = _pids(pool)
            assert second != first
            out = [m async for m in pool.query(prompt="hi")]
            assert isinstance(out[-1], ResultMessage) and out[-1].result == "alive"

            await pool.wait_ready()
            (third,) = _pids(pool)
            spawned = pool.spawned
            # Idle past max_idle: recycled for a fresh member.
            while pool.spawned == spawned or pool.ready < 1:
                await anyio.sleep(0.2)
            assert third not in _pids(pool)
            with anyio.fail_after(10):
                while third in processes_where(cwd=workdir):
                    await anyio.sleep(0.1)
    assert processes_where(cwd=workdir) == []


@pytest.mark.parametrize("anyio_backend", ["trio"])
async def test_start_failure_reaches_the_caller(tmp_path: Path) -> None:
    from claude_wrap import CLIConnectionError

    options = ClaudeAgentOptions(cwd=str(tmp_path / "missing"), setting_sources=[])
    with anyio.fail_after(30):
        async with ClaudePool(options, size=1) as pool:
            with pytest.raises(CLIConnectionError):
                async for _ in pool.query(prompt="x"):
                    pass


def test_pool_validates_arguments() -> None:
    with pytest.raises(ValueError):
        ClaudePool(size=0)
    with pytest.raises(ValueError):
        ClaudePool(max_idle=0)
