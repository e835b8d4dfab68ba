"""The control calls the binary answers over stdio, each reached through a
typed method of ``ClaudeSDKClient`` (and ``claude_wrap.sync``), against the
real binary and the scripted model."""

from __future__ import annotations

import base64
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options, tool_results

from claude_wrap import (
    BUILTIN_TOOL_NAMES,
    ClaudeSDKClient,
    ControlRejectedError,
    HookMatcher,
    InterruptResult,
    ResultMessage,
    SystemMessage,
    binary_info,
    create_sdk_mcp_server,
    sync,
    tool,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

STDIO_SERVER: dict[str, Any] = {
    "type": "stdio",
    "command": sys.executable,
    "args": ["-m", "claude_wrap.testing.mcp_stdio_server", "--name", "ext"],
}


@tool("add", "Add two numbers", {"a": int, "b": int})
async def add(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}


async def turn(client: ClaudeSDKClient, prompt: str) -> list[Any]:
    with anyio.fail_after(60):  # hang guard
        await client.query(prompt)
        return [m async for m in client.receive_response()]


async def until_connected(client: ClaudeSDKClient, *names: str) -> dict[str, Any]:
    """The MCP status once every server in ``names`` left ``pending`` (the
    binary connects a server it was given in the background)."""
    with anyio.fail_after(30):  # hang guard
        while True:
            servers = {s["name"]: s for s in (await client.get_mcp_status())["mcpServers"]}
            if all(n in servers and servers[n]["status"] != "pending" for n in names):
                return servers
            await anyio.sleep(0.05)


# -- what the session offers -----------------------------------------------------------


async def test_initialization_result_is_typed_and_reinitialize_keeps_the_hooks(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    calls: list[str] = []

    async def seen(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        calls.append(input_data["hook_event_name"])
        return {}

    options = make_options(hooks={"UserPromptSubmit": [HookMatcher(hooks=[seen])]})
    async with ClaudeSDKClient(options) as client:
        first = await client.initialization_result()
        assert first == await client.get_server_info()  # the same answer, typed
        assert first["claude_code_version"] == binary_info().version
        commands = await client.supported_commands()
        assert commands == first["commands"] and all({"name", "description"} <= set(c) for c in commands)
        agents = await client.supported_agents()
        assert "general-purpose" in {a["name"] for a in agents}
        assert (await client.account_info())["apiKeySource"] == "ANTHROPIC_API_KEY"

        again = await client.reinitialize()
        assert again["claude_code_version"] == first["claude_code_version"]
        assert await client.initialization_result() == again  # later calls see the fresh answer
        assert client.is_alive  # the same process: no respawn

        scripted_model.add(Reply.text("still here"))
        messages = await turn(client, "hello")
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "still here"
    assert calls == ["UserPromptSubmit"]  # the hook answers after the re-initialize too


async def test_reload_calls_return_what_the_session_now_offers(make_options: Options, workdir: Path) -> None:
    async with ClaudeSDKClient(make_options()) as client:
        styles = await client.reload_output_styles()
        assert "default" in styles
        assert set(styles) == set((await client.initialization_result())["available_output_styles"])
        skills = await client.reload_skills()
        assert skills and all(isinstance(s["name"], str) for s in skills)
        held = await client.reload_plugins(hold_on_cache_impact=True)
        assert "commands" in held and held.get("error_count", 0) == 0


async def test_set_permission_mode_returns_the_mode_in_effect(make_options: Options) -> None:
    async with ClaudeSDKClient(make_options()) as client:
        assert await client.set_permission_mode("acceptEdits") == "acceptEdits"
        assert await client.set_permission_mode("default") == "default"
        with pytest.raises(ControlRejectedError):  # not launched with bypass allowed
            await client.set_permission_mode("bypassPermissions")


async def test_update_settings_writes_through_the_binary_and_refuses_other_keys(
    make_options: Options, workdir: Path
) -> None:
    async with ClaudeSDKClient(make_options(setting_sources=["local"])) as client:
        await client.update_settings("localSettings", {"outputStyle": "Explanatory"})
        assert '"outputStyle": "Explanatory"' in (workdir / ".claude" / "settings.local.json").read_text()
        with pytest.raises(ControlRejectedError):
            await client.update_settings("localSettings", {"model": "opus"})


# -- files and tasks -----------------------------------------------------------------------


async def test_read_file_reads_as_the_session_does_and_its_read_state_can_be_seeded(
    make_options: Options, workdir: Path
) -> None:
    (workdir / "hello.txt").write_text("hello file\n")
    async with ClaudeSDKClient(make_options()) as client:
        text = await client.read_file("hello.txt")
        assert text["contents"] == "hello file\n"
        assert Path(text["absPath"]) == workdir / "hello.txt"
        cut = await client.read_file("hello.txt", max_bytes=3, encoding="base64")
        assert base64.b64decode(cut["contents"]) == b"hel" and cut["truncated"] is True
        with pytest.raises(ControlRejectedError, match=r"nope\.txt"):
            await client.read_file("nope.txt")
        # The binary knows the request (a misspelt subtype is refused); what it
        # changes, the Edit and Write tools of 2.1.332 do not check in stdio.
        await client.seed_read_state(text["absPath"], os.stat(workdir / "hello.txt").st_mtime * 1000)


async def test_background_tasks_and_the_output_of_a_background_command(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    command = {"command": "echo bg-marker-17; sleep 30", "description": "wait", "run_in_background": True}
    scripted_model.add(Reply.tool_use("Bash", command), Reply.text("started"))
    async with ClaudeSDKClient(make_options(allowed_tools=["Bash"])) as client:
        messages = await turn(client, "start it")
        task_ids = [m.task_id for m in messages if type(m).__name__ == "TaskStartedMessage"]
        assert len(task_ids) == 1, messages
        with anyio.fail_after(30):  # hang guard
            while "bg-marker-17" not in (output := await client.get_task_output(task_ids[0]))["output"]:
                await anyio.sleep(0.05)
        assert output["total_bytes"] >= len("bg-marker-17")
        assert await client.background_tasks("toolu_no_such_call") is False
        with pytest.raises(ControlRejectedError):
            await client.get_task_output("no-such-task")
        await client.stop_task(task_ids[0])


async def test_interrupt_and_cancel_async_message_report_the_queue(make_options: Options) -> None:
    async with ClaudeSDKClient(make_options()) as client:
        plain = await client.interrupt()
        assert isinstance(plain, InterruptResult) and plain == [] and plain.cancelled == []
        assert (await client.interrupt(cancel_queued=True)).cancelled == []
        assert await client.cancel_async_message("00000000-0000-4000-8000-000000000000") is False


# -- MCP servers -----------------------------------------------------------------------------


async def test_set_mcp_servers_adds_in_process_and_external_servers_live_and_removes_them(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.tool_use("mcp__calc__add", {"a": 2, "b": 3}), Reply.text("five"))
    async with ClaudeSDKClient(make_options(allowed_tools=["mcp__calc__add"])) as client:
        added = await client.set_mcp_servers({"calc": create_sdk_mcp_server("calc", tools=[add]), "ext": STDIO_SERVER})
        assert sorted(added["added"]) == ["calc", "ext"] and added["errors"] == {}
        servers = await until_connected(client, "calc", "ext")
        assert servers["calc"]["status"] == servers["ext"]["status"] == "connected"
        assert [t["name"] for t in servers["calc"].get("tools", [])] == ["add"]

        messages = await turn(client, "add 2 and 3")
        assert [r.content for r in tool_results(messages)] in ([[{"type": "text", "text": "5"}]], ["5"])

        # A server can be told what mode its tools run in (tighten only).
        assert await client.set_mcp_permission_mode_override("ext", "default") is None
        warning = await client.set_mcp_permission_mode_override("nope", "auto")
        assert warning is not None and "'nope'" in warning  # no such server (yet)
        with pytest.raises(ControlRejectedError):  # only ui:// resources, and ext has none
            await client.read_mcp_resource("ext", "file:///etc/passwd")

        removed = await client.set_mcp_servers({})
        assert sorted(removed["removed"]) == ["calc", "ext"]
        assert (await client.get_mcp_status())["mcpServers"] == []


# -- read-only queries and the escape hatch --------------------------------------------------


async def test_read_only_queries_and_request(make_options: Options) -> None:
    async with ClaudeSDKClient(make_options(allowed_tools=["Bash(git status:*)"])) as client:
        rules = (await client.list_permission_rules())["state"]
        assert any("git status" in str(rule) for rule in rules["rules"]), rules
        listing = await client.get_hooks_listing()
        assert "PreToolUse" in {e["name"] for e in listing["eventCatalog"]}
        assert (await client.request("get_binary_version"))["version"] == binary_info().version
        assert (await client.request("get_plan"))["exists"] is False
        with pytest.raises(ControlRejectedError, match="Unsupported control request subtype"):
            await client.request("no_such_subtype_xyz")


def test_the_sync_client_reaches_the_same_calls(make_options: Options, workdir: Path) -> None:
    (workdir / "hello.txt").write_text("hi\n")
    with sync.ClaudeSDKClient(make_options()) as client:
        assert client.read_file("hello.txt")["contents"] == "hi\n"
        assert client.set_mcp_servers({"calc": create_sdk_mcp_server("calc", tools=[add])})["added"] == ["calc"]
        assert client.set_permission_mode("plan") == "plan"
        assert client.interrupt(cancel_queued=True).cancelled == []
        assert "default" in client.reload_output_styles()
        assert client.request("get_binary_version")["version"] == binary_info().version


async def test_builtin_tool_names_cover_the_tools_a_run_offers(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("ok"))
    async with ClaudeSDKClient(make_options()) as client:
        messages = await turn(client, "hi")
    init = next(m for m in messages if isinstance(m, SystemMessage) and m.subtype == "init")
    offered = set(scripted_model.main_requests[0].tool_names) - {"DeferredToolPlaceholder"}
    assert offered and offered <= set(BUILTIN_TOOL_NAMES)
    assert set(init.data["tools"]) - {"Task"} <= set(BUILTIN_TOOL_NAMES)  # Task: Agent's older name
