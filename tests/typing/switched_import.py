"""A program written for the official package, after switching its import:
hooks on the whole HookInput, a permission callback, tools with a dict and a
plain-class schema, options, a query loop and a client."""

from __future__ import annotations

from typing import Any

from claude_wrap import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    HookContext,
    HookInput,
    HookJSONOutput,
    HookMatcher,
    McpSdkServerConfig,
    PermissionResultAllow,
    PermissionResultDeny,
    ResultMessage,
    SdkMcpTool,
    TextBlock,
    ToolAnnotations,
    ToolPermissionContext,
    create_sdk_mcp_server,
    query,
    tool,
)


async def no_rm(input_data: HookInput, tool_use_id: str | None, context: HookContext) -> HookJSONOutput:
    return {"continue_": True}


async def decide(
    tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext
) -> PermissionResultAllow | PermissionResultDeny:
    if tool_name == "Bash":
        return PermissionResultDeny(message="no shell", interrupt=False)
    return PermissionResultAllow(updated_input=tool_input)


@tool("add", "Add two numbers", {"a": float, "b": float}, annotations=ToolAnnotations(readOnlyHint=True))
async def add(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}


class Where:
    city: str


@tool(
    "where",
    "A plain class as the schema",
    Where,
    annotations=ToolAnnotations(read_only_hint=True, title="Where", maxResultSizeChars=100_000),
)
async def where(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": str(args)}], "is_error": False}


def server() -> McpSdkServerConfig:
    tools: list[SdkMcpTool[Any]] = [add, where]
    notes = where.annotations
    assert notes is None or isinstance(notes, ToolAnnotations) and notes.readOnlyHint is True
    return create_sdk_mcp_server("calc", "2.0.0", tools)


async def main() -> str:
    options = ClaudeAgentOptions(
        max_turns=3,
        hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[no_rm])]},
        can_use_tool=decide,
        mcp_servers={"calc": server()},
    )
    texts: list[str] = []
    async for message in query(prompt="hi", options=options):
        if isinstance(message, AssistantMessage):
            texts += [b.text for b in message.content if isinstance(b, TextBlock)]
        elif isinstance(message, ResultMessage) and message.total_cost_usd is not None:
            texts.append(f"{message.total_cost_usd:.4f}")
    async with ClaudeSDKClient(options) as client:
        await client.query("again")
        async for _ in client.receive_response():
            pass
    return "".join(texts)
