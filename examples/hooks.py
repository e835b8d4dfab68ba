"""Hooks: Python callbacks the binary calls at points of the agent loop.

    python examples/hooks.py

A PreToolUse hook refuses recursive deletes before Bash runs them; a
PostToolUse hook keeps an audit log of every tool that ran.
"""

from __future__ import annotations

import anyio

from claude_wrap import (
    ClaudeAgentOptions,
    HookContext,
    HookJSONOutput,
    HookMatcher,
    PostToolUseHookInput,
    PreToolUseHookInput,
    ResultMessage,
    query,
)

audit: list[str] = []


async def no_recursive_delete(
    input_data: PreToolUseHookInput, tool_use_id: str | None, context: HookContext
) -> HookJSONOutput:
    command = str(input_data["tool_input"].get("command", ""))
    if "rm -r" in command or "rm -fr" in command:
        print(f"hook: denied {command!r}")
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "recursive deletes are not allowed here",
            }
        }
    return {}  # no opinion: the permission rules decide


async def log_tool(input_data: PostToolUseHookInput, tool_use_id: str | None, context: HookContext) -> HookJSONOutput:
    audit.append(f"{input_data['tool_name']}: {input_data['tool_input']}")
    return {}


async def main() -> None:
    options = ClaudeAgentOptions(
        allowed_tools=["Bash"],
        hooks={
            "PreToolUse": [HookMatcher(matcher="Bash", hooks=[no_recursive_delete])],
            "PostToolUse": [HookMatcher(hooks=[log_tool])],
        },
    )
    prompt = "Delete the build directory with rm -rf build, then list what is left."
    async for message in query(prompt=prompt, options=options):
        if isinstance(message, ResultMessage):
            print(message.result)
    print("audit log:")
    for line in audit:
        print(" ", line)


if __name__ == "__main__":
    anyio.run(main)
