"""``bare=True`` (the binary's ``--bare`` mode) against the real binary: what
still works in it, and what the model no longer gets.

Pool members and fleet workers may start in this mode to start faster, so
each feature the package offers is checked here in it: in-process MCP
servers, permission callbacks, structured output and session stores work;
hook callbacks are never called (hence ``hooks`` with ``bare`` is refused),
and the model gets only Bash, Edit and Read of the built-in tools (no Agent,
no Skill), no CLAUDE.md and no attribution guidance.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _e2e import Options, bash, run
from pydantic import BaseModel

from claude_wrap import (
    HookMatcher,
    PermissionResultAllow,
    ResultMessage,
    SQLiteSessionStore,
    create_sdk_mcp_server,
    tool,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


class Count(BaseModel):
    n: int


async def test_mcp_permissions_structured_output_and_stores_work_in_bare_mode(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, tmp_path: Path
) -> None:
    asked: list[str] = []
    added: list[float] = []

    async def allow(name: str, tool_input: dict[str, Any], context: Any) -> PermissionResultAllow:
        asked.append(name)
        return PermissionResultAllow()

    @tool("add", "Add two numbers", {"a": float, "b": float})
    async def add(args: dict[str, Any]) -> str:
        added.append(args["a"] + args["b"])
        return str(args["a"] + args["b"])

    scripted_model.add(
        bash("touch made-by-bash"),
        Reply.tool_use("mcp__calc__add", {"a": 2, "b": 3}),
        Reply.tool_use("StructuredOutput", {"n": 5}),  # ends the turn
        Reply.text("resumed in bare mode"),
    )
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    try:
        options = make_options(
            bare=True,
            can_use_tool=allow,
            mcp_servers={"calc": create_sdk_mcp_server("calc", tools=[add])},
            output_type=Count,
            session_store=store,
        )
        messages = await run("count", options)
        result = messages[-1]
        assert isinstance(result, ResultMessage) and result.structured_output == Count(n=5)
        assert (workdir / "made-by-bash").exists() and asked == ["Bash", "mcp__calc__add"] and added == [5.0]
        assert sorted(scripted_model.main_requests[0].tool_names) == [
            "Bash", "Edit", "Read", "StructuredOutput", "mcp__calc__add",
        ]  # fmt: skip

        # Mirrored to the store, and resumed from it by a host that never saw it.
        elsewhere = make_options(
            bare=True, session_store=store, resume=result.session_id, env=scripted_model.env(tmp_path / "other-home")
        )
        again = await run("what was the count?", elsewhere)
        assert again[-1].result == "resumed in bare mode"
        assert "count" in json.dumps(scripted_model.main_requests[-1].messages[0])
    finally:
        store.close()


async def test_bare_mode_leaves_out_claude_md_attribution_agent_and_skill(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    (workdir / "CLAUDE.md").write_text("Project rule: PROJECT-MEMORY-MARKER\n")
    scripted_model.add(Reply.text("full"), Reply.text("bare"))
    await run("hi", make_options(setting_sources=["project"]))
    await run("hi", make_options(setting_sources=["project"], bare=True))
    full, bare = (r.raw_body.decode() for r in scripted_model.main_requests)
    assert "PROJECT-MEMORY-MARKER" in full and "PROJECT-MEMORY-MARKER" not in bare
    assert "Attribution for git commits" in full and "Attribution for git commits" not in bare
    full_tools, bare_tools = (set(r.tool_names) for r in scripted_model.main_requests)
    assert {"Agent", "Skill"} <= full_tools
    assert bare_tools == {"Bash", "Edit", "Read"}


async def test_the_binary_calls_no_hooks_in_bare_mode(scripted_model: ScriptedModel, make_options: Options) -> None:
    """Why ``hooks`` with ``bare=True`` is refused: passed by hand, the flag
    turns every hook callback off, though ``initialize`` says they were applied."""
    called: list[str] = []

    async def hook(input_data: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
        called.append(input_data["hook_event_name"])
        return {}

    hooks = {event: [HookMatcher(None, [hook])] for event in ("UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")}
    scripted_model.add(bash("echo hi"), Reply.text("done"), bash("echo hi"), Reply.text("done"))
    await run("go", make_options(hooks=hooks, allowed_tools=["Bash"]))
    assert called == ["UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]
    called.clear()
    messages = await run("go", make_options(hooks=hooks, allowed_tools=["Bash"], extra_args={"bare": None}))
    assert messages[-1].result == "done"
    assert called == []
