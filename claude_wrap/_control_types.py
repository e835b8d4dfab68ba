"""Typed replies of the binary's control calls (plain dicts at runtime).

Field names are the binary's own; every type is ``total=False`` because
the binary adds and omits keys between versions.
"""

from __future__ import annotations

from typing import Any, Literal

from typing_extensions import TypedDict

__all__ = [
    "ContextUsageCategory",
    "ContextUsageResponse",
    "McpServerStatus",
    "McpStatusResponse",
    "ModelInfo",
    "ReloadPluginsResponse",
    "RewindFilesResult",
    "SessionUsage",
    "UsageResponse",
]

McpServerConnectionStatus = Literal["connected", "failed", "needs-auth", "pending", "disabled"]


class McpServerStatus(TypedDict, total=False):
    """One MCP server as ``get_mcp_status()`` reports it."""

    name: str
    status: McpServerConnectionStatus
    serverInfo: dict[str, Any]
    error: str
    config: dict[str, Any]
    scope: str
    tools: list[dict[str, Any]]


class McpStatusResponse(TypedDict, total=False):
    """Reply of ``get_mcp_status()``."""

    mcpServers: list[McpServerStatus]


class ContextUsageCategory(TypedDict, total=False):
    """One slice of the context window."""

    id: str
    name: str
    tokens: int
    color: str
    kind: str
    isDeferred: bool


class ContextUsageResponse(TypedDict, total=False):
    """Reply of ``get_context_usage()``."""

    categories: list[ContextUsageCategory]
    totalTokens: int
    maxTokens: int
    rawMaxTokens: int
    percentage: float
    autocompactSource: str
    gridRows: list[list[dict[str, Any]]]


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
