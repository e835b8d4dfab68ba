"""The TypeScript SDK's options, from Python, against the real binary:
the system prompt in blocks, permission_prompts, project_config_root,
managed_settings, tool_config, per_task_stop_affordance and debug."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _e2e import Options, bash, run, tool_results

from claude_wrap import (
    SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
    ClaudeSDKClient,
    PermissionResultAllow,
    ToolPermissionContext,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


async def test_a_system_prompt_in_blocks_reaches_the_model_split_at_the_boundary(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("ok"))
    prompt = ["You answer in haiku.", SYSTEM_PROMPT_DYNAMIC_BOUNDARY, "This session is about tides."]
    await run("go", make_options(system_prompt=prompt))
    system = scripted_model.main_requests[0].body["system"]
    # The binary keeps the blocks in order and takes the marker out (where
    # the API offers a cross-session cache scope, the marker is where it ends).
    texts = [block["text"] for block in system]
    joined = "\n".join(texts)
    assert joined.index("You answer in haiku.") < joined.index("This session is about tides.")
    assert SYSTEM_PROMPT_DYNAMIC_BOUNDARY not in joined


async def test_permission_prompts_none_denies_what_would_prompt_without_asking(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    asked: list[str] = []

    async def can_use_tool(name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        asked.append(name)
        return PermissionResultAllow()

    scripted_model.add(bash("touch prompted.txt"), Reply.text("nobody to ask"))
    messages = await run("go", make_options(permission_prompts="none", can_use_tool=can_use_tool))
    assert not (workdir / "prompted.txt").exists() and asked == []
    assert tool_results(messages)[0].is_error


async def test_managed_settings_bind_as_policy(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(bash("touch managed.txt"), Reply.text("denied"))
    policy = {"permissions": {"deny": ["Bash"]}}
    messages = await run("go", make_options(allowed_tools=["Bash"], managed_settings=policy))
    assert not (workdir / "managed.txt").exists()
    assert tool_results(messages) == [] or tool_results(messages)[0].is_error


async def test_project_settings_come_from_the_project_config_root(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, tmp_path: Path
) -> None:
    root = tmp_path / "checkout"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "settings.json").write_text(json.dumps({"permissions": {"deny": ["Bash"]}}))
    scripted_model.add(bash("touch rooted.txt"), Reply.text("denied"))
    await run("go", make_options(allowed_tools=["Bash"], setting_sources=["project"], project_config_root=root))
    assert not (workdir / "rooted.txt").exists()
    scripted_model.add(bash("touch rooted.txt"), Reply.text("ran"))
    await run("go", make_options(allowed_tools=["Bash"], setting_sources=["project"]))
    assert (workdir / "rooted.txt").exists()  # without it, cwd's (empty) project settings


async def test_tool_config_sets_the_question_preview_format(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    def described() -> str:
        tools = scripted_model.main_requests[-1].tools
        return json.dumps(next(t for t in tools if t["name"] == "AskUserQuestion"))

    async def allow(name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        return PermissionResultAllow()

    scripted_model.add(Reply.text("a"))
    await run("go", make_options(can_use_tool=allow))
    markdown = described()
    scripted_model.add(Reply.text("b"))
    await run("go", make_options(can_use_tool=allow, tool_config={"ask_user_question": {"preview_format": "html"}}))
    html = described()
    assert "HTML" in html and markdown != html


async def test_per_task_stop_affordance_and_debug_are_accepted(
    scripted_model: ScriptedModel, make_options: Options, tmp_path: Path
) -> None:
    scripted_model.add(Reply.text("ok"))
    options = make_options(per_task_stop_affordance=True, debug=True)
    async with ClaudeSDKClient(options) as client:
        await client.query("go")
        messages = [m async for m in client.receive_response()]
    assert messages[-1].result == "ok"
    # --debug writes the binary's debug log under its config folder.
    logs = list((tmp_path / "home").rglob("debug/*.txt"))
    assert logs and any("[DEBUG]" in log.read_text(errors="replace") for log in logs)
