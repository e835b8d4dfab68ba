"""``claude-wrap`` end to end: ``run`` against the scripted model, ``doctor``, ``version``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from claude_wrap._binary import pinned_version
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = pytest.mark.e2e


def _cli(*args: str, env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "claude_wrap", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )


@pytest.fixture
def cli_env(scripted_model: ScriptedModel, tmp_path: Path, cli_path: str) -> dict[str, str]:
    """The caller's environment pointed at the scripted model (the binary inherits it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE_"))}
    env.update(scripted_model.env(tmp_path / "home"))
    env["CLAUDE_WRAP_CLI"] = cli_path
    return env


def test_run_shows_text_tool_line_and_result(
    scripted_model: ScriptedModel, cli_env: dict[str, str], workdir: Path
) -> None:
    scripted_model.add(
        Reply.tool_use("Bash", {"command": "echo cli-tool-output", "description": "echo"}, text="Running it."),
        Reply.text("All done: the tool said cli-tool-output."),
    )
    proc = _cli("run", "say it", "--cwd", str(workdir), "--allowed-tools", "Bash", "--max-turns", "5", env=cli_env)

    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "Running it." in lines
    tool = [ln for ln in lines if "Bash(command='echo cli-tool-output')" in ln]
    assert len(tool) == 1 and tool[0].startswith("  ✓ ") and "→ cli-tool-output" in tool[0]
    assert "All done: the tool said cli-tool-output." in lines
    assert lines.index("Running it.") < lines.index(tool[0]) < lines.index("All done: the tool said cli-tool-output.")
    assert lines[-1].startswith("result: success · 2 turns · cost $")
    assert "\r" not in proc.stdout and "\033" not in proc.stdout  # no spinner when not a terminal
    assert scripted_model.main_requests[0].last_user_text == "say it"


def test_run_json_prints_one_message_per_line(scripted_model: ScriptedModel, cli_env: dict[str, str]) -> None:
    scripted_model.add(Reply.text("as json"))
    proc = _cli("run", "hi", "--json", env=cli_env)

    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    kinds = [r["kind"] for r in records]
    assert kinds[0] == "SystemMessage" and records[0]["message"]["subtype"] == "init" and kinds[-1] == "ResultMessage"
    assert "StreamEvent" not in kinds
    assert records[-1]["message"]["result"] == "as json"
    texts = [r["message"]["content"][0] for r in records if r["kind"] == "AssistantMessage"]
    assert {"kind": "TextBlock", "text": "as json"} in texts


def test_run_error_result_exits_non_zero(scripted_model: ScriptedModel, cli_env: dict[str, str]) -> None:
    scripted_model.add(Reply.error(500, "scripted outage"))
    proc = _cli("run", "hi", env=cli_env)

    assert proc.returncode == 1
    assert "500" in proc.stderr
    assert "result: error" in proc.stdout


def test_doctor_good_setup(cli_env: dict[str, str], cli_path: str, scripted_model: ScriptedModel) -> None:
    proc = _cli("doctor", env=cli_env)

    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert f"✓ binary      {cli_path} (from $CLAUDE_WRAP_CLI)" in out
    assert f"✓ version     {pinned_version()} (pinned {pinned_version()})" in out
    assert "✓ auth        ANTHROPIC_API_KEY is set" in out
    assert "sk-test" not in out  # never the value
    assert f"✓ API         {scripted_model.base_url} (ANTHROPIC_BASE_URL) answers (HTTP " in out
    assert f"✓ config dir  {cli_env['CLAUDE_CONFIG_DIR']} (CLAUDE_CONFIG_DIR; exists)" in out
    assert out.rstrip().endswith("all good")


def test_doctor_broken_setup(cli_env: dict[str, str], tmp_path: Path) -> None:
    env = dict(cli_env, CLAUDE_WRAP_CLI="/nonexistent", ANTHROPIC_BASE_URL="http://127.0.0.1:9")
    del env["ANTHROPIC_API_KEY"]
    proc = _cli("doctor", "--timeout", "1", env=env)

    assert proc.returncode == 1
    out = proc.stdout
    assert "✗ binary      Claude Code not found at: /nonexistent (the path from CLAUDE_WRAP_CLI does not exist" in out
    assert "! auth        none" in out
    assert "✗ API         http://127.0.0.1:9 (ANTHROPIC_BASE_URL) unreachable" in out
    assert "problems: binary, API" in out


def test_version_and_fetch_binary(cli_env: dict[str, str], cli_path: str) -> None:
    proc = _cli("version", env=cli_env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        f"claude_wrap {__import__('claude_wrap').__version__}",
        f"pinned Claude Code {pinned_version()}",
        f"found Claude Code {pinned_version()} at {cli_path} (env)",
    ]

    # A verified copy is cached (the suite needs it): fetch-binary is a no-op.
    from claude_wrap._binary import cache_root

    env = {k: v for k, v in cli_env.items() if k != "CLAUDE_WRAP_CLI"}
    env["CLAUDE_WRAP_CACHE_DIR"] = str(cache_root())  # HOME moved; the cache must not
    fetch = _cli("fetch-binary", "--print-path", env=env)
    assert fetch.returncode == 0, fetch.stderr
    assert "already at" in fetch.stderr
    assert Path(fetch.stdout.strip()).is_file()
