"""User code type-checks against the public API (mypy --strict), as it
would after switching the import from the official package."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

USER_CODE = textwrap.dedent(
    """
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
    """
)


def test_user_code_type_checks_strictly(tmp_path: Path) -> None:
    source = tmp_path / "user_agent.py"
    source.write_text(USER_CODE)
    # This checkout's claude_wrap, not whichever copy the interpreter has installed.
    env = {**os.environ, "MYPYPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--no-incremental", str(source)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
