"""Typed control-protocol frames and the replies of the binary's control
calls (plain dicts at runtime).

Field names are the binary's own; reply types are ``total=False`` because
the binary adds and omits keys between versions.
"""

# No ``from __future__ import annotations``: TypedDict must see ``NotRequired``
# itself, not a string, to know which keys are optional.
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal, Union

from typing_extensions import NotRequired, Required, TypedDict

from claude_wrap._mcp.config import McpHttpServerConfig, McpSSEServerConfig, McpStdioServerConfig

if TYPE_CHECKING:
    from claude_wrap._wire.modes import PermissionMode
else:
    PermissionMode = str  # a newer binary's mode reads as a plain string

__all__ = [
    "AccountInfo",
    "AgentInfo",
    "InterruptResult",
    "McpReadResourceResponse",
    "McpResourceContent",
    "McpSetServersResult",
    "ReadFileResponse",
    "SDKControlInitializeResponse",
    "SlashCommand",
    "TaskOutputResponse",
    "ControlHandler",
    "ContextUsageCategory",
    "ContextUsageResponse",
    "ControlErrorResponse",
    "ControlResponse",
    "McpClaudeAIProxyServerConfig",
    "McpSdkServerConfigStatus",
    "McpServerConnectionStatus",
    "McpServerInfo",
    "McpServerStatus",
    "McpServerStatusConfig",
    "McpStatusResponse",
    "McpToolAnnotations",
    "McpToolInfo",
    "ModelInfo",
    "ReloadPluginsResponse",
    "RewindFilesResult",
    "SDKControlInitializeRequest",
    "SDKControlInterruptRequest",
    "SDKControlMcpMessageRequest",
    "SDKControlMcpReconnectRequest",
    "SDKControlMcpToggleRequest",
    "SDKControlPermissionRequest",
    "SDKControlRequest",
    "SDKControlResponse",
    "SDKControlRewindFilesRequest",
    "SDKControlSetPermissionModeRequest",
    "SDKControlStopTaskRequest",
    "SDKHookCallbackRequest",
    "SessionUsage",
    "UsageResponse",
]
ControlHandler = Callable[[dict[str, Any]], Awaitable["dict[str, Any] | None"]]
"""Answers one request from the binary; the returned dict is the ``response``."""


McpServerConnectionStatus = Literal["connected", "failed", "needs-auth", "pending", "disabled"]
"""Where an MCP server's connection stands."""


class McpServerInfo(TypedDict):
    """What a connected MCP server said about itself in its handshake."""

    name: str
    version: str


class McpToolAnnotations(TypedDict, total=False):
    """Hints about an MCP tool, as ``get_mcp_status()`` reports them."""

    readOnly: bool
    destructive: bool
    openWorld: bool


class McpToolInfo(TypedDict):
    """One tool of an MCP server, as ``get_mcp_status()`` reports it."""

    name: str
    description: NotRequired[str]
    annotations: NotRequired[McpToolAnnotations]


class McpSdkServerConfigStatus(TypedDict):
    """An in-process server's configuration in a status reply (no ``instance``)."""

    type: Literal["sdk"]
    name: str


class McpClaudeAIProxyServerConfig(TypedDict):
    """A server reached through claude.ai (only ever reported, never configured)."""

    type: Literal["claudeai-proxy"]
    url: str
    id: str


McpServerStatusConfig = Union[
    McpStdioServerConfig,
    McpSSEServerConfig,
    McpHttpServerConfig,
    McpSdkServerConfigStatus,
    McpClaudeAIProxyServerConfig,
]
"""A server's configuration as a status reply shows it."""


class McpServerStatus(TypedDict, total=False):
    """One MCP server as ``get_mcp_status()`` reports it."""

    name: Required[str]
    status: Required[McpServerConnectionStatus]
    serverInfo: McpServerInfo
    error: str
    config: McpServerStatusConfig
    scope: str
    tools: list[McpToolInfo]


class McpStatusResponse(TypedDict, total=False):
    """Reply of ``get_mcp_status()``."""

    mcpServers: Required[list[McpServerStatus]]


class ContextUsageCategory(TypedDict, total=False):
    """One slice of the context window."""

    id: str
    name: Required[str]
    tokens: Required[int]
    color: Required[str]
    kind: str
    isDeferred: bool


class ContextUsageResponse(TypedDict, total=False):
    """Reply of ``get_context_usage()``: what fills the context window, the
    data behind the binary's ``/context`` view."""

    categories: Required[list[ContextUsageCategory]]
    totalTokens: Required[int]
    maxTokens: Required[int]
    """The usable window (the raw one minus the auto-compact reserve)."""
    rawMaxTokens: Required[int]
    percentage: Required[float]
    model: Required[str]
    isAutoCompactEnabled: Required[bool]
    autoCompactThreshold: int
    autocompactSource: str
    memoryFiles: Required[list[dict[str, Any]]]
    """CLAUDE.md and memory files, with their paths and token counts."""
    mcpTools: Required[list[dict[str, Any]]]
    mcpInstructions: Any
    agents: Required[list[dict[str, Any]]]
    skills: dict[str, Any]
    slashCommands: dict[str, Any]
    messageBreakdown: dict[str, Any]
    systemTools: list[dict[str, Any]]
    systemPromptSections: list[dict[str, Any]]
    deferredBuiltinTools: list[dict[str, Any]]
    apiUsage: dict[str, Any] | None
    gridRows: Required[list[list[dict[str, Any]]]]


class SessionUsage(TypedDict, total=False):
    """Cost and duration of the session so far."""

    total_cost_usd: float
    total_api_duration_ms: int
    total_duration_ms: int
    total_lines_added: int
    total_lines_removed: int
    model_usage: dict[str, Any]


class UsageResponse(TypedDict, total=False):
    """Reply of ``get_usage()``."""

    session: SessionUsage
    subscription_type: str | None
    rate_limits_available: bool
    rate_limits: Any
    behaviors: Any


class RewindFilesResult(TypedDict, total=False):
    """Reply of ``rewind_files()`` (``filesChanged`` etc. with ``dry_run``)."""

    canRewind: bool
    error: str
    filesChanged: list[str]
    insertions: int
    deletions: int
    skippedLinks: int


class ModelInfo(TypedDict, total=False):
    """One model the binary offers."""

    value: str
    resolvedModel: str
    displayName: str
    description: str
    supportsEffort: bool
    supportedEffortLevels: list[str]
    supportsAdaptiveThinking: bool


class ReloadPluginsResponse(TypedDict, total=False):
    """Reply of ``reload_plugins()``."""

    commands: list[dict[str, Any]]
    agents: list[dict[str, Any]]
    plugins: list[dict[str, Any]]
    mcpServers: list[dict[str, Any]]
    error_count: int


class SlashCommand(TypedDict, total=False):
    """A command or skill the session offers (``supported_commands()``)."""

    name: Required[str]
    description: Required[str]
    argumentHint: Required[str]
    aliases: list[str]
    builtin: bool


class AgentInfo(TypedDict, total=False):
    """A subagent the session offers (``supported_agents()``)."""

    name: Required[str]
    description: Required[str]
    model: str


class AccountInfo(TypedDict, total=False):
    """Who the session runs as (``account_info()``); keys the binary knows."""

    email: str
    organization: str
    subscriptionType: str
    tokenSource: str
    apiKeySource: str
    apiProvider: str


class SDKControlInitializeResponse(TypedDict, total=False):
    """The binary's answer to ``initialize`` (``initialization_result()``,
    ``reinitialize()``)."""

    commands: list[SlashCommand]
    agents: list[AgentInfo]
    output_style: str
    available_output_styles: list[str]
    models: list[ModelInfo]
    account: AccountInfo
    pid: int
    claude_code_version: str
    current_permission_mode: str
    hooks_applied: bool
    hook_on_failure_supported: bool
    plugins_applied: bool
    mcp_servers_applied: bool
    fast_mode_state: str
    fast_mode_disabled_reason: str
    session_state: str
    capabilities: Any


class InterruptResult(list[str]):
    """What ``interrupt()`` returns: the uuids of user messages that survive
    the interrupt (a list, as before), and in `cancelled` the ones an
    ``interrupt(cancel_queued=True)`` withdrew."""

    cancelled: list[str]

    def __init__(self, still_queued: list[str] = (), cancelled: list[str] = ()) -> None:  # type: ignore[assignment]
        super().__init__(still_queued)
        self.cancelled = list(cancelled)


class McpSetServersResult(TypedDict):
    """Reply of ``set_mcp_servers()``: the servers added and removed, and an
    error text per server that failed to start."""

    added: list[str]
    removed: list[str]
    errors: dict[str, str]


class ReadFileResponse(TypedDict, total=False):
    """Reply of ``read_file()``: the contents (UTF-8 text, or base64 when
    asked for), the absolute path read, and whether it was cut or lossy."""

    contents: Required[str]
    absPath: Required[str]
    requested_path: str
    truncated: bool
    encoding: Literal["base64"]
    lossy: bool


class McpResourceContent(TypedDict, total=False):
    """One item of an MCP resource: ``text``, or ``blob`` (base64)."""

    uri: Required[str]
    mimeType: str
    text: str
    blob: str


class McpReadResourceResponse(TypedDict, total=False):
    """Reply of ``read_mcp_resource()``: the server's ``resources/read`` result."""

    contents: Required[list[McpResourceContent]]


class TaskOutputResponse(TypedDict, total=False):
    """Reply of ``get_task_output()``: the end of a shell or Monitor task's
    output (at most the last 8 KiB) and the whole output's size."""

    output: Required[str]
    total_bytes: Required[int]
    truncated: bool


# -- control-protocol frames ----------------------------------------------------
# The shapes of the frames as they travel (stream-json on stdin/stdout), for
# code that inspects or builds them, e.g. around a custom Transport.


class SDKControlInterruptRequest(TypedDict):
    subtype: Literal["interrupt"]


class SDKControlPermissionRequest(TypedDict):
    """The binary asks whether a tool may run (answered by ``can_use_tool``)."""

    subtype: Literal["can_use_tool"]
    tool_name: str
    input: dict[str, Any]
    permission_suggestions: list[dict[str, Any]] | None
    blocked_path: str | None
    decision_reason: NotRequired[str]
    title: NotRequired[str]
    display_name: NotRequired[str]
    description: NotRequired[str]
    tool_use_id: str
    agent_id: NotRequired[str]


class SDKControlInitializeRequest(TypedDict):
    """Our first request: callbacks to register and session-wide settings."""

    subtype: Literal["initialize"]
    hooks: dict[str, Any] | None
    agents: NotRequired[dict[str, dict[str, Any]]]
    excludeDynamicSections: NotRequired[bool]
    systemPromptSnapshot: NotRequired[bool]
    skills: NotRequired[list[str]]
    forwardSubagentText: NotRequired[bool]


class SDKControlSetPermissionModeRequest(TypedDict):
    subtype: Literal["set_permission_mode"]
    mode: PermissionMode


class SDKHookCallbackRequest(TypedDict):
    """The binary runs one of our hook callbacks."""

    subtype: Literal["hook_callback"]
    callback_id: str
    input: Any
    tool_use_id: str | None


class SDKControlMcpMessageRequest(TypedDict):
    """A JSON-RPC message for one of our in-process MCP servers."""

    subtype: Literal["mcp_message"]
    server_name: str
    message: Any


class SDKControlRewindFilesRequest(TypedDict):
    subtype: Literal["rewind_files"]
    user_message_id: str


class SDKControlMcpReconnectRequest(TypedDict):
    subtype: Literal["mcp_reconnect"]
    serverName: str


class SDKControlMcpToggleRequest(TypedDict):
    subtype: Literal["mcp_toggle"]
    serverName: str
    enabled: bool


class SDKControlStopTaskRequest(TypedDict):
    subtype: Literal["stop_task"]
    task_id: str


class SDKControlRequest(TypedDict):
    """A ``control_request`` frame, in either direction."""

    type: Literal["control_request"]
    request_id: str
    request: Union[
        SDKControlInterruptRequest,
        SDKControlPermissionRequest,
        SDKControlInitializeRequest,
        SDKControlSetPermissionModeRequest,
        SDKHookCallbackRequest,
        SDKControlMcpMessageRequest,
        SDKControlRewindFilesRequest,
        SDKControlMcpReconnectRequest,
        SDKControlMcpToggleRequest,
        SDKControlStopTaskRequest,
    ]


class ControlResponse(TypedDict):
    subtype: Literal["success"]
    request_id: str
    response: dict[str, Any] | None


class ControlErrorResponse(TypedDict):
    subtype: Literal["error"]
    request_id: str
    error: str


class SDKControlResponse(TypedDict):
    """A ``control_response`` frame: the answer to a ``control_request``."""

    type: Literal["control_response"]
    response: Union[ControlResponse, ControlErrorResponse]
