"""A permission callback: Python decides each tool call no rule answered.

    python examples/permissions.py

The agent may write only under ./out; every other write is refused, with a
message the model reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio

from claude_wrap import (
    ClaudeAgentOptions,
    PermissionResult,
    PermissionResultAllow,
    PermissionResultDeny,
    ResultMessage,
    ToolPermissionContext,
    query,
)

WRITABLE = Path("out").resolve()


async def can_use_tool(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> PermissionResult:
    if tool_name in ("Write", "Edit"):
        path = Path(str(tool_input.get("file_path", ""))).resolve()
        if not path.is_relative_to(WRITABLE):
            print(f"denied: {tool_name} {path}")
            return PermissionResultDeny(message=f"only files under {WRITABLE} may be written")
    print(f"allowed: {tool_name}")
    return PermissionResultAllow()


async def main() -> None:
    WRITABLE.mkdir(exist_ok=True)
    options = ClaudeAgentOptions(can_use_tool=can_use_tool)
    prompt = "Write a one-line summary of notes.txt to out/summary.txt."
    async for message in query(prompt=prompt, options=options):
        if isinstance(message, ResultMessage):
            print(message.result)


if __name__ == "__main__":
    anyio.run(main)
