"""Hook types: what the binary sends a Python hook callback and what it accepts back.

Hooks are registered per event in ``ClaudeAgentOptions.hooks`` as
``{"PreToolUse": [HookMatcher(matcher="Bash", hooks=[callback])]}``. When an
event fires and a matcher applies, the binary sends a ``hook_callback``
control request whose ``input`` is one of the ``*HookInput`` shapes below;
the callback's return value (a ``HookJSONOutput``) goes back as the answer.

As in the official ``claude-agent-sdk`` package, inputs and outputs are plain
dicts at runtime: the TypedDicts here only describe them for type checkers
(``input_data["tool_name"]`` works; nothing is validated). The binary may send
keys that are not listed; they are passed through untouched.

Outputs use the binary's camelCase keys, except for two Python keywords:
write ``continue_`` and ``async_``; ``hook_output_to_wire`` renames them to
``continue`` and ``async`` before the answer is sent.

Event-specific fields follow Claude Code 2.1.328 (see the TypeScript SDK's
``sdk.d.ts``); where the recorded protocol showed more (``effort``,
``prompt_id``, ``duration_ms`` on ``PostToolUse``), it is listed too.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from typing_extensions import NotRequired, ReadOnly, Required, TypedDict

from claude_wrap._wire.shapes import BackgroundTaskSummary, SessionCronSummary

__all__ = [
    "DECIDING_HOOK_EVENTS",
    "EXIT_REASONS",
    "HOOK_EVENTS",
    "KNOWN_HOOK_EVENTS",
    "HookEffort",
    "AsyncHookJSONOutput",
    "BaseHookInput",
    "ConfigChangeHookInput",
    "CwdChangedHookInput",
    "CwdChangedHookSpecificOutput",
    "DirectoryAddedHookInput",
    "ElicitationHookInput",
    "ElicitationHookSpecificOutput",
    "ElicitationResultHookInput",
    "ElicitationResultHookSpecificOutput",
    "FileChangedHookInput",
    "FileChangedHookSpecificOutput",
    "HookCallback",
    "HookContext",
    "HookEvent",
    "HookInput",
    "HookJSONOutput",
    "HookMatcher",
    "HookSpecificOutput",
    "InstructionsLoadedHookInput",
    "McpServerProvenance",
    "MessageDisplayHookInput",
    "MessageDisplayHookSpecificOutput",
    "NotificationHookInput",
    "NotificationHookSpecificOutput",
    "PermissionDeniedHookInput",
    "PermissionDeniedHookSpecificOutput",
    "PermissionRequestHookInput",
    "PermissionRequestHookSpecificOutput",
    "PostCompactHookInput",
    "PostModelSwitchHookInput",
    "PostModelSwitchHookSpecificOutput",
    "PostToolBatchHookInput",
    "PostToolBatchHookSpecificOutput",
    "PostToolBatchToolCall",
    "PostToolUseFailureHookInput",
    "PostToolUseFailureHookSpecificOutput",
    "PostToolUseHookInput",
    "PostToolUseHookSpecificOutput",
    "PreCompactHookInput",
    "PreModelSwitchHookInput",
    "PreModelSwitchHookSpecificOutput",
    "PreSkillShellCommandHookInput",
    "PreSkillShellCommandHookSpecificOutput",
    "PreToolUseHookInput",
    "PreToolUseHookSpecificOutput",
    "SessionEndHookInput",
    "SessionStartHookInput",
    "SessionStartHookSpecificOutput",
    "SetupHookInput",
    "SetupHookSpecificOutput",
    "StopFailureHookInput",
    "StopHookInput",
    "StopHookSpecificOutput",
    "SubagentStartHookInput",
    "SubagentStartHookSpecificOutput",
    "SubagentStopHookInput",
    "SubagentStopHookSpecificOutput",
    "SyncHookJSONOutput",
    "TaskCompletedHookInput",
    "TaskCreatedHookInput",
    "TeammateIdleHookInput",
    "UserPromptExpansionHookInput",
    "UserPromptExpansionHookSpecificOutput",
    "UserPromptSubmitHookInput",
    "UserPromptSubmitHookSpecificOutput",
    "WorktreeCreateHookInput",
    "WorktreeCreateHookSpecificOutput",
    "WorktreeRemoveHookInput",
    "hook_output_to_wire",
    "refusal_output",
]

# --------------------------------------------------------------------------- events

HookEvent = Literal[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PreModelSwitch",
    "PostModelSwitch",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
    "PreSkillShellCommand",
]
"""The 34 hook event names the binary knows (keys of ``ClaudeAgentOptions.hooks``).

The binary accepts SDK callback matchers for every one of them in ``initialize``.
"""

HOOK_EVENTS: tuple[str, ...] = get_args(HookEvent)
"""Every hook event name (``HookEvent``), in the binary's lifecycle order."""

KNOWN_HOOK_EVENTS: frozenset[str] = frozenset(HOOK_EVENTS)
"""Every event the pinned binary knows (a set, for lookups)."""


# --------------------------------------------------------------------------- inputs


class McpServerProvenance(TypedDict):
    """Which MCP server a tool comes from (``mcp_server`` on tool hook inputs)."""

    name: str
    source: str


class PostToolBatchToolCall(TypedDict):
    """One tool call of a finished batch (``PostToolBatchHookInput["tool_calls"]``)."""

    tool_name: str
    tool_input: dict[str, Any]
    tool_use_id: str
    tool_response: NotRequired[Any]


class HookEffort(TypedDict):
    """The reasoning effort of the turn a hook fires in."""

    level: str
    """E.g. ``"low"``, ``"high"``, ``"max"``: the level in effect, after any
    downgrade for the model in use."""


class BaseHookInput(TypedDict, total=False):
    """Fields the binary sends with every hook input.

    ``session_id``, ``transcript_path``, ``cwd`` and ``hook_event_name`` are
    always present. ``prompt_id`` and ``permission_mode`` were present in every
    recorded callback; ``effort`` (``{"level": "medium"}``) comes with events
    that run inside a model turn (tool and stop events); ``agent_id`` and
    ``agent_type`` appear when the event fires inside a sub-agent (or, for
    ``agent_type``, in a session started with ``--agent``).
    """

    session_id: Required[str]
    transcript_path: Required[str]
    cwd: Required[str]
    prompt_id: str
    permission_mode: str
    agent_id: ReadOnly[str]
    agent_type: ReadOnly[str]
    effort: HookEffort
    hook_event_name: ReadOnly[HookEvent]
    """Always sent; each event's input type makes it required with its own value."""


class PreToolUseHookInput(BaseHookInput):
    """Before a tool runs. The answer can allow, deny, ask, defer or rewrite the input."""

    hook_event_name: ReadOnly[Literal["PreToolUse"]]
    tool_name: str
    tool_input: dict[str, Any]
    tool_use_id: str
    mcp_server: NotRequired[McpServerProvenance]


class PostToolUseHookInput(BaseHookInput):
    """After a tool succeeded; ``tool_response`` is the tool's raw output."""

    hook_event_name: ReadOnly[Literal["PostToolUse"]]
    tool_name: str
    tool_input: dict[str, Any]
    tool_response: Any
    tool_use_id: str
    duration_ms: NotRequired[float]
    mcp_server: NotRequired[McpServerProvenance]


class PostToolUseFailureHookInput(BaseHookInput):
    """After a tool failed (or was interrupted)."""

    hook_event_name: ReadOnly[Literal["PostToolUseFailure"]]
    tool_name: str
    tool_input: dict[str, Any]
    tool_use_id: str
    error: str
    is_interrupt: NotRequired[bool]
    duration_ms: NotRequired[float]
    mcp_server: NotRequired[McpServerProvenance]


class PostToolBatchHookInput(BaseHookInput):
    """After every tool call of one assistant message has finished."""

    hook_event_name: ReadOnly[Literal["PostToolBatch"]]
    tool_calls: list[PostToolBatchToolCall]


class NotificationHookInput(BaseHookInput):
    """When the binary would show the user a notification."""

    hook_event_name: ReadOnly[Literal["Notification"]]
    message: str
    title: NotRequired[str]
    notification_type: str


class UserPromptSubmitHookInput(BaseHookInput):
    """Before a user message starts a turn; the answer can block it or add context."""

    hook_event_name: ReadOnly[Literal["UserPromptSubmit"]]
    prompt: str
    source: NotRequired[Literal["user", "sdk", "system", "loop_wakeup", "schedule_wakeup", "poll_event"]]
    session_title: NotRequired[str]


class UserPromptExpansionHookInput(BaseHookInput):
    """When a slash command or MCP prompt is expanded into a prompt."""

    hook_event_name: ReadOnly[Literal["UserPromptExpansion"]]
    expansion_type: Literal["slash_command", "mcp_prompt"]
    command_name: str
    command_args: str
    command_source: NotRequired[str]
    prompt: str


class SessionStartHookInput(BaseHookInput):
    """When a session starts, resumes, is cleared, compacted or forked."""

    hook_event_name: ReadOnly[Literal["SessionStart"]]
    source: Literal["startup", "resume", "clear", "compact", "fork"]
    model: NotRequired[str]
    session_title: NotRequired[str]
    seconds_since_last_response: NotRequired[float]
    context_tokens: NotRequired[int]
    prompt_cache_likely_expired: NotRequired[bool]
    estimated_cache_write_usd: NotRequired[float]


EXIT_REASONS: tuple[str, ...] = ("clear", "resume", "logout", "prompt_input_exit", "other")
"""The reasons a session ends with (``SessionEndHookInput.reason``; a newer
binary may send others)."""


class SessionEndHookInput(BaseHookInput):
    """When a session ends; ``reason`` says why (one of `EXIT_REASONS`). There
    is no event-specific answer."""

    hook_event_name: ReadOnly[Literal["SessionEnd"]]
    reason: str


class StopHookInput(BaseHookInput):
    """When the model is about to end its turn; ``{"decision": "block"}`` keeps it going.

    ``stop_hook_active`` is true when this stop follows an earlier block.
    """

    hook_event_name: ReadOnly[Literal["Stop"]]
    stop_hook_active: bool
    last_assistant_message: NotRequired[str]
    background_tasks: NotRequired[list[BackgroundTaskSummary]]
    session_crons: NotRequired[list[SessionCronSummary]]


class StopFailureHookInput(BaseHookInput):
    """When a turn ends because of an API error instead of a normal stop."""

    hook_event_name: ReadOnly[Literal["StopFailure"]]
    error: str
    error_details: NotRequired[str]
    last_assistant_message: NotRequired[str]


class SubagentStartHookInput(BaseHookInput):
    """When a sub-agent (Task tool) starts."""

    hook_event_name: ReadOnly[Literal["SubagentStart"]]
    agent_id: ReadOnly[str]
    agent_type: ReadOnly[str]


class SubagentStopHookInput(BaseHookInput):
    """When a sub-agent is about to finish; ``{"decision": "block"}`` keeps it going."""

    hook_event_name: ReadOnly[Literal["SubagentStop"]]
    stop_hook_active: bool
    agent_id: ReadOnly[str]
    agent_transcript_path: str
    agent_type: ReadOnly[str]
    last_assistant_message: NotRequired[str]
    background_tasks: NotRequired[list[BackgroundTaskSummary]]
    session_crons: NotRequired[list[SessionCronSummary]]


class PreCompactHookInput(BaseHookInput):
    """Before the conversation is compacted (by ``/compact`` or automatically)."""

    hook_event_name: ReadOnly[Literal["PreCompact"]]
    trigger: Literal["manual", "auto"]
    custom_instructions: str | None


class PostCompactHookInput(BaseHookInput):
    """After the conversation was compacted; ``compact_summary`` is the new summary."""

    hook_event_name: ReadOnly[Literal["PostCompact"]]
    trigger: Literal["manual", "auto"]
    compact_summary: str


class PreModelSwitchHookInput(BaseHookInput):
    """Before the session's model changes; the answer can allow, deny or ask."""

    hook_event_name: ReadOnly[Literal["PreModelSwitch"]]
    from_model: str
    to_model: str
    requested_model: str | None
    source: Literal["command", "picker", "sdk"]
    context_tokens: int
    prompt_cache_warm: bool
    cache_ttl: Literal["5m", "1h"]
    estimated_cache_write_usd: float
    pricing: Literal["configured", "catalog", "default"]


class PostModelSwitchHookInput(BaseHookInput):
    """After the session's model changed."""

    hook_event_name: ReadOnly[Literal["PostModelSwitch"]]
    from_model: str
    to_model: str
    requested_model: str | None
    source: Literal["command", "picker", "sdk", "auto", "resume"]
    context_tokens: int
    prompt_cache_warm: bool
    cache_ttl: Literal["5m", "1h"]
    estimated_cache_write_usd: float
    pricing: Literal["configured", "catalog", "default"]


class PermissionRequestHookInput(BaseHookInput):
    """When the binary would ask for permission to use a tool; the answer can decide.

    ``permission_suggestions`` are raw wire dicts; parse them with
    ``PermissionUpdate.from_dict``.
    """

    hook_event_name: ReadOnly[Literal["PermissionRequest"]]
    tool_name: str
    tool_input: dict[str, Any]
    permission_suggestions: NotRequired[list[dict[str, Any]]]
    mcp_server: NotRequired[McpServerProvenance]


class PermissionDeniedHookInput(BaseHookInput):
    """After a tool call was denied; ``{"retry": True}`` lets the model try again."""

    hook_event_name: ReadOnly[Literal["PermissionDenied"]]
    tool_name: str
    tool_input: dict[str, Any]
    tool_use_id: str
    reason: str
    mcp_server: NotRequired[McpServerProvenance]


class SetupHookInput(BaseHookInput):
    """When the binary runs repository setup (``init``) or maintenance."""

    hook_event_name: ReadOnly[Literal["Setup"]]
    trigger: Literal["init", "maintenance"]


class TeammateIdleHookInput(BaseHookInput):
    """When an agent-team teammate becomes idle."""

    hook_event_name: ReadOnly[Literal["TeammateIdle"]]
    teammate_name: str
    team_name: str


class TaskCreatedHookInput(BaseHookInput):
    """When a task (task list / agent team) is created."""

    hook_event_name: ReadOnly[Literal["TaskCreated"]]
    task_id: str
    task_subject: str
    task_description: NotRequired[str]
    teammate_name: NotRequired[str]
    team_name: NotRequired[str]


class TaskCompletedHookInput(BaseHookInput):
    """When a task (task list / agent team) is completed."""

    hook_event_name: ReadOnly[Literal["TaskCompleted"]]
    task_id: str
    task_subject: str
    task_description: NotRequired[str]
    teammate_name: NotRequired[str]
    team_name: NotRequired[str]


class ElicitationHookInput(BaseHookInput):
    """When an MCP server asks the user for input; the answer can respond for them."""

    hook_event_name: ReadOnly[Literal["Elicitation"]]
    mcp_server_name: str
    message: str
    mode: NotRequired[Literal["form", "url"]]
    url: NotRequired[str]
    elicitation_id: NotRequired[str]
    requested_schema: NotRequired[dict[str, Any]]


class ElicitationResultHookInput(BaseHookInput):
    """After the user answered an MCP elicitation; the answer can override it."""

    hook_event_name: ReadOnly[Literal["ElicitationResult"]]
    mcp_server_name: str
    elicitation_id: NotRequired[str]
    mode: NotRequired[Literal["form", "url"]]
    action: Literal["accept", "decline", "cancel"]
    content: NotRequired[dict[str, Any]]


class ConfigChangeHookInput(BaseHookInput):
    """When a settings file (or the skills directory) changed on disk."""

    hook_event_name: ReadOnly[Literal["ConfigChange"]]
    source: Literal[
        "user_settings",
        "project_settings",
        "local_settings",
        "policy_settings",
        "skills",
    ]
    file_path: NotRequired[str]


class WorktreeCreateHookInput(BaseHookInput):
    """When a git worktree is needed; the answer must give its ``worktreePath``."""

    hook_event_name: ReadOnly[Literal["WorktreeCreate"]]
    name: str


class WorktreeRemoveHookInput(BaseHookInput):
    """When a worktree created for the session is removed."""

    hook_event_name: ReadOnly[Literal["WorktreeRemove"]]
    worktree_path: str


class InstructionsLoadedHookInput(BaseHookInput):
    """When a CLAUDE.md / memory file is loaded into context."""

    hook_event_name: ReadOnly[Literal["InstructionsLoaded"]]
    file_path: str
    memory_type: Literal["User", "Project", "Local", "Managed"]
    load_reason: Literal["session_start", "nested_traversal", "path_glob_match", "include", "compact"]
    globs: NotRequired[list[str]]
    trigger_file_path: NotRequired[str]
    parent_file_path: NotRequired[str]


class CwdChangedHookInput(BaseHookInput):
    """When the session's working directory changed."""

    hook_event_name: ReadOnly[Literal["CwdChanged"]]
    old_cwd: str
    new_cwd: str


class FileChangedHookInput(BaseHookInput):
    """When a watched file (see ``watchPaths`` outputs) changed."""

    hook_event_name: ReadOnly[Literal["FileChanged"]]
    file_path: str
    event: Literal["change", "add", "unlink"]


class DirectoryAddedHookInput(BaseHookInput):
    """When a working directory was added to the session."""

    hook_event_name: ReadOnly[Literal["DirectoryAdded"]]
    directory: str
    source: Literal["slash_command", "register_repo_root"]


class MessageDisplayHookInput(BaseHookInput):
    """While assistant text is displayed; ``delta`` is the new chunk."""

    hook_event_name: ReadOnly[Literal["MessageDisplay"]]
    turn_id: str
    message_id: str
    index: int
    final: bool
    delta: str


class PreSkillShellCommandHookInputToolInput(TypedDict):
    command: str
    """The command as it would run, its arguments filled in."""


class PreSkillShellCommandHookInput(BaseHookInput):
    """Before a shell command that a skill's or slash command's text holds
    (``!`cmd```) runs as the command loads. ``tool_use_id`` names no tool
    call of the transcript; ``invoked_by`` says who loaded the command:
    ``"user"`` (typed, or sent by a host), ``"claude"`` (the Skill tool),
    ``"other"``."""

    hook_event_name: ReadOnly[Literal["PreSkillShellCommand"]]
    tool_name: str
    tool_input: PreSkillShellCommandHookInputToolInput
    tool_use_id: str
    command_name: str
    command_source: NotRequired[str]
    invoked_by: Literal["user", "claude", "other"]


HookInput = (
    PreToolUseHookInput
    | PostToolUseHookInput
    | PostToolUseFailureHookInput
    | PostToolBatchHookInput
    | NotificationHookInput
    | UserPromptSubmitHookInput
    | UserPromptExpansionHookInput
    | SessionStartHookInput
    | SessionEndHookInput
    | StopHookInput
    | StopFailureHookInput
    | SubagentStartHookInput
    | SubagentStopHookInput
    | PreCompactHookInput
    | PostCompactHookInput
    | PreModelSwitchHookInput
    | PostModelSwitchHookInput
    | PermissionRequestHookInput
    | PermissionDeniedHookInput
    | SetupHookInput
    | TeammateIdleHookInput
    | TaskCreatedHookInput
    | TaskCompletedHookInput
    | ElicitationHookInput
    | ElicitationResultHookInput
    | ConfigChangeHookInput
    | WorktreeCreateHookInput
    | WorktreeRemoveHookInput
    | InstructionsLoadedHookInput
    | CwdChangedHookInput
    | FileChangedHookInput
    | DirectoryAddedHookInput
    | MessageDisplayHookInput
    | PreSkillShellCommandHookInput
)
"""The ``input`` of a ``hook_callback`` request, discriminated by ``hook_event_name``."""


# --------------------------------------------------------------------------- outputs


class PreToolUseHookSpecificOutput(TypedDict):
    """PreToolUse answer.

    ``permissionDecision``: ``"allow"`` runs the tool without asking (skipping
    the permission check), ``"deny"`` blocks it (the model sees
    ``PreToolUse:<tool> hook error: <reason>``), ``"ask"`` sends the decision
    to ``can_use_tool`` with the reason as ``decision_reason``, ``"defer"``
    stops the run and reports the call as deferred. ``updatedInput`` replaces
    the tool input.
    """

    hookEventName: Literal["PreToolUse"]
    permissionDecision: NotRequired[Literal["allow", "deny", "ask", "defer"]]
    permissionDecisionReason: NotRequired[str]
    updatedInput: NotRequired[dict[str, Any]]
    additionalContext: NotRequired[str]


class PostToolUseHookSpecificOutput(TypedDict):
    """PostToolUse answer.

    ``additionalContext`` reaches the model as a system message;
    ``updatedToolOutput`` replaces the tool output (it must match the tool's
    output shape, or the original is kept); ``updatedMCPToolOutput`` does the
    same for MCP tools only.
    """

    hookEventName: Literal["PostToolUse"]
    additionalContext: NotRequired[str]
    classifierContext: NotRequired[str]
    updatedToolOutput: NotRequired[Any]
    updatedMCPToolOutput: NotRequired[Any]


class PostToolUseFailureHookSpecificOutput(TypedDict):
    """PostToolUseFailure answer: context added for the model."""

    hookEventName: Literal["PostToolUseFailure"]
    additionalContext: NotRequired[str]


class PostToolBatchHookSpecificOutput(TypedDict):
    """PostToolBatch answer: context added for the model."""

    hookEventName: Literal["PostToolBatch"]
    additionalContext: NotRequired[str]


class NotificationHookSpecificOutput(TypedDict):
    """Notification answer: context added for the model."""

    hookEventName: Literal["Notification"]
    additionalContext: NotRequired[str]


class UserPromptSubmitHookSpecificOutput(TypedDict):
    """UserPromptSubmit answer.

    ``additionalContext`` is appended to the system prompt of the turn;
    ``sessionTitle`` renames the session; ``suppressOriginalPrompt`` drops the
    prompt itself.
    """

    hookEventName: Literal["UserPromptSubmit"]
    additionalContext: NotRequired[str]
    sessionTitle: NotRequired[str]
    suppressOriginalPrompt: NotRequired[bool]


class UserPromptExpansionHookSpecificOutput(TypedDict):
    """UserPromptExpansion answer: extra context, or drop the expanded prompt."""

    hookEventName: Literal["UserPromptExpansion"]
    additionalContext: NotRequired[str]
    suppressOriginalPrompt: NotRequired[bool]


class SessionStartHookSpecificOutput(TypedDict):
    """SessionStart answer.

    Context for the model, a first user message to send, a session title,
    paths to watch (they fire ``FileChanged``) and whether to reload skills.
    """

    hookEventName: Literal["SessionStart"]
    additionalContext: NotRequired[str]
    initialUserMessage: NotRequired[str]
    sessionTitle: NotRequired[str]
    watchPaths: NotRequired[list[str]]
    reloadSkills: NotRequired[bool]


class StopHookSpecificOutput(TypedDict):
    """Stop answer: context added for the model."""

    hookEventName: Literal["Stop"]
    additionalContext: NotRequired[str]


class SubagentStartHookSpecificOutput(TypedDict):
    """SubagentStart answer: context added for the sub-agent."""

    hookEventName: Literal["SubagentStart"]
    additionalContext: NotRequired[str]


class SubagentStopHookSpecificOutput(TypedDict):
    """SubagentStop answer: context added for the model."""

    hookEventName: Literal["SubagentStop"]
    additionalContext: NotRequired[str]


class PreModelSwitchHookSpecificOutput(TypedDict):
    """PreModelSwitch answer: allow, deny or ask about the model change."""

    hookEventName: Literal["PreModelSwitch"]
    permissionDecision: NotRequired[Literal["allow", "deny", "ask"]]
    permissionDecisionReason: NotRequired[str]


class PostModelSwitchHookSpecificOutput(TypedDict):
    """PostModelSwitch answer: context added for the model."""

    hookEventName: Literal["PostModelSwitch"]
    additionalContext: NotRequired[str]


class PermissionRequestHookSpecificOutput(TypedDict):
    """PermissionRequest answer: the permission decision, in wire form.

    ``{"behavior": "allow", "updatedInput"?: {...}, "updatedPermissions"?: [...]}``
    or ``{"behavior": "deny", "message"?: "...", "interrupt"?: true}``.
    """

    hookEventName: Literal["PermissionRequest"]
    decision: dict[str, Any]


class PermissionDeniedHookSpecificOutput(TypedDict):
    """PermissionDenied answer: ``retry`` tells the model it may try again."""

    hookEventName: Literal["PermissionDenied"]
    retry: NotRequired[bool]


class SetupHookSpecificOutput(TypedDict):
    """Setup answer: context added for the model."""

    hookEventName: Literal["Setup"]
    additionalContext: NotRequired[str]


class ElicitationHookSpecificOutput(TypedDict):
    """Elicitation answer: respond to the MCP server instead of the user."""

    hookEventName: Literal["Elicitation"]
    action: NotRequired[Literal["accept", "decline", "cancel"]]
    content: NotRequired[dict[str, Any]]


class ElicitationResultHookSpecificOutput(TypedDict):
    """ElicitationResult answer: override what is sent back to the MCP server."""

    hookEventName: Literal["ElicitationResult"]
    action: NotRequired[Literal["accept", "decline", "cancel"]]
    content: NotRequired[dict[str, Any]]


class WorktreeCreateHookSpecificOutput(TypedDict):
    """WorktreeCreate answer: the path of the worktree the hook created."""

    hookEventName: Literal["WorktreeCreate"]
    worktreePath: str


class CwdChangedHookSpecificOutput(TypedDict):
    """CwdChanged answer: paths to watch (they fire ``FileChanged``)."""

    hookEventName: Literal["CwdChanged"]
    watchPaths: NotRequired[list[str]]


class FileChangedHookSpecificOutput(TypedDict):
    """FileChanged answer: paths to watch from now on."""

    hookEventName: Literal["FileChanged"]
    watchPaths: NotRequired[list[str]]


class MessageDisplayHookSpecificOutput(TypedDict):
    """MessageDisplay answer: ``displayContent`` changes what is displayed for the chunk."""

    hookEventName: Literal["MessageDisplay"]
    displayContent: NotRequired[str]


class PreSkillShellCommandHookSpecificOutput(TypedDict):
    """PreSkillShellCommand answer: ``permissionDecision`` ``"deny"`` (or
    ``"ask"``, ``"defer"``) keeps the command from running, and the command
    loads without its output (a warning ``SystemMessage`` names the
    command and the reason); ``"allow"`` adds nothing. ``updatedInput`` is
    never applied: any value keeps the command from running."""

    hookEventName: Literal["PreSkillShellCommand"]
    permissionDecision: NotRequired[Literal["allow", "deny", "ask", "defer"]]
    permissionDecisionReason: NotRequired[str]
    updatedInput: NotRequired[dict[str, Any]]


HookSpecificOutput = (
    PreToolUseHookSpecificOutput
    | PostToolUseHookSpecificOutput
    | PostToolUseFailureHookSpecificOutput
    | PostToolBatchHookSpecificOutput
    | NotificationHookSpecificOutput
    | UserPromptSubmitHookSpecificOutput
    | UserPromptExpansionHookSpecificOutput
    | SessionStartHookSpecificOutput
    | StopHookSpecificOutput
    | SubagentStartHookSpecificOutput
    | SubagentStopHookSpecificOutput
    | PreModelSwitchHookSpecificOutput
    | PostModelSwitchHookSpecificOutput
    | PermissionRequestHookSpecificOutput
    | PermissionDeniedHookSpecificOutput
    | SetupHookSpecificOutput
    | ElicitationHookSpecificOutput
    | ElicitationResultHookSpecificOutput
    | WorktreeCreateHookSpecificOutput
    | CwdChangedHookSpecificOutput
    | FileChangedHookSpecificOutput
    | MessageDisplayHookSpecificOutput
    | PreSkillShellCommandHookSpecificOutput
)
"""``SyncHookJSONOutput["hookSpecificOutput"]``; ``hookEventName`` must name the event."""


class SyncHookJSONOutput(TypedDict, total=False):
    """A hook's answer; ``{}`` means "no opinion".

    * ``continue_`` (wire ``continue``): ``False`` ends the turn after the
      current step (a PreToolUse hook does **not** stop its tool: the tool still
      runs, then the turn ends with ``terminal_reason: "hook_stopped"``).
    * ``stopReason``: text recorded when ``continue_`` is ``False``.
    * ``suppressOutput``: hide the hook's output from the transcript.
    * ``decision``: ``"block"`` blocks the event (Stop/SubagentStop: keep
      going, with ``reason`` fed to the model; UserPromptSubmit: drop the
      prompt, ``reason`` becomes the result text). ``"approve"`` is a
      deprecated PreToolUse allow; prefer ``permissionDecision``.
    * ``systemMessage``: a warning shown to the user (``system/informational``).
    * ``reason``: the explanation that goes with ``decision``.
    * ``terminalSequence``: a terminal escape sequence for interactive UIs.
    * ``hookSpecificOutput``: the event-specific answer.
    """

    continue_: bool
    suppressOutput: bool
    stopReason: str
    decision: Literal["approve", "block"]
    systemMessage: str
    reason: str
    terminalSequence: str
    hookSpecificOutput: HookSpecificOutput


class AsyncHookJSONOutput(TypedDict, total=False):
    """An answer that lets the binary go on without waiting for the hook.

    ``async_`` (wire ``async``) must be ``True``; ``asyncTimeout`` is in
    milliseconds.
    """

    async_: Required[Literal[True]]
    asyncTimeout: int


HookJSONOutput = SyncHookJSONOutput | AsyncHookJSONOutput
"""What a hook callback returns (``None`` is also accepted and means ``{}``)."""


class HookContext(TypedDict):
    """The third argument of a hook callback (same shape as the official package).

    ``signal`` is always ``None`` here. When the binary gives up on a callback
    (its matcher's ``timeout`` expired, or the run was interrupted), the
    callback's task is cancelled instead, so ``await`` points raise the
    usual cancellation exception.
    """

    signal: Any | None


HookCallback = Callable[
    [Any, str | None, HookContext],
    Awaitable[HookJSONOutput] | HookJSONOutput,
]
"""A hook callback: ``(input_data, tool_use_id, context) -> HookJSONOutput``.

It may be a coroutine function or (our extension) a plain function, which
runs in a worker thread. ``tool_use_id`` is the tool call's id for tool
events (the binary sends an id for other events too).

``input_data`` is a ``HookInput``; a callback registered for one event may
annotate it with that event's type (``PreToolUseHookInput``), which is why
the alias takes any first parameter: with ``HookInput`` there, type checkers
would reject such a callback (parameters are contravariant).
"""


@dataclass
class HookMatcher:
    """Which callbacks run for an event, and when.

    Positional order matches the official ``HookMatcher(matcher, hooks, timeout)``.
    """

    matcher: str | None = None
    """A tool-name pattern for tool events (``"Bash"``, ``"Write|Edit"``); ``None`` matches all."""

    hooks: list[HookCallback] = field(default_factory=list)
    """The callbacks; each gets its own ``hook_callback`` request."""

    timeout: float | None = None
    """Seconds; the binary cancels a callback still running after this long.

    An expired PreToolUse hook fails closed: the tool is not run. Without a
    timeout the binary waits indefinitely.
    """

    on_failure: Literal["continue", "block"] | None = None
    """What the binary makes of a callback that fails (raises, returns
    something that is not a dict, or outlives ``callback_timeout``).

    ``None`` or ``"continue"``: the answer counts as ``{}`` (no opinion) and
    the binary reports a ``hook_callback_failed`` warning. ``"block"``: the
    failure counts as a block: a ``PreToolUse`` or ``PermissionRequest`` hook
    denies the tool, a ``UserPromptSubmit`` hook refuses the prompt, a
    ``PostToolUse`` hook's block reaches the model. Sent in ``initialize``;
    the binary applies it, as with the official package.
    """


# --------------------------------------------------------------------------- wire

_WIRE_RENAMES = {"continue_": "continue", "async_": "async"}


def hook_output_to_wire(output: Any) -> dict[str, Any]:
    """Turn a hook callback's return value into the JSON answer the binary expects.

    Renames the top-level ``continue_`` and ``async_`` keys to ``continue`` and
    ``async`` (when both spellings are present, the later one wins) and copies
    everything else, including ``hookSpecificOutput``, unchanged.

    Raises:
        AttributeError: ``output`` has no ``items()`` (the hook returned
            ``None``, a string ...), with the text the official package's
            error reply carries. Return ``{}`` for "no opinion".
    """
    return {_WIRE_RENAMES.get(key, key): value for key, value in output.items()}


DECIDING_HOOK_EVENTS: frozenset[str] = frozenset(
    {"PreToolUse", "PermissionRequest", "UserPromptSubmit", "PreSkillShellCommand"}
)
"""The events whose answer decides whether something happens: a tool runs,
a prompt starts a turn, a skill's shell command runs. A callback of these that we could not let finish
refuses (``refusal_output``) instead of leaving the call to the binary."""


def refusal_output(event: str, reason: str) -> dict[str, Any] | None:
    """The answer that refuses what a hook of ``event`` decides: the tool is
    denied, the prompt blocked, with ``reason`` shown; ``None`` for the
    other events, where no answer is the safe one."""
    if event in ("PreToolUse", "PreSkillShellCommand"):
        decision = {"hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": reason}
        return {"hookSpecificOutput": decision}
    if event == "PermissionRequest":
        return {"hookSpecificOutput": {"hookEventName": event, "decision": {"behavior": "deny", "message": reason}}}
    if event == "UserPromptSubmit":
        return {"decision": "block", "reason": reason}
    return None
