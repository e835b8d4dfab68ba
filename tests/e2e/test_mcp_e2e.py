"""In-process and external MCP servers against the real binary and the scripted model."""

from __future__ import annotations

import base64
import enum
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from _e2e import Options, check_tool_change, mul_tool, run, script_tool_change
from _mcp_cases import SCHEMAS, servers
from pydantic import BaseModel

from claude_wrap import (
    ClaudeAgentOptions,
    ClaudeSDKClient,
    ResultMessage,
    ToolAnnotations,
    create_sdk_mcp_server,
    tool,
)
from claude_wrap.testing import Reply, ScriptedModel, ScriptedToolUse

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


# A 1x1 PNG.
PIXEL = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
        "0000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
    )
).decode()

STDIO_SERVER: dict[str, Any] = {
    "type": "stdio",
    "command": sys.executable,
    "args": ["-m", "claude_wrap.testing.mcp_stdio_server", "--name", "ext"],
}


class Unit(enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class Reading(BaseModel):
    city: str
    unit: Unit = Unit.CELSIUS
    days: list[int] = []


@tool("add", "Add two numbers", {"a": float, "b": float}, annotations=ToolAnnotations(readOnlyHint=True))
async def add(args: dict[str, Any]) -> dict[str, Any]:
    # As in the official calculator example: the numbers are printed as the model sent them.
    result = args["a"] + args["b"]
    return {"content": [{"type": "text", "text": f"{args['a']} + {args['b']} = {result}"}]}


def calc_options(make_options: Options, *tools: Any, **overrides: Any) -> ClaudeAgentOptions:
    server = create_sdk_mcp_server("calc", tools=[add, *tools])
    overrides.setdefault("allowed_tools", [f"mcp__calc__{t.name}" for t in (add, *tools)])
    return make_options(mcp_servers={"calc": server}, **overrides)


def load_tools(*names: str) -> Reply:
    """The model asks ToolSearch for deferred MCP tools; the next request offers their schemas."""
    return Reply.tool_use("ToolSearch", {"query": "select:" + ",".join(names)})


async def test_model_calls_an_sdk_tool_and_sees_its_result(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(
        Reply.tool_use("mcp__calc__add", {"a": 15, "b": 27}),
        Reply.tool_use("mcp__calc__add", {"a": 1.5, "b": 2}),
        Reply.text("15 + 27 = 42"),
    )
    messages = await run("add 15 and 27", calc_options(make_options))

    ints, floats = (scripted_model.main_requests[i].tool_results[0] for i in (1, 2))
    assert ints["content"] == [{"type": "text", "text": "15 + 27 = 42"}]  # not 15.0 + 27.0 = 42.0
    assert floats["content"] == [{"type": "text", "text": "1.5 + 2 = 3.5"}]
    assert "is_error" not in ints
    result = messages[-1]
    assert isinstance(result, ResultMessage) and result.result == "15 + 27 = 42"


async def test_the_model_sees_the_official_packages_tool_schemas(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    # Every input_schema form of tests/support/_mcp_cases.py, served by claude_wrap, as the
    # model finds it in its tools list, against what the official package listed.
    import claude_wrap

    recorded = json.loads((Path(__file__).parent.parent / "fixtures" / "official_mcp.json").read_text())
    listed = next(s for s in recorded["exchanges"]["schemas"] if s["message"]["method"] == "tools/list")
    official = {t["name"]: t for t in listed["reply"]["response"]["mcp_response"]["result"]["tools"]}
    names = [f"mcp__calc__{name}" for name in SCHEMAS]
    scripted_model.add(
        load_tools(*names),
        Reply.tool_use("mcp__calc__plain_class", {"x": "not an int", "extra": [1.5]}),
        Reply.text("seen"),
    )
    await run("look", make_options(mcp_servers=servers(claude_wrap, "schemas"), allowed_tools=names))

    offered = {t["name"]: t for t in scripted_model.main_requests[1].tools if t["name"] in names}
    assert sorted(offered) == sorted(names)
    for name in SCHEMAS:
        seen = offered[f"mcp__calc__{name}"]
        assert (seen["description"], seen["input_schema"]) == (
            official[name]["description"],
            official[name]["inputSchema"],
        ), name
    # A plain class is an object without properties: the arguments arrive unchecked and as sent.
    plain = scripted_model.main_requests[2].tool_result_texts
    assert plain == ["dict {'x': 'not an int', 'extra': [1.5]}"]


async def test_pydantic_tool_gets_a_validated_instance(scripted_model: ScriptedModel, make_options: Options) -> None:
    seen: list[Reading] = []

    @tool("weather", "Weather for a city", Reading)
    async def weather(reading: Reading) -> str:
        seen.append(reading)
        return f"{reading.city}: 21 degrees {reading.unit.value} for {len(reading.days)} days"

    scripted_model.add(
        Reply.tool_use("mcp__calc__weather", {"city": "Oslo", "unit": "fahrenheit", "days": [1, "2"]}),
        Reply.text("done"),
    )
    await run("weather", calc_options(make_options, weather))

    assert seen == [Reading(city="Oslo", unit=Unit.FAHRENHEIT, days=[1, 2])]
    assert scripted_model.main_requests[1].tool_result_texts == ["Oslo: 21 degrees fahrenheit for 2 days"]


async def test_invalid_arguments_and_raising_handler_become_error_results(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    calls = 0

    @tool("explode", "Always raises", {})
    async def explode(args: dict[str, Any]) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        raise ValueError("the flux capacitor is empty")

    scripted_model.add(
        Reply.tool_use("mcp__calc__add", {"a": "two", "b": 3}),
        Reply.tool_use("mcp__calc__explode", {}),
        Reply.tool_use("mcp__calc__add", {"a": 1, "b": 1}),
        Reply.text("recovered"),
    )
    messages = await run("go", calc_options(make_options, explode))

    invalid, raised, fine = (scripted_model.main_requests[i].tool_results[0] for i in (1, 2, 3))
    # The official package's words; the binary adds a hint with the schema it holds.
    assert invalid["is_error"] is True
    assert str(invalid["content"]).startswith("Input validation error: 'two' is not of type 'number'")
    assert '"a":{"type":"number"}' in str(invalid["content"])
    assert raised["is_error"] is True and str(raised["content"]).startswith("the flux capacitor is empty")
    assert calls == 1
    assert fine["content"] == [{"type": "text", "text": "1 + 1 = 2"}]  # the session lived on
    assert messages[-1].result == "recovered"


async def test_image_content_reaches_the_model(scripted_model: ScriptedModel, make_options: Options) -> None:
    @tool("snapshot", "Take a picture", {})
    async def snapshot(args: dict[str, Any]) -> dict[str, Any]:
        return {
            "content": [{"type": "image", "data": PIXEL, "mimeType": "image/png"}, {"type": "text", "text": "1 px"}]
        }

    scripted_model.add(Reply.tool_use("mcp__calc__snapshot", {}), Reply.text("nice"))
    await run("snap", calc_options(make_options, snapshot))

    content = scripted_model.main_requests[1].tool_results[0]["content"]
    images = [b for b in content if b["type"] == "image"]
    assert images[0]["source"] == {"type": "base64", "media_type": "image/png", "data": PIXEL}
    assert any(b.get("text") == "1 px" for b in content)


async def test_two_calls_in_one_message(scripted_model: ScriptedModel, make_options: Options) -> None:
    # Whether the binary runs the two calls at once is its choice (read-only
    # tools may be); that ours run concurrently is tested in
    # tests/unit/test_mcp_server.py. Here: both results reach the model.
    seen: list[dict[str, Any]] = []

    @tool("pair_add", "Add two numbers", {"a": int, "b": int}, annotations={"readOnlyHint": True})
    async def pair_add(args: dict[str, Any]) -> int:
        seen.append(args)
        return int(args["a"] + args["b"])

    scripted_model.add(
        Reply.message(
            ScriptedToolUse("mcp__calc__pair_add", {"a": 1, "b": 2}),
            ScriptedToolUse("mcp__calc__pair_add", {"a": 10, "b": 20}),
        ),
        Reply.text("3 and 30"),
    )
    await run("both", calc_options(make_options, pair_add))

    assert sorted(a["a"] for a in seen) == [1, 10]
    assert sorted(scripted_model.main_requests[1].tool_result_texts) == ["3", "30"]


async def test_three_megabyte_result(scripted_model: ScriptedModel, make_options: Options, tmp_path: Path) -> None:
    big = "".join(f"{i:07d}\n" for i in range(3 * 1024 * 1024 // 8))

    @tool("dump", "A lot of text", {}, annotations=ToolAnnotations(maxResultSizeChars=4_000_000))
    async def dump(args: dict[str, Any]) -> str:
        return big

    scripted_model.add(Reply.tool_use("mcp__calc__dump", {}), Reply.text("that was long"))
    messages = await run("dump", calc_options(make_options, dump))

    # The binary keeps oversized results out of the prompt: it saves them and
    # shows the model where. The saved copy proves all 3 MB arrived intact.
    seen = scripted_model.main_requests[1].tool_result_texts[0]
    assert "Output too large" in seen and "0000000" in seen
    saved = list((tmp_path / "home").rglob("tool-results/*"))
    assert len(saved) == 1
    assert json.loads(saved[0].read_text()) == [{"type": "text", "text": big}]
    assert messages[-1].result == "that was long"


async def test_twenty_megabyte_result_arrives_intact(
    scripted_model: ScriptedModel, make_options: Options, tmp_path: Path
) -> None:
    # Far more than the pipe holds: our answer goes to stdin in pieces.
    big = "".join(f'line "{i:07d}"\n' for i in range(20 * 1024 * 1024 // 16))

    @tool("dump", "A lot of text", {})
    async def dump(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": big}]}

    scripted_model.add(Reply.tool_use("mcp__calc__dump", {}), Reply.text("that was long"))
    messages = await run("dump", calc_options(make_options, dump), limit=120)

    saved = list((tmp_path / "home").rglob("tool-results/*"))
    assert len(saved) == 1
    # The binary keeps the text out of the prompt: its saved copy is the proof.
    assert saved[0].read_text() == big
    assert messages[-1].result == "that was long"


async def test_tool_added_while_connected_becomes_callable(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    script_tool_change(scripted_model)
    options = calc_options(make_options, allowed_tools=["mcp__calc__add", "mcp__calc__mul"])
    async with ClaudeSDKClient(options) as client:
        await client.query("hi")
        [m async for m in client.receive_response()]
        await client.add_mcp_tool("calc", mul_tool())
        await client.query("multiply")
        [m async for m in client.receive_response()]
        await client.remove_mcp_tool("calc", "mul")
        await client.query("multiply again")
        [m async for m in client.receive_response()]
    check_tool_change(scripted_model)


async def test_external_stdio_server_and_status_of_both_kinds(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(
        Reply.tool_use("mcp__ext__whoami", {}),
        Reply.tool_use("mcp__ext__add", {"a": 40, "b": 2}),
        Reply.text("done"),
    )
    options = make_options(
        mcp_servers={"calc": create_sdk_mcp_server("calc", tools=[add]), "ext": STDIO_SERVER},
        allowed_tools=["mcp__ext__whoami", "mcp__ext__add"],
        strict_mcp_config=True,
    )
    async with ClaudeSDKClient(options) as client:
        await client.query("ask the external server")
        messages = [m async for m in client.receive_response()]
        status = {s["name"]: s for s in (await client.get_mcp_status())["mcpServers"]}

    assert status["calc"]["status"] == "connected" and status["calc"].get("transport") == "sdk"
    assert status["ext"]["status"] == "connected", status["ext"]
    assert status["ext"]["serverInfo"] == {"name": "ext", "version": "1.0.0"}
    assert {t["name"] for t in status["ext"]["tools"]} == {"echo", "add", "whoami"}
    assert status["ext"]["config"]["type"] == "stdio"
    whoami = scripted_model.main_requests[1].tool_result_texts[0]
    assert whoami.startswith("pid ") and int(whoami.split()[1]) != client.pid
    assert scripted_model.main_requests[2].tool_result_texts == ["42"]
    assert messages[-1].result == "done"


async def test_mcp_package_server_instance(scripted_model: ScriptedModel, make_options: Options) -> None:
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx: Any, params: Any) -> Any:
        schema = {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]}
        return types.ListToolsResult(tools=[types.Tool(name="shout", description="Upper-case", input_schema=schema)])

    async def call_tool(ctx: Any, params: Any) -> Any:
        return types.CallToolResult(content=[types.TextContent(type="text", text=params.arguments["word"].upper())])

    server = Server("loud", on_list_tools=list_tools, on_call_tool=call_tool)
    scripted_model.add(Reply.tool_use("mcp__loud__shout", {"word": "hey"}), Reply.text("ok"))
    config: Any = {"type": "sdk", "name": "loud", "instance": server}
    await run("shout", make_options(mcp_servers={"loud": config}, allowed_tools=["mcp__loud__shout"]))

    assert scripted_model.main_requests[1].tool_result_texts == ["HEY"]
