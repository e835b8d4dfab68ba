"""Option sets whose launch (argv, environment, ``initialize``) must be the
same on claude_wrap and on the official package.

``cases(sdk)`` builds them from either package's module, so the same
definitions serve ``scripts/official_options.py`` (run with the official
package, it records ``tests/fixtures/official_options.json``) and
``tests/unit/test_official_options.py`` (which compares ours with that
record). Plain data only: paths are relative to a working directory the
caller makes, and no value is a secret (those go through private files
here, by design).
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
from typing import Any

# Variables set in the parent's environment while recording and comparing:
# both packages must drop or replace them.
PARENT_ENV = {
    "CLAUDECODE": "1",
    "CLAUDE_AGENT_SDK_DERIVED_CLIENT_APP": "outer-app/1",
    "CLAUDE_CODE_ENTRYPOINT": "cli",
    "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK": "1",
}

# Cases that give an OptionsWarning here (the official package accepts them silently).
WARNS = {"fork_alone", "thinking_and_max_tokens", "max_turns_zero"}


def describe_fields(cls: Any) -> list[dict[str, Any]]:
    """Name, parameter kind and default (or default factory) of each field
    of an options dataclass, in order."""
    parameters = inspect.signature(cls).parameters
    out: list[dict[str, Any]] = []
    for f in dataclasses.fields(cls):
        entry: dict[str, Any] = {"name": f.name, "kind": parameters[f.name].kind.name}
        if f.default_factory is not dataclasses.MISSING:
            entry["factory"] = f.default_factory.__name__
        elif f.default is sys.stderr:
            entry["default_is"] = "sys.stderr"
        else:
            entry["default"] = f.default
        out.append(entry)
    return out


async def allow(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
    raise AssertionError("never called: nothing runs")


async def hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
    raise AssertionError("never called: nothing runs")


def cases(sdk: Any) -> dict[str, dict[str, Any]]:
    """Keyword arguments of ``sdk.ClaudeAgentOptions`` by case name."""

    @sdk.tool("add", "Add two numbers", {"a": float, "b": float})
    async def add(args: dict[str, Any]) -> dict[str, Any]:
        raise AssertionError("never called: nothing runs")

    preset = {"type": "preset", "preset": "claude_code"}
    return {
        "default": {},
        "system_prompt_string": {"system_prompt": "Be terse."},
        "system_prompt_empty": {"system_prompt": ""},
        "system_prompt_custom": {"system_prompt": {"type": "custom", "prompt": "Be kind."}},
        "system_prompt_custom_snapshot": {"system_prompt": {"type": "custom", "prompt": "P", "snapshot": False}},
        "system_prompt_file": {"system_prompt": {"type": "file", "path": "prompt.md"}},
        "system_prompt_preset": {"system_prompt": dict(preset)},
        "system_prompt_preset_append": {"system_prompt": {**preset, "append": "Also this."}},
        "system_prompt_preset_dynamic_excluded": {"system_prompt": {**preset, "exclude_dynamic_sections": True}},
        "system_prompt_preset_dynamic_kept": {"system_prompt": {**preset, "exclude_dynamic_sections": False}},
        "system_prompt_preset_snapshot": {"system_prompt": {**preset, "append": "A", "snapshot": True}},
        "tools_list": {"tools": ["Read", "Grep"]},
        "tools_none": {"tools": []},
        "tools_preset": {"tools": dict(preset)},
        "allowed_and_disallowed": {"allowed_tools": ["Bash(git:*)", "Read"], "disallowed_tools": ["Write"]},
        "max_turns": {"max_turns": 3},
        "max_turns_zero": {"max_turns": 0},
        "budget": {"max_budget_usd": 0.5, "task_budget": {"total": 1000}},
        "budget_int": {"max_budget_usd": 2},
        "models": {"model": "sonnet", "fallback_model": "haiku", "betas": ["context-1m-2025-08-07"]},
        "effort": {"effort": "high"},
        "permission_prompt_tool": {"permission_prompt_tool_name": "mcp__perm__ask"},
        "permission_mode": {"permission_mode": "acceptEdits"},
        "can_use_tool": {"can_use_tool": allow, "allowed_tools": ["Bash(ls:*)"]},
        "continue": {"continue_conversation": True},
        "resume_fork": {"resume": "s-1", "fork_session": True, "session_id": "11111111-2222-4333-8444-555555555555"},
        "resume_at": {"resume": "s-1", "resume_session_at": "u-1", "resume_drops_turn": "u-2"},
        "fork_alone": {"fork_session": True},
        "settings_path": {"settings": "settings.json"},
        "settings_inline": {"settings": '{"model": "m"}'},
        "sandbox": {"sandbox": {"enabled": True, "excludedCommands": ["git"]}},
        "sandbox_and_inline_settings": {"settings": '{"env": {"A": "1"}}', "sandbox": {"enabled": True}},
        "sandbox_and_settings_file": {"settings": "settings.json", "sandbox": {"enabled": False}},
        "add_dirs": {"add_dirs": ["/a", "/b c"]},
        "env": {"env": {"A": "1", "CLAUDE_CODE_ENTRYPOINT": "mine", "CLAUDE_AGENT_SDK_VERSION": "9"}},
        "extra_args": {"extra_args": {"replay-user-messages": None, "name": "v", "dashed": "-x"}},
        "cwd": {"cwd": "."},
        "stream_flags": {
            "include_partial_messages": True,
            "include_hook_events": True,
            "strict_mcp_config": True,
            "forward_subagent_text": True,
        },
        "mcp_stdio": {"mcp_servers": {"files": {"command": "srv", "args": ["--x"]}}},
        "mcp_sdk": {"mcp_servers": {"calc": sdk.create_sdk_mcp_server("calculator", tools=[add])}},
        "mcp_path": {"mcp_servers": "mcp.json"},
        "agents": {
            "agents": {"reviewer": sdk.AgentDefinition(description="Reviews", prompt="Review it", tools=["Read"])}
        },
        "hooks": {
            "hooks": {
                "PreToolUse": [
                    sdk.HookMatcher(matcher="Bash", hooks=[hook], timeout=5),
                    sdk.HookMatcher(hooks=[hook, hook], on_failure="block"),
                ],
                "Stop": [],
            }
        },
        "setting_sources_none": {"setting_sources": []},
        "setting_sources": {"setting_sources": ["user", "local"]},
        "skills_all": {"skills": "all"},
        "skills_named": {"skills": ["pdf", "plugin:review", "my skill"], "allowed_tools": ["Skill(pdf)"]},
        "skills_empty": {"skills": []},
        "skills_with_sources": {"skills": "all", "setting_sources": [], "allowed_tools": ["Skill"]},
        "plugins": {"plugins": [{"type": "local", "path": "plugin"}]},
        "thinking_adaptive": {"thinking": {"type": "adaptive", "display": "summarized"}},
        "thinking_enabled": {"thinking": {"type": "enabled", "budget_tokens": 2048}},
        "thinking_disabled": {"thinking": {"type": "disabled"}},
        "max_thinking_tokens": {"max_thinking_tokens": 0},
        "thinking_and_max_tokens": {"thinking": {"type": "adaptive"}, "max_thinking_tokens": 10},
        "output_format": {"output_format": {"type": "json_schema", "schema": {"type": "object"}}},
        "file_checkpointing": {"enable_file_checkpointing": True},
        "session_store": {"session_store": sdk.InMemorySessionStore()},
        "client_app": {"client_app": "my-app/1.0", "env": {"CLAUDE_AGENT_SDK_CLIENT_APP": "other"}},
        "no_effect": {"max_buffer_size": 1 << 20, "verbatim_prompts": True, "load_timeout_ms": 5},
    }
