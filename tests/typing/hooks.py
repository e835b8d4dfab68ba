"""Hooks annotated with the input type of their event (a permission callback
is in switched_import.py)."""

from __future__ import annotations

from claude_wrap import (
    ClaudeAgentOptions,
    HookContext,
    HookInput,
    HookJSONOutput,
    HookMatcher,
    PostToolUseHookInput,
    PreToolUseHookInput,
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


def options() -> ClaudeAgentOptions:
    return ClaudeAgentOptions(
        hooks={
            "PreToolUse": [HookMatcher(matcher="Bash", hooks=[no_rm])],
            "PostToolUse": [HookMatcher(hooks=[log_result, any_event], timeout=30)],
        },
    )
