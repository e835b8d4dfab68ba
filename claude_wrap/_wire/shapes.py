"""Names for the plain JSON data that rides inside messages.

Messages themselves are dataclasses (``_wire.messages``). Some of their
fields, though, hold JSON objects that the binary passes along as they are
(``origin``, ``modelUsage``, the ``system/init`` frame, hook inputs); those
stay ordinary ``dict``s at run time and get a ``TypedDict`` here, so type
checkers know their keys. Likewise, string fields with a known set of values
get a ``Literal``. Neither is checked when decoding: a value a newer binary
adds arrives unchanged instead of failing the frame.

Key names are the wire's, camelCase included. Keys marked "seen from
2.1.328" were observed on that binary's output but are not in the official
package's types.

This module imports nothing heavy, so touching one of these names stays cheap.
"""

# No ``from __future__ import annotations``: TypedDict must see ``NotRequired``
# as an object, not a string, to tell required keys from optional ones.
from typing import TYPE_CHECKING, Any, Literal

from typing_extensions import NotRequired, Required, TypedDict

if TYPE_CHECKING:
    from claude_wrap._wire.modes import PermissionMode as _PermissionMode
else:
    # A frame from a newer binary may report a mode this list lacks: at run
    # time the field reads as a plain ``str``.
    _PermissionMode = str

__all__ = [
    "ORG_POLICY_LIMIT_PREFIXES",
    "USAGE_LIMIT_ERROR_PREFIXES",
    "USAGE_TRANSITION_PREFIXES",
    "USAGE_WARNING_PREFIXES",
    "AssistantMessageError",
    "BackgroundTaskSummary",
    "FastModeDisabledReason",
    "FastModeState",
    "MessageOrigin",
    "MessageOriginKind",
    "ModelUsage",
    "RateLimitStatus",
    "RateLimitType",
    "ResultOutcome",
    "ServerToolName",
    "SessionCronSummary",
    "SystemInitData",
    "SystemInitMcpServer",
    "SystemInitPlugin",
    "SystemInitPluginError",
    "TERMINAL_TASK_STATUSES",
    "TaskNotificationOriginSubkind",
    "TaskNotificationStatus",
    "TaskUpdatedStatus",
    "TaskUsage",
    "WireAssistantError",
    "WireFastModeDisabledReason",
    "WireFastModeState",
    "WireMcpServers",
    "WireOrigin",
    "WirePluginErrors",
    "WirePlugins",
    "WireRateLimitStatus",
    "WireRateLimitType",
    "WireServerToolName",
]


# --------------------------------------------------------------------------
# Closed-looking sets of strings. Newer binaries may send other values.
# --------------------------------------------------------------------------

AssistantMessageError = Literal[
    "authentication_failed",
    "billing_error",
    "rate_limit",
    "invalid_request",
    "server_error",
    "unknown",
    # The TypeScript SDK 0.3.333 names these too (the official Python package the six above).
    "oauth_org_not_allowed",
    "account_on_hold",
    "verification_required",
    "overloaded",
    "model_not_found",
    "max_output_tokens",
    "cloud_credential_error",
]
"""Why the binary wrote a synthetic assistant message (``AssistantMessage.error``)."""

ServerToolName = Literal[
    "advisor",
    "web_search",
    "web_fetch",
    "code_execution",
    "bash_code_execution",
    "text_editor_code_execution",
    "tool_search_tool_regex",
    "tool_search_tool_bm25",
]
"""Tools the API runs on its own side (``ServerToolUseBlock.name``)."""

MessageOriginKind = Literal[
    "human",
    "channel",
    "peer",
    "task-notification",
    "coordinator",
    "unclassified",
    "observer",
    "auto-continuation",
    "observer-activity",
]
"""Known values of ``MessageOrigin["kind"]``. Treat any other value as "not a person"."""

TaskNotificationOriginSubkind = Literal["scheduled-trigger", "peer-send-message"]
"""``MessageOrigin["subkind"]`` of a ``task-notification`` turn, when it has one."""

TaskNotificationStatus = Literal["completed", "failed", "stopped"]
"""How a task ended, as ``system/task_notification`` reports it."""

ResultOutcome = Literal[
    "completed", "max_turns", "budget", "interrupted", "deferred", "api_error", "output_invalid", "error"
]
"""How a turn ended, in one word (``ResultMessage.outcome``), worked out
from fields the binary spreads over ``subtype``, ``is_error`` and
``terminal_reason``:

* ``completed``: the model finished its answer;
* ``max_turns`` / ``budget``: ``max_turns`` / ``max_budget_usd`` stopped it;
* ``interrupted``: ``interrupt()`` stopped it while the model wrote or a
  tool ran;
* ``deferred``: a PreToolUse hook deferred a tool call
  (``deferred_tool_use`` holds it);
* ``api_error``: the API kept failing (``api_error_status`` says how);
* ``output_invalid``: structured output still failed its schema after the
  binary's retries;
* ``error``: anything else that ended the turn with ``is_error``.
"""

TaskUpdatedStatus = Literal["pending", "running", "paused", "completed", "failed", "killed"]
"""A task's state in a ``system/task_updated`` patch.

A task stopped on request reads ``killed`` here and ``stopped`` in the
matching task notification.
"""

TERMINAL_TASK_STATUSES: frozenset[str] = frozenset({"completed", "failed", "stopped", "killed"})
"""Statuses after which a task will not run again, from either vocabulary.

A finished background task can announce itself only through
``TaskUpdatedMessage``, so a tracker of running tasks should check the
status of both ``TaskUpdatedMessage`` and ``TaskNotificationMessage``
against this set.
"""

RateLimitStatus = Literal["allowed", "allowed_warning", "rejected"]
"""Where the account stands against a rate limit (``RateLimitInfo.status``)."""

USAGE_LIMIT_ERROR_PREFIXES: tuple[str, ...] = (
    "You've hit your", "You've reached your", "You're out of usage credits",
    "Your org is out of usage · add funds to continue", "Your org is out of usage · contact your admin",
    "Your seat type doesn't include usage credits", "Your seat type doesn't include usage",
    "Your usage allocation has been disabled by your admin", "Your group's usage limit is set to $0",
    "Fable 5 requires usage credits", "You're out of extra usage", "Your seat type doesn't include extra usage",
)  # fmt: skip
"""How the binary's usage-limit errors begin (the text of an assistant
message or result that stopped on a limit): ``text.startswith(USAGE_LIMIT_ERROR_PREFIXES)``."""

USAGE_TRANSITION_PREFIXES: tuple[str, ...] = (
    "You're now using usage credits", "You're now using your usage allocation", "Now using your usage allocation",
    "Now using usage credits", "Now using credits", "You're now using extra usage", "Now using extra usage",
)  # fmt: skip
"""How the notices begin that say a session now draws on credits or extra
usage (notices, never errors)."""

USAGE_WARNING_PREFIXES: tuple[str, ...] = ("You've used", "You're close to")
"""How the warnings begin that a usage limit is near (notices, never errors)."""

ORG_POLICY_LIMIT_PREFIXES: tuple[str, ...] = ("This service is disabled for your org",)
"""How the errors begin that an organisation's policy refuses the service."""

RateLimitType = Literal["five_hour", "seven_day", "seven_day_opus", "seven_day_sonnet", "overage"]
"""Which rate-limit window ``RateLimitInfo`` describes."""

FastModeState = Literal["off", "cooldown", "on"]
"""Fast mode as ``system/init`` reports it."""

FastModeDisabledReason = Literal[
    "free",
    "preference",
    "extra_usage_disabled",
    "network_error",
    "unknown",
    "not_first_party",
    "disabled_by_env",
    "model_not_allowed",
    "sdk_opt_in_required",
    "pending",
]
"""The check that keeps fast mode off (``sdk_opt_in_required`` for SDK sessions by default)."""


# --------------------------------------------------------------------------
# JSON objects passed through from the wire.
# --------------------------------------------------------------------------

# Functional form: "from" is a Python keyword.
MessageOrigin = TypedDict(
    "MessageOrigin",
    {
        "kind": Required[MessageOriginKind],
        # channel: the MCP server the message came in on.
        "server": str,
        # peer / observer: the address the sender claims. Display and reply
        # routing only, it proves nothing about who sent it.
        "from": str,
        # peer: the sender's display name, already cleaned up by the binary.
        "name": str,
        # peer: a session id of the sender that its host can open.
        "fromSession": str,
        # peer / observer: id of the in-process background agent that sent it.
        "senderTaskId": str,
        # peer: the message text without the peer envelope, as the model saw it.
        "body": str,
        # peer: pid of the process that connected to the local messaging socket,
        # when the OS could vouch for it.
        "verifiedPeerPid": int,
        # task-notification: set for scheduled prompts and cross-session sends.
        "subkind": TaskNotificationOriginSubkind,
        # task-notification, seen from 2.1.328: what produced the notification
        # (e.g. "session-task") and the task run it concerns.
        "producer": str,
        "runId": str,
    },
    total=False,
)
"""What put a user turn into the conversation.

On ``UserMessage`` it describes that message; on ``ResultMessage`` it
describes the message that started the turn. Only ``kind`` is always
there; which other keys appear depends on it. The dict is the binary's own,
so it may hold keys not listed here.

Prompts sent by the SDK carry no origin unless the frame says
``"origin": {"kind": "human"}``. A turn the session starts by itself (a
background task finished, a scheduled prompt fired) carries e.g.
``{"kind": "task-notification"}``. Because a prompt sent during such a turn
can be answered inside it, match results to prompts by ``uuid``
(``ResultMessage.user_message_uuids``), not by origin.
"""


class ModelUsage(TypedDict):
    """Tokens and cost for one model, as in ``ResultMessage.model_usage[model]``."""

    inputTokens: int
    outputTokens: int
    cacheReadInputTokens: int
    cacheCreationInputTokens: int
    webSearchRequests: int
    costUSD: float
    contextWindow: int
    maxOutputTokens: int
    canonicalModel: NotRequired[str]
    """The model id prices were looked up under; can differ from the key (aliases, provider ids)."""
    provider: NotRequired[str]
    """Who served the model: ``firstParty``, ``bedrock``, ``vertex``, ..."""
    thinkingTokens: NotRequired[int]
    """Seen from 2.1.328."""
    cacheCreationEphemeral5mInputTokens: NotRequired[int]
    """Seen from 2.1.328."""
    cacheCreationEphemeral1hInputTokens: NotRequired[int]
    """Seen from 2.1.328."""
    costBasis: NotRequired[str]
    """Seen from 2.1.328 (``list`` for list prices)."""


class TaskUsage(TypedDict):
    """What a background task has used so far (``TaskProgressMessage.usage``,
    ``TaskNotificationMessage.usage``): the frame's own dict."""

    total_tokens: int
    tool_uses: int
    duration_ms: int


class SystemInitMcpServer(TypedDict):
    """One MCP server in the ``system/init`` frame."""

    name: str
    status: str
    source: NotRequired[str]
    """Where it was configured: ``sdk``, ``plugin``, or a settings scope such as ``user``."""


class SystemInitPlugin(TypedDict):
    """One loaded plugin in the ``system/init`` frame."""

    name: str
    path: str
    version: NotRequired[str]
    """The manifest's version string, when it declares one."""
    source: NotRequired[str]
    """``name@marketplace``; seen from 2.1.328."""


class SystemInitPluginError(TypedDict):
    """A plugin that failed to load, in the ``system/init`` frame."""

    plugin: str
    """``name@marketplace``, or a position such as ``inline[0]`` when no name was known yet."""
    type: str
    """The kind of failure, e.g. ``path-not-found``; an open set."""
    message: str
    path: NotRequired[str]
    """The configured directory, resolved against the cwd, when the entry did not load at all."""


class SystemInitData(TypedDict):
    """The whole ``system/init`` frame, i.e. ``SystemMessage.data`` for ``subtype == "init"``.

    The binary writes it at the start of every turn. ``InitSystemMessage.of``
    gives typed attributes for most keys; this type is for code that reads
    ``data``, e.g. ``cast(SystemInitData, message.data)``. Nothing checks
    the frame against it.
    """

    type: Literal["system"]
    subtype: Literal["init"]
    uuid: str
    session_id: str
    apiKeySource: str
    """``ANTHROPIC_API_KEY``, ``apiKeyHelper``, ``/login managed key`` or ``none``."""
    claude_code_version: str
    cwd: str
    tools: list[str]
    mcp_servers: list[SystemInitMcpServer]
    model: str
    permissionMode: _PermissionMode
    slash_commands: list[str]
    output_style: str
    skills: list[str]
    plugins: list[SystemInitPlugin]
    agents: NotRequired[list[str]]
    betas: NotRequired[list[str]]
    terminal_slash_commands: NotRequired[list[str]]
    """Slash commands that only work in a terminal; sent only when there are some."""
    plugin_errors: NotRequired[list[SystemInitPluginError]]
    """Absent when nothing failed (and on binaries that never report it)."""
    fast_mode_state: NotRequired[FastModeState]
    fast_mode_disabled_reason: NotRequired[FastModeDisabledReason]
    capabilities: NotRequired[list[str]]
    """Protocol features this binary supports, for feature tests; an open set."""
    analytics_disabled: NotRequired[bool]
    """Seen from 2.1.328, like the keys below."""
    product_feedback_disabled: NotRequired[bool]
    memory_paths: NotRequired[dict[str, str]]
    original_cwd: NotRequired[str]
    additional_directories: NotRequired[list[str]]
    messaging_socket_path: NotRequired[str]
    per_turn_effort_active: NotRequired[bool]
    ultrathink_available: NotRequired[bool]
    ultrathink_typed_raises: NotRequired[bool]
    view_mode: NotRequired[str]
    served_by_anthropic: NotRequired[bool]
    """Seen from 2.1.332: whether the API endpoint is Anthropic's own (false
    with a custom ``ANTHROPIC_BASE_URL``)."""
    sandbox_enabled: NotRequired[bool]
    """Seen from 2.1.332: whether the binary runs its tools sandboxed."""
    user_message_uuids: NotRequired[list[str]]
    """The uuids of the user messages that started this turn (only those sent with one)."""


class BackgroundTaskSummary(TypedDict):
    """A background task still running, as listed in Stop and SubagentStop hook inputs.

    ``description`` and ``command`` are cut at 1000 characters; a cut value
    ends with a ``"… [+N chars]"`` marker.
    """

    id: str
    type: str
    """``shell``, ``subagent``, ``monitor``, ``workflow``, ... (an open set)."""
    status: str
    description: str
    command: NotRequired[str]
    """The command line, for ``shell`` tasks."""
    agent_type: NotRequired[str]
    """The agent's type name, for ``subagent`` tasks."""
    server: NotRequired[str]
    """The MCP server, for monitor tasks."""
    tool: NotRequired[str]
    """The MCP tool, for monitor tasks."""
    name: NotRequired[str]
    """The workflow's name, for ``workflow`` tasks."""


class SessionCronSummary(TypedDict):
    """A wakeup scheduled in this session, as listed in Stop and SubagentStop hook inputs."""

    id: str
    schedule: str
    """A cron expression such as ``"0 9 * * 1-5"``."""
    recurring: bool
    """False for a one-off wakeup."""
    prompt: str
    """What gets sent when it fires; cut at 1000 characters like task descriptions."""


# --------------------------------------------------------------------------
# Field types for the wire structs (``_wire.codec``) and typed views.
#
# msgspec decodes a field by its annotation, and a Literal or TypedDict
# annotation would make it check values and drop unlisted keys: a status or
# key a newer binary adds would then turn a whole frame into UnknownMessage,
# or vanish. So at run time these names are plain ``str`` / ``dict``, while
# type checkers see the precise types.
# --------------------------------------------------------------------------

if TYPE_CHECKING:
    WireOrigin = MessageOrigin
    WireAssistantError = AssistantMessageError
    WireServerToolName = ServerToolName
    WireRateLimitStatus = RateLimitStatus
    WireRateLimitType = RateLimitType
    WireFastModeState = FastModeState
    WireFastModeDisabledReason = FastModeDisabledReason
    WireMcpServers = list[SystemInitMcpServer]
    WirePlugins = list[SystemInitPlugin]
    WirePluginErrors = list[SystemInitPluginError]
else:
    WireOrigin = dict[str, Any]
    WireAssistantError = str
    WireServerToolName = str
    WireRateLimitStatus = str
    WireRateLimitType = str
    WireFastModeState = str
    WireFastModeDisabledReason = str
    WireMcpServers = list[dict[str, Any]]
    WirePlugins = list[dict[str, Any]]
    WirePluginErrors = list[dict[str, Any]]
