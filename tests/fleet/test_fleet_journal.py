"""A named batch (``run_many(batch_id=...)``) outlives its driver: the real
binary, the scripted model, a SQLite session store shared by two drivers.

The first driver runs in a process of its own and is SIGKILLed mid-batch,
with tasks done, tasks in the middle of a tool call, and tasks not started;
a second driver, here, goes on with the batch under the same ``batch_id``.

The anyio timeouts are hang guards, not speed checks.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options
from _fleet import answered, is_resumed, prompt, requests_of, script_tasks
from _fleet_driver import kill_driver_mid_batch
from _procs import cmdline, processes_where

from claude_wrap import SQLiteSessionStore
from claude_wrap.fleet import BatchBusyError, Outcome, run_many
from claude_wrap.testing import ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

LIMIT = 120


async def _wait_for(predicate: Any, what: str, limit: float = LIMIT) -> None:
    with anyio.move_on_after(limit) as scope:
        while not await predicate():
            await anyio.sleep(0.05)
    assert not scope.cancelled_caught, what


async def test_a_second_driver_goes_on_with_a_batch_whose_driver_was_killed(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, tmp_path: Path
) -> None:
    marker = f"journal-{os.getpid()}-{id(workdir)}"
    gate = workdir / "driver-killed"

    def command(n: int) -> str:
        # Tasks 2 and 3 hold in their tool call until the driver is dead;
        # their effect comes after the hold, so it shows whether they ran again.
        hold = f"while [ ! -e '{gate}' ]; do sleep 0.05; done && " if n in (2, 3) else ""
        return f"echo {marker}-{n} && {hold}echo {n} >> ran.log"

    script_tasks(scripted_model, range(6), command)
    prompts = [prompt(n) for n in range(6)]
    store_path = tmp_path / "sessions.db"
    config = {
        "prompts": prompts,
        "cwd": str(workdir),
        "env": make_options().env,
        "allowed_tools": ["Bash"],
        "store": {"sqlite": str(store_path)},
        "batch_id": "nightly-42",
        "concurrency": 2,
        "lease_s": 1.0,
    }
    store = SQLiteSessionStore(store_path)
    first = await kill_driver_mid_batch(
        config, tmp_path, done=2, held=[f"{marker}-{n} " for n in (2, 3)], store=store, workdir=workdir
    )
    assert sorted(o["index"] for o in first) == [0, 1]

    async def tools_gone() -> bool:
        return not processes_where(cmdline_contains=marker)

    async def binaries_gone() -> bool:
        return not processes_where(cwd=workdir)

    # The binaries' guards stop them and their tools (frozen, then killed).
    await _wait_for(tools_gone, "the dead driver's tools stopped")
    await _wait_for(binaries_gone, "the dead driver's binaries stopped")
    gate.touch()

    # The dead driver's lease lapses within a second; until then the batch is busy.
    async def resumed_batch() -> list[Outcome] | None:
        try:
            async with run_many(prompts, options=make_options(allowed_tools=["Bash"], session_store=store),
                                concurrency=2, batch_id="nightly-42") as batch:  # fmt: skip
                return [o async for o in batch]
        except BatchBusyError:
            return None

    outcomes: list[Outcome] | None = None

    async def taken_over() -> bool:
        nonlocal outcomes
        outcomes = await resumed_batch()
        return outcomes is not None

    await _wait_for(taken_over, "the batch taken over")
    assert outcomes is not None
    by_index = {o.index: o for o in outcomes}
    assert sorted(by_index) == list(range(6))
    assert all(o.ok for o in outcomes), [o for o in outcomes if not o.ok]
    # Done before: reported from the journal, not run again.
    for n in (0, 1):
        assert by_index[n].recorded and by_index[n].output == f"done {n}" and by_index[n].attempts == 1
        assert by_index[n].result is not None and by_index[n].result.session_id == by_index[n].session_id
        assert by_index[n].total_cost_usd > 0
    # Cut off in their tool call: resumed from their sessions, the call shown cut off, not run again.
    for n in (2, 3):
        o = by_index[n]
        assert not o.recorded and o.attempts == 2 and o.output == f"done {n} after a resume"
        asked = requests_of(scripted_model, n)
        assert [answered(r) for r in asked] == [False, True] and is_resumed(asked[-1])
        assert "outcome is unknown" in json.dumps(asked[-1].tool_results)
    # Never started: run now.
    for n in (4, 5):
        assert not by_index[n].recorded and by_index[n].attempts == 1 and by_index[n].output == f"done {n}"
    ran = (workdir / "ran.log").read_text().split()
    assert sorted(ran) == ["0", "1", "4", "5"]
    assert scripted_model.unexpected == []

    # A third run of the batch runs nothing: every outcome is the journal's.
    before = len(scripted_model.main_requests)
    with anyio.fail_after(LIMIT):
        async with run_many(prompts, options=make_options(session_store=store), batch_id="nightly-42") as batch:
            again = [o async for o in batch]
    assert sorted(o.index for o in again) == list(range(6)) and all(o.recorded and o.ok for o in again)
    assert {o.index: o.output for o in again} == {o.index: o.output for o in outcomes}
    assert len(scripted_model.main_requests) == before
    assert [cmdline(p) for p in processes_where(cwd=workdir)] == []
