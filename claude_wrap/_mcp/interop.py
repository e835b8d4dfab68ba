"""Serving an ``mcp`` low-level ``Server`` instance as an in-process server.

Imported only when ``mcp_servers`` holds an sdk entry whose instance is not
our own ``SdkMcpServer``, so ``import claude_wrap`` never imports ``mcp``.

The session is pull-based: no task may outlive the control request that
started it, so the server cannot run one long ``Server.run`` loop the way
the official package does. Instead each JSON-RPC request gets a short-lived
``Server.run`` over in-memory streams, opened with a replay of the binary's
own ``initialize`` handshake. That uses only ``mcp``'s stable public API
(``Server.run``, ``SessionMessage``, ``JSONRPCMessage``), works for mcp 1.x
and 2.x alike, and keeps the user's handlers on the caller's event loop
(asyncio or trio). The cost is one extra in-memory handshake per request.

Requests the server sends back are answered as the official package
answers them: a ``ping`` with an empty result, anything else (sampling,
elicitation, roots) refused with JSON-RPC -32601; its notifications are
dropped.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import anyio

from claude_wrap._callbacks import timeout_text
from claude_wrap._distribution import import_extra

__all__ = ["LowLevelServerBridge"]

_INIT_ID = "claude-wrap-replayed-initialize"
_DEFAULT_INIT: dict[str, Any] = {
    "jsonrpc": "2.0",
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "claude-code", "version": "unknown"},
    },
}


def _mcp_types() -> tuple[Any, Any]:
    """``(SessionMessage, TypeAdapter(JSONRPCMessage))`` for the installed mcp."""
    SessionMessage = import_extra(
        "mcp.shared.message",
        "mcp",
        "an mcp Server instance in mcp_servers (servers made by create_sdk_mcp_server() do not)",
    ).SessionMessage
    try:
        from mcp_types import JSONRPCMessage  # mcp 2.x
    except ImportError:  # mcp 1.x
        from mcp.types import JSONRPCMessage
    from pydantic import TypeAdapter

    return SessionMessage, TypeAdapter(JSONRPCMessage)


class LowLevelServerBridge:
    """Answers the binary's JSON-RPC messages with an ``mcp`` ``Server``."""

    def __init__(self, name: str, server: Any, *, timeout: float | None = None) -> None:
        if not callable(getattr(server, "run", None)) or not callable(
            getattr(server, "create_initialization_options", None)
        ):
            raise TypeError(
                f"mcp_servers[{name!r}]['instance'] must come from create_sdk_mcp_server() "
                f"or be an mcp low-level Server, got {type(server).__name__}"
            )
        self.name = name
        self.server = server
        self.timeout = timeout
        """``callback_timeout``: a tool call past it is an error result."""
        self._session_message, self._adapter = _mcp_types()
        self._init: dict[str, Any] | None = None
        self._inflight: dict[str, anyio.CancelScope] = {}

    def _wrap(self, message: Mapping[str, Any]) -> Any:
        return self._session_message(message=self._adapter.validate_python(dict(message)))

    @staticmethod
    def _unwrap(item: Any) -> dict[str, Any]:
        message = getattr(item, "message", item)
        dumped: dict[str, Any] = message.model_dump(by_alias=True, mode="json", exclude_none=True)
        return dumped

    async def handle(self, message: Mapping[str, Any]) -> dict[str, Any] | None:
        """Answer one message from the binary; ``None`` for notifications."""
        method = message.get("method")
        msg_id = message.get("id")
        if msg_id is None:
            if method == "notifications/cancelled":
                params = message.get("params") or {}
                scope = self._inflight.get(str(params.get("requestId")))
                if scope is not None:
                    scope.cancel()
            return None
        if method == "initialize":
            self._init = {k: v for k, v in message.items() if k != "id"}
        key = str(msg_id)
        limit = self.timeout if method == "tools/call" and self.timeout is not None else math.inf
        with anyio.CancelScope() as scope, anyio.move_on_after(limit) as timer:
            self._inflight[key] = scope
            try:
                return await self._exchange(dict(message))
            finally:
                self._inflight.pop(key, None)
        if timer.cancelled_caught:
            params = message.get("params")
            name = params.get("name") if isinstance(params, Mapping) else None
            content = [{"type": "text", "text": timeout_text(f"tool {name!r}", limit)}]
            return {"jsonrpc": "2.0", "id": msg_id, "result": {"content": content, "isError": True}}
        return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32800, "message": "Request cancelled"}}

    async def _exchange(self, message: dict[str, Any]) -> dict[str, Any]:
        to_server, server_in = anyio.create_memory_object_stream[Any](math.inf)
        server_out, from_server = anyio.create_memory_object_stream[Any](math.inf)
        options = self.server.create_initialization_options()
        async with anyio.create_task_group() as tg:
            tg.start_soon(self.server.run, server_in, server_out, options)
            async with to_server, from_server:
                if message.get("method") != "initialize":
                    await to_server.send(self._wrap({**(self._init or _DEFAULT_INIT), "id": _INIT_ID}))
                    await self._reply_to(_INIT_ID, from_server, to_server)
                    await to_server.send(self._wrap({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                await to_server.send(self._wrap(message))
                reply = await self._reply_to(message["id"], from_server, to_server)
            # Closing our ends makes Server.run return; anything it still runs is moot.
            tg.cancel_scope.cancel()
        return reply

    async def _reply_to(self, msg_id: Any, from_server: Any, to_server: Any) -> dict[str, Any]:
        async for item in from_server:
            out = self._unwrap(item)
            if "method" in out and "id" in out:  # the server asks us something
                answer: dict[str, Any] = {"jsonrpc": "2.0", "id": out["id"]}
                if out["method"] == "ping":
                    answer["result"] = {}
                else:
                    answer["error"] = {"code": -32601, "message": f"{out['method']} is not supported for SDK servers"}
                await to_server.send(self._wrap(answer))
            elif out.get("id") == msg_id and "method" not in out:
                return out
        raise RuntimeError(f"MCP server {self.name!r} stopped without answering")
