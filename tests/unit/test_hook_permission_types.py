"""Hook and permission types: event names, wire translation, permission round trips.

The request bodies below are copied from recordings of Claude Code 2.1.328
(``protocol.md`` §2 and §3).
"""

from __future__ import annotations

import copy
import dataclasses
import typing
from typing import Any

import pytest

from claude_wrap._wire import hooks as hook_types
from claude_wrap._wire.hooks import (
    HOOK_EVENTS,
    HookContext,
    HookInput,
    HookJSONOutput,
    HookMatcher,
    hook_output_to_wire,
)
from claude_wrap._wire.permissions import (
    PermissionResultAllow,
    PermissionResultDeny,
    PermissionRuleValue,
    PermissionUpdate,
    ToolPermissionContext,
    permission_result_to_wire,
)

# The 33 rows of the hook-event table (surface reference §3), and the event
# binary 2.1.332 and the TypeScript SDK 0.3.333 added (HOOK_EVENTS there).
REFERENCE_EVENTS = [
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
    "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "SessionEnd", "Stop",
    "StopFailure", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact",
    "PreModelSwitch", "PostModelSwitch", "PermissionRequest", "PermissionDenied", "Setup",
    "TeammateIdle", "TaskCreated", "TaskCompleted", "Elicitation", "ElicitationResult",
    "ConfigChange", "WorktreeCreate", "WorktreeRemove", "InstructionsLoaded", "CwdChanged",
    "FileChanged", "DirectoryAdded", "MessageDisplay", "PreSkillShellCommand",
]  # fmt: skip

BASH_SUGGESTIONS: list[dict[str, Any]] = [
    {
        "type": "addRules",
        "rules": [{"toolName": "Bash", "ruleContent": "touch b.txt"}],
        "behavior": "allow",
        "destination": "localSettings",
    },
    {
        "type": "addDirectories",
        "directories": ["<cwd>/s03c_perm_allow_with_rules"],
        "destination": "session",
    },
    {"type": "setMode", "mode": "acceptEdits", "destination": "session"},
]

BASH_REQUEST: dict[str, Any] = {
    "subtype": "can_use_tool",
    "tool_name": "Bash",
    "display_name": "Bash",
    "input": {"command": "touch b.txt", "description": "Create b.txt"},
    "description": "Create b.txt",
    "permission_suggestions": BASH_SUGGESTIONS,
    "blocked_path": "<cwd>/s03c_perm_allow_with_rules/b.txt",
    "tool_use_id": "toolu_fake0001",
}

# PreToolUse answered "ask" (§2h): the follow-up request carries the hook's reason.
ASK_REQUEST: dict[str, Any] = {
    "subtype": "can_use_tool",
    "tool_name": "Bash",
    "display_name": "Bash",
    "input": {"command": "echo hi", "description": "Print hi"},
    "description": "Print hi",
    "decision_reason": "hook wants a human",
    "decision_reason_type": "hook",
    "decision_reason_hook_event": "PreToolUse",
    "decision_reason_hook_source": "settings",
    "tool_use_id": "toolu_fake0001",
}


# ----------------------------------------------------------------------------- events


def test_hook_events_are_the_34_of_the_reference() -> None:
    assert len(HOOK_EVENTS) == 34
    assert len(set(HOOK_EVENTS)) == 34
    assert list(HOOK_EVENTS) == REFERENCE_EVENTS


def test_every_event_has_an_input_type_in_the_union() -> None:
    union_members = typing.get_args(HookInput)
    assert len(union_members) == 34
    for event, member in zip(HOOK_EVENTS, union_members):
        assert member is getattr(hook_types, f"{event}HookInput")
        hints = typing.get_type_hints(member)
        (literal,) = typing.get_args(hints["hook_event_name"])
        assert typing.get_args(literal) == (event,)
        assert {
            "session_id",
            "transcript_path",
            "cwd",
            "hook_event_name",
        } <= member.__required_keys__


def test_hook_specific_outputs_name_their_event() -> None:
    members = typing.get_args(hook_types.HookSpecificOutput)
    assert len(members) == 23
    for member in members:
        (literal,) = typing.get_args(typing.get_type_hints(member)["hookEventName"])
        assert member.__name__ == f"{literal}HookSpecificOutput"


def test_hook_matcher_keeps_the_official_positional_order() -> None:
    async def callback(input_data: HookInput, tool_use_id: str | None, context: HookContext) -> HookJSONOutput:
        return {}

    matcher = HookMatcher("Bash", [callback], 2.5)
    assert (matcher.matcher, matcher.hooks, matcher.timeout, matcher.on_failure) == (
        "Bash",
        [callback],
        2.5,
        None,
    )
    assert [f.name for f in dataclasses.fields(HookMatcher)] == [
        "matcher",
        "hooks",
        "timeout",
        "on_failure",
    ]
    assert HookMatcher().hooks == [] and HookMatcher().hooks is not HookMatcher().hooks


# ----------------------------------------------------------------------------- hook output


def test_hook_output_renames_python_safe_keys_only_at_top_level() -> None:
    specific = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "continue_": "nested",
    }
    output: dict[str, Any] = {
        "continue_": False,
        "stopReason": "Halted",
        "systemMessage": "hook says halt",
        "hookSpecificOutput": specific,
    }
    before = copy.deepcopy(output)
    assert hook_output_to_wire(output) == {
        "continue": False,
        "stopReason": "Halted",
        "systemMessage": "hook says halt",
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "continue_": "nested",
        },
    }
    assert output == before  # the callback's dict is not mutated
    assert hook_output_to_wire({"async_": True, "asyncTimeout": 5000}) == {
        "async": True,
        "asyncTimeout": 5000,
    }


def test_hook_output_passes_wire_spellings_through() -> None:
    assert hook_output_to_wire({"decision": "block", "reason": "r"}) == {
        "decision": "block",
        "reason": "r",
    }
    assert hook_output_to_wire({"continue": False}) == {"continue": False}
    assert hook_output_to_wire({"continue": True, "continue_": False}) == {"continue": False}


def test_hook_output_empty_means_no_opinion() -> None:
    assert hook_output_to_wire({}) == {}


@pytest.mark.parametrize("bad", [None, "allow", ["continue_"], 1, True, object()])
def test_hook_output_that_is_not_a_dict_fails_with_the_official_text(bad: Any) -> None:
    # The official package calls .items() on it; its error reply says so.
    with pytest.raises(AttributeError) as info:
        hook_output_to_wire(bad)
    assert str(info.value) == f"'{type(bad).__name__}' object has no attribute 'items'"


# ----------------------------------------------------------------------------- permission updates


def test_permission_suggestions_round_trip_exactly() -> None:
    updates = [PermissionUpdate.from_dict(s) for s in BASH_SUGGESTIONS]
    assert updates == [
        PermissionUpdate(
            type="addRules",
            rules=[PermissionRuleValue(tool_name="Bash", rule_content="touch b.txt")],
            behavior="allow",
            destination="localSettings",
        ),
        PermissionUpdate(
            type="addDirectories",
            directories=["<cwd>/s03c_perm_allow_with_rules"],
            destination="session",
        ),
        PermissionUpdate(type="setMode", mode="acceptEdits", destination="session"),
    ]
    assert [u.to_dict() for u in updates] == BASH_SUGGESTIONS

    write_suggestion = {
        "type": "setMode",
        "mode": "acceptEdits",
        "destination": "session",
    }
    assert PermissionUpdate.from_dict(write_suggestion).to_dict() == write_suggestion


def test_permission_update_to_dict_only_sends_fields_of_its_kind() -> None:
    update = PermissionUpdate(
        type="setMode",
        mode="plan",
        rules=[PermissionRuleValue("Bash")],
        directories=["/x"],
    )
    assert update.to_dict() == {"type": "setMode", "mode": "plan"}
    rules = PermissionUpdate(type="removeRules", rules=[PermissionRuleValue("Read")], behavior="deny")
    assert rules.to_dict() == {
        "type": "removeRules",
        "rules": [{"toolName": "Read"}],
        "behavior": "deny",
    }


def test_permission_update_from_dict_tolerates_unknown_keys_and_types() -> None:
    known = PermissionUpdate.from_dict({"type": "setMode", "mode": "plan", "destination": "session", "extra": 1})
    assert known == PermissionUpdate(type="setMode", mode="plan", destination="session")
    unknown = PermissionUpdate.from_dict({"type": "addWidgets", "directories": ["/w"], "destination": "cliArg"})
    assert str(unknown.type) == "addWidgets"
    assert unknown.to_dict() == {
        "type": "addWidgets",
        "directories": ["/w"],
        "destination": "cliArg",
    }


# ----------------------------------------------------------------------------- permission context


def test_tool_permission_context_from_a_recorded_request() -> None:
    context = ToolPermissionContext.from_request(BASH_REQUEST)
    assert context == ToolPermissionContext(
        signal=None,
        suggestions=[PermissionUpdate.from_dict(s) for s in BASH_SUGGESTIONS],
        tool_use_id="toolu_fake0001",
        blocked_path="<cwd>/s03c_perm_allow_with_rules/b.txt",
        display_name="Bash",
        description="Create b.txt",
    )
    assert context.decision_reason is None and context.title is None and context.agent_id is None


def test_tool_permission_context_carries_the_hook_reason() -> None:
    context = ToolPermissionContext.from_request(ASK_REQUEST)
    assert context.decision_reason == "hook wants a human"
    assert context.suggestions == []
    assert context.blocked_path is None


# ----------------------------------------------------------------------------- permission results


def test_allow_echoing_suggestions_matches_the_recorded_answer() -> None:
    context = ToolPermissionContext.from_request(BASH_REQUEST)
    result = PermissionResultAllow(updated_permissions=context.suggestions)
    assert permission_result_to_wire(result, BASH_REQUEST["input"]) == {
        "behavior": "allow",
        "updatedInput": {"command": "touch b.txt", "description": "Create b.txt"},
        "updatedPermissions": BASH_SUGGESTIONS,
    }


def test_allow_with_updated_input() -> None:
    new_input = {"file_path": "a.txt", "content": "content rewritten by updatedInput\n"}
    wire = permission_result_to_wire(PermissionResultAllow(updated_input=new_input), {"file_path": "a.txt"})
    assert wire == {"behavior": "allow", "updatedInput": new_input}


def test_deny_and_deny_with_interrupt() -> None:
    deny = PermissionResultDeny(message="User (SDK) denied this Bash command")
    assert permission_result_to_wire(deny, {}) == {
        "behavior": "deny",
        "message": "User (SDK) denied this Bash command",
    }
    interrupt = PermissionResultDeny(message="Denied and interrupting", interrupt=True)
    assert permission_result_to_wire(interrupt, {}) == {
        "behavior": "deny",
        "message": "Denied and interrupting",
        "interrupt": True,
    }


def test_the_typescript_fields_of_an_answer_are_sent_only_when_set() -> None:
    allow = PermissionResultAllow(tool_use_id="toolu_1", decision_classification="user_permanent")
    assert permission_result_to_wire(allow, {"a": 1}) == {
        "behavior": "allow",
        "updatedInput": {"a": 1},
        "toolUseID": "toolu_1",
        "decisionClassification": "user_permanent",
    }
    deny = PermissionResultDeny(message="no", decision_classification="user_reject")
    assert permission_result_to_wire(deny, {}) == {
        "behavior": "deny",
        "message": "no",
        "decisionClassification": "user_reject",
    }
    with pytest.raises(TypeError, match="decision_classification"):
        permission_result_to_wire(PermissionResultAllow(decision_classification="always"), {})  # type: ignore[arg-type]


def test_answer_later_is_not_none() -> None:
    # None stays the error it is on the official package; deferring is explicit.
    from claude_wrap import ANSWER_LATER

    assert ANSWER_LATER is not None and repr(ANSWER_LATER) == "ANSWER_LATER"
    with pytest.raises(TypeError):
        permission_result_to_wire(ANSWER_LATER, {})


@pytest.mark.parametrize("bad", [None, True, {"behavior": "allow"}, "allow"])
def test_permission_result_rejects_other_return_values(bad: Any) -> None:
    with pytest.raises(TypeError, match="must return PermissionResultAllow or PermissionResultDeny"):
        permission_result_to_wire(bad, {})


def test_allow_rejects_a_non_dict_updated_input() -> None:
    with pytest.raises(TypeError, match="updated_input"):
        permission_result_to_wire(PermissionResultAllow(updated_input="rm -rf /"), {})  # type: ignore[arg-type]
