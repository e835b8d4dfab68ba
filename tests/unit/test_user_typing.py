"""User code type-checks against the public API (mypy --strict), as it
would after switching the import from the official package."""

from __future__ import annotations

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
        PermissionResultAllow,
        PermissionResultDeny,
        ResultMessage,
        TextBlock,
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


    @tool("add", "Add two numbers", {"a": float, "b": float})
    async def add(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}


    async def main() -> str:
        options = ClaudeAgentOptions(
            max_turns=3,
            hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[no_rm])]},
            can_use_tool=decide,
            mcp_servers={"calc": create_sdk_mcp_server("calc", tools=[add])},
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
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", str(source)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
