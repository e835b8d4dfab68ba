"""Serving in-process MCP servers over ``mcp_message``, without the binary."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest

from claude_wrap import (
    ClaudeAgentOptions,
    OptionsWarning,
    SdkMcpPrompt,
    SdkMcpResource,
    SdkMcpServer,
    create_sdk_mcp_server,
    tool,
)
from claude_wrap._launch.argv import build_launch
from claude_wrap._launch.control_plane import control_plane
from claude_wrap._mcp.server import mcp_message_handler

pytestmark = pytest.mark.anyio

Handler = Any


@tool("add", "Add two numbers", {"a": float, "b": float})
async def add(args: dict[str, Any]) -> str:
    return str(args["a"] + args["b"])


@tool("boom", "Always fails", {})
async def boom(args: dict[str, Any]) -> str:
    raise RuntimeError("kaput")


@tool("where", "Which thread runs a sync handler", {})
def where(args: dict[str, Any]) -> str:
    return threading.current_thread().name


def rpc(method: str, params: dict[str, Any] | None = None, msg_id: int | None = 1) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    if msg_id is not None:
        message["id"] = msg_id
    return message


async def send(handler: Handler, message: dict[str, Any], server: str = "calc") -> Any:
    reply = await handler({"subtype": "mcp_message", "server_name": server, "message": message})
    return reply["mcp_response"]


def call(name: str, arguments: dict[str, Any], msg_id: int = 7) -> dict[str, Any]:
    return rpc("tools/call", {"name": name, "arguments": arguments, "_meta": {"progressToken": 1}}, msg_id)


async def handshake(handler: Handler, server: str = "calc") -> Any:
    params = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "claude-code", "version": "2"},
    }
    return await send(handler, rpc("initialize", params, 0), server)


@pytest.fixture
def handler() -> Handler:
    config = create_sdk_mcp_server("calc", "2.0.0", tools=[add, boom, where])
    return mcp_message_handler({"calc": config["instance"]})


async def test_results_errors_and_sync_handlers(handler: Handler) -> None:
    # The official package's answers are checked in test_mcp_official.py; here: our extensions.
    await handshake(handler)
    assert (await send(handler, call("add", {"a": 2, "b": 3})))["result"] == {
        "content": [{"type": "text", "text": "5"}],  # ints stay ints: a string return is one text block
        "isError": False,
    }
    failed = (await send(handler, call("boom", {})))["result"]
    assert failed == {"content": [{"type": "text", "text": "kaput"}], "isError": True}
    thread = (await send(handler, call("where", {})))["result"]["content"][0]["text"]
    assert thread != threading.current_thread().name  # a sync handler does not block the loop


async def test_each_session_does_its_own_handshake(handler: Handler) -> None:
    early = await send(handler, rpc("tools/list"))
    assert early["error"] == {"code": -32602, "message": "Invalid request parameters", "data": ""}
    other = mcp_message_handler({"calc": create_sdk_mcp_server("calc", tools=[add])["instance"]})
    await handshake(other)
    assert "result" in await send(other, rpc("tools/list"))
    assert "error" in await send(handler, rpc("tools/list"))  # one session's handshake is not another's


async def test_calls_run_concurrently_and_cancel_by_notification() -> None:
    both_inside = anyio.Event()
    inside = 0
    cancelled = anyio.Event()

    @tool("meet", "Waits until two calls are inside", {})
    async def meet(args: dict[str, Any]) -> str:
        nonlocal inside
        inside += 1
        if inside == 2:
            both_inside.set()
        await both_inside.wait()
        return "met"

    @tool("hang", "Never returns", {})
    async def hang(args: dict[str, Any]) -> str:
        try:
            await anyio.sleep_forever()
        finally:
            cancelled.set()
        return "unreachable"

    handler = mcp_message_handler({"calc": SdkMcpServer("calc", tools=[meet, hang])})
    await handshake(handler)
    replies: dict[int, Any] = {}

    async def run(message: dict[str, Any]) -> None:
        reply = await send(handler, message)
        replies[reply["id"]] = reply

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run, call("meet", {}, 1))
            tg.start_soon(run, call("meet", {}, 2))
            tg.start_soon(run, call("hang", {}, 3))
            await both_inside.wait()
            await anyio.sleep(0.01)
            cancel = rpc("notifications/cancelled", {"requestId": 3, "reason": "user interrupt"}, None)
            assert await send(handler, cancel) == {"jsonrpc": "2.0", "result": {}}
    assert cancelled.is_set()
    assert replies[1]["result"]["content"][0]["text"] == "met" and replies[2]["result"]["content"][0]["text"] == "met"
    assert replies[3]["error"]["code"] == -32800


async def test_tools_can_change_and_are_listed_again() -> None:
    server = SdkMcpServer("calc", tools=[add])
    handler = mcp_message_handler({"calc": server})
    await handshake(handler)
    server.add_tool(boom)
    server.remove_tool("add")
    listed = await send(handler, rpc("tools/list"))
    assert [t["name"] for t in listed["result"]["tools"]] == ["boom"]
    with pytest.raises(KeyError):
        server.remove_tool("add")
    with pytest.raises(TypeError, match="made with @tool"):
        server.add_tool(object())  # type: ignore[arg-type]


async def test_resources_and_prompts() -> None:
    async def read_png() -> bytes:
        return b"\x89PNG"

    server = SdkMcpServer(
        "docs",
        resources=[
            SdkMcpResource("note://a", "a", lambda: "alpha", description="first"),
            SdkMcpResource("file://p.png", "p", read_png, mime_type="image/png"),
        ],
        prompts=[
            SdkMcpPrompt(
                "review",
                lambda args: f"Review {args['topic']}",
                arguments=[{"name": "topic", "required": True}],
            )
        ],
    )
    handler = mcp_message_handler({"docs": server})
    init = await handshake(handler, "docs")
    assert init["result"]["capabilities"] == {
        "tools": {"listChanged": False},
        "resources": {"subscribe": False, "listChanged": False},
        "prompts": {"listChanged": False},
    }
    listed = (await send(handler, rpc("resources/list"), "docs"))["result"]["resources"]
    assert listed[0] == {"uri": "note://a", "name": "a", "mimeType": "text/plain", "description": "first"}
    text = await send(handler, rpc("resources/read", {"uri": "note://a"}), "docs")
    assert text["result"]["contents"] == [{"uri": "note://a", "mimeType": "text/plain", "text": "alpha"}]
    blob = await send(handler, rpc("resources/read", {"uri": "file://p.png"}), "docs")
    assert blob["result"]["contents"][0]["blob"] == "iVBORw=="
    missing = await send(handler, rpc("resources/read", {"uri": "x://"}), "docs")
    assert missing["error"]["code"] == -32602
    got = await send(handler, rpc("prompts/get", {"name": "review", "arguments": {"topic": "PR 7"}}), "docs")
    assert got["result"]["messages"] == [{"role": "user", "content": {"type": "text", "text": "Review PR 7"}}]
    lacking = await send(handler, rpc("prompts/get", {"name": "review"}), "docs")
    assert "needs arguments: topic" in lacking["error"]["message"]


async def test_mcp_low_level_server_interop() -> None:
    import mcp_types as types
    from mcp.server.lowlevel import Server

    started = anyio.Event()
    stopped = anyio.Event()

    async def list_tools(ctx: Any, params: Any) -> Any:
        schema = {"type": "object", "properties": {"t": {"type": "string"}}}
        return types.ListToolsResult(
            tools=[
                types.Tool(name="echo", description="Echo", input_schema=schema),
                types.Tool(name="hang", input_schema={"type": "object"}),
            ]
        )

    async def call_tool(ctx: Any, params: Any) -> Any:
        if params.name == "hang":
            started.set()
            try:
                await anyio.sleep_forever()
            finally:
                stopped.set()
        return types.CallToolResult(content=[types.TextContent(type="text", text="echo:" + params.arguments["t"])])

    server = Server("lo", on_list_tools=list_tools, on_call_tool=call_tool)
    config: Any = {"type": "sdk", "name": "lo", "instance": server}
    plane = control_plane(ClaudeAgentOptions(mcp_servers={"lo": config}))
    handler = plane.handlers["mcp_message"]
    with anyio.fail_after(10):
        # the binary's own initialize params (protocol.md §4a)
        params = {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "claude-code", "version": "2.1.328"},
        }
        init = await send(handler, rpc("initialize", params, 0), "lo")
        assert init["result"]["serverInfo"]["name"] == "lo"
        await send(handler, rpc("notifications/initialized", msg_id=None), "lo")
        listed = await send(handler, rpc("tools/list", msg_id=1), "lo")
        assert [t["name"] for t in listed["result"]["tools"]] == ["echo", "hang"]
        echoed = await send(handler, call("echo", {"t": "hi"}, 2), "lo")
        assert echoed["result"]["content"] == [{"type": "text", "text": "echo:hi"}]
        missing = await send(handler, rpc("bogus/x", {}, 3), "lo")
        assert missing["error"]["code"] == -32601

        replies: list[Any] = []

        async def hang() -> None:
            replies.append(await send(handler, call("hang", {}, 4), "lo"))

        async with anyio.create_task_group() as tg:
            tg.start_soon(hang)
            await started.wait()
            await send(handler, rpc("notifications/cancelled", {"requestId": 4}, None), "lo")
    assert stopped.is_set() and replies[0]["error"]["code"] == -32800


async def test_a_non_server_instance_is_refused() -> None:
    with pytest.raises(TypeError, match="mcp low-level Server"):
        control_plane(ClaudeAgentOptions(mcp_servers={"x": {"type": "sdk", "name": "x", "instance": object()}}))


def test_import_never_loads_mcp_even_when_installed() -> None:
    import importlib.util

    assert importlib.util.find_spec("mcp") is not None  # the check below means something
    code = (
        "import sys, claude_wrap\n"
        "from claude_wrap import tool, create_sdk_mcp_server, ClaudeAgentOptions\n"
        "@tool('t', 'd', {'a': int})\n"
        "async def t(args): return 1\n"
        "ClaudeAgentOptions(mcp_servers={'s': create_sdk_mcp_server('s', tools=[t])})\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'mcp_types', 'jsonschema'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_mcp_options_become_flags(tmp_path: Path) -> None:
    sdk = create_sdk_mcp_server("calc", tools=[add])
    options = ClaudeAgentOptions(
        mcp_servers={
            "calc": sdk,
            "ext": {"type": "stdio", "command": "srv", "args": ["--x"], "env": {"K": "v"}},
            "web": {"type": "http", "url": "https://example.invalid/mcp", "headers": {"A": "b"}},
            "old": {"type": "sse", "url": "https://example.invalid/sse"},
        },
        strict_mcp_config=True,
    )
    launch = build_launch(options, "claude", check_cwd=False)
    value = launch.argv[launch.argv.index("--mcp-config") + 1]
    config = json.loads(launch.files.get(value, value))  # secrets (env, headers) travel in a private file
    assert config == {
        "mcpServers": {
            "calc": {"type": "sdk", "name": "calc"},
            "ext": {"type": "stdio", "command": "srv", "args": ["--x"], "env": {"K": "v"}},
            "web": {"type": "http", "url": "https://example.invalid/mcp", "headers": {"A": "b"}},
            "old": {"type": "sse", "url": "https://example.invalid/sse"},
        }
    }
    assert "--strict-mcp-config" in launch.argv
    path_argv = ClaudeAgentOptions(mcp_servers=tmp_path / "mcp.json").explain().argv
    assert path_argv[path_argv.index("--mcp-config") + 1] == str(tmp_path / "mcp.json")
    assert "--mcp-config" not in ClaudeAgentOptions().explain().argv
    assert "mcp_message" not in control_plane(ClaudeAgentOptions()).handlers


@pytest.mark.parametrize(
    ("servers", "message"),
    [
        ({"s": {"type": "sdk", "name": "s"}}, "without an instance"),
        ({"s": {"type": "http"}}, "needs a 'url'"),
        ({"s": {"args": []}}, "needs a 'command'"),
        ({"s": "x"}, "must be a dict"),
        (5, "a config file path"),
    ],
)
def test_bad_mcp_configs_are_accepted_with_a_warning(servers: Any, message: str) -> None:
    # The official package passes them on; the warning says what is wrong.
    with pytest.warns(OptionsWarning, match=message):
        ClaudeAgentOptions(mcp_servers=servers)


async def test_two_tools_of_one_name_the_last_wins() -> None:
    @tool("same", "first", {})
    async def first(args: dict[str, Any]) -> str:
        return "first"

    @tool("same", "second", {})
    async def second(args: dict[str, Any]) -> str:
        return "second"

    handler = mcp_message_handler({"calc": create_sdk_mcp_server("calc", tools=[first, second])["instance"]})
    await handshake(handler)
    listed = (await send(handler, rpc("tools/list")))["result"]["tools"]
    assert [(t["name"], t["description"]) for t in listed] == [("same", "second")]
    assert (await send(handler, call("same", {})))["result"]["content"] == [{"type": "text", "text": "second"}]


def test_tool_annotations_are_our_own_class_with_the_mcp_fields() -> None:
    mcp_types = pytest.importorskip("mcp.types")  # the mcp extra, in the dev tools
    from claude_wrap import ToolAnnotations

    ours = ToolAnnotations(readOnlyHint=True)
    assert not isinstance(ours, mcp_types.ToolAnnotations)
    assert all(hasattr(ours, name) for name in mcp_types.ToolAnnotations.model_fields)
    assert ours.readOnlyHint is ours.read_only_hint is True
