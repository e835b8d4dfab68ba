"""In-process MCP servers: JSON-RPC over ``mcp_message`` control requests.

The binary speaks MCP to an ``sdk`` server by wrapping each JSON-RPC message
in a control request ``{"subtype": "mcp_message", "server_name", "message"}``
and expects ``{"mcp_response": <JSON-RPC reply>}`` back (protocol.md §4). The
handshake (``initialize``, ``notifications/initialized``, ``tools/list``)
happens before the binary answers our own ``initialize``; the session already
serves the binary's requests while it waits, so nothing special is needed.

The answers are the official package's, as the binary sees them (it serves
the same tools with the ``mcp`` package's server): the same ``initialize``
result and protocol negotiation, the same JSON-RPC errors for unknown
methods, bad parameters and requests before the handshake, and for a tool
call the same result: unknown tools, arguments that do not fit the schema
and handlers that raise all become ``isError`` results with the official
wording, and result content is shaped as there (``_content``).

Each control request runs as its own task in the session, so several
``tools/call``s run concurrently; ``notifications/cancelled`` cancels the one
it names. A handler, resource reader or prompt renderer that is a plain
function runs in a worker thread (``_callbacks``); ``callback_timeout``
limits each call, and a tool call past it is an error result. JSON-RPC
ids, the handshake and the limit are per connection, so that state lives in
a ``ServerConnection`` per session and server, never in the (shareable) server.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import json
import logging
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import anyio

from claude_wrap._callbacks import call_user
from claude_wrap._mcp.inputs import InputSpec, ToolInputError
from claude_wrap._mcp.tools import SdkMcpTool, input_spec, lax_bool, wire_annotations

if TYPE_CHECKING:
    from claude_wrap._mcp.config import McpSdkServerConfig

__all__ = [
    "SdkMcpPrompt",
    "SdkMcpResource",
    "SdkMcpServer",
    "create_sdk_mcp_server",
    "McpRouter",
    "mcp_message_handler",
    "mcp_refusal",
    "tool_result",
]

log = logging.getLogger("claude_wrap")

# JSON-RPC 2.0 error codes (and MCP's code for a cancelled request).
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
REQUEST_CANCELLED = -32800

# Versions negotiated through ``initialize``; any other request gets the newest.
_PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
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
    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def wire(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


def _invalid_params() -> _RpcError:
    return _RpcError(INVALID_PARAMS, "Invalid request parameters", "")


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


@dataclasses.dataclass(frozen=True)
class _Served:
    """A tool as the server serves it: the schema and list entry are fixed when it is added."""

    tool: SdkMcpTool[Any]
    spec: InputSpec
    entry: dict[str, Any]


def _serve(new: SdkMcpTool[Any], *, always_load: bool = False) -> _Served:
    spec = input_spec(new.input_schema)
    entry: dict[str, Any] = {"name": new.name, "inputSchema": spec.schema}
    if new.description is not None:
        entry["description"] = new.description
    annotations, meta = wire_annotations(new.annotations)
    if annotations is not None:
        entry["annotations"] = annotations
    # The binary's own hints travel in _meta under its namespaced keys (an
    # MCP client drops annotation fields it does not know).
    meta = dict(meta or {})
    if new.search_hint:
        meta["anthropic/searchHint"] = new.search_hint
    if new.always_load or always_load:
        meta["anthropic/alwaysLoad"] = True
    if meta:
        entry["_meta"] = meta
    return _Served(new, spec, entry)


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
        *,
        always_load: bool = False,
    ) -> None:
        self.name = name
        self.version = version
        self.instructions = instructions
        self.always_load = always_load
        self.tools: dict[str, SdkMcpTool[Any]] = {}
        self._served: dict[str, _Served] = {}
        for item in tools:
            self.add_tool(item)
        self.resources: dict[str, SdkMcpResource] = {r.uri: r for r in resources}
        self.prompts: dict[str, SdkMcpPrompt] = {p.name: p for p in prompts}

    def __repr__(self) -> str:
        return f"SdkMcpServer({self.name!r}, tools={sorted(self.tools)})"

    def add_tool(self, new: SdkMcpTool[Any]) -> None:
        """Add (or replace) a tool; its schema is worked out now."""
        if not isinstance(new, SdkMcpTool):
            raise TypeError(f"tools are made with @tool(...), got {type(new).__name__}")
        self._served[new.name] = _serve(new, always_load=self.always_load)
        self.tools[new.name] = new

    def remove_tool(self, name: str) -> None:
        """Remove a tool; ``KeyError`` if there is none by that name."""
        del self.tools[name]
        self._served.pop(name, None)

    def _served_tool(self, name: str) -> _Served | None:
        found = self.tools.get(name)
        if found is None:
            return None
        served = self._served.get(name)
        if served is None or served.tool is not found:  # ``tools`` was changed by hand
            served = self._served[name] = _serve(found, always_load=self.always_load)
        return served

    # -- JSON-RPC --------------------------------------------------------------------

    def _capabilities(self) -> dict[str, Any]:
        caps: dict[str, Any] = {"tools": {"listChanged": False}}
        if self.resources:
            caps["resources"] = {"subscribe": False, "listChanged": False}
        if self.prompts:
            caps["prompts"] = {"listChanged": False}
        return caps

    async def handle(self, message: Mapping[str, Any], conn: ServerConnection) -> dict[str, Any] | None:
        """Answer one JSON-RPC message; ``None`` for a notification."""
        method = message.get("method")
        msg_id = message.get("id")
        if not isinstance(method, str):
            return None  # a response to a request we never send: nothing to do
        params = message.get("params")
        if msg_id is None:
            self._notification(method, params, conn)
            return None
        try:
            if params is not None and not isinstance(params, Mapping):
                raise _invalid_params()
            result = await self._request(method, params or {}, msg_id, conn)
        except _RpcError as exc:
            return {"jsonrpc": "2.0", "id": msg_id, "error": exc.wire()}
        return {"jsonrpc": "2.0", "id": msg_id, "result": result}

    def _notification(self, method: str, params: Any, conn: ServerConnection) -> None:
        if method == "notifications/initialized":
            conn.ready = True
        elif method == "notifications/cancelled" and isinstance(params, Mapping):
            scope = conn.inflight.get(_id_key(params.get("requestId")))
            if scope is not None:
                scope.cancel()
        # Everything else (roots/list_changed ...) needs no action.

    def _methods(self) -> dict[str, Callable[[Mapping[str, Any], Any, ServerConnection], Any]]:
        methods: dict[str, Callable[[Mapping[str, Any], Any, ServerConnection], Any]] = {
            "tools/list": self._list_tools,
            "tools/call": self._call_tool,
        }
        if self.resources:
            methods["resources/list"] = self._list_resources
            methods["resources/templates/list"] = self._list_resource_templates
            methods["resources/read"] = self._read_resource
        if self.prompts:
            methods["prompts/list"] = self._list_prompts
            methods["prompts/get"] = self._get_prompt
        return methods

    async def _request(self, method: str, params: Mapping[str, Any], msg_id: Any, conn: ServerConnection) -> Any:
        if method == "initialize":
            return self._initialize(params, conn)
        if method == "ping":
            return {}
        serve = self._methods().get(method)
        if serve is None:
            raise _RpcError(METHOD_NOT_FOUND, "Method not found", method)
        if not conn.ready:  # served methods wait for the handshake; unknown ones never will
            raise _invalid_params()
        return await _maybe_await(serve(params, msg_id, conn))

    def _initialize(self, params: Mapping[str, Any], conn: ServerConnection) -> dict[str, Any]:
        version = params.get("protocolVersion")
        client = params.get("clientInfo")
        if (
            not isinstance(version, str)
            or not isinstance(params.get("capabilities"), Mapping)
            or not isinstance(client, Mapping)
            or not isinstance(client.get("name"), str)
            or not isinstance(client.get("version"), str)
        ):
            raise _invalid_params()
        conn.ready = True
        result: dict[str, Any] = {
            "protocolVersion": version if version in _PROTOCOL_VERSIONS else _PROTOCOL_VERSIONS[-1],
            "capabilities": self._capabilities(),
            "serverInfo": {"name": self.name, "version": self.version},
        }
        if self.instructions:
            result["instructions"] = self.instructions
        return result

    def _list_tools(self, params: Mapping[str, Any], msg_id: Any, conn: ServerConnection) -> dict[str, Any]:
        served = (self._served_tool(name) for name in list(self.tools))
        return {"tools": [s.entry for s in served if s is not None]}

    async def _call_tool(self, params: Mapping[str, Any], msg_id: Any, conn: ServerConnection) -> dict[str, Any]:
        name = params.get("name")
        arguments = params.get("arguments")
        if not isinstance(name, str) or not (arguments is None or isinstance(arguments, dict)):
            raise _invalid_params()
        served = self._served_tool(name)
        if served is None:
            return _error_result(f"Tool '{name}' not found")
        key = _id_key(msg_id)
        scope = anyio.CancelScope()
        conn.inflight[key] = scope
        try:
            with scope:
                return await _run_tool(served, arguments or {}, conn.timeout)
        finally:
            conn.inflight.pop(key, None)
        raise _RpcError(REQUEST_CANCELLED, "Request cancelled")

    # -- resources and prompts (our extension) -----------------------------------------

    def _list_resources(self, params: Mapping[str, Any], msg_id: Any, conn: ServerConnection) -> dict[str, Any]:
        return {"resources": [r.wire() for r in self.resources.values()]}

    def _list_resource_templates(
        self, params: Mapping[str, Any], msg_id: Any, conn: ServerConnection
    ) -> dict[str, Any]:
        return {"resourceTemplates": []}

    async def _read_resource(self, params: Mapping[str, Any], msg_id: Any, conn: ServerConnection) -> dict[str, Any]:
        uri = params.get("uri")
        resource = self.resources.get(uri) if isinstance(uri, str) else None
        if resource is None:
            raise _RpcError(INVALID_PARAMS, f"Resource not found: {uri}")
        data = await call_user(resource.read, timeout=conn.timeout, what=f"resource {resource.uri!r}")
        entry: dict[str, Any] = {"uri": resource.uri, "mimeType": resource.mime_type}
        if isinstance(data, (bytes, bytearray)):
            import base64

            entry["blob"] = base64.b64encode(bytes(data)).decode("ascii")
        else:
            entry["text"] = str(data)
        return {"contents": [entry]}

    def _list_prompts(self, params: Mapping[str, Any], msg_id: Any, conn: ServerConnection) -> dict[str, Any]:
        return {"prompts": [p.wire() for p in self.prompts.values()]}

    async def _get_prompt(self, params: Mapping[str, Any], msg_id: Any, conn: ServerConnection) -> dict[str, Any]:
        name = params.get("name")
        prompt = self.prompts.get(name) if isinstance(name, str) else None
        if prompt is None:
            raise _RpcError(INVALID_PARAMS, f"Prompt not found: {name}")
        arguments = params.get("arguments") or {}
        missing = [a["name"] for a in prompt.arguments if a.get("required") and a["name"] not in arguments]
        if missing:
            raise _RpcError(INVALID_PARAMS, f"Prompt '{name}' needs arguments: {', '.join(missing)}")
        rendered = await call_user(prompt.render, dict(arguments), timeout=conn.timeout, what=f"prompt {name!r}")
        if isinstance(rendered, str):
            rendered = [{"role": "user", "content": {"type": "text", "text": rendered}}]
        result: dict[str, Any] = {"messages": rendered}
        if prompt.description:
            result["description"] = prompt.description
        return result


def _id_key(msg_id: Any) -> str:
    # JSON-RPC ids may be numbers or strings; 2 and "2" name the same request here.
    return str(msg_id)


# -- tool calls -------------------------------------------------------------------------------


async def _run_tool(served: _Served, arguments: dict[str, Any], timeout: float | None) -> dict[str, Any]:
    """One call: check the arguments, run the handler, shape its result.

    Whatever goes wrong becomes an error result that says so, as on the
    official package: the schema's complaint, or ``str()`` of the exception
    (a handler past ``timeout`` too).
    """
    name = served.tool.name
    try:
        value = served.spec.parse(arguments)
        return tool_result(await call_user(served.tool.handler, value, timeout=timeout, what=f"tool {name!r}"))
    except Exception as exc:
        if not isinstance(exc, ToolInputError):
            log.info("claude_wrap: MCP tool %r raised", name, exc_info=True)
        return _error_result(str(exc))


def _error_result(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}


def _string(block: str, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{block} content {key!r} must be a string, got {type(value).__name__}")
    return value


def _content(items: Any) -> list[dict[str, Any]]:
    """A handler's ``content`` as the blocks the binary gets, as the official package maps them.

    Text and image blocks keep only their MCP fields; a resource link and a
    text resource become text; other blocks (audio, binary resources, unknown
    types) are dropped with a warning. Malformed blocks raise, which makes
    the call an error result.
    """
    out: list[dict[str, Any]] = []
    for item in items:
        kind = item.get("type")
        if kind == "text":
            out.append({"type": "text", "text": _string("text", "text", item["text"])})
        elif kind == "image":
            data, mime = _string("image", "data", item["data"]), _string("image", "mimeType", item["mimeType"])
            out.append({"type": "image", "data": data, "mimeType": mime})
        elif kind == "resource_link":
            parts = [str(part) for part in (item.get("name"), item.get("uri"), item.get("description")) if part]
            out.append({"type": "text", "text": "\n".join(parts) if parts else "Resource link"})
        elif kind == "resource":
            resource = item.get("resource") or {}
            if "text" in resource:
                out.append({"type": "text", "text": _string("resource", "text", resource["text"])})
            else:
                log.warning("claude_wrap: a binary embedded resource in a tool result cannot become text; dropped")
        else:
            log.warning("claude_wrap: tool result content of type %r is not supported; dropped", kind)
    return out


def _jsonable(value: Any) -> Any:
    pydantic = sys.modules.get("pydantic")
    if pydantic is not None and isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return str(value)


def tool_result(value: Any) -> dict[str, Any]:
    """A handler's return value as the ``tools/call`` result the binary gets.

    A dict is read as the official package reads it: its ``content`` blocks
    (``_content``) and its ``is_error`` flag; other keys are not sent. Our
    extension: a string is one text block, ``None`` no content, and any
    other value JSON text.
    """
    if isinstance(value, Mapping):
        content = _content(value.get("content", []))
        return {"content": content, "isError": lax_bool(value.get("is_error", False), "is_error")}
    if value is None:
        content = []
    elif isinstance(value, str):
        content = [{"type": "text", "text": value}]
    else:
        content = [{"type": "text", "text": json.dumps(value, default=_jsonable, ensure_ascii=False)}]
    return {"content": content, "isError": False}


def create_sdk_mcp_server(
    name: str,
    version: str = "1.0.0",
    tools: list[SdkMcpTool[Any]] | None = None,
    *,
    resources: list[SdkMcpResource] | None = None,
    prompts: list[SdkMcpPrompt] | None = None,
    instructions: str | None = None,
    always_load: bool = False,
    timeout: int | None = None,
) -> McpSdkServerConfig:
    """An in-process MCP server, ready for ``ClaudeAgentOptions.mcp_servers``.

    Returns ``{"type": "sdk", "name": name, "instance": SdkMcpServer}``; use
    it as ``mcp_servers={"calc": create_sdk_mcp_server("calc", tools=[add])}``
    and allow its tools as ``mcp__calc__add``. Each tool's schema is worked
    out here. Needs no ``mcp`` package. ``resources``, ``prompts`` and
    ``instructions`` are our extension.

    As the TypeScript SDK's ``createSdkMcpServer``: ``always_load=True``
    offers every tool of the server from the first request, never deferred
    behind tool search (each tool's own ``always_load`` adds to it), and
    ``timeout`` is the binary's limit for one tool call, in milliseconds
    (the config's ``timeout``; below 1000 the binary ignores it). Our own
    ``callback_timeout`` still bounds each handler.
    """
    server = SdkMcpServer(
        name, version, tools or (), resources or (), prompts or (), instructions, always_load=always_load
    )
    config: McpSdkServerConfig = {"type": "sdk", "name": name, "instance": server}
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, int) or timeout <= 0:
            raise ValueError(f"timeout is a positive number of milliseconds, got {timeout!r}")
        config["timeout"] = timeout
    return config


# -- the control-request side ------------------------------------------------------------


@dataclasses.dataclass
class ServerConnection:
    """One session's view of one server: the handshake, and in-flight calls by JSON-RPC id."""

    ready: bool = False
    """An ``initialize`` (or ``notifications/initialized``) arrived; tools may be listed and called."""
    inflight: dict[str, anyio.CancelScope] = dataclasses.field(default_factory=dict)
    timeout: float | None = None
    """``callback_timeout``: the limit for each handler call."""


Responder = Callable[[Mapping[str, Any]], Any]


class McpRouter:
    """The session handler for ``mcp_message``: each in-process server it
    serves, by name, with its own per-connection state. ``serve`` and
    ``drop`` change the set while the session runs (``set_mcp_servers()``)."""

    def __init__(self, instances: Mapping[str, Any], *, timeout: float | None = None) -> None:
        self._timeout = timeout
        self._responders: dict[str, Responder] = {}
        for name, instance in instances.items():
            self.serve(name, instance)

    @property
    def names(self) -> set[str]:
        """The servers it serves."""
        return set(self._responders)

    def serve(self, name: str, instance: Any) -> None:
        """Serve ``instance`` (an ``SdkMcpServer`` or an ``mcp`` package
        server) as ``name``, from a fresh handshake."""
        if isinstance(instance, SdkMcpServer):
            conn = ServerConnection(timeout=self._timeout)

            def respond(message: Mapping[str, Any], server: SdkMcpServer = instance, c: ServerConnection = conn) -> Any:
                return server.handle(message, c)

            self._responders[name] = respond
        else:
            from claude_wrap._mcp.interop import LowLevelServerBridge

            self._responders[name] = LowLevelServerBridge(name, instance, timeout=self._timeout).handle

    def drop(self, name: str) -> None:
        """Stop serving ``name``; its messages get "not found" from now on."""
        self._responders.pop(name, None)

    async def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        name = request.get("server_name")
        message = request.get("message")
        if not isinstance(message, Mapping):
            message = {}
        respond = self._responders.get(name) if isinstance(name, str) else None
        if respond is None:
            error = {"code": METHOD_NOT_FOUND, "message": f"Server '{name}' not found"}
            return {"mcp_response": {"jsonrpc": "2.0", "id": message.get("id"), "error": error}}
        try:
            reply = await respond(message)
        except Exception as exc:
            log.warning("claude_wrap: MCP server %r failed a message", name, exc_info=True)
            error = {"code": INTERNAL_ERROR, "message": str(exc) or type(exc).__name__}
            reply = {"jsonrpc": "2.0", "id": message.get("id"), "error": error}
        return {"mcp_response": reply if reply is not None else _NOTIFICATION_ACK}


def mcp_message_handler(instances: Mapping[str, Any], *, timeout: float | None = None) -> McpRouter:
    """The session handler for ``mcp_message``, serving ``instances`` by name;
    ``timeout`` limits each call of a tool handler (``callback_timeout``).

    A new handler (and so new per-connection state) is made for every session.
    """
    return McpRouter(instances, timeout=timeout)


def mcp_refusal(request: dict[str, Any], reason: str) -> dict[str, Any]:
    """The answer to an ``mcp_message`` that was not served (its body did not
    decode, the session closed while a tool ran): a JSON-RPC error for its
    id, which the binary reports to the model as the tool's failure."""
    message = request.get("message")
    msg_id = message.get("id") if isinstance(message, Mapping) else None
    error = {"code": INTERNAL_ERROR, "message": reason}
    return {"mcp_response": {"jsonrpc": "2.0", "id": msg_id, "error": error}}
