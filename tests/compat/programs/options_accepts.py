"""ClaudeAgentOptions as apps build it: combinations the official package accepts, replace(), signature."""

import dataclasses
import inspect

from claude_agent_sdk import ClaudeAgentOptions, PermissionResultAllow
from twin import note


async def allow(name, tool_input, context):
    return PermissionResultAllow()


def attempt(label, build):
    try:
        options = build()
        note(label, {"built": True, "type": type(options).__name__})
    except Exception as exc:
        note(label, {"raised": exc})


attempt("continue_conversation with resume", lambda: ClaudeAgentOptions(continue_conversation=True, resume="abc"))
attempt(
    "can_use_tool with permission_prompt_tool_name",
    lambda: ClaudeAgentOptions(can_use_tool=allow, permission_prompt_tool_name="stdio"),
)
attempt("max_turns=0", lambda: ClaudeAgentOptions(max_turns=0))
attempt("cwd as str", lambda: ClaudeAgentOptions(cwd="."))
attempt("unknown permission mode", lambda: ClaudeAgentOptions(permission_mode="sometimes"))
attempt("positional tools", lambda: ClaudeAgentOptions(["Read"]))

options = ClaudeAgentOptions(model="claude-sonnet-4-5", max_turns=3)
note("is_dataclass", dataclasses.is_dataclass(options))
note("replace", dataclasses.replace(options, max_turns=5).max_turns if dataclasses.is_dataclass(options) else None)
# The official package has 49 fields; ours may add more after them.
first = list(inspect.signature(ClaudeAgentOptions).parameters)[:49]
note("official parameters first", first)
note("their values", {name: getattr(options, name, "<missing>") for name in first})
options.max_turns = 7
note("assigned", options.max_turns)
