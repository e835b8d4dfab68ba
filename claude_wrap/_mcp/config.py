"""MCP server configurations accepted by ``ClaudeAgentOptions.mcp_servers``.

Plain ``TypedDict``s with the official package's names and keys: stdio, SSE
and HTTP servers run outside Python and are started (or called) by the
binary itself; an ``sdk`` server runs inside this process and is reached
through ``mcp_message`` control requests. This module imports nothing heavy,
because ``ClaudeAgentOptions`` needs it at definition time.
"""

# No ``from __future__ import annotations``: TypedDict must see ``NotRequired``
# itself, not a string, to know which keys are optional.
from typing import Any, Literal, Union

from typing_extensions import NotRequired, TypedDict

__all__ = [
    "McpHttpServerConfig",
    "McpSSEServerConfig",
    "McpSdkServerConfig",
    "McpServer",
    "McpServerConfig",
    "McpServerToolPolicy",
    "McpStdioServerConfig",
]


class McpServerToolPolicy(TypedDict):
    """A remote server's rule for one of its tools (``tools`` of an SSE or HTTP config)."""

    name: str
    permission_policy: NotRequired[Literal["always_allow", "always_ask", "always_deny"]]
    org_max_permission: NotRequired[Literal["allow", "ask", "blocked"]]


class McpStdioServerConfig(TypedDict):
    """A server the binary starts as a subprocess and talks to over stdin/stdout."""

    type: NotRequired[Literal["stdio"]]
    command: str
    args: NotRequired[list[str]]
    env: NotRequired[dict[str, str]]
    timeout: NotRequired[int]
    """The binary's limit for one tool call, in milliseconds (overrides ``MCP_TOOL_TIMEOUT``)."""
    alwaysLoad: NotRequired[bool]
    """Offer every tool of the server from the first request, never deferred behind tool search."""


class McpSSEServerConfig(TypedDict):
    """A remote server reached over Server-Sent Events."""

    type: Literal["sse"]
    url: str
    headers: NotRequired[dict[str, str]]
    tools: NotRequired[list[McpServerToolPolicy]]
    timeout: NotRequired[int]
    alwaysLoad: NotRequired[bool]


class McpHttpServerConfig(TypedDict):
    """A remote server reached over streamable HTTP."""

    type: Literal["http"]
    url: str
    headers: NotRequired[dict[str, str]]
    tools: NotRequired[list[McpServerToolPolicy]]
    timeout: NotRequired[int]
    alwaysLoad: NotRequired[bool]


McpServer = Any
"""An ``mcp`` low-level ``Server`` (typed loosely: the ``mcp`` package is an
optional extra, never imported here)."""


class McpSdkServerConfig(TypedDict):
    """An in-process server: made by ``create_sdk_mcp_server()``, or any
    ``mcp`` low-level ``Server`` as ``instance`` (needs the ``mcp`` extra)."""

    type: Literal["sdk"]
    name: str
    instance: McpServer
    timeout: NotRequired[int]
    """The binary's limit for one tool call, in milliseconds."""


McpServerConfig = Union[McpStdioServerConfig, McpSSEServerConfig, McpHttpServerConfig, McpSdkServerConfig]
"""Any one entry of ``ClaudeAgentOptions.mcp_servers``."""

_KNOWN_TYPES = ("stdio", "sse", "http", "sdk")


def check_server_config(name: str, config: Any) -> None:
    """Raise ``ValueError`` naming the entry if ``config`` cannot be a server config.

    Only the keys that decide how the binary reaches the server are checked;
    anything else passes through to the binary, which knows more types
    (``ws``, ``claudeai-proxy``) than we model here.
    """
    if not isinstance(config, dict):
        raise ValueError(f"mcp_servers[{name!r}] must be a dict, got {type(config).__name__}")
    kind = config.get("type", "stdio")
    if kind == "sdk":
        if config.get("instance") is None:
            raise ValueError(
                f"mcp_servers[{name!r}] is an sdk server without an instance; build it with create_sdk_mcp_server()"
            )
    elif kind == "stdio":
        if not isinstance(config.get("command"), str) or not config["command"]:
            raise ValueError(f"mcp_servers[{name!r}] is a stdio server and needs a 'command' string")
    elif kind in ("sse", "http"):
        if not isinstance(config.get("url"), str) or not config["url"]:
            raise ValueError(f"mcp_servers[{name!r}] is an {kind} server and needs a 'url' string")
    elif not isinstance(kind, str):
        raise ValueError(f"mcp_servers[{name!r}]['type'] must be one of {', '.join(_KNOWN_TYPES)}")


def wire_config(servers: dict[str, Any]) -> dict[str, Any]:
    """The ``--mcp-config`` JSON object: each entry as given, except that sdk
    entries lose their live ``instance``."""
    out: dict[str, Any] = {}
    for name, config in servers.items():
        if isinstance(config, dict) and config.get("type") == "sdk":
            out[name] = {k: v for k, v in config.items() if k != "instance"}
        else:
            out[name] = config
    return {"mcpServers": out}
