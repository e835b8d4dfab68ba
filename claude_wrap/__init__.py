"""claude_wrap: drive the Claude Code agent binary from Python.

A drop-in for the official ``claude-agent-sdk`` package (same public names)::

    from claude_wrap import query, ClaudeAgentOptions, AssistantMessage, TextBlock

    async for message in query(prompt="Hello"):
        ...

Importing this package is cheap: each public name is loaded from its module
on first use.

A map of the package, from the bottom up (each layer imports only the ones
below it; ``tests/unit/test_layers.py`` holds the code to that):

* ``_exceptions``, ``_lazy``, ``_callbacks``, ``_cache``,
  ``_distribution``, ``_version``: the foundation every layer may use;
* ``_process/``: the binary as a process: discovery, fetch and verify,
  spawn, line framing, shutdown, the guard that outlives a dead host;
* ``_mcp/``: in-process MCP servers, ``@tool`` and tool input schemas;
* ``_sessions/``: transcripts on disk, the ``SessionStore`` protocol and
  the stores, the spool of what a store did not take, the session helpers;
* ``_wire/``: stream-json as data: messages, control frames, hook and
  permission types, the codec;
* ``_launch/``: ``ClaudeAgentOptions`` and what a run is started with:
  argv, environment, the control plane and ``initialize``, ``explain()``;
* ``_run/``: one live binary: the session, the control protocol and the
  answering of the binary's requests, tracing, transcript mirroring,
  knowing when a run is over;
* the public surfaces: ``query`` (``_query``), ``ClaudeSDKClient``
  (``_client``), ``ClaudePool`` (``_pool``), ``claude_wrap.sync``,
  ``claude_wrap.cli`` (``_cli``) and ``claude_wrap.types``;
* ``testing/``: the scripted model and the pytest fixtures.

``docs/architecture.md`` follows one prompt out and one line back.
"""

from __future__ import annotations

# Not typing.TYPE_CHECKING: importing typing would be most of this import's cost.
TYPE_CHECKING = False

from claude_wrap._lazy import lazy_exports
from claude_wrap._version import __version__ as __version__

# The public surface, listed once: module (under claude_wrap) → the names it
# exports here. scripts/sync_exports.py writes the same list for type
# checkers into _exports.py.
_SURFACE: dict[str, str] = {
    # the public surfaces
    "_query": "query",
    "_client": "ClaudeSDKClient ExitInfo",
    "_pool": "ClaudePool prewarm",
    # _process: the binary as a process
    "_process.transport": "LineTransport SubprocessTransport",
    "_process.binary": "binary_info BinaryInfo find_binary",
    "_process.fetch": "fetch_binary",
    # _wire: what travels on the pipes
    "_wire.codec": "decode_line",
    "_wire.modes": "PermissionMode",
    "_wire.shapes": (
        "AssistantMessageError BackgroundTaskSummary FastModeDisabledReason FastModeState MessageOrigin "
        "MessageOriginKind ModelUsage RateLimitStatus RateLimitType ResultOutcome "
        "ServerToolName SessionCronSummary SystemInitData SystemInitMcpServer SystemInitPlugin "
        "SystemInitPluginError TaskNotificationOriginSubkind TaskNotificationStatus TaskUpdatedStatus "
        "TaskUsage TERMINAL_TASK_STATUSES"
    ),
    "_wire.system_views": (
        "ApiRetryMessage CompactBoundaryMessage InformationalMessage InitSystemMessage StatusMessage"
    ),
    "_wire.messages": (
        "AssistantMessage CallbackTimeoutMessage CitationsDelta ContentBlock ConversationResetMessage "
        "DeferredToolUse Delta "
        "HookEventMessage ImageBlock Message MirrorErrorMessage RateLimitEvent RateLimitInfo "
        "RedactedThinkingBlock ResultMessage ServerToolResultBlock ServerToolUseBlock SignatureDelta "
        "StreamEvent SystemMessage TaskNotificationMessage TaskProgressMessage TaskStartedMessage "
        "TaskUpdatedMessage TextBlock TextDelta ThinkingBlock ThinkingDelta ToolInputDelta "
        "ToolResultBlock ToolUseBlock UnknownBlock UnknownDelta UnknownMessage UserMessage"
    ),
    "_wire.stream": "Shown StreamAccumulator TextChunk ThinkingChunk ToolCall",
    "_wire.hooks": (
        "AsyncHookJSONOutput BaseHookInput ConfigChangeHookInput CwdChangedHookInput "
        "CwdChangedHookSpecificOutput DirectoryAddedHookInput ElicitationHookInput "
        "ElicitationHookSpecificOutput ElicitationResultHookInput ElicitationResultHookSpecificOutput "
        "FileChangedHookInput FileChangedHookSpecificOutput HookCallback HookContext HookEffort HookEvent "
        "HookInput HookJSONOutput HookMatcher HookSpecificOutput InstructionsLoadedHookInput "
        "MessageDisplayHookInput MessageDisplayHookSpecificOutput NotificationHookInput "
        "NotificationHookSpecificOutput PermissionDeniedHookInput PermissionDeniedHookSpecificOutput "
        "PermissionRequestHookInput PermissionRequestHookSpecificOutput PostCompactHookInput "
        "PostModelSwitchHookInput PostModelSwitchHookSpecificOutput PostToolBatchHookInput "
        "PostToolBatchHookSpecificOutput PostToolUseFailureHookInput PostToolUseFailureHookSpecificOutput "
        "PostToolUseHookInput PostToolUseHookSpecificOutput PreCompactHookInput PreModelSwitchHookInput "
        "PreModelSwitchHookSpecificOutput PreToolUseHookInput PreToolUseHookSpecificOutput "
        "SessionEndHookInput SessionStartHookInput SessionStartHookSpecificOutput SetupHookInput "
        "SetupHookSpecificOutput StopFailureHookInput StopHookInput StopHookSpecificOutput "
        "SubagentStartHookInput SubagentStartHookSpecificOutput SubagentStopHookInput "
        "SubagentStopHookSpecificOutput SyncHookJSONOutput TaskCompletedHookInput TaskCreatedHookInput "
        "TeammateIdleHookInput UserPromptExpansionHookInput UserPromptExpansionHookSpecificOutput "
        "UserPromptSubmitHookInput UserPromptSubmitHookSpecificOutput WorktreeCreateHookInput "
        "WorktreeCreateHookSpecificOutput WorktreeRemoveHookInput"
    ),
    "_wire.permissions": (
        "answer_user_questions ASK_USER_QUESTION CanUseTool OnUserQuestion PermissionBehavior "
        "PermissionResult PermissionResultAllow PermissionResultDeny PermissionRuleValue PermissionUpdate "
        "PermissionUpdateDestination ToolPermissionContext user_questions UserAnswers UserQuestion "
        "UserQuestionOption"
    ),
    "_wire.control": (
        "ContextUsageCategory ContextUsageResponse ControlErrorResponse ControlResponse "
        "McpClaudeAIProxyServerConfig McpSdkServerConfigStatus McpServerConnectionStatus McpServerInfo "
        "McpServerStatus McpServerStatusConfig McpStatusResponse McpToolAnnotations McpToolInfo ModelInfo "
        "ReloadPluginsResponse RewindFilesResult SDKControlInitializeRequest SDKControlInterruptRequest "
        "SDKControlMcpMessageRequest SDKControlMcpReconnectRequest SDKControlMcpToggleRequest "
        "SDKControlPermissionRequest SDKControlRequest SDKControlResponse SDKControlRewindFilesRequest "
        "SDKControlSetPermissionModeRequest SDKControlStopTaskRequest SDKHookCallbackRequest SessionUsage "
        "UsageResponse"
    ),
    # _launch: options, and what a run is started with
    "_launch.options": "ClaudeAgentOptions EffortLevel SettingSource",
    "_launch.checks": "OptionsWarning",
    "_launch.agents": "AgentDefinition",
    "_launch.option_types": (
        "SandboxIgnoreViolations SandboxNetworkConfig SandboxSettings SdkBeta SdkPluginConfig "
        "SystemPromptCustom SystemPromptFile SystemPromptPreset TaskBudget ThinkingConfig "
        "ThinkingConfigAdaptive ThinkingConfigDisabled ThinkingConfigEnabled ThinkingDisplay ToolsPreset"
    ),
    "_launch.control_plane": "CanUseToolShadowedWarning",
    # _run: one live binary
    "_run.custom_transport": "Transport",
    # _mcp: in-process MCP servers and tools
    "_mcp.config": (
        "McpHttpServerConfig McpSdkServerConfig McpServer McpServerConfig McpSSEServerConfig McpStdioServerConfig"
    ),
    "_mcp.server": "create_sdk_mcp_server SdkMcpPrompt SdkMcpResource SdkMcpServer",
    "_mcp.tools": "SdkMcpTool tool ToolAnnotations",
    # _sessions: transcripts on disk and in stores
    "_sessions.helpers": (
        "delete_session fork_session get_session_info get_session_messages get_subagent_messages "
        "list_sessions list_subagents rename_session tag_session"
    ),
    "_sessions.transcripts": "ForkSessionResult project_key_for_directory SDKSessionInfo SessionMessage",
    "_sessions.store_memory": "InMemorySessionStore",
    "_sessions.store": (
        "SessionKey SessionListSubkeysKey SessionStore SessionStoreEntry SessionStoreFlushMode "
        "SessionStoreListEntry SessionSummaryEntry"
    ),
    "_sessions.summary": "fold_session_summary",
    "_sessions.store_helpers": (
        "delete_session_via_store fork_session_via_store get_session_info_from_store "
        "get_session_messages_from_store get_subagent_messages_from_store import_session_to_store "
        "list_sessions_from_store list_subagents_from_store rename_session_via_store "
        "tag_session_via_store"
    ),
    "_sessions.store_sqlite": "SQLiteSessionStore",
    "_sessions.store_postgres": "PostgresSessionStore",
    "_sessions.store_redis": "RedisSessionStore",
    "_sessions.spool": "flush_pending",
    # errors
    "_exceptions": (
        "AuthenticationError ClaudeSDKError CLIConnectionError CLIJSONDecodeError CLINotFoundError ControlError "
        "ControlRejectedError ControlTimeoutError LaunchValueError LineTooLongError MessageParseError "
        "ProcessError ResultError SessionStateError SessionStoreError StoreTimeoutError "
        "StructuredOutputError TransportClosedError TurnTimeoutError"
    ),
}

_EXPORTS = {name: module for module, names in _SURFACE.items() for name in names.split()}

if TYPE_CHECKING:
    from claude_wrap._exports import *  # noqa: F403 - the generated names, for type checkers
    from claude_wrap._exports import __all__ as __all__
else:
    __all__ = sorted([*_EXPORTS, "__version__"])

# Only at run time: a type checker reads the imports below, and sees no
# module __getattr__ that would make any misspelt name type-check.
if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), __all__)
