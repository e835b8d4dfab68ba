"""``claude_wrap.sync.run_many``: a batch from synchronous code, and the
progress display, against the real binary and the scripted model."""

from __future__ import annotations

from pathlib import Path

import pytest
from _e2e import Options
from _fleet import prompt, script_tasks
from _procs import processes_where, wait_until

from claude_wrap.fleet import FleetStats
from claude_wrap.sync import run_many
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.e2e]


def test_a_plain_for_loop_gets_every_outcome(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.text("fine").sticky())
    outcomes = run_many(["a", "b", "c"], options=make_options(), concurrency=2)
    got = list(outcomes)
    assert sorted(o.index for o in got) == [0, 1, 2] and all(o.ok and o.output == "fine" for o in got)
    assert outcomes.stats.finished == 3 and outcomes.stats.running == 0


def test_breaking_out_stops_the_batch(scripted_model: ScriptedModel, make_options: Options, workdir: Path) -> None:
    marker = f"fleet-sync-break-{id(workdir)}"
    script_tasks(scripted_model, [0], lambda n: f"echo {n} >> ran.log")
    script_tasks(scripted_model, range(1, 4), lambda n: f"echo {marker} && sleep 30")
    for outcome in run_many([prompt(n) for n in range(4)], options=make_options(allowed_tools=["Bash"]), concurrency=4):
        assert outcome.index == 0 and outcome.ok
        wait_until(lambda: len(processes_where(cmdline_contains=marker)) == 3, what="the other tasks' tools")
        break
    wait_until(
        lambda: processes_where(cwd=workdir) == [] and processes_where(cmdline_contains=marker) == [],
        limit=15,
        what="processes left after the break",
    )


def test_the_progress_line_shows_done_running_failed_and_cost(
    scripted_model: ScriptedModel, make_options: Options, capfd: pytest.CaptureFixture[str]
) -> None:
    scripted_model.add(Reply.text("fine").sticky())
    list(run_many(["a", "b"], options=make_options(), progress=True))
    err = capfd.readouterr().err
    # Not a terminal here: a line now and then, and the final state.
    assert err.splitlines()[-1].startswith("fleet: 2/2 done · 0 running · 0 failed · $0.000")

    seen: list[FleetStats] = []
    list(run_many(["a", "b"], options=make_options(), progress=seen.append))
    assert seen[-1].finished == 2 and seen[-1].total == 2 and seen[-1].cost_usd > 0


def test_ray_is_imported_only_when_its_backend_starts() -> None:
    import subprocess
    import sys

    script = (
        "import sys\n"
        "import claude_wrap, claude_wrap.fleet, claude_wrap.sync\n"
        "from claude_wrap.fleet import run_many\n"
        "run_many(['a prompt'], backend='ray', address='ray://nowhere:1')\n"
        "assert 'ray' not in sys.modules, 'ray was imported'\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
