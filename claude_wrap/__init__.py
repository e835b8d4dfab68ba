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

__all__ = sorted([*_EXPORTS, "__version__"])


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
