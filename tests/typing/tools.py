"""In-process MCP tools: a dict schema, annotations in both spellings, a server."""

from __future__ import annotations

from typing import Any

from claude_wrap import (
    ClaudeAgentOptions,
    McpSdkServerConfig,
    SdkMcpTool,
    ToolAnnotations,
    create_sdk_mcp_server,
    tool,
)


@tool("add", "Add two numbers", {"a": float, "b": float}, annotations=ToolAnnotations(readOnlyHint=True))
async def add(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}


@tool("greet", "Greet someone", {"name": str}, annotations=ToolAnnotations(read_only_hint=True, title="Greet"))
async def greet(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": f"Hello, {args['name']}!"}]}


def server() -> McpSdkServerConfig:
    tools: list[SdkMcpTool[Any]] = [add, greet]
    return create_sdk_mcp_server(name="calc", version="1.0.0", tools=tools)


def options() -> ClaudeAgentOptions:
    hint = add.annotations.readOnlyHint if add.annotations is not None else None
    assert hint is True
    return ClaudeAgentOptions(mcp_servers={"calc": server()}, allowed_tools=["mcp__calc__add", "mcp__calc__greet"])
