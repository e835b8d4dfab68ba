"""Testing an agent offline with pytest: the real binary, a scripted model.

    pytest examples/test_agent.py

Installing claude-wrap-sdk registers two fixtures: ``scripted_model``, a
fake Anthropic Messages API on 127.0.0.1 that answers from a script, and
``claude_env``, the binary's environment pointed at it with an isolated
HOME. The binary runs for real, so tools, hooks and permission rules behave
as in production: deterministic, with no key and no network.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_wrap import ClaudeAgentOptions, ResultMessage, query
from claude_wrap.testing import Reply, ScriptedModel


@pytest.mark.anyio
async def test_agent_runs_the_command(
    scripted_model: ScriptedModel, claude_env: dict[str, str], tmp_path: Path
) -> None:
    scripted_model.add(
        Reply.tool_use("Bash", {"command": "echo hello > out.txt"}),
        Reply.text("Done."),
    )
    options = ClaudeAgentOptions(env=claude_env, cwd=tmp_path, allowed_tools=["Bash"], setting_sources=[])
    messages = [m async for m in query(prompt="write hello to out.txt", options=options)]

    assert (tmp_path / "out.txt").read_text() == "hello\n"  # the tool really ran
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "Done."
    assert scripted_model.main_requests[0].last_user_text == "write hello to out.txt"


@pytest.mark.anyio
async def test_a_tool_the_rules_do_not_allow_is_refused(
    scripted_model: ScriptedModel, claude_env: dict[str, str], tmp_path: Path
) -> None:
    scripted_model.add(
        Reply.tool_use("Bash", {"command": "touch forbidden.txt"}),
        Reply.text("I could not run it."),
    )
    options = ClaudeAgentOptions(env=claude_env, cwd=tmp_path, disallowed_tools=["Bash"], setting_sources=[])
    [m async for m in query(prompt="create forbidden.txt", options=options)]

    assert not (tmp_path / "forbidden.txt").exists()
    # What the model was told instead of the command's output:
    assert scripted_model.main_requests[1].tool_results[0]["is_error"] is True
