"""``PreSkillShellCommand``: a hook that decides whether the shell command a
slash command's text holds (``!`cmd```) runs, against the real binary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options

from claude_wrap import (
    HOOK_EVENTS,
    CallbackTimeoutMessage,
    ClaudeSDKClient,
    HookMatcher,
    PreSkillShellCommandHookInput,
    SystemMessage,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


def command_file(workdir: Path) -> Path:
    """A project slash command ``/mark`` whose text runs a shell command."""
    commands = workdir / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "mark.md").write_text("---\nallowed-tools: Bash(touch:*)\n---\nMarked: !`touch marked.txt`\n")
    return workdir / "marked.txt"


async def run_mark(options: Any) -> list[Any]:
    async with ClaudeSDKClient(options) as client:
        with anyio.fail_after(60):  # hang guard
            await client.query("/mark")
            return [m async for m in client.receive_response()]


def warnings(messages: list[Any]) -> list[str]:
    return [
        str(m.data.get("content"))
        for m in messages
        if isinstance(m, SystemMessage) and m.subtype == "informational" and m.data.get("tag") == "skill_shell_hook"
    ]


async def test_a_denying_hook_keeps_the_command_from_running(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    assert "PreSkillShellCommand" in HOOK_EVENTS
    marked = command_file(workdir)
    seen: list[PreSkillShellCommandHookInput] = []

    async def guard(input_data: PreSkillShellCommandHookInput, tool_use_id: str | None, context: Any) -> Any:
        seen.append(input_data)
        decision = {"hookEventName": "PreSkillShellCommand", "permissionDecision": "deny"}
        return {"hookSpecificOutput": {**decision, "permissionDecisionReason": "no shell here"}}

    scripted_model.add(Reply.text("loaded").sticky())
    hooks = {"PreSkillShellCommand": [HookMatcher(hooks=[guard])]}
    messages = await run_mark(make_options(setting_sources=["project"], hooks=hooks))

    assert not marked.exists()
    assert [w for w in warnings(messages) if "no shell here" in w]
    (hook_input,) = seen
    assert hook_input["tool_input"]["command"] == "touch marked.txt"
    assert hook_input["command_name"] == "mark" and hook_input["invoked_by"] == "user"
    assert hook_input["tool_name"] == "Bash"


async def test_no_opinion_lets_it_run_and_a_hook_out_of_time_denies(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    marked = command_file(workdir)
    scripted_model.add(Reply.text("loaded").sticky())

    async def no_opinion(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        return {}

    await run_mark(
        make_options(setting_sources=["project"], hooks={"PreSkillShellCommand": [HookMatcher(hooks=[no_opinion])]})
    )
    assert marked.exists()
    marked.unlink()

    async def stuck(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        await anyio.sleep(60)

    hooks = {"PreSkillShellCommand": [HookMatcher(hooks=[stuck])]}
    messages = await run_mark(make_options(setting_sources=["project"], hooks=hooks, callback_timeout=0.5))
    assert not marked.exists()  # a guard that ran out of time refuses (callback_timeout is ours)
    assert any(isinstance(m, CallbackTimeoutMessage) for m in messages)
    assert [w for w in warnings(messages) if "callback_timeout" in w]
