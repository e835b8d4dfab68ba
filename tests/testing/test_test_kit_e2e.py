"""The test kit as a user writing tests for an agent app uses it.

Structured output in a scripted reply, an application that builds its own
``ClaudeAgentOptions`` (``claude_environ``), and the opt-in check that the
script and the run met (``scripted_strict``, ``check_script``): against the
real binary, and, for the fixtures, in a pytest of their own.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from _docs import outer_env

from claude_wrap import ClaudeAgentOptions, ResultMessage, query
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "integer"}},
    "required": ["answer"],
    "additionalProperties": False,
}


async def test_a_structured_output_reply_ends_the_run_with_its_value(
    scripted_model: ScriptedModel, claude_env: dict[str, str], tmp_path: Path
) -> None:
    scripted_model.add(Reply.structured_output({"answer": 42}), Reply.text("done").sticky())
    options = ClaudeAgentOptions(
        env=claude_env, cwd=tmp_path, setting_sources=[], output_format={"type": "json_schema", "schema": SCHEMA}
    )
    messages = [m async for m in query(prompt="the answer?", options=options)]
    result = messages[-1]
    assert isinstance(result, ResultMessage) and result.structured_output == {"answer": 42}
    assert "StructuredOutput" in scripted_model.main_requests[0].tool_names


async def test_check_script_names_what_the_run_left_over_and_what_it_lacked(
    scripted_model: ScriptedModel, claude_env: dict[str, str], tmp_path: Path
) -> None:
    scripted_model.add(Reply.text("one"), Reply.text("never asked for"), Reply.text("fallback").sticky())
    options = ClaudeAgentOptions(env=claude_env, cwd=tmp_path, setting_sources=[])
    [m async for m in query(prompt="go", options=options)]
    with pytest.raises(AssertionError, match="1 scripted replies were never used"):
        scripted_model.check_script()  # the sticky one may stay

    with ScriptedModel() as empty:  # asked with nothing scripted
        other = ClaudeAgentOptions(env=empty.env(tmp_path / "other"), cwd=tmp_path, setting_sources=[])
        [m async for m in query(prompt="anyone?", options=other)]
        with pytest.raises(AssertionError, match="main-loop requests found no reply .*'anyone\\?'"):
            empty.check_script()


USER_TESTS = '''
import pytest

from claude_wrap import ClaudeAgentOptions, ResultMessage, query
from claude_wrap.testing import Reply

pytestmark = pytest.mark.anyio


async def ask(prompt):
    """The application: it builds its own options, from the environment."""
    messages = [m async for m in query(prompt=prompt, options=ClaudeAgentOptions(setting_sources=[]))]
    return messages[-1]


@pytest.mark.scripted_strict
async def test_the_app_talks_to_the_scripted_model(scripted_model, claude_environ):
    scripted_model.add(Reply.text("scripted answer"))
    result = await ask("hi")
    assert isinstance(result, ResultMessage) and result.result == "scripted answer"


@pytest.mark.scripted_strict
async def test_a_reply_left_unused_fails_the_test(scripted_model, claude_environ):
    scripted_model.add(Reply.text("used"), Reply.text("left over"))
    await ask("hi")
'''


def test_the_fixtures_in_a_users_own_suite(tmp_path: Path, cli_path: str) -> None:
    (tmp_path / "test_app.py").write_text(textwrap.dedent(USER_TESTS))
    (tmp_path / "pytest.ini").write_text("[pytest]\nfilterwarnings = error\naddopts = --strict-markers\n")
    env = {**outer_env(), "CLAUDE_WRAP_CLI": cli_path}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-rA"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out: Any = done.stdout
    assert "PASSED test_app.py::test_the_app_talks_to_the_scripted_model" in out, out[-3000:]
    assert "ERROR test_app.py::test_a_reply_left_unused_fails_the_test" in out, out[-3000:]
    assert "1 scripted replies were never used" in out
    assert os.environ.get("HOME") != str(tmp_path)  # the fixture undid what it set
