"""claude_wrap: drive the Claude Code agent binary from Python.

A drop-in for the official ``claude-agent-sdk`` package (same public names)::

    from claude_wrap import query, ClaudeAgentOptions, AssistantMessage, TextBlock

    async for message in query(prompt="Hello"):
        ...

Importing this package is cheap: each public name is loaded from its module
on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Public name → the private module that defines it.
_EXPORTS: dict[str, str] = {
    # entry points
    "query": "_query",
    "ClaudeSDKClient": "_client",
    "ClaudeAgentOptions": "_options",
    "Transport": "_transport",
    "SubprocessTransport": "_transport",
    "decode_line": "_codec",
    # binary discovery
    "BinaryInfo": "_binary",
    "binary_info": "_binary",
    "find_binary": "_binary",
    "fetch_binary": "_binary",
    # option types
    "EffortLevel": "_options",
    "PermissionMode": "_options",
    "SettingSource": "_options",
    "SystemPromptFile": "_options",
    "SystemPromptPreset": "_options",
    "ToolsPreset": "_options",
    # messages and content blocks
    "ApiRetryMessage": "_messages",
    "AssistantMessage": "_messages",
    "CompactBoundaryMessage": "_messages",
    "ContentBlock": "_messages",
    "HookEventMessage": "_messages",
    "ImageBlock": "_messages",
    "InformationalMessage": "_messages",
    "InitSystemMessage": "_messages",
    "Message": "_messages",
    "RateLimitEvent": "_messages",
    "RateLimitInfo": "_messages",
    "RedactedThinkingBlock": "_messages",
    "ResultMessage": "_messages",
    "ServerToolResultBlock": "_messages",
    "ServerToolUseBlock": "_messages",
    "StatusMessage": "_messages",
    "StreamEvent": "_messages",
    "SystemMessage": "_messages",
    "TaskNotificationMessage": "_messages",
    "TaskProgressMessage": "_messages",
    "TaskStartedMessage": "_messages",
    "TaskUpdatedMessage": "_messages",
    "TaskUsage": "_messages",
    "TextBlock": "_messages",
    "ThinkingBlock": "_messages",
    "ToolResultBlock": "_messages",
    "ToolUseBlock": "_messages",
    "UnknownBlock": "_messages",
    "UnknownMessage": "_messages",
    "UserMessage": "_messages",
    # hooks
    "AsyncHookJSONOutput": "_hook_types",
    "BaseHookInput": "_hook_types",
    "HookCallback": "_hook_types",
    "HookContext": "_hook_types",
    "HookEvent": "_hook_types",
    "HookInput": "_hook_types",
    "HookJSONOutput": "_hook_types",
    "HookMatcher": "_hook_types",
    "HookSpecificOutput": "_hook_types",
    "NotificationHookInput": "_hook_types",
    "PermissionRequestHookInput": "_hook_types",
    "PostToolUseFailureHookInput": "_hook_types",
    "PostToolUseHookInput": "_hook_types",
    "PreCompactHookInput": "_hook_types",
    "PreToolUseHookInput": "_hook_types",
    "StopHookInput": "_hook_types",
    "SubagentStartHookInput": "_hook_types",
    "SubagentStopHookInput": "_hook_types",
    "SyncHookJSONOutput": "_hook_types",
    "UserPromptSubmitHookInput": "_hook_types",
    # permissions
    "CanUseTool": "_permission_types",
    "CanUseToolShadowedWarning": "_control_plane",
    "PermissionResult": "_permission_types",
    "PermissionResultAllow": "_permission_types",
    "PermissionResultDeny": "_permission_types",
    "PermissionRuleValue": "_permission_types",
    "PermissionUpdate": "_permission_types",
    "ToolPermissionContext": "_permission_types",
    # control replies
    "ContextUsageResponse": "_control_types",
    "McpServerStatus": "_control_types",
    "McpStatusResponse": "_control_types",
    "ModelInfo": "_control_types",
    "RewindFilesResult": "_control_types",
    "UsageResponse": "_control_types",
    # errors
    "CLIConnectionError": "_exceptions",
    "CLIJSONDecodeError": "_exceptions",
    "CLINotFoundError": "_exceptions",
    "CallbackError": "_exceptions",
    "ClaudeSDKError": "_exceptions",
    "ControlError": "_exceptions",
    "ControlRejectedError": "_exceptions",
    "ControlTimeoutError": "_exceptions",
    "LineTooLongError": "_exceptions",
    "ProcessError": "_exceptions",
    "ResultError": "_exceptions",
    "SessionStateError": "_exceptions",
    "StartupError": "_exceptions",
    "TransportClosedError": "_exceptions",
    "TurnTimeoutError": "_exceptions",
}

__all__ = [
    "ApiRetryMessage",
    "AssistantMessage",
    "AsyncHookJSONOutput",
    "BaseHookInput",
    "BinaryInfo",
    "CLIConnectionError",
    "CLIJSONDecodeError",
    "CLINotFoundError",
    "CallbackError",
    "CanUseTool",
    "CanUseToolShadowedWarning",
    "ClaudeAgentOptions",
    "ClaudeSDKClient",
    "ClaudeSDKError",
    "CompactBoundaryMessage",
    "ContentBlock",
    "ContextUsageResponse",
    "ControlError",
    "ControlRejectedError",
    "ControlTimeoutError",
    "EffortLevel",
    "HookCallback",
    "HookContext",
    "HookEvent",
    "HookEventMessage",
    "HookInput",
    "HookJSONOutput",
    "HookMatcher",
    "HookSpecificOutput",
    "ImageBlock",
    "InformationalMessage",
    "InitSystemMessage",
    "LineTooLongError",
    "McpServerStatus",
    "McpStatusResponse",
    "Message",
    "ModelInfo",
    "NotificationHookInput",
    "PermissionMode",
    "PermissionRequestHookInput",
    "PermissionResult",
    "PermissionResultAllow",
    "PermissionResultDeny",
    "PermissionRuleValue",
    "PermissionUpdate",
    "PostToolUseFailureHookInput",
    "PostToolUseHookInput",
    "PreCompactHookInput",
    "PreToolUseHookInput",
    "ProcessError",
    "RateLimitEvent",
    "RateLimitInfo",
    "RedactedThinkingBlock",
    "ResultError",
    "ResultMessage",
    "RewindFilesResult",
    "ServerToolResultBlock",
    "ServerToolUseBlock",
    "SessionStateError",
    "SettingSource",
    "StartupError",
    "StatusMessage",
    "StopHookInput",
    "StreamEvent",
    "SubagentStartHookInput",
    "SubagentStopHookInput",
    "SubprocessTransport",
    "SyncHookJSONOutput",
    "SystemMessage",
    "SystemPromptFile",
    "SystemPromptPreset",
    "TaskNotificationMessage",
    "TaskProgressMessage",
    "TaskStartedMessage",
    "TaskUpdatedMessage",
    "TaskUsage",
    "TextBlock",
    "ThinkingBlock",
    "ToolPermissionContext",
    "ToolResultBlock",
    "ToolUseBlock",
    "ToolsPreset",
    "Transport",
    "TransportClosedError",
    "TurnTimeoutError",
    "UnknownBlock",
    "UnknownMessage",
    "UsageResponse",
    "UserMessage",
    "UserPromptSubmitHookInput",
    "__version__",
    "binary_info",
    "decode_line",
    "fetch_binary",
    "find_binary",
    "query",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'claude_wrap' has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:
    from ._binary import BinaryInfo, binary_info, fetch_binary, find_binary
    from ._client import ClaudeSDKClient
    from ._control_plane import CanUseToolShadowedWarning
    from ._control_types import (
        ContextUsageResponse,
        McpServerStatus,
        McpStatusResponse,
        ModelInfo,
        RewindFilesResult,
        UsageResponse,
    )
    from ._hook_types import (
        AsyncHookJSONOutput,
        BaseHookInput,
        HookCallback,
        HookContext,
        HookEvent,
        HookInput,
        HookJSONOutput,
        HookMatcher,
        HookSpecificOutput,
        NotificationHookInput,
        PermissionRequestHookInput,
        PostToolUseFailureHookInput,
        PostToolUseHookInput,
        PreCompactHookInput,
        PreToolUseHookInput,
        StopHookInput,
        SubagentStartHookInput,
        SubagentStopHookInput,
        SyncHookJSONOutput,
        UserPromptSubmitHookInput,
    )
    from ._permission_types import (
        CanUseTool,
        PermissionResult,
        PermissionResultAllow,
        PermissionResultDeny,
        PermissionRuleValue,
        PermissionUpdate,
        ToolPermissionContext,
    )
    from ._codec import decode_line
    from ._exceptions import (
        CallbackError,
        ClaudeSDKError,
        CLIConnectionError,
        CLIJSONDecodeError,
        CLINotFoundError,
        ControlError,
        ControlRejectedError,
        ControlTimeoutError,
        LineTooLongError,
        ProcessError,
        ResultError,
        SessionStateError,
        StartupError,
        TransportClosedError,
        TurnTimeoutError,
    )
    from ._messages import (
        ApiRetryMessage,
        AssistantMessage,
        CompactBoundaryMessage,
        ContentBlock,
        HookEventMessage,
        ImageBlock,
        InformationalMessage,
        InitSystemMessage,
        Message,
        RateLimitEvent,
        RateLimitInfo,
        RedactedThinkingBlock,
        ResultMessage,
        ServerToolResultBlock,
        ServerToolUseBlock,
        StatusMessage,
        StreamEvent,
        SystemMessage,
        TaskNotificationMessage,
        TaskProgressMessage,
        TaskStartedMessage,
        TaskUpdatedMessage,
        TaskUsage,
        TextBlock,
        ThinkingBlock,
        ToolResultBlock,
        ToolUseBlock,
        UnknownBlock,
        UnknownMessage,
        UserMessage,
    )
    from ._options import (
        ClaudeAgentOptions,
        EffortLevel,
        PermissionMode,
        SettingSource,
        SystemPromptFile,
        SystemPromptPreset,
        ToolsPreset,
    )
    from ._query import query
    from ._transport import SubprocessTransport, Transport
