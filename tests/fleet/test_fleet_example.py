"""examples/fleet_batch.py, run as a user runs it, against the scripted model
on the local backend: structured output per file, a results table, the
budget stopping the first run, and the second run going on from there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _fleet import CONTINUE

from claude_wrap.testing import Reply, ScriptedModel
from claude_wrap.testing._recorded import RecordedRequest

pytestmark = [pytest.mark.e2e]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fleet_batch.py"
FILES = ["alpha.py", "beta.py", "gamma.py", "delta.py"]


def _of(name: str, stage: str) -> Any:
    def matches(request: RecordedRequest) -> bool:
        if not (request.is_main and name in json.dumps(request.messages[0])):
            return False
        resumed = CONTINUE in request.last_user_text
        read = any(m.get("role") == "assistant" for m in request.messages)
        return {"resumed": resumed, "read": read and not resumed, "start": not read and not resumed}[stage]

    return matches


def _script(model: ScriptedModel, source: Path) -> None:
    # Every model reply costs $0.10.
    for name in FILES:
        summary = {"purpose": f"the {name[:-3]} module", "public_names": [name[:-3]], "todo_count": len(name)}
        model.add(
            Reply.tool_use("Read", {"file_path": str(source / name)})
            .match_if(_of(name, "start"))
            .with_usage(25_000, 0),
            # Slow to start, so the budget's interrupt surely lands on a task
            # whose first reply went over it, even on a loaded machine.
            Reply.tool_use("StructuredOutput", summary)
            .match_if(_of(name, "read"))
            .with_usage(25_000, 0)
            .slow(first_byte=2.0),
            Reply.tool_use("StructuredOutput", summary).match_if(_of(name, "resumed")).with_usage(25_000, 0),
        )


def _run(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_the_batch_example_summarizes_stops_at_its_budget_and_goes_on(
    scripted_model: ScriptedModel, tmp_path: Path
) -> None:
    source = tmp_path / "src"
    source.mkdir()
    for name in FILES:
        (source / name).write_text(f"# TODO: one\ndef {name[:-3]}():\n    return 1\n")
    _script(scripted_model, source)
    env = {**scripted_model.env(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    results = tmp_path / "summaries.json"

    # $0.45 pays for two files ($0.20 each) and the first reply of a third.
    first = _run(env, tmp_path, str(source), "--results", str(results), "--budget", "0.45", "--concurrency", "1")
    assert first.returncode == 1, first.stderr
    saved = json.loads(results.read_text())
    statuses = sorted(entry["status"] for entry in saved.values())
    assert statuses == ["done", "done", "stopped", "stopped"], saved
    started = [e for e in saved.values() if e["status"] == "stopped" and e["session_id"]]
    assert len(started) == 1  # the other one never started
    assert "fleet: 4/4 done" in first.stderr  # the progress line

    second = _run(env, tmp_path, str(source), "--results", str(results), "--concurrency", "1")
    assert second.returncode == 0, second.stderr
    saved = json.loads(results.read_text())
    assert all(entry["status"] == "done" for entry in saved.values())
    for name in FILES:
        entry = saved[str(source / name)]
        assert entry["summary"] == {
            "purpose": f"the {name[:-3]} module",
            "public_names": [name[:-3]],
            "todo_count": len(name),
        }
        assert f"the {name[:-3]} module" in second.stdout  # the table
    # The stopped task went on in its session (the binary was told to
    # continue); the files done in the first run were not asked again.
    (resumed,) = [r for r in scripted_model.main_requests if CONTINUE in r.last_user_text]
    name = next(str(source / n) for n in FILES if str(source / n) in json.dumps(resumed.messages[0]))
    assert saved[name]["session_id"] == started[0]["session_id"]
    for name in FILES:
        assert sum(_of(name, "start")(r) for r in scripted_model.main_requests) == 1
    assert scripted_model.unexpected == []
    assert os.path.exists(results) and not results.with_suffix(".tmp").exists()
