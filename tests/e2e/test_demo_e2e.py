"""``scripts/demo.py`` (``make demo``): offline by default or with
``--offline``, and against an API that fails at first it says what it is
doing: that it waits, and each retry. Public names only."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from claude_wrap.testing import Reply, ScriptedModel

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "scripts" / "demo.py"


def _demo(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(DEMO), *args], capture_output=True, text=True, env=env, timeout=180, check=False
    )


@pytest.fixture
def demo_env(tmp_path: Path, cli_path: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE_"))}
    env.update(HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT), CLAUDE_WRAP_CLI=cli_path)
    return env


def test_demo_imports_public_names_only() -> None:
    tree = ast.parse(DEMO.read_text(encoding="utf-8"))
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    modules |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    ours = {m for m in modules if m.split(".")[0] == "claude_wrap"}
    assert ours and not [m for m in ours if any(part.startswith("_") for part in m.split("."))], ours


def test_demo_offline_even_with_a_key(demo_env: dict[str, str]) -> None:
    proc = _demo("--offline", env=dict(demo_env, ANTHROPIC_API_KEY="sk-not-used"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("claude_wrap demo — offline: a scripted model on 127.0.0.1")
    assert any(line.startswith("  ✓ Bash(command='wc -l notes.txt') → 6 notes.txt") for line in lines)
    assert lines[-1].startswith("result: success · 3 turns")


def test_demo_against_a_failing_api_says_it_waits_and_shows_each_retry(
    demo_env: dict[str, str], scripted_model: ScriptedModel
) -> None:
    scripted_model.add(Reply.error(529), Reply.text("The file is a shopping list with 6 lines."))
    env = dict(demo_env, ANTHROPIC_API_KEY="sk-test", ANTHROPIC_BASE_URL=scripted_model.base_url)
    proc = _demo(env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == (
        f"claude_wrap demo — live: the real API at {scripted_model.base_url} "
        "(ANTHROPIC_API_KEY is set; --offline uses the scripted model)"
    )
    assert (
        "Waiting for the API: a failing call is retried up to 2 times (CLAUDE_CODE_MAX_RETRIES), each retry shown below."
        in lines
    )
    retries = [line for line in lines if "↻" in line]
    assert (
        len(retries) == 1 and retries[0].startswith("  ↻ API call failed (HTTP 529 ") and "retry 1 of 2" in retries[0]
    )
    assert "The file is a shopping list with 6 lines." in lines
    assert lines[-1].startswith("result: success · 1 turns")
