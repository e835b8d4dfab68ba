"""A light load guard (``scripts/soak.py`` is the full soak: 500 queries).

* Sequential queries in one process leave no file descriptors and no child
  processes behind.
* 16 ``ClaudeSDKClient`` instances at once all complete a turn.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest
from _procs import children_of, processes_where

from claude_wrap import ClaudeAgentOptions, ClaudeSDKClient, ResultMessage, query
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

Options = Callable[..., ClaudeAgentOptions]

SEQUENTIAL = 15  # per backend (30 in all)
FD_SLACK = 4  # the scripted model's server sockets close on their own schedule
CLIENTS = 16


def open_fds() -> int:
    gc.collect()
    return len(os.listdir("/proc/self/fd"))


def my_children() -> list[int]:
    return children_of(os.getpid())


async def one_result(prompt: str, options: ClaudeAgentOptions) -> ResultMessage:
    result = None
    async for message in query(prompt=prompt, options=options):
        if isinstance(message, ResultMessage):
            result = message
    assert result is not None and not result.is_error
    return result


async def test_sequential_queries_leak_no_fds_or_processes(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("steady").sticky())
    options = make_options()
    # Servers other tests of this session started (PostgreSQL, Redis ...) are
    # children too; only the ones these queries leave count.
    earlier = set(my_children())
    with anyio.fail_after(60 + 10 * SEQUENTIAL):  # hang guard
        await one_result("warm-up", options)
        before = open_fds()
        for i in range(SEQUENTIAL):
            assert (await one_result(f"q{i}", options)).result == "steady"
        # Let the model's handler threads finish closing their sockets.
        with anyio.move_on_after(5):
            while open_fds() > before:
                await anyio.sleep(0.05)
    after = open_fds()
    assert after - before <= FD_SLACK, f"fds grew from {before} to {after} over {SEQUENTIAL} queries"
    assert set(my_children()) - earlier == set()
    assert len(scripted_model.main_requests) == SEQUENTIAL + 1


async def test_sixteen_concurrent_clients_all_complete(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("together").sticky())
    options = make_options()
    results: dict[int, ResultMessage] = {}
    earlier = set(my_children())  # servers of other tests

    async def one(i: int) -> None:
        async with ClaudeSDKClient(options) as client:
            await client.query(f"client {i}")
            async for message in client.receive_response():
                if isinstance(message, ResultMessage):
                    results[i] = message

    with anyio.fail_after(240):  # hang guard: 16 binaries share 2 cores
        async with anyio.create_task_group() as tg:
            for i in range(CLIENTS):
                tg.start_soon(one, i)
    assert sorted(results) == list(range(CLIENTS))
    assert all(r.result == "together" and not r.is_error for r in results.values())
    assert len({r.session_id for r in results.values()}) == CLIENTS
    assert processes_where(cwd=workdir) == []
    assert set(my_children()) - earlier == set()
