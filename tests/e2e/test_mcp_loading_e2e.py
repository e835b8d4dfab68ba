"""How MCP tools reach the model: deferred behind tool search by default;
``always_load`` (a tool's, an in-process server's, an external server's)
offers them from the first request; ``search_hint`` is what the search
matches; a server's ``timeout`` bounds one call. Against the real binary."""

from __future__ import annotations

import sys
from typing import Any

import anyio
import pytest
from _e2e import Options, run

from claude_wrap import ResultMessage, create_sdk_mcp_server, tool
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


@tool("add", "Add two numbers", {"a": float, "b": float})
async def add(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}


@tool("mul", "Multiply two numbers", {"a": float, "b": float}, always_load=True)
async def mul(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": str(args["a"] * args["b"])}]}


@tool("zq", "Look a record up", {"key": str}, search_hint="quaternion rotation lookup")
async def lookup(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": args["key"]}]}


def first_offer(scripted_model: ScriptedModel) -> list[str]:
    return scripted_model.main_requests[0].tool_names


async def test_a_tool_marked_always_load_is_offered_from_the_first_request(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.tool_use("mcp__calc__mul", {"a": 6, "b": 7}), Reply.text("42"))
    server = create_sdk_mcp_server("calc", tools=[add, mul])
    messages = await run("go", make_options(mcp_servers={"calc": server}, allowed_tools=["mcp__calc__mul"]))
    offered = first_offer(scripted_model)
    assert "mcp__calc__mul" in offered and "mcp__calc__add" not in offered  # add stays deferred
    assert scripted_model.main_requests[1].tool_results[0]["content"] == [{"type": "text", "text": "42"}]
    assert isinstance(messages[-1], ResultMessage) and not messages[-1].is_error


async def test_a_server_marked_always_load_offers_all_its_tools(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("seen"))
    server = create_sdk_mcp_server("calc", tools=[add, lookup], always_load=True)
    await run("go", make_options(mcp_servers={"calc": server}))
    assert {"mcp__calc__add", "mcp__calc__zq"} <= set(first_offer(scripted_model))


async def test_an_external_server_marked_always_load_offers_its_tools(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("seen"))
    external = {"type": "stdio", "command": sys.executable,
                "args": ["-m", "claude_wrap.testing.mcp_stdio_server", "--name", "ext"]}  # fmt: skip
    await run("go", make_options(mcp_servers={"ext": external}))
    deferred = [name for name in first_offer(scripted_model) if name.startswith("mcp__ext__")]
    scripted_model.add(Reply.text("seen"))
    await run("go", make_options(mcp_servers={"ext": {**external, "alwaysLoad": True}}))
    offered = [name for name in scripted_model.main_requests[1].tool_names if name.startswith("mcp__ext__")]
    assert deferred == [] and offered


async def test_tool_search_finds_a_tool_by_its_search_hint(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    # The name and description say nothing of quaternions; the hint does.
    scripted_model.add(Reply.tool_use("ToolSearch", {"query": "quaternion"}), Reply.text("found"))
    server = create_sdk_mcp_server("calc", tools=[add, lookup])
    await run("go", make_options(mcp_servers={"calc": server}))
    assert "mcp__calc__zq" not in first_offer(scripted_model)
    assert "mcp__calc__zq" in scripted_model.main_requests[1].tool_names


async def test_a_servers_timeout_ends_a_call_that_runs_past_it(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    release = anyio.Event()

    @tool("slow", "Takes its time", {})
    async def slow(args: dict[str, Any]) -> dict[str, Any]:
        with anyio.move_on_after(30):
            await release.wait()
        return {"content": [{"type": "text", "text": "late"}]}

    scripted_model.add(Reply.tool_use("mcp__calc__slow", {}), Reply.text("gave up"))
    server = create_sdk_mcp_server("calc", tools=[slow], always_load=True, timeout=1000)
    messages = await run("go", make_options(mcp_servers={"calc": server}, allowed_tools=["mcp__calc__slow"]))
    release.set()
    result = scripted_model.main_requests[1].tool_results[0]
    assert result.get("is_error") is True and "late" not in str(result["content"])
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "gave up"
