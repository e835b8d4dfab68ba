"""``ClaudeSDKClient``: a long-lived conversation with one binary process."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator
from types import TracebackType
from typing import Any, Literal, cast

from ._connect import open_session, user_frame
from ._control_types import (
    ContextUsageResponse,
    McpStatusResponse,
    ModelInfo,
    ReloadPluginsResponse,
    RewindFilesResult,
    UsageResponse,
)
from ._exceptions import SessionStateError
from ._messages import Message, ResultMessage
from ._options import ClaudeAgentOptions, PermissionMode
from ._protocol import Session
from ._transport import Transport

__all__ = ["ClaudeSDKClient"]


class ClaudeSDKClient:
    """A conversation that stays open across turns.

    Use it as ``async with ClaudeSDKClient(options) as client:`` or call
    ``connect()`` and ``disconnect()`` yourself. Send prompts with ``query()``
    and read with ``receive_response()`` (through the next ``ResultMessage``)
    or ``receive_messages()`` (everything, until the binary exits).

    No background task runs between your calls: whoever awaits the client
    (receiving, or waiting for a control answer) reads the binary's output
    and answers its callbacks. Any task may call control methods such as
    ``interrupt()`` while another one is receiving.
    """

    def __init__(self, options: ClaudeAgentOptions | None = None, transport: Transport | None = None) -> None:
        self.options = options if options is not None else ClaudeAgentOptions()
        self._transport = transport
        self._session: Session | None = None
        self._closed = False

    @classmethod
    def _adopt(cls, session: Session, options: ClaudeAgentOptions) -> ClaudeSDKClient:
        """A connected client around a session that is already open (warm pool).

        The client owns the session from now on: ``disconnect()`` stops it.
        """
        client = cls(options)
        client._session = session
        return client

    # -- lifecycle --------------------------------------------------------------

    async def connect(self, prompt: str | AsyncIterable[dict[str, Any]] | None = None) -> None:
        """Start the binary and complete the handshake; optionally send a first prompt."""
        if self._session is not None:
            raise SessionStateError("already connected")
        if self._closed:
            raise SessionStateError("this client was disconnected; create a new one")
        first = user_frame(prompt, "default") if isinstance(prompt, str) else None
        self._session = await open_session(self.options, first_message=first, transport=self._transport)
        if prompt is not None and not isinstance(prompt, str):
            await self.query(prompt)

    async def disconnect(self) -> None:
        """Stop the binary and everything it started. Idempotent."""
        session, self._session = self._session, None
        self._closed = True
        if session is not None:
            await session.aclose()

    async def __aenter__(self) -> ClaudeSDKClient:
        await self.connect()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.disconnect()

    def _live(self) -> Session:
        if self._session is None:
            raise SessionStateError(
                "not connected: use 'async with ClaudeSDKClient(...)' or call connect() first"
                if not self._closed
                else "this client was disconnected; create a new one"
            )
        return self._session

    @property
    def pid(self) -> int | None:
        """Process id of the running binary (``None`` when not connected)."""
        if self._session is None:
            return None
        return getattr(self._session.transport, "pid", None)

    # -- conversation -------------------------------------------------------------

    async def query(
        self,
        prompt: str | AsyncIterable[dict[str, Any]],
        session_id: str = "default",
        *,
        uuid: str | None = None,
    ) -> None:
        """Send a prompt (or several stream-json ``user`` frames). Returns once written.

        ``uuid`` tags the user message: ``rewind_files()`` takes it, and the
        binary reports its lifecycle (``command_lifecycle`` frames).
        """
        session = self._live()
        if isinstance(prompt, str):
            frame = user_frame(prompt, session_id)
            if uuid is not None:
                frame["uuid"] = uuid
            await session.send_user(frame)
            return
        async for frame in prompt:
            frame.setdefault("parent_tool_use_id", None)
            frame.setdefault("session_id", session_id)
            await session.send_user(frame)

    def receive_messages(self) -> AsyncIterator[Message]:
        """Yield every message until the binary's output ends."""
        return self._receive(through_result=False)

    def receive_response(self) -> AsyncIterator[Message]:
        """Yield messages through the next ``ResultMessage`` (included)."""
        return self._receive(through_result=True)

    async def _receive(self, *, through_result: bool) -> AsyncIterator[Message]:
        session = self._live()
        while (message := await session.receive()) is not None:
            yield message
            if through_result and isinstance(message, ResultMessage):
                return

    # -- control ----------------------------------------------------------------------

    async def interrupt(self) -> list[str]:
        """Stop the current turn. Returns the uuids of user messages still queued."""
        reply = await self._live().request("interrupt")
        queued = reply.get("still_queued", []) if isinstance(reply, dict) else []
        return [str(u) for u in queued]

    async def set_permission_mode(self, mode: PermissionMode) -> None:
        """Change the permission mode for the rest of the session."""
        await self._live().request("set_permission_mode", {"mode": mode})

    async def set_model(self, model: str | None = None) -> None:
        """Switch the model (``None``: the default model)."""
        await self._live().request("set_model", {"model": model})

    async def get_server_info(self) -> dict[str, Any] | None:
        """What the binary said in its ``initialize`` answer (commands, models, ...)."""
        return self._live().server_info

    async def set_max_thinking_tokens(self, max_thinking_tokens: int | None) -> None:
        """Limit thinking tokens per turn (``None``: the default)."""
        await self._live().request("set_max_thinking_tokens", {"max_thinking_tokens": max_thinking_tokens})

    async def rewind_files(self, user_message_id: str, *, dry_run: bool = False) -> RewindFilesResult:
        """Undo file edits made since the user message ``user_message_id``.

        Needs file checkpointing (``enable_file_checkpointing``); with
        ``dry_run`` nothing changes and the reply lists what would.
        """
        fields: dict[str, Any] = {"user_message_id": user_message_id}
        if dry_run:
            fields["dry_run"] = True
        return cast(RewindFilesResult, await self._live().request("rewind_files", fields) or {})

    async def get_mcp_status(self) -> McpStatusResponse:
        """Every MCP server the session knows, with its connection status."""
        return cast(McpStatusResponse, await self._live().request("mcp_status") or {})

    async def reconnect_mcp_server(self, name: str) -> None:
        """Reconnect the MCP server ``name``."""
        await self._live().request("mcp_reconnect", {"serverName": name})

    async def toggle_mcp_server(self, name: str, enabled: bool) -> None:
        """Enable or disable the MCP server ``name``."""
        await self._live().request("mcp_toggle", {"serverName": name, "enabled": enabled})

    def _sdk_server(self, server_name: str) -> Any:
        servers = self.options.mcp_servers
        config = servers.get(server_name) if isinstance(servers, dict) else None
        if not config or config.get("type") != "sdk":
            raise KeyError(f"no in-process (sdk) MCP server named {server_name!r} in options.mcp_servers")
        return dict(config)["instance"]

    async def add_mcp_tool(self, server_name: str, tool: Any) -> None:
        """Add a tool (made with ``@tool``) to an in-process server while connected.

        The binary is told the tool list changed and lists the tools again
        before this returns, so the next model turn can call the new tool.
        Remember to allow it (``allowed_tools`` or ``can_use_tool``).
        """
        self._sdk_server(server_name).add_tool(tool)
        await self.notify_mcp_tools_changed(server_name)

    async def remove_mcp_tool(self, server_name: str, tool_name: str) -> None:
        """Remove a tool from an in-process server while connected."""
        self._sdk_server(server_name).remove_tool(tool_name)
        await self.notify_mcp_tools_changed(server_name)

    async def notify_mcp_tools_changed(self, server_name: str) -> None:
        """Tell the binary that an in-process server's tools changed.

        Sends the server's ``notifications/tools/list_changed`` as a host-sent
        ``mcp_message``; the binary then calls ``tools/list`` again.
        """
        self._sdk_server(server_name)
        notification = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        await self._live().request("mcp_message", {"server_name": server_name, "message": notification})

    async def stop_task(self, task_id: str) -> None:
        """Stop a background task; a ``task_notification`` with status ``stopped`` follows."""
        await self._live().request("stop_task", {"task_id": task_id})

    async def get_context_usage(self, *, detail: Literal["summary", "full"] = "summary") -> ContextUsageResponse:
        """How the context window is used.

        ``"summary"`` (the default) answers locally; ``"full"`` makes the
        binary count tokens through the API, dozens of calls per request.
        """
        fields = {"detail": "summary"} if detail == "summary" else {}
        return cast(ContextUsageResponse, await self._live().request("get_context_usage", fields) or {})

    async def get_usage(self) -> UsageResponse:
        """Cost and usage of the session so far."""
        return cast(UsageResponse, await self._live().request("get_usage") or {})

    async def rename_session(self, title: str) -> None:
        """Set the session's title."""
        await self._live().request("rename_session", {"title": title})

    async def end_session(self, reason: str = "other") -> None:
        """Ask the binary to end the session; it exits afterwards."""
        await self._live().request("end_session", {"reason": reason})

    async def list_models(self) -> list[ModelInfo]:
        """The models the binary offers."""
        reply = await self._live().request("list_models") or {}
        return cast("list[ModelInfo]", reply.get("models", []))

    async def get_settings(self) -> dict[str, Any]:
        """The effective settings and where each came from."""
        return cast("dict[str, Any]", await self._live().request("get_settings") or {})

    async def apply_flag_settings(self, settings: dict[str, Any]) -> None:
        """Apply settings for the rest of the session, as ``--settings`` would."""
        await self._live().request("apply_flag_settings", {"settings": settings})

    async def reload_plugins(self) -> ReloadPluginsResponse:
        """Reload plugins, commands, agents and MCP servers from disk."""
        return cast(ReloadPluginsResponse, await self._live().request("reload_plugins") or {})
