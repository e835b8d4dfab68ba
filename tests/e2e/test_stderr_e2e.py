"""The binary's stderr: on the terminal unless a callback takes it, and in
error messages either way.

The warning is a real one: 2.1.328 prints "Ignoring N permissions.allow
entries" when a project's settings hold permission rules and the workspace
was never trusted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _e2e import Options, kill_binary, run, turn

from claude_wrap import ClaudeSDKClient, TransportClosedError
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

WARNING = "Ignoring 2 permissions.allow entries from .claude/settings.json"


def _untrusted_project_options(make_options: Options, workdir: Path, **overrides: Any) -> Any:
    (workdir / ".claude").mkdir()
    (workdir / ".claude" / "settings.json").write_text(json.dumps({"permissions": {"allow": ["Bash(ls)", "Read"]}}))
    return make_options(setting_sources=["project"], **overrides)


async def test_without_a_callback_the_warning_reaches_our_stderr(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    scripted_model.add(Reply.text("ok"))
    messages = await run("hi", _untrusted_project_options(make_options, workdir))
    assert messages[-1].result == "ok"
    err = capfd.readouterr().err
    assert WARNING in err
    assert err.count(WARNING) == 1  # each line once, as the binary wrote it


async def test_with_a_callback_the_warning_goes_only_to_it(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    scripted_model.add(Reply.text("ok"))
    lines: list[str] = []
    await run("hi", _untrusted_project_options(make_options, workdir, stderr=lines.append))
    assert [line for line in lines if line.startswith(WARNING)], lines
    assert WARNING not in capfd.readouterr().err


@pytest.mark.parametrize("callback", [False, True])
async def test_the_warning_is_in_the_error_when_the_binary_dies(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, callback: bool
) -> None:
    scripted_model.add(Reply.text("ok"))
    lines: list[str] = []
    extra = {"stderr": lines.append} if callback else {}
    async with ClaudeSDKClient(_untrusted_project_options(make_options, workdir, **extra)) as client:
        await turn(client, "hi")
        await kill_binary(client)
        with pytest.raises(TransportClosedError) as info:
            await client.query("still there?")
    assert WARNING in (info.value.stderr or "")
    assert f"\nError output: {WARNING}" in str(info.value)
