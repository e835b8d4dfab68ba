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
* the public surfaces, in tiers, each importing only the ones before it:
  ``query`` (``_query``) and ``ClaudeSDKClient`` (``_client``);
  ``ClaudePool`` (``_pool``); the package's names (this module and
  ``claude_wrap.types``); the fleet's machinery (``_fleet/``: tasks,
  workers, batches, the local and Ray backends) and ``claude_wrap.fleet``;
  ``claude_wrap.sync``; ``claude_wrap.cli`` (``_cli``);
* ``testing/``: the scripted model and the pytest fixtures.

``docs/architecture.md`` follows one prompt out and one line back.
"""

from __future__ import annotations

# Not typing.TYPE_CHECKING: importing typing would be most of this import's cost.
TYPE_CHECKING = False

from claude_wrap._lazy import lazy_exports, surface_names
from claude_wrap._version import __version__ as __version__

# The public surface, listed once: module (under claude_wrap) → the names it
# exports here. Names after "types:" are types, which claude_wrap.types
# offers too. scripts/sync_exports.py writes the imports type checkers read
# (the block at the end of this file, and the one in types.py) from it.
_SURFACE: dict[str, str] = {
    # the public surfaces
    "_query": "query",
    "_client": "ClaudeSDKClient types: ExitInfo",
    "_pool": "ClaudePool prewarm",
    # _process: the binary as a process
    "_process.transport": "LineTransport SubprocessTransport",
    "_process.binary": "binary_info BinaryInfo find_binary",
    "_process.fetch": "fetch_binary",
    # _wire: what travels on the pipes
    "_wire.codec": "decode_line",
    "_wire.modes": "types: PermissionMode",
    "_wire.shapes": (
        "ORG_POLICY_LIMIT_PREFIXES USAGE_LIMIT_ERROR_PREFIXES USAGE_TRANSITION_PREFIXES USAGE_WARNING_PREFIXES "
        "types: AssistantMessageError BackgroundTaskSummary FastModeDisabledReason FastModeState MessageOrigin "
        "MessageOriginKind ModelUsage RateLimitStatus RateLimitType ResultOutcome ServerToolName "
        "SessionCronSummary SystemInitData SystemInitMcpServer SystemInitPlugin SystemInitPluginError "
        "TaskNotificationOriginSubkind TaskNotificationStatus TaskUpdatedStatus TaskUsage TERMINAL_TASK_STATUSES"
    ),
    "_wire.system_views": (
        "system_view types: ResultDetails ApiRetryMessage BackgroundTasksChangedMessage CommandsChangedMessage "
        "CompactBoundaryMessage ControlRequestProgressMessage ElicitationCompleteMessage "
        "FilesPersistedMessage HookProgressMessage HookResponseMessage HookStartedMessage "
        "InformationalMessage InitSystemMessage LocalCommandOutputMessage MemoryRecallMessage "
        "ModelRefusalFallbackMessage ModelRefusalNoFallbackMessage NotificationMessage "
        "PermissionDeniedMessage PluginInstallMessage SessionStateChangedMessage SessionWritesLostMessage "
        "StatusMessage ThinkingTokensMessage WorkerShuttingDownMessage"
    ),
    "_wire.messages": (
        "types: AssistantMessage CallbackTimeoutMessage CitationsDelta ContentBlock ConversationResetMessage "
        "DeferredToolUse Delta HookEventMessage ImageBlock Message MirrorErrorMessage RateLimitEvent RateLimitInfo "
        "RedactedThinkingBlock ResultMessage ServerToolResultBlock ServerToolUseBlock SignatureDelta StreamEvent "
        "SystemMessage TaskNotificationMessage TaskProgressMessage TaskStartedMessage TaskUpdatedMessage TextBlock "
        "TextDelta ThinkingBlock ThinkingDelta ToolInputDelta ToolResultBlock ToolUseBlock UnknownBlock "
        "UnknownDelta UnknownMessage UserMessage ActiveGoalMessage AuthStatusMessage PromptSuggestionMessage "
        "ToolProgressMessage ToolUseSummaryMessage"
    ),
    "_wire.builtin_tools": (
        "BUILTIN_TOOL_INPUTS BUILTIN_TOOL_OUTPUTS types: AgentInput AgentOutput ArtifactInput ArtifactOutput "
        "AskUserQuestionInput AskUserQuestionOutput BashInput BashOutput ClaudeDesignInput ClaudeDesignOutput "
        "CronCreateInput CronCreateOutput CronDeleteInput CronDeleteOutput CronListInput CronListOutput "
        "EnterPlanModeInput EnterPlanModeOutput EnterWorktreeInput EnterWorktreeOutput ExitPlanModeInput "
        "ExitPlanModeOutput ExitWorktreeInput ExitWorktreeOutput FileEditInput FileEditOutput FileReadInput "
        "FileReadOutput FileWriteInput FileWriteOutput GlobInput GlobOutput GrepInput GrepOutput "
        "ListMcpResourcesInput ListMcpResourcesOutput McpInput McpOutput MonitorInput MonitorOutput "
        "NotebookEditInput NotebookEditOutput OfferChromeSetupInput OfferChromeSetupOutput ProjectsInput "
        "ProjectsOutput ProposeGoalInput ProposeGoalOutput ProposeSkillsInput ProposeSkillsOutput "
        "PushNotificationInput PushNotificationOutput ReadMcpResourceDirInput ReadMcpResourceDirOutput "
        "ReadMcpResourceInput ReadMcpResourceOutput ReadNotificationsInput ReadNotificationsOutput "
        "RefreshMcpToolsInput RefreshMcpToolsOutput RemoteTriggerInput RemoteTriggerOutput "
        "ReportFindingsInput ReportFindingsOutput ScheduleWakeupInput ScheduleWakeupOutput SendFeedbackInput "
        "SendFeedbackOutput ShowOnboardingRolePickerInput ShowOnboardingRolePickerOutput TaskCreateInput "
        "TaskCreateOutput TaskGetInput TaskGetOutput TaskListInput TaskListOutput TaskStopInput "
        "TaskStopOutput TaskUpdateInput TaskUpdateOutput TodoWriteInput TodoWriteOutput WebFetchInput "
        "WebFetchOutput WebSearchInput WebSearchOutput WorkflowInput WorkflowOutput"
    ),
    "_wire.stream": "StreamAccumulator types: Shown TextChunk ThinkingChunk ToolCall",
    "_wire.hooks": (
        "EXIT_REASONS HOOK_EVENTS types: AsyncHookJSONOutput BaseHookInput ConfigChangeHookInput CwdChangedHookInput "
        "CwdChangedHookSpecificOutput DirectoryAddedHookInput ElicitationHookInput ElicitationHookSpecificOutput "
        "ElicitationResultHookInput ElicitationResultHookSpecificOutput FileChangedHookInput "
        "FileChangedHookSpecificOutput HookCallback HookContext HookEffort HookEvent HookInput HookJSONOutput "
        "HookMatcher HookSpecificOutput InstructionsLoadedHookInput MessageDisplayHookInput "
        "MessageDisplayHookSpecificOutput NotificationHookInput NotificationHookSpecificOutput "
        "PermissionDeniedHookInput PermissionDeniedHookSpecificOutput PermissionRequestHookInput "
        "PermissionRequestHookSpecificOutput PostCompactHookInput PostModelSwitchHookInput "
        "PostModelSwitchHookSpecificOutput PostToolBatchHookInput PostToolBatchHookSpecificOutput "
        "PostToolUseFailureHookInput PostToolUseFailureHookSpecificOutput PostToolUseHookInput "
        "PostToolUseHookSpecificOutput PreCompactHookInput PreModelSwitchHookInput "
        "PreModelSwitchHookSpecificOutput PreSkillShellCommandHookInput PreSkillShellCommandHookSpecificOutput "
        "PreToolUseHookInput PreToolUseHookSpecificOutput SessionEndHookInput "
        "SessionStartHookInput SessionStartHookSpecificOutput SetupHookInput SetupHookSpecificOutput "
        "StopFailureHookInput StopHookInput StopHookSpecificOutput SubagentStartHookInput "
        "SubagentStartHookSpecificOutput SubagentStopHookInput SubagentStopHookSpecificOutput SyncHookJSONOutput "
        "TaskCompletedHookInput TaskCreatedHookInput TeammateIdleHookInput UserPromptExpansionHookInput "
        "UserPromptExpansionHookSpecificOutput UserPromptSubmitHookInput UserPromptSubmitHookSpecificOutput "
        "WorktreeCreateHookInput WorktreeCreateHookSpecificOutput WorktreeRemoveHookInput"
    ),
    "_wire.permissions": (
        "ANSWER_LATER answer_user_questions ASK_USER_QUESTION user_questions types: AnswerLater CanUseTool "
        "OnUserQuestion PermissionBehavior PermissionDecisionClassification PermissionResult "
        "PermissionResultAllow PermissionResultDeny PermissionRuleValue "
        "PermissionUpdate PermissionUpdateDestination ToolPermissionContext UserAnswers UserQuestion "
        "UserQuestionOption"
    ),
    "_wire.control": (
        "types: AccountInfo AgentInfo InterruptResult McpReadResourceResponse McpResourceContent McpSetServersResult "
        "ReadFileResponse SDKControlInitializeResponse SlashCommand TaskOutputResponse ContextUsageCategory ContextUsageResponse ControlErrorResponse ControlResponse "
        "McpClaudeAIProxyServerConfig McpSdkServerConfigStatus McpServerConnectionStatus McpServerInfo "
        "McpServerStatus McpServerStatusConfig McpStatusResponse McpToolAnnotations McpToolInfo ModelInfo "
        "ReloadPluginsResponse RewindFilesResult SDKControlInitializeRequest SDKControlInterruptRequest "
        "SDKControlMcpMessageRequest SDKControlMcpReconnectRequest SDKControlMcpToggleRequest "
        "SDKControlPermissionRequest SDKControlRequest SDKControlResponse SDKControlRewindFilesRequest "
        "SDKControlSetPermissionModeRequest SDKControlStopTaskRequest SDKHookCallbackRequest SessionUsage "
        "UsageResponse"
    ),
    # _launch: options, and what a run is started with
    "_launch.options": "types: ClaudeAgentOptions EffortLevel SettingSource",
    "_launch.checks": "OptionsWarning",
    "_launch.settings_types": "types: Settings",
    "_launch.agents": "types: AgentDefinition",
    "_launch.option_types": (
        "BUILTIN_TOOL_NAMES LEGACY_TOOL_NAME_ALIASES SYSTEM_PROMPT_DYNAMIC_BOUNDARY types: AskUserQuestionConfig SandboxIgnoreViolations SandboxNetworkConfig SandboxSettings SdkBeta SdkPluginConfig "
        "SystemPromptCustom SystemPromptFile SystemPromptPreset TaskBudget ThinkingConfig ThinkingConfigAdaptive "
        "ThinkingConfigDisabled ThinkingConfigEnabled ThinkingDisplay ToolConfig ToolsPreset"
    ),
    "_launch.control_plane": "types: CanUseToolShadowedWarning",
    # _run: one live binary
    "_run.custom_transport": "Transport",
    # _mcp: in-process MCP servers and tools
    "_mcp.config": (
        "types: McpHttpServerConfig McpSdkServerConfig McpServer McpServerConfig McpServerToolPolicy "
        "McpSSEServerConfig McpStdioServerConfig"
    ),
    "_mcp.server": "create_sdk_mcp_server SdkMcpPrompt SdkMcpResource SdkMcpServer",
    "_mcp.tools": "tool types: SdkMcpTool ToolAnnotations",
    # _sessions: transcripts on disk and in stores
    "_sessions.disk_helpers": (
        "archive_session unarchive_session delete_session fork_session get_session_info get_session_messages get_subagent_messages list_sessions "
        "list_subagents rename_session tag_session"
    ),
    "_sessions.transcripts": "project_key_for_directory types: ForkSessionResult SDKSessionInfo SessionMessage",
    "_sessions.store_memory": "InMemorySessionStore",
    "_sessions.store": (
        "types: SessionKey SessionListSubkeysKey SessionStore SessionStoreEntry SessionStoreFlushMode "
        "SessionStoreListEntry SessionSummaryEntry"
    ),
    "_sessions.summary": "fold_session_summary",
    "_sessions.store_helpers": (
        "delete_session_via_store fork_session_via_store get_session_info_from_store "
        "get_session_messages_from_store get_subagent_messages_from_store import_session_to_store "
        "list_sessions_from_store list_subagents_from_store rename_session_via_store tag_session_via_store"
    ),
    "_sessions.store_sqlite": "SQLiteSessionStore",
    "_sessions.store_postgres": "PostgresSessionStore",
    "_sessions.store_redis": "RedisSessionStore",
    "_sessions.spool": "flush_pending",
    # errors
    "_exceptions": (
        "AuthenticationError ClaudeSDKError CLIConnectionError CLIJSONDecodeError CLINotFoundError ControlError "
        "ControlRejectedError ControlTimeoutError LaunchValueError LineTooLongError MessageParseError ProcessError "
        "ResultError SessionStateError SessionStoreError StoreTimeoutError StructuredOutputError "
        "TransportClosedError TurnTimeoutError"
    ),
}

_EXPORTS, _TYPES = surface_names(_SURFACE)

if TYPE_CHECKING:
    # BEGIN generated: imports
    from claude_wrap._client import (
        ClaudeSDKClient as ClaudeSDKClient,
        ExitInfo as ExitInfo,
    )
    from claude_wrap._exceptions import (
        AuthenticationError as AuthenticationError,
        ClaudeSDKError as ClaudeSDKError,
        CLIConnectionError as CLIConnectionError,
        CLIJSONDecodeError as CLIJSONDecodeError,
        CLINotFoundError as CLINotFoundError,
        ControlError as ControlError,
        ControlRejectedError as ControlRejectedError,
        ControlTimeoutError as ControlTimeoutError,
        LaunchValueError as LaunchValueError,
        LineTooLongError as LineTooLongError,
        MessageParseError as MessageParseError,
        ProcessError as ProcessError,
        ResultError as ResultError,
        SessionStateError as SessionStateError,
        SessionStoreError as SessionStoreError,
        StoreTimeoutError as StoreTimeoutError,
        StructuredOutputError as StructuredOutputError,
        TransportClosedError as TransportClosedError,
        TurnTimeoutError as TurnTimeoutError,
    )
    from claude_wrap._launch.agents import (
        AgentDefinition as AgentDefinition,
    )
    from claude_wrap._launch.checks import (
        OptionsWarning as OptionsWarning,
    )
    from claude_wrap._launch.control_plane import (
        CanUseToolShadowedWarning as CanUseToolShadowedWarning,
    )
    from claude_wrap._launch.option_types import (
        BUILTIN_TOOL_NAMES as BUILTIN_TOOL_NAMES,
        LEGACY_TOOL_NAME_ALIASES as LEGACY_TOOL_NAME_ALIASES,
        SYSTEM_PROMPT_DYNAMIC_BOUNDARY as SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
        AskUserQuestionConfig as AskUserQuestionConfig,
        SandboxIgnoreViolations as SandboxIgnoreViolations,
        SandboxNetworkConfig as SandboxNetworkConfig,
        SandboxSettings as SandboxSettings,
        SdkBeta as SdkBeta,
        SdkPluginConfig as SdkPluginConfig,
        SystemPromptCustom as SystemPromptCustom,
        SystemPromptFile as SystemPromptFile,
        SystemPromptPreset as SystemPromptPreset,
        TaskBudget as TaskBudget,
        ThinkingConfig as ThinkingConfig,
        ThinkingConfigAdaptive as ThinkingConfigAdaptive,
        ThinkingConfigDisabled as ThinkingConfigDisabled,
        ThinkingConfigEnabled as ThinkingConfigEnabled,
        ThinkingDisplay as ThinkingDisplay,
        ToolConfig as ToolConfig,
        ToolsPreset as ToolsPreset,
    )
    from claude_wrap._launch.options import (
        ClaudeAgentOptions as ClaudeAgentOptions,
        EffortLevel as EffortLevel,
        SettingSource as SettingSource,
    )
    from claude_wrap._launch.settings_types import (
        Settings as Settings,
    )
    from claude_wrap._mcp.config import (
        McpHttpServerConfig as McpHttpServerConfig,
        McpSdkServerConfig as McpSdkServerConfig,
        McpServer as McpServer,
        McpServerConfig as McpServerConfig,
        McpServerToolPolicy as McpServerToolPolicy,
        McpSSEServerConfig as McpSSEServerConfig,
        McpStdioServerConfig as McpStdioServerConfig,
    )
    from claude_wrap._mcp.server import (
        SdkMcpPrompt as SdkMcpPrompt,
        SdkMcpResource as SdkMcpResource,
        SdkMcpServer as SdkMcpServer,
        create_sdk_mcp_server as create_sdk_mcp_server,
    )
    from claude_wrap._mcp.tools import (
        SdkMcpTool as SdkMcpTool,
        ToolAnnotations as ToolAnnotations,
        tool as tool,
    )
    from claude_wrap._pool import (
        ClaudePool as ClaudePool,
        prewarm as prewarm,
    )
    from claude_wrap._process.binary import (
        BinaryInfo as BinaryInfo,
        binary_info as binary_info,
        find_binary as find_binary,
    )
    from claude_wrap._process.fetch import (
        fetch_binary as fetch_binary,
    )
    from claude_wrap._process.transport import (
        LineTransport as LineTransport,
        SubprocessTransport as SubprocessTransport,
    )
    from claude_wrap._query import (
        query as query,
    )
    from claude_wrap._run.custom_transport import (
        Transport as Transport,
    )
    from claude_wrap._sessions.disk_helpers import (
        archive_session as archive_session,
        delete_session as delete_session,
        fork_session as fork_session,
        get_session_info as get_session_info,
        get_session_messages as get_session_messages,
        get_subagent_messages as get_subagent_messages,
        list_sessions as list_sessions,
        list_subagents as list_subagents,
        rename_session as rename_session,
        tag_session as tag_session,
        unarchive_session as unarchive_session,
    )
    from claude_wrap._sessions.spool import (
        flush_pending as flush_pending,
    )
    from claude_wrap._sessions.store import (
        SessionKey as SessionKey,
        SessionListSubkeysKey as SessionListSubkeysKey,
        SessionStore as SessionStore,
        SessionStoreEntry as SessionStoreEntry,
        SessionStoreFlushMode as SessionStoreFlushMode,
        SessionStoreListEntry as SessionStoreListEntry,
        SessionSummaryEntry as SessionSummaryEntry,
    )
    from claude_wrap._sessions.store_helpers import (
        delete_session_via_store as delete_session_via_store,
        fork_session_via_store as fork_session_via_store,
        get_session_info_from_store as get_session_info_from_store,
        get_session_messages_from_store as get_session_messages_from_store,
        get_subagent_messages_from_store as get_subagent_messages_from_store,
        import_session_to_store as import_session_to_store,
        list_sessions_from_store as list_sessions_from_store,
        list_subagents_from_store as list_subagents_from_store,
        rename_session_via_store as rename_session_via_store,
        tag_session_via_store as tag_session_via_store,
    )
    from claude_wrap._sessions.store_memory import (
        InMemorySessionStore as InMemorySessionStore,
    )
    from claude_wrap._sessions.store_postgres import (
        PostgresSessionStore as PostgresSessionStore,
    )
    from claude_wrap._sessions.store_redis import (
        RedisSessionStore as RedisSessionStore,
    )
    from claude_wrap._sessions.store_sqlite import (
        SQLiteSessionStore as SQLiteSessionStore,
    )
    from claude_wrap._sessions.summary import (
        fold_session_summary as fold_session_summary,
    )
    from claude_wrap._sessions.transcripts import (
        ForkSessionResult as ForkSessionResult,
        SDKSessionInfo as SDKSessionInfo,
        SessionMessage as SessionMessage,
        project_key_for_directory as project_key_for_directory,
    )
    from claude_wrap._wire.builtin_tools import (
        BUILTIN_TOOL_INPUTS as BUILTIN_TOOL_INPUTS,
        BUILTIN_TOOL_OUTPUTS as BUILTIN_TOOL_OUTPUTS,
        AgentInput as AgentInput,
        AgentOutput as AgentOutput,
        ArtifactInput as ArtifactInput,
        ArtifactOutput as ArtifactOutput,
        AskUserQuestionInput as AskUserQuestionInput,
        AskUserQuestionOutput as AskUserQuestionOutput,
        BashInput as BashInput,
        BashOutput as BashOutput,
        ClaudeDesignInput as ClaudeDesignInput,
        ClaudeDesignOutput as ClaudeDesignOutput,
        CronCreateInput as CronCreateInput,
        CronCreateOutput as CronCreateOutput,
        CronDeleteInput as CronDeleteInput,
        CronDeleteOutput as CronDeleteOutput,
        CronListInput as CronListInput,
        CronListOutput as CronListOutput,
        EnterPlanModeInput as EnterPlanModeInput,
        EnterPlanModeOutput as EnterPlanModeOutput,
        EnterWorktreeInput as EnterWorktreeInput,
        EnterWorktreeOutput as EnterWorktreeOutput,
        ExitPlanModeInput as ExitPlanModeInput,
        ExitPlanModeOutput as ExitPlanModeOutput,
        ExitWorktreeInput as ExitWorktreeInput,
        ExitWorktreeOutput as ExitWorktreeOutput,
        FileEditInput as FileEditInput,
        FileEditOutput as FileEditOutput,
        FileReadInput as FileReadInput,
        FileReadOutput as FileReadOutput,
        FileWriteInput as FileWriteInput,
        FileWriteOutput as FileWriteOutput,
        GlobInput as GlobInput,
        GlobOutput as GlobOutput,
        GrepInput as GrepInput,
        GrepOutput as GrepOutput,
        ListMcpResourcesInput as ListMcpResourcesInput,
        ListMcpResourcesOutput as ListMcpResourcesOutput,
        McpInput as McpInput,
        McpOutput as McpOutput,
        MonitorInput as MonitorInput,
        MonitorOutput as MonitorOutput,
        NotebookEditInput as NotebookEditInput,
        NotebookEditOutput as NotebookEditOutput,
        OfferChromeSetupInput as OfferChromeSetupInput,
        OfferChromeSetupOutput as OfferChromeSetupOutput,
        ProjectsInput as ProjectsInput,
        ProjectsOutput as ProjectsOutput,
        ProposeGoalInput as ProposeGoalInput,
        ProposeGoalOutput as ProposeGoalOutput,
        ProposeSkillsInput as ProposeSkillsInput,
        ProposeSkillsOutput as ProposeSkillsOutput,
        PushNotificationInput as PushNotificationInput,
        PushNotificationOutput as PushNotificationOutput,
        ReadMcpResourceDirInput as ReadMcpResourceDirInput,
        ReadMcpResourceDirOutput as ReadMcpResourceDirOutput,
        ReadMcpResourceInput as ReadMcpResourceInput,
        ReadMcpResourceOutput as ReadMcpResourceOutput,
        ReadNotificationsInput as ReadNotificationsInput,
        ReadNotificationsOutput as ReadNotificationsOutput,
        RefreshMcpToolsInput as RefreshMcpToolsInput,
        RefreshMcpToolsOutput as RefreshMcpToolsOutput,
        RemoteTriggerInput as RemoteTriggerInput,
        RemoteTriggerOutput as RemoteTriggerOutput,
        ReportFindingsInput as ReportFindingsInput,
        ReportFindingsOutput as ReportFindingsOutput,
        ScheduleWakeupInput as ScheduleWakeupInput,
        ScheduleWakeupOutput as ScheduleWakeupOutput,
        SendFeedbackInput as SendFeedbackInput,
        SendFeedbackOutput as SendFeedbackOutput,
        ShowOnboardingRolePickerInput as ShowOnboardingRolePickerInput,
        ShowOnboardingRolePickerOutput as ShowOnboardingRolePickerOutput,
        TaskCreateInput as TaskCreateInput,
        TaskCreateOutput as TaskCreateOutput,
        TaskGetInput as TaskGetInput,
        TaskGetOutput as TaskGetOutput,
        TaskListInput as TaskListInput,
        TaskListOutput as TaskListOutput,
        TaskStopInput as TaskStopInput,
        TaskStopOutput as TaskStopOutput,
        TaskUpdateInput as TaskUpdateInput,
        TaskUpdateOutput as TaskUpdateOutput,
        TodoWriteInput as TodoWriteInput,
        TodoWriteOutput as TodoWriteOutput,
        WebFetchInput as WebFetchInput,
        WebFetchOutput as WebFetchOutput,
        WebSearchInput as WebSearchInput,
        WebSearchOutput as WebSearchOutput,
        WorkflowInput as WorkflowInput,
        WorkflowOutput as WorkflowOutput,
    )
    from claude_wrap._wire.codec import (
        decode_line as decode_line,
    )
    from claude_wrap._wire.control import (
        AccountInfo as AccountInfo,
        AgentInfo as AgentInfo,
        ContextUsageCategory as ContextUsageCategory,
        ContextUsageResponse as ContextUsageResponse,
        ControlErrorResponse as ControlErrorResponse,
        ControlResponse as ControlResponse,
        InterruptResult as InterruptResult,
        McpClaudeAIProxyServerConfig as McpClaudeAIProxyServerConfig,
        McpReadResourceResponse as McpReadResourceResponse,
        McpResourceContent as McpResourceContent,
        McpSdkServerConfigStatus as McpSdkServerConfigStatus,
        McpServerConnectionStatus as McpServerConnectionStatus,
        McpServerInfo as McpServerInfo,
        McpServerStatus as McpServerStatus,
        McpServerStatusConfig as McpServerStatusConfig,
        McpSetServersResult as McpSetServersResult,
        McpStatusResponse as McpStatusResponse,
        McpToolAnnotations as McpToolAnnotations,
        McpToolInfo as McpToolInfo,
        ModelInfo as ModelInfo,
        ReadFileResponse as ReadFileResponse,
        ReloadPluginsResponse as ReloadPluginsResponse,
        RewindFilesResult as RewindFilesResult,
        SDKControlInitializeRequest as SDKControlInitializeRequest,
        SDKControlInitializeResponse as SDKControlInitializeResponse,
        SDKControlInterruptRequest as SDKControlInterruptRequest,
        SDKControlMcpMessageRequest as SDKControlMcpMessageRequest,
        SDKControlMcpReconnectRequest as SDKControlMcpReconnectRequest,
        SDKControlMcpToggleRequest as SDKControlMcpToggleRequest,
        SDKControlPermissionRequest as SDKControlPermissionRequest,
        SDKControlRequest as SDKControlRequest,
        SDKControlResponse as SDKControlResponse,
        SDKControlRewindFilesRequest as SDKControlRewindFilesRequest,
        SDKControlSetPermissionModeRequest as SDKControlSetPermissionModeRequest,
        SDKControlStopTaskRequest as SDKControlStopTaskRequest,
        SDKHookCallbackRequest as SDKHookCallbackRequest,
        SessionUsage as SessionUsage,
        SlashCommand as SlashCommand,
        TaskOutputResponse as TaskOutputResponse,
        UsageResponse as UsageResponse,
    )
    from claude_wrap._wire.hooks import (
        EXIT_REASONS as EXIT_REASONS,
        HOOK_EVENTS as HOOK_EVENTS,
        AsyncHookJSONOutput as AsyncHookJSONOutput,
        BaseHookInput as BaseHookInput,
        ConfigChangeHookInput as ConfigChangeHookInput,
        CwdChangedHookInput as CwdChangedHookInput,
        CwdChangedHookSpecificOutput as CwdChangedHookSpecificOutput,
        DirectoryAddedHookInput as DirectoryAddedHookInput,
        ElicitationHookInput as ElicitationHookInput,
        ElicitationHookSpecificOutput as ElicitationHookSpecificOutput,
        ElicitationResultHookInput as ElicitationResultHookInput,
        ElicitationResultHookSpecificOutput as ElicitationResultHookSpecificOutput,
        FileChangedHookInput as FileChangedHookInput,
        FileChangedHookSpecificOutput as FileChangedHookSpecificOutput,
        HookCallback as HookCallback,
        HookContext as HookContext,
        HookEffort as HookEffort,
        HookEvent as HookEvent,
        HookInput as HookInput,
        HookJSONOutput as HookJSONOutput,
        HookMatcher as HookMatcher,
        HookSpecificOutput as HookSpecificOutput,
        InstructionsLoadedHookInput as InstructionsLoadedHookInput,
        MessageDisplayHookInput as MessageDisplayHookInput,
        MessageDisplayHookSpecificOutput as MessageDisplayHookSpecificOutput,
        NotificationHookInput as NotificationHookInput,
        NotificationHookSpecificOutput as NotificationHookSpecificOutput,
        PermissionDeniedHookInput as PermissionDeniedHookInput,
        PermissionDeniedHookSpecificOutput as PermissionDeniedHookSpecificOutput,
        PermissionRequestHookInput as PermissionRequestHookInput,
        PermissionRequestHookSpecificOutput as PermissionRequestHookSpecificOutput,
        PostCompactHookInput as PostCompactHookInput,
        PostModelSwitchHookInput as PostModelSwitchHookInput,
        PostModelSwitchHookSpecificOutput as PostModelSwitchHookSpecificOutput,
        PostToolBatchHookInput as PostToolBatchHookInput,
        PostToolBatchHookSpecificOutput as PostToolBatchHookSpecificOutput,
        PostToolUseFailureHookInput as PostToolUseFailureHookInput,
        PostToolUseFailureHookSpecificOutput as PostToolUseFailureHookSpecificOutput,
        PostToolUseHookInput as PostToolUseHookInput,
        PostToolUseHookSpecificOutput as PostToolUseHookSpecificOutput,
        PreCompactHookInput as PreCompactHookInput,
        PreModelSwitchHookInput as PreModelSwitchHookInput,
        PreModelSwitchHookSpecificOutput as PreModelSwitchHookSpecificOutput,
        PreSkillShellCommandHookInput as PreSkillShellCommandHookInput,
        PreSkillShellCommandHookSpecificOutput as PreSkillShellCommandHookSpecificOutput,
        PreToolUseHookInput as PreToolUseHookInput,
        PreToolUseHookSpecificOutput as PreToolUseHookSpecificOutput,
        SessionEndHookInput as SessionEndHookInput,
        SessionStartHookInput as SessionStartHookInput,
        SessionStartHookSpecificOutput as SessionStartHookSpecificOutput,
        SetupHookInput as SetupHookInput,
        SetupHookSpecificOutput as SetupHookSpecificOutput,
        StopFailureHookInput as StopFailureHookInput,
        StopHookInput as StopHookInput,
        StopHookSpecificOutput as StopHookSpecificOutput,
        SubagentStartHookInput as SubagentStartHookInput,
        SubagentStartHookSpecificOutput as SubagentStartHookSpecificOutput,
        SubagentStopHookInput as SubagentStopHookInput,
        SubagentStopHookSpecificOutput as SubagentStopHookSpecificOutput,
        SyncHookJSONOutput as SyncHookJSONOutput,
        TaskCompletedHookInput as TaskCompletedHookInput,
        TaskCreatedHookInput as TaskCreatedHookInput,
        TeammateIdleHookInput as TeammateIdleHookInput,
        UserPromptExpansionHookInput as UserPromptExpansionHookInput,
        UserPromptExpansionHookSpecificOutput as UserPromptExpansionHookSpecificOutput,
        UserPromptSubmitHookInput as UserPromptSubmitHookInput,
        UserPromptSubmitHookSpecificOutput as UserPromptSubmitHookSpecificOutput,
        WorktreeCreateHookInput as WorktreeCreateHookInput,
        WorktreeCreateHookSpecificOutput as WorktreeCreateHookSpecificOutput,
        WorktreeRemoveHookInput as WorktreeRemoveHookInput,
    )
    from claude_wrap._wire.messages import (
        ActiveGoalMessage as ActiveGoalMessage,
        AssistantMessage as AssistantMessage,
        AuthStatusMessage as AuthStatusMessage,
        CallbackTimeoutMessage as CallbackTimeoutMessage,
        CitationsDelta as CitationsDelta,
        ContentBlock as ContentBlock,
        ConversationResetMessage as ConversationResetMessage,
        DeferredToolUse as DeferredToolUse,
        Delta as Delta,
        HookEventMessage as HookEventMessage,
        ImageBlock as ImageBlock,
        Message as Message,
        MirrorErrorMessage as MirrorErrorMessage,
        PromptSuggestionMessage as PromptSuggestionMessage,
        RateLimitEvent as RateLimitEvent,
        RateLimitInfo as RateLimitInfo,
        RedactedThinkingBlock as RedactedThinkingBlock,
        ResultMessage as ResultMessage,
        ServerToolResultBlock as ServerToolResultBlock,
        ServerToolUseBlock as ServerToolUseBlock,
        SignatureDelta as SignatureDelta,
        StreamEvent as StreamEvent,
        SystemMessage as SystemMessage,
        TaskNotificationMessage as TaskNotificationMessage,
        TaskProgressMessage as TaskProgressMessage,
        TaskStartedMessage as TaskStartedMessage,
        TaskUpdatedMessage as TaskUpdatedMessage,
        TextBlock as TextBlock,
        TextDelta as TextDelta,
        ThinkingBlock as ThinkingBlock,
        ThinkingDelta as ThinkingDelta,
        ToolInputDelta as ToolInputDelta,
        ToolProgressMessage as ToolProgressMessage,
        ToolResultBlock as ToolResultBlock,
        ToolUseBlock as ToolUseBlock,
        ToolUseSummaryMessage as ToolUseSummaryMessage,
        UnknownBlock as UnknownBlock,
        UnknownDelta as UnknownDelta,
        UnknownMessage as UnknownMessage,
        UserMessage as UserMessage,
    )
    from claude_wrap._wire.modes import (
        PermissionMode as PermissionMode,
    )
    from claude_wrap._wire.permissions import (
        ANSWER_LATER as ANSWER_LATER,
        ASK_USER_QUESTION as ASK_USER_QUESTION,
        AnswerLater as AnswerLater,
        CanUseTool as CanUseTool,
        OnUserQuestion as OnUserQuestion,
        PermissionBehavior as PermissionBehavior,
        PermissionDecisionClassification as PermissionDecisionClassification,
        PermissionResult as PermissionResult,
        PermissionResultAllow as PermissionResultAllow,
        PermissionResultDeny as PermissionResultDeny,
        PermissionRuleValue as PermissionRuleValue,
        PermissionUpdate as PermissionUpdate,
        PermissionUpdateDestination as PermissionUpdateDestination,
        ToolPermissionContext as ToolPermissionContext,
        UserAnswers as UserAnswers,
        UserQuestion as UserQuestion,
        UserQuestionOption as UserQuestionOption,
        answer_user_questions as answer_user_questions,
        user_questions as user_questions,
    )
    from claude_wrap._wire.shapes import (
        ORG_POLICY_LIMIT_PREFIXES as ORG_POLICY_LIMIT_PREFIXES,
        TERMINAL_TASK_STATUSES as TERMINAL_TASK_STATUSES,
        USAGE_LIMIT_ERROR_PREFIXES as USAGE_LIMIT_ERROR_PREFIXES,
        USAGE_TRANSITION_PREFIXES as USAGE_TRANSITION_PREFIXES,
        USAGE_WARNING_PREFIXES as USAGE_WARNING_PREFIXES,
        AssistantMessageError as AssistantMessageError,
        BackgroundTaskSummary as BackgroundTaskSummary,
        FastModeDisabledReason as FastModeDisabledReason,
        FastModeState as FastModeState,
        MessageOrigin as MessageOrigin,
        MessageOriginKind as MessageOriginKind,
        ModelUsage as ModelUsage,
        RateLimitStatus as RateLimitStatus,
        RateLimitType as RateLimitType,
        ResultOutcome as ResultOutcome,
        ServerToolName as ServerToolName,
        SessionCronSummary as SessionCronSummary,
        SystemInitData as SystemInitData,
        SystemInitMcpServer as SystemInitMcpServer,
        SystemInitPlugin as SystemInitPlugin,
        SystemInitPluginError as SystemInitPluginError,
        TaskNotificationOriginSubkind as TaskNotificationOriginSubkind,
        TaskNotificationStatus as TaskNotificationStatus,
        TaskUpdatedStatus as TaskUpdatedStatus,
        TaskUsage as TaskUsage,
    )
    from claude_wrap._wire.stream import (
        Shown as Shown,
        StreamAccumulator as StreamAccumulator,
        TextChunk as TextChunk,
        ThinkingChunk as ThinkingChunk,
        ToolCall as ToolCall,
    )
    from claude_wrap._wire.system_views import (
        ApiRetryMessage as ApiRetryMessage,
        BackgroundTasksChangedMessage as BackgroundTasksChangedMessage,
        CommandsChangedMessage as CommandsChangedMessage,
        CompactBoundaryMessage as CompactBoundaryMessage,
        ControlRequestProgressMessage as ControlRequestProgressMessage,
        ElicitationCompleteMessage as ElicitationCompleteMessage,
        FilesPersistedMessage as FilesPersistedMessage,
        HookProgressMessage as HookProgressMessage,
        HookResponseMessage as HookResponseMessage,
        HookStartedMessage as HookStartedMessage,
        InformationalMessage as InformationalMessage,
        InitSystemMessage as InitSystemMessage,
        LocalCommandOutputMessage as LocalCommandOutputMessage,
        MemoryRecallMessage as MemoryRecallMessage,
        ModelRefusalFallbackMessage as ModelRefusalFallbackMessage,
        ModelRefusalNoFallbackMessage as ModelRefusalNoFallbackMessage,
        NotificationMessage as NotificationMessage,
        PermissionDeniedMessage as PermissionDeniedMessage,
        PluginInstallMessage as PluginInstallMessage,
        ResultDetails as ResultDetails,
        SessionStateChangedMessage as SessionStateChangedMessage,
        SessionWritesLostMessage as SessionWritesLostMessage,
        StatusMessage as StatusMessage,
        ThinkingTokensMessage as ThinkingTokensMessage,
        WorkerShuttingDownMessage as WorkerShuttingDownMessage,
        system_view as system_view,
    )

    __all__ = [
        "ANSWER_LATER",
        "ASK_USER_QUESTION",
        "AccountInfo",
        "ActiveGoalMessage",
        "AgentDefinition",
        "AgentInfo",
        "AgentInput",
        "AgentOutput",
        "AnswerLater",
        "ApiRetryMessage",
        "ArtifactInput",
        "ArtifactOutput",
        "AskUserQuestionConfig",
        "AskUserQuestionInput",
        "AskUserQuestionOutput",
        "AssistantMessage",
        "AssistantMessageError",
        "AsyncHookJSONOutput",
        "AuthStatusMessage",
        "AuthenticationError",
        "BUILTIN_TOOL_INPUTS",
        "BUILTIN_TOOL_NAMES",
        "BUILTIN_TOOL_OUTPUTS",
        "BackgroundTaskSummary",
        "BackgroundTasksChangedMessage",
        "BaseHookInput",
        "BashInput",
        "BashOutput",
        "BinaryInfo",
        "CLIConnectionError",
        "CLIJSONDecodeError",
        "CLINotFoundError",
        "CallbackTimeoutMessage",
        "CanUseTool",
        "CanUseToolShadowedWarning",
        "CitationsDelta",
        "ClaudeAgentOptions",
        "ClaudeDesignInput",
        "ClaudeDesignOutput",
        "ClaudePool",
        "ClaudeSDKClient",
        "ClaudeSDKError",
        "CommandsChangedMessage",
        "CompactBoundaryMessage",
        "ConfigChangeHookInput",
        "ContentBlock",
        "ContextUsageCategory",
        "ContextUsageResponse",
        "ControlError",
        "ControlErrorResponse",
        "ControlRejectedError",
        "ControlRequestProgressMessage",
        "ControlResponse",
        "ControlTimeoutError",
        "ConversationResetMessage",
        "CronCreateInput",
        "CronCreateOutput",
        "CronDeleteInput",
        "CronDeleteOutput",
        "CronListInput",
        "CronListOutput",
        "CwdChangedHookInput",
        "CwdChangedHookSpecificOutput",
        "DeferredToolUse",
        "Delta",
        "DirectoryAddedHookInput",
        "EXIT_REASONS",
        "EffortLevel",
        "ElicitationCompleteMessage",
        "ElicitationHookInput",
        "ElicitationHookSpecificOutput",
        "ElicitationResultHookInput",
        "ElicitationResultHookSpecificOutput",
        "EnterPlanModeInput",
        "EnterPlanModeOutput",
        "EnterWorktreeInput",
        "EnterWorktreeOutput",
        "ExitInfo",
        "ExitPlanModeInput",
        "ExitPlanModeOutput",
        "ExitWorktreeInput",
        "ExitWorktreeOutput",
        "FastModeDisabledReason",
        "FastModeState",
        "FileChangedHookInput",
        "FileChangedHookSpecificOutput",
        "FileEditInput",
        "FileEditOutput",
        "FileReadInput",
        "FileReadOutput",
        "FileWriteInput",
        "FileWriteOutput",
        "FilesPersistedMessage",
        "ForkSessionResult",
        "GlobInput",
        "GlobOutput",
        "GrepInput",
        "GrepOutput",
        "HOOK_EVENTS",
        "HookCallback",
        "HookContext",
        "HookEffort",
        "HookEvent",
        "HookEventMessage",
        "HookInput",
        "HookJSONOutput",
        "HookMatcher",
        "HookProgressMessage",
        "HookResponseMessage",
        "HookSpecificOutput",
        "HookStartedMessage",
        "ImageBlock",
        "InMemorySessionStore",
        "InformationalMessage",
        "InitSystemMessage",
        "InstructionsLoadedHookInput",
        "InterruptResult",
        "LEGACY_TOOL_NAME_ALIASES",
        "LaunchValueError",
        "LineTooLongError",
        "LineTransport",
        "ListMcpResourcesInput",
        "ListMcpResourcesOutput",
        "LocalCommandOutputMessage",
        "McpClaudeAIProxyServerConfig",
        "McpHttpServerConfig",
        "McpInput",
        "McpOutput",
        "McpReadResourceResponse",
        "McpResourceContent",
        "McpSSEServerConfig",
        "McpSdkServerConfig",
        "McpSdkServerConfigStatus",
        "McpServer",
        "McpServerConfig",
        "McpServerConnectionStatus",
        "McpServerInfo",
        "McpServerStatus",
        "McpServerStatusConfig",
        "McpServerToolPolicy",
        "McpSetServersResult",
        "McpStatusResponse",
        "McpStdioServerConfig",
        "McpToolAnnotations",
        "McpToolInfo",
        "MemoryRecallMessage",
        "Message",
        "MessageDisplayHookInput",
        "MessageDisplayHookSpecificOutput",
        "MessageOrigin",
        "MessageOriginKind",
        "MessageParseError",
        "MirrorErrorMessage",
        "ModelInfo",
        "ModelRefusalFallbackMessage",
        "ModelRefusalNoFallbackMessage",
        "ModelUsage",
        "MonitorInput",
        "MonitorOutput",
        "NotebookEditInput",
        "NotebookEditOutput",
        "NotificationHookInput",
        "NotificationHookSpecificOutput",
        "NotificationMessage",
        "ORG_POLICY_LIMIT_PREFIXES",
        "OfferChromeSetupInput",
        "OfferChromeSetupOutput",
        "OnUserQuestion",
        "OptionsWarning",
        "PermissionBehavior",
        "PermissionDecisionClassification",
        "PermissionDeniedHookInput",
        "PermissionDeniedHookSpecificOutput",
        "PermissionDeniedMessage",
        "PermissionMode",
        "PermissionRequestHookInput",
        "PermissionRequestHookSpecificOutput",
        "PermissionResult",
        "PermissionResultAllow",
        "PermissionResultDeny",
        "PermissionRuleValue",
        "PermissionUpdate",
        "PermissionUpdateDestination",
        "PluginInstallMessage",
        "PostCompactHookInput",
        "PostModelSwitchHookInput",
        "PostModelSwitchHookSpecificOutput",
        "PostToolBatchHookInput",
        "PostToolBatchHookSpecificOutput",
        "PostToolUseFailureHookInput",
        "PostToolUseFailureHookSpecificOutput",
        "PostToolUseHookInput",
        "PostToolUseHookSpecificOutput",
        "PostgresSessionStore",
        "PreCompactHookInput",
        "PreModelSwitchHookInput",
        "PreModelSwitchHookSpecificOutput",
        "PreSkillShellCommandHookInput",
        "PreSkillShellCommandHookSpecificOutput",
        "PreToolUseHookInput",
        "PreToolUseHookSpecificOutput",
        "ProcessError",
        "ProjectsInput",
        "ProjectsOutput",
        "PromptSuggestionMessage",
        "ProposeGoalInput",
        "ProposeGoalOutput",
        "ProposeSkillsInput",
        "ProposeSkillsOutput",
        "PushNotificationInput",
        "PushNotificationOutput",
        "RateLimitEvent",
        "RateLimitInfo",
        "RateLimitStatus",
        "RateLimitType",
        "ReadFileResponse",
        "ReadMcpResourceDirInput",
        "ReadMcpResourceDirOutput",
        "ReadMcpResourceInput",
        "ReadMcpResourceOutput",
        "ReadNotificationsInput",
        "ReadNotificationsOutput",
        "RedactedThinkingBlock",
        "RedisSessionStore",
        "RefreshMcpToolsInput",
        "RefreshMcpToolsOutput",
        "ReloadPluginsResponse",
        "RemoteTriggerInput",
        "RemoteTriggerOutput",
        "ReportFindingsInput",
        "ReportFindingsOutput",
        "ResultDetails",
        "ResultError",
        "ResultMessage",
        "ResultOutcome",
        "RewindFilesResult",
        "SDKControlInitializeRequest",
        "SDKControlInitializeResponse",
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
        "SDKSessionInfo",
        "SQLiteSessionStore",
        "SYSTEM_PROMPT_DYNAMIC_BOUNDARY",
        "SandboxIgnoreViolations",
        "SandboxNetworkConfig",
        "SandboxSettings",
        "ScheduleWakeupInput",
        "ScheduleWakeupOutput",
        "SdkBeta",
        "SdkMcpPrompt",
        "SdkMcpResource",
        "SdkMcpServer",
        "SdkMcpTool",
        "SdkPluginConfig",
        "SendFeedbackInput",
        "SendFeedbackOutput",
        "ServerToolName",
        "ServerToolResultBlock",
        "ServerToolUseBlock",
        "SessionCronSummary",
        "SessionEndHookInput",
        "SessionKey",
        "SessionListSubkeysKey",
        "SessionMessage",
        "SessionStartHookInput",
        "SessionStartHookSpecificOutput",
        "SessionStateChangedMessage",
        "SessionStateError",
        "SessionStore",
        "SessionStoreEntry",
        "SessionStoreError",
        "SessionStoreFlushMode",
        "SessionStoreListEntry",
        "SessionSummaryEntry",
        "SessionUsage",
        "SessionWritesLostMessage",
        "SettingSource",
        "Settings",
        "SetupHookInput",
        "SetupHookSpecificOutput",
        "ShowOnboardingRolePickerInput",
        "ShowOnboardingRolePickerOutput",
        "Shown",
        "SignatureDelta",
        "SlashCommand",
        "StatusMessage",
        "StopFailureHookInput",
        "StopHookInput",
        "StopHookSpecificOutput",
        "StoreTimeoutError",
        "StreamAccumulator",
        "StreamEvent",
        "StructuredOutputError",
        "SubagentStartHookInput",
        "SubagentStartHookSpecificOutput",
        "SubagentStopHookInput",
        "SubagentStopHookSpecificOutput",
        "SubprocessTransport",
        "SyncHookJSONOutput",
        "SystemInitData",
        "SystemInitMcpServer",
        "SystemInitPlugin",
        "SystemInitPluginError",
        "SystemMessage",
        "SystemPromptCustom",
        "SystemPromptFile",
        "SystemPromptPreset",
        "TERMINAL_TASK_STATUSES",
        "TaskBudget",
        "TaskCompletedHookInput",
        "TaskCreateInput",
        "TaskCreateOutput",
        "TaskCreatedHookInput",
        "TaskGetInput",
        "TaskGetOutput",
        "TaskListInput",
        "TaskListOutput",
        "TaskNotificationMessage",
        "TaskNotificationOriginSubkind",
        "TaskNotificationStatus",
        "TaskOutputResponse",
        "TaskProgressMessage",
        "TaskStartedMessage",
        "TaskStopInput",
        "TaskStopOutput",
        "TaskUpdateInput",
        "TaskUpdateOutput",
        "TaskUpdatedMessage",
        "TaskUpdatedStatus",
        "TaskUsage",
        "TeammateIdleHookInput",
        "TextBlock",
        "TextChunk",
        "TextDelta",
        "ThinkingBlock",
        "ThinkingChunk",
        "ThinkingConfig",
        "ThinkingConfigAdaptive",
        "ThinkingConfigDisabled",
        "ThinkingConfigEnabled",
        "ThinkingDelta",
        "ThinkingDisplay",
        "ThinkingTokensMessage",
        "TodoWriteInput",
        "TodoWriteOutput",
        "ToolAnnotations",
        "ToolCall",
        "ToolConfig",
        "ToolInputDelta",
        "ToolPermissionContext",
        "ToolProgressMessage",
        "ToolResultBlock",
        "ToolUseBlock",
        "ToolUseSummaryMessage",
        "ToolsPreset",
        "Transport",
        "TransportClosedError",
        "TurnTimeoutError",
        "USAGE_LIMIT_ERROR_PREFIXES",
        "USAGE_TRANSITION_PREFIXES",
        "USAGE_WARNING_PREFIXES",
        "UnknownBlock",
        "UnknownDelta",
        "UnknownMessage",
        "UsageResponse",
        "UserAnswers",
        "UserMessage",
        "UserPromptExpansionHookInput",
        "UserPromptExpansionHookSpecificOutput",
        "UserPromptSubmitHookInput",
        "UserPromptSubmitHookSpecificOutput",
        "UserQuestion",
        "UserQuestionOption",
        "WebFetchInput",
        "WebFetchOutput",
        "WebSearchInput",
        "WebSearchOutput",
        "WorkerShuttingDownMessage",
        "WorkflowInput",
        "WorkflowOutput",
        "WorktreeCreateHookInput",
        "WorktreeCreateHookSpecificOutput",
        "WorktreeRemoveHookInput",
        "__version__",
        "answer_user_questions",
        "archive_session",
        "binary_info",
        "create_sdk_mcp_server",
        "decode_line",
        "delete_session",
        "delete_session_via_store",
        "fetch_binary",
        "find_binary",
        "flush_pending",
        "fold_session_summary",
        "fork_session",
        "fork_session_via_store",
        "get_session_info",
        "get_session_info_from_store",
        "get_session_messages",
        "get_session_messages_from_store",
        "get_subagent_messages",
        "get_subagent_messages_from_store",
        "import_session_to_store",
        "list_sessions",
        "list_sessions_from_store",
        "list_subagents",
        "list_subagents_from_store",
        "prewarm",
        "project_key_for_directory",
        "query",
        "rename_session",
        "rename_session_via_store",
        "system_view",
        "tag_session",
        "tag_session_via_store",
        "tool",
        "unarchive_session",
        "user_questions",
    ]
    # END generated
else:
    __all__ = sorted([*_EXPORTS, "__version__"])
    # Only at run time: a type checker reads the imports above, and sees no
    # module __getattr__ that would make any misspelt name type-check.
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), __all__)
