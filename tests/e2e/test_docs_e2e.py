"""Every Python block of README.md and docs/ runs as a user's script, the
real binary pointed at the scripted model through the environment (see
``tests/support/_docs.py`` for how a block says what the model answers and what it
must print)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _docs import SPAWNING, Block, all_blocks, make_project, run_block, user_env

from claude_wrap.testing import ScriptedModel, reply_from_json

pytestmark = pytest.mark.e2e

RUN = [block for block in all_blocks() if block.runs]


@pytest.mark.parametrize("block", RUN, ids=str)
def test_block_runs(block: Block, scripted_model: ScriptedModel, tmp_path: Path, cli_path: str) -> None:
    scripted_model.add(*(reply_from_json(reply) for reply in block.replies or []))
    env = user_env(scripted_model.env(tmp_path / "home"), cli_path)
    proc = run_block(block, make_project(tmp_path / "project"), env)

    assert proc.returncode == 0, proc.stdout + proc.stderr
    printed = proc.stdout.splitlines()
    for text in block.prints:
        assert any(text in line for line in printed), f"{block} did not print {text!r}:\n{proc.stdout}"
    assert not scripted_model.errors
    if block.replies is not None:
        assert not [r for r in scripted_model.pending if r.count is not None], f"{block} left replies unused"
    brings_its_own = "ScriptedModel" in block.called_names()
    if block.called_names() & SPAWNING and not brings_its_own:
        assert scripted_model.main_requests, f"{block} never reached the model"
