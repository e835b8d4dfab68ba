"""In-process MCP servers: JSON-RPC over ``mcp_message`` control requests.

The binary speaks MCP to an ``sdk`` server by wrapping each JSON-RPC message
in a control request ``{"subtype": "mcp_message", "server_name", "message"}``
and expects ``{"mcp_response": <JSON-RPC reply>}`` back (protocol.md §4). The
handshake (``initialize``, ``notifications/initialized``, ``tools/list``)
happens before the binary answers our own ``initialize``; the session already
serves the binary's requests while it waits, so nothing special is needed.

Each control request runs as its own task in the session, so several
``tools/call``s run concurrently; ``notifications/cancelled`` cancels the one
it names. JSON-RPC ids are per connection, so the in-flight table lives in a
``_Connection`` per session and server, never in the (shareable) server.
"""

from __future__ import annotations

import dataclasses
import inspect
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import anyio

from ._mcp_tools import SdkMcpTool, ToolInputError, run_handler, tool_result

__all__ = [
    "SdkMcpPrompt",
    "SdkMcpResource",
    "SdkMcpServer",
    "create_sdk_mcp_server",
    "mcp_message_handler",
]

log = logging.getLogger("claude_wrap")

# JSON-RPC 2.0 error codes (and MCP's code for a cancelled request).
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
REQUEST_CANCELLED = -32800

_DEFAULT_PROTOCOL = "2025-06-18"
_NOTIFICATION_ACK: dict[str, Any] = {"jsonrpc": "2.0", "result": {}}


@dataclasses.dataclass
class SdkMcpResource:
    """A readable resource: ``read()`` (sync or async) returns ``str`` or ``bytes``."""

    uri: str
    name: str
    read: Callable[[], Any]
    description: str | None = None
    mime_type: str = "text/plain"

    def wire(self) -> dict[str, Any]:
        entry = {"uri": self.uri, "name": self.name, "mimeType": self.mime_type}
        if self.description:
            entry["description"] = self.description
        return entry


@dataclasses.dataclass
class SdkMcpPrompt:
    """A prompt template: ``render(arguments)`` (sync or async) returns the text,
    or a list of MCP prompt messages."""

    name: str
    render: Callable[[dict[str, str]], Any]
    description: str | None = None
    arguments: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    """MCP prompt arguments: ``[{"name": "topic", "description": ..., "required": True}]``."""

    def wire(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"name": self.name, "arguments": self.arguments}
        if self.description:
            entry["description"] = self.description
        return entry


class _RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


class SdkMcpServer:
    """An MCP server living in this process, made by ``create_sdk_mcp_server``.

    Tools can be added and removed at any time; while a ``ClaudeSDKClient``
    is connected, use its ``add_mcp_tool``/``remove_mcp_tool`` so the binary
    hears about the change and lists the tools again.
    """

    def __init__(
        self,
        name: str,
        version: str = "1.0.0",
        tools: Iterable[SdkMcpTool[Any]] = (),
        resources: Iterable[SdkMcpResource] = (),
        prompts: Iterable[SdkMcpPrompt] = (),
        instructions: str | None = None,
    ) -> None:
        self.name = name
        self.version = version
        self.instructions = instructions
        self.tools: dict[str, SdkMcpTool[Any]] = {}
        for item in tools:
            self.add_tool(item)
        self.resources = {r.uri: r for r in resources}
        self.prompts = {p.name: p for p in prompts}

    def __repr__(self) -> str:
        return f"SdkMcpServer({self.name!r}, tools={sorted(self.tools)})"

    def add_tool(self, new: SdkMcpTool[Any]) -> None:
        """Add (or replace) a tool. The schema is checked now."""
        if not isinstance(new, SdkMcpTool):
            raise TypeError(f"tools are made with @tool(...), got {type(new).__name__}")
        new.spec  # noqa: B018 - fail here, not when the binary lists the tools
        self.tools[new.name] = new

    def remove_tool(self, name: str) -> None:
        """Remove a tool; ``KeyError`` if there is none by that name."""
        del self.tools[name]

    # -- JSON-RPC --------------------------------------------------------------------

    def _capabilities(self) -> dict[str, Any]:
        caps: dict[str, Any] = {"tools": {"listChanged": True}}
        if self.resources:
            caps["resources"] = {}
        if self.prompts:
            caps["prompts"] = {}
        return caps

    async def handle(self, message: Mapping[str, Any], conn: _Connection) -> dict[str, Any] | None:
        """Answer one JSON-RPC message; ``None`` for a notification."""
        method = message.get("method")
        msg_id = message.get("id")
        params = message.get("params") or {}
        if not isinstance(method, str):
            return None  # a response to a request we never send: nothing to do
        if msg_id is None:
            self._notification(method, params, conn)
            return None
        try:
            if not isinstance(params, Mapping):
                raise _RpcError(INVALID_PARAMS, "params must be an object")
            result = await self._request(method, params, msg_id, conn)
        except _RpcError as exc:
            return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": exc.code, "message": exc.message}}
        return {"jsonrpc": "2.0", "id": msg_id, "result": result}

    def _notification(self, method: str, params: Any, conn: _Connection) -> None:
        if method == "notifications/cancelled" and isinstance(params, Mapping):
            scope = conn.inflight.get(_id_key(params.get("requestId")))
            if scope is not None:
                scope.cancel()
        # Everything else (initialized, roots/list_changed ...) needs no action.

    async def _request(self, method: str, params: Mapping[str, Any], msg_id: Any, conn: _Connection) -> Any:
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": params.get("protocolVersion") or _DEFAULT_PROTOCOL,
                "capabilities": self._capabilities(),
                "serverInfo": {"name": self.name, "version": self.version},
            }
            if self.instructions:
                result["instructions"] = self.instructions
            return result
        if method == "ping":
            return {}
        if method == "tools/list":
            return {"tools": [t.wire() for t in list(self.tools.values())]}
        if method == "tools/call":
            return await self._call_tool(params, msg_id, conn)
        if method == "resources/list" and self.resources:
            return {"resources": [r.wire() for r in self.resources.values()]}
        if method == "resources/templates/list" and self.resources:
            return {"resourceTemplates": []}
        if method == "resources/read" and self.resources:
            return await self._read_resource(params)
        if method == "prompts/list" and self.prompts:
            return {"prompts": [p.wire() for p in self.prompts.values()]}
        if method == "prompts/get" and self.prompts:
            return await self._get_prompt(params)
        raise _RpcError(METHOD_NOT_FOUND, f"Method not found: {method}")

    async def _call_tool(self, params: Mapping[str, Any], msg_id: Any, conn: _Connection) -> dict[str, Any]:
        name = params.get("name")
        if not isinstance(name, str):
            raise _RpcError(INVALID_PARAMS, "tools/call needs a tool 'name'")
        found = self.tools.get(name)
        if found is None:
            return _error_result(f"Tool '{name}' not found on MCP server '{self.name}'")
        arguments = params.get("arguments") or {}
        if not isinstance(arguments, dict):
            return _error_result(f"Invalid arguments for tool '{name}': expected an object")
        try:
            value = found.spec.validate(arguments)
        except ToolInputError as exc:
            return _error_result(f"Invalid arguments for tool '{name}': {exc}")
        key = _id_key(msg_id)
        scope = anyio.CancelScope()
        conn.inflight[key] = scope
        try:
            with scope:
                try:
                    return tool_result(await run_handler(found.handler, value))
                except Exception as exc:  # noqa: BLE001 - the model sees the error, the session lives on
                    log.warning("claude_wrap: MCP tool %s/%s raised", self.name, name, exc_info=True)
                    return _error_result(f"Tool '{name}' failed: {type(exc).__name__}: {exc}")
        finally:
            conn.inflight.pop(key, None)
        raise _RpcError(REQUEST_CANCELLED, "Request cancelled")

    async def _read_resource(self, params: Mapping[str, Any]) -> dict[str, Any]:
        uri = params.get("uri")
        resource = self.resources.get(uri) if isinstance(uri, str) else None
        if resource is None:
            raise _RpcError(INVALID_PARAMS, f"Resource not found: {uri}")
        data = await _maybe_await(resource.read())
        entry: dict[str, Any] = {"uri": resource.uri, "mimeType": resource.mime_type}
        if isinstance(data, (bytes, bytearray)):
            import base64

            entry["blob"] = base64.b64encode(bytes(data)).decode("ascii")
        else:
            entry["text"] = str(data)
        return {"contents": [entry]}

    async def _get_prompt(self, params: Mapping[str, Any]) -> dict[str, Any]:
        name = params.get("name")
        prompt = self.prompts.get(name) if isinstance(name, str) else None
        if prompt is None:
            raise _RpcError(INVALID_PARAMS, f"Prompt not found: {name}")
        arguments = params.get("arguments") or {}
        missing = [a["name"] for a in prompt.arguments if a.get("required") and a["name"] not in arguments]
        if missing:
            raise _RpcError(INVALID_PARAMS, f"Prompt '{name}' needs arguments: {', '.join(missing)}")
        rendered = await _maybe_await(prompt.render(dict(arguments)))
        if isinstance(rendered, str):
            rendered = [{"role": "user", "content": {"type": "text", "text": rendered}}]
        result: dict[str, Any] = {"messages": rendered}
        if prompt.description:
            result["description"] = prompt.description
        return result


def _error_result(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}


def _id_key(msg_id: Any) -> str:
    # JSON-RPC ids may be numbers or strings; 2 and "2" name the same request here.
    return str(msg_id)


def create_sdk_mcp_server(
    name: str,
    version: str = "1.0.0",
    tools: list[SdkMcpTool[Any]] | None = None,
    *,
    resources: list[SdkMcpResource] | None = None,
    prompts: list[SdkMcpPrompt] | None = None,
    instructions: str | None = None,
) -> Any:
    """An in-process MCP server, ready for ``ClaudeAgentOptions.mcp_servers``.

    Returns ``{"type": "sdk", "name": name, "instance": SdkMcpServer}``; use
    it as ``mcp_servers={"calc": create_sdk_mcp_server("calc", tools=[add])}``
    and allow its tools as ``mcp__calc__add``. Needs no ``mcp`` package.
    """
    from ._mcp_types import McpSdkServerConfig

    server = SdkMcpServer(name, version, tools or (), resources or (), prompts or (), instructions)
    return McpSdkServerConfig(type="sdk", name=name, instance=server)


# -- the control-request side ------------------------------------------------------------


@dataclasses.dataclass
class _Connection:
    """One session's view of one server: its in-flight calls by JSON-RPC id."""

    inflight: dict[str, anyio.CancelScope] = dataclasses.field(default_factory=dict)


Responder = Callable[[Mapping[str, Any]], Any]


def mcp_message_handler(instances: Mapping[str, Any]) -> Callable[[dict[str, Any]], Any]:
    """The session handler for ``mcp_message``, serving ``instances`` by name.

    A new handler (and so new per-connection state) is made for every session.
    """
    responders: dict[str, Responder] = {}
    for name, instance in instances.items():
        if isinstance(instance, SdkMcpServer):
            conn = _Connection()

            def respond(message: Mapping[str, Any], server: SdkMcpServer = instance, c: _Connection = conn) -> Any:
                return server.handle(message, c)

            responders[name] = respond
        else:
            from ._mcp_interop import LowLevelServerBridge

            responders[name] = LowLevelServerBridge(name, instance).handle

    async def handle(request: dict[str, Any]) -> dict[str, Any]:
        name = request.get("server_name")
        message = request.get("message")
        if not isinstance(message, Mapping):
            message = {}
        respond = responders.get(name) if isinstance(name, str) else None
        if respond is None:
            reply: Any = {
                "jsonrpc": "2.0",
                "id": message.get("id"),
                "error": {"code": METHOD_NOT_FOUND, "message": f"Server '{name}' not found"},
            }
        else:
            reply = await respond(message)
        return {"mcp_response": reply if reply is not None else _NOTIFICATION_ACK}

    return handle
