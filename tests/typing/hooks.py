"""Hooks annotated with the input type of their event, and a permission callback."""

from __future__ import annotations

from typing import Any

from claude_wrap import (
    ClaudeAgentOptions,
    HookContext,
    HookInput,
    HookJSONOutput,
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    PostToolUseHookInput,
    PreToolUseHookInput,
    ToolPermissionContext,
)


async def no_rm(input_data: PreToolUseHookInput, tool_use_id: str | None, context: HookContext) -> HookJSONOutput:
    command = str(input_data["tool_input"].get("command", ""))
    if "rm -rf" in command:
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "no recursive deletes",
            }
        }
    return {}


async def log_result(input_data: PostToolUseHookInput, tool_use_id: str | None, context: HookContext) -> HookJSONOutput:
    print(input_data["tool_name"], "done")
    return {"continue_": True}


def any_event(input_data: HookInput, tool_use_id: str | None, context: HookContext) -> HookJSONOutput:
    print(input_data["hook_event_name"])
    return {}


async def decide(
    tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext
) -> PermissionResultAllow | PermissionResultDeny:
    if tool_name == "Bash":
        return PermissionResultDeny(message="no shell here", interrupt=False)
    return PermissionResultAllow(updated_input=tool_input)


def options() -> ClaudeAgentOptions:
    return ClaudeAgentOptions(
        hooks={
            "PreToolUse": [HookMatcher(matcher="Bash", hooks=[no_rm])],
            "PostToolUse": [HookMatcher(hooks=[log_result, any_event], timeout=30)],
        },
        can_use_tool=decide,
    )
