"""What ``ClaudeAgentOptions`` accepts, warns about and refuses, and when.

The official package accepts any value at construction; so do we, for its
fields. Where it raises later, we raise the same class with the same message
at the same point (the start of a run); where we would be stricter, an
``OptionsWarning`` says what the binary will do. Our own fields are checked
at construction.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import pytest

from claude_wrap import ClaudeAgentOptions, ClaudeSDKClient, HookMatcher, InMemorySessionStore, OptionsWarning, query
from claude_wrap._launch.argv import build_launch
from claude_wrap._launch.options import copy_with


async def _allow(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
    raise AssertionError("never called")


def test_the_warning_class_is_a_user_warning() -> None:
    assert issubclass(OptionsWarning, UserWarning)


# -- accepted as by the official package ------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"can_use_tool": _allow, "permission_prompt_tool_name": "mcp__p__ask"},
        {"session_store": InMemorySessionStore(), "enable_file_checkpointing": True},
        {"session_store": object(), "continue_conversation": True},
        {"max_budget_usd": 0},
        {"max_budget_usd": -1.5},
        {"max_buffer_size": 0},
        {"env": {"A=B": "1"}},
        {"env": {"A": "nul\0byte"}},
        {"client_app": "app\r\nX: 1"},
        {"skills": ["bad,name"]},
        {"skills": "pdf"},
        {"plugins": [{"type": "remote", "path": "x"}]},
        {"permission_mode": "yolo"},
        {"effort": "extreme"},
        {"setting_sources": ["global"]},
        {"load_timeout_ms": 0},
        {"max_thinking_tokens": 0},
        {"allowed_tools": "Read"},
        {"mcp_servers": "{}"},
    ],
    ids=lambda f: "+".join(f),
)
def test_accepted_silently_at_construction(fields: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ClaudeAgentOptions(**fields)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"continue_conversation": True, "resume": "s"}, "continue_conversation=True is ignored with resume"),
        ({"fork_session": True}, "no session to fork"),
        ({"resume": "s", "session_id": "11111111-2222-4333-8444-555555555555"}, "needs fork_session|unless"),
        ({"resume_session_at": "u"}, "resume_session_at without resume"),
        ({"resume": "s", "resume_drops_turn": "u"}, "resume_drops_turn without resume_session_at"),
        ({"max_turns": 0}, "max_turns=0 sets no turn limit"),
        ({"max_turns": -2}, "max_turns=-2 sets no turn limit"),
        ({"thinking": {"type": "adaptive"}, "max_thinking_tokens": 10}, "max_thinking_tokens is ignored"),
        ({"thinking": {"type": "enabled", "budget_tokens": 0}}, "budget_tokens=0"),
        ({"max_thinking_tokens": -1}, "max_thinking_tokens=-1"),
        ({"extra_args": {"--verbose": None}}, "'----verbose'"),
        ({"extra_args": {"a b": None}}, "extra_args key 'a b'"),
        ({"output_format": {"type": "json_schema"}}, "output_format is not sent"),
        ({"output_format": {"type": "text", "schema": {}}}, "output_format is not sent"),
        ({"mcp_servers": {"x": {"type": "stdio"}}}, "needs a 'command'"),
        ({"mcp_servers": {"x": {"type": "sdk", "name": "x"}}}, "without an instance"),
        ({"mcp_servers": 3}, "mcp_servers should be"),
        ({"bare": True, "agents": {"a": {"description": "d", "prompt": "p"}}}, "no Agent tool in bare mode"),
        ({"bare": True, "skills": ["pdf"]}, "no Skill tool in bare mode"),
        (
            {"bare": True, "tools": ["Bash", "Write", "Grep"]},
            "only Bash, Edit, Read of its built-in tools, not Grep, Write",
        ),
    ],
    ids=lambda v: "+".join(v) if isinstance(v, dict) else None,
)
def test_accepted_with_a_warning_saying_what_happens(fields: dict[str, Any], words: str) -> None:
    with pytest.warns(OptionsWarning, match=words) as caught:
        ClaudeAgentOptions(**fields)
    assert caught[0].filename == __file__  # it points at the line that built the options


def test_copies_made_inside_a_run_do_not_warn_again() -> None:
    with pytest.warns(OptionsWarning):
        options = ClaudeAgentOptions(max_turns=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        copy = copy_with(options, resume="s")
    assert (copy.max_turns, copy.resume, options.resume) == (0, "s", None)


# -- the official package's errors, where it raises them -----------------------------------------

OFFICIAL_ERRORS = [
    (
        {"can_use_tool": _allow, "permission_prompt_tool_name": "mcp__p__ask"},
        "can_use_tool callback cannot be used with permission_prompt_tool_name. Please use one or the other.",
    ),
    (
        {"session_store": InMemorySessionStore(), "enable_file_checkpointing": True},
        "session_store cannot be combined with enable_file_checkpointing (checkpoints are local-disk only and "
        "would diverge from the mirrored transcript)",
    ),
]


class _MinimalStore:
    async def append(self, key: Any, entries: Any) -> None: ...

    async def load(self, key: Any) -> Any: ...


@pytest.mark.anyio
@pytest.mark.parametrize(("fields", "message"), OFFICIAL_ERRORS)
async def test_official_errors_come_when_query_starts(fields: dict[str, Any], message: str) -> None:
    # A missing binary would be the next error: the check comes before anything is spawned.
    options = ClaudeAgentOptions(cli_path="/nonexistent/claude", **fields)
    messages = query(prompt="hi", options=options)
    with pytest.raises(ValueError) as info:
        await messages.__anext__()
    assert str(info.value) == message
    assert type(info.value) is ValueError


@pytest.mark.anyio
@pytest.mark.parametrize(("fields", "message"), OFFICIAL_ERRORS)
async def test_official_errors_come_when_a_client_connects(fields: dict[str, Any], message: str) -> None:
    client = ClaudeSDKClient(ClaudeAgentOptions(cli_path="/nonexistent/claude", **fields))
    with pytest.raises(ValueError) as info:
        await client.connect()
    assert str(info.value) == message


@pytest.mark.anyio
async def test_continue_needs_a_listing_store_unless_resume_is_given() -> None:
    options = ClaudeAgentOptions(
        cli_path="/nonexistent/claude", session_store=_MinimalStore(), continue_conversation=True
    )  # type: ignore[arg-type]
    with pytest.raises(
        ValueError,
        match=r"^continue_conversation with session_store requires the store to implement list_sessions\(\)$",
    ):
        await query(prompt="hi", options=options).__anext__()


@pytest.mark.parametrize(
    ("fields", "error", "words"),
    [
        ({"max_budget_usd": 0}, ValueError, "max_budget_usd must be greater than 0"),
        ({"max_buffer_size": 0}, ValueError, "max_buffer_size"),
        ({"env": {"A=B": "1"}}, ValueError, "ClaudeAgentOptions.env"),
        ({"env": {"": "1"}}, ValueError, "ClaudeAgentOptions.env"),
        ({"env": {"A": "nul\0byte"}}, ValueError, r"ClaudeAgentOptions.env\['A'\]"),
        ({"client_app": "app/☃"}, ValueError, "client_app"),
        ({"skills": "pdf"}, TypeError, r"Did you mean \['pdf'\]\?"),
        ({"skills": ["a,b"]}, ValueError, "Invalid skill name 'a,b'"),
        ({"plugins": [{"type": "remote", "path": "x"}]}, ValueError, "^Unsupported plugin type: remote$"),
    ],
)
def test_values_that_cannot_work_fail_when_the_command_line_is_built(
    fields: dict[str, Any], error: type[Exception], words: str
) -> None:
    options = ClaudeAgentOptions(**fields)
    with pytest.raises(error, match=words):
        build_launch(options, "claude")
    with pytest.raises(error, match=words):
        options.explain()


# -- our own fields ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"control_timeout": 0}, "control_timeout"),
        ({"control_timeout": "60"}, "control_timeout"),
        ({"initialize_timeout": -1}, "initialize_timeout"),
        ({"initialize_timeout": math.nan}, "initialize_timeout"),
        ({"idle_timeout": 0}, "idle_timeout"),
        ({"turn_timeout": -5}, "turn_timeout"),
        ({"callback_timeout": 0.0}, "callback_timeout"),
        ({"shutdown_grace": -0.1}, "shutdown_grace"),
        ({"auto_reconnect": -1}, "auto_reconnect"),
        ({"auto_reconnect": True}, "auto_reconnect"),
        ({"auto_reconnect": 1.5}, "auto_reconnect"),
        ({"output_type": dict}, "output_type"),
    ],
)
def test_our_fields_out_of_range_raise_naming_the_field(fields: dict[str, Any], name: str) -> None:
    with pytest.raises(ValueError, match=f"ClaudeAgentOptions.{name} must be"):
        ClaudeAgentOptions(**fields)


@pytest.mark.parametrize(
    "fields",
    [
        {"on_user_question": _allow, "permission_prompt_tool_name": "mcp__p__ask"},
        {"append_system_prompt": "x", "system_prompt": {"type": "preset", "preset": "claude_code", "append": "y"}},
    ],
)
def test_conflicts_with_our_fields_raise_at_construction(fields: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="set only one|use one"):
        ClaudeAgentOptions(**fields)


def test_hooks_in_bare_mode_are_refused_as_they_would_never_run() -> None:
    with pytest.raises(ValueError, match="ClaudeAgentOptions.bare: the binary calls no hooks in bare mode"):
        ClaudeAgentOptions(bare=True, hooks={"PreToolUse": [HookMatcher("Bash", [_hook])]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ClaudeAgentOptions(bare=True, tools=["Bash", "Read"], hooks={})


def test_our_limits_accept_their_edges() -> None:
    options = ClaudeAgentOptions(shutdown_grace=0, auto_reconnect=0, idle_timeout=None, control_timeout=0.001)
    assert options.shutdown_grace == 0


@pytest.mark.anyio
async def test_our_fields_are_checked_again_when_a_run_starts() -> None:
    options = ClaudeAgentOptions(cli_path="/nonexistent/claude")
    options.control_timeout = 0  # plain assignment is not checked
    with pytest.raises(ValueError, match="ClaudeAgentOptions.control_timeout"):
        await query(prompt="hi", options=options).__anext__()


# -- can_use_tool shadowed: one warning, as in the official package --------------------------------


@pytest.mark.parametrize(
    ("fields", "shown"),
    [
        (
            {"permission_mode": "bypassPermissions", "allowed_tools": ["Read"]},
            "can_use_tool will not be invoked: permission_mode 'bypassPermissions' auto-approves every tool call",
        ),
        (
            {"allowed_tools": ["Read", "Read()", "Bash(*)", "Bash(ls:*)", "(x)", " "]},
            "can_use_tool will not be invoked for: Read, Bash. An allowed_tools entry",
        ),
        ({"skills": "all"}, "can_use_tool will not be invoked for: Skill."),
    ],
)
def test_a_shadowed_can_use_tool_gives_one_warning(fields: dict[str, Any], shown: str) -> None:
    from claude_wrap import CanUseToolShadowedWarning
    from claude_wrap._launch.control_plane import control_plane

    options = ClaudeAgentOptions(can_use_tool=_allow, **fields)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        control_plane(options)
    assert [w.category for w in caught] == [CanUseToolShadowedWarning]
    assert str(caught[0].message).startswith(shown)  # the official package's words: filters match on them


def test_narrow_rules_do_not_shadow_can_use_tool() -> None:
    from claude_wrap._launch.control_plane import control_plane

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        control_plane(ClaudeAgentOptions(can_use_tool=_allow, allowed_tools=["Bash(ls:*)"], skills=["pdf"]))


# -- hooks set to block must be honored by the process that registers them -----------------------


async def _hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
    return {}


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ({}, "does not honor on_failure on hook matchers"),
        ({"hook_on_failure_supported": True, "hooks_applied": False}, "did not register your hooks"),
        ({"hook_on_failure_supported": True}, None),
    ],
)
async def test_blocking_hooks_need_a_process_that_honors_them(answer: dict[str, Any], message: str | None) -> None:
    from claude_wrap import CLIConnectionError, HookMatcher
    from claude_wrap.testing import MockTransport, initialize_response

    def handler(frame: dict[str, Any]) -> Any:
        if frame.get("type") == "control_request":
            assert frame["request"]["hooks"]["PreToolUse"][0]["onFailure"] == "block"
            return [initialize_response(frame, **answer)]
        return None

    options = ClaudeAgentOptions(hooks={"PreToolUse": [HookMatcher("Bash", [_hook], on_failure="block")]})
    client = ClaudeSDKClient(options, transport=MockTransport(handler))
    if message is None:
        await client.connect()
        await client.disconnect()
        return
    with pytest.raises(CLIConnectionError, match=message):
        await client.connect()
