"""``ClaudeSDKClient``: a long-lived conversation with one binary process."""

from __future__ import annotations

import dataclasses
import signal
from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, cast

import anyio

from claude_wrap._exceptions import (
    ClaudeSDKError,
    CLIConnectionError,
    ProcessError,
    SessionStateError,
    TransportClosedError,
)
from claude_wrap._launch.option_types import SdkPluginConfig, ThinkingDisplay
from claude_wrap._launch.options import ClaudeAgentOptions, PermissionMode, resuming
from claude_wrap._mcp.config import McpServerConfig
from claude_wrap._process.transport import LineTransport
from claude_wrap._run.connect import open_connection, user_frame
from claude_wrap._run.custom_transport import Transport
from claude_wrap._run.generator_view import GeneratorView
from claude_wrap._run.protocol import Connection
from claude_wrap._wire.control import (
    AccountInfo,
    AgentInfo,
    ContextUsageResponse,
    InterruptResult,
    McpReadResourceResponse,
    McpSetServersResult,
    McpStatusResponse,
    ModelInfo,
    ReadFileResponse,
    ReloadPluginsResponse,
    RewindFilesResult,
    SDKControlInitializeResponse,
    SlashCommand,
    TaskOutputResponse,
    UsageResponse,
)
from claude_wrap._wire.messages import Message, ResultMessage

if TYPE_CHECKING:
    from claude_wrap._wire.permissions import PermissionResult

__all__ = ["ClaudeSDKClient", "ExitInfo"]

_NOT_CONNECTED = "Not connected. Call connect() first."


@dataclasses.dataclass(frozen=True)
class ExitInfo:
    """How the binary behind a ``ClaudeSDKClient`` ended (``client.exit_info``)."""

    exit_code: int | None
    """Its exit status, as in ``ProcessError.exit_code``: negative when a
    signal killed it (``-9``), ``None`` when its output broke while it was
    still running (it is stopped then)."""
    signal: str | None
    """The name of the signal that killed it (``"SIGKILL"``), if one did."""
    stderr: str
    """The last lines it wrote to stderr (the tail ``ProcessError`` carries)."""
    session_id: str | None
    """The last session id the client saw; ``reconnect()`` resumes it."""
    error: BaseException | None
    """The error the session ended with, as raised to whoever was reading
    (``ProcessError``, ``TurnTimeoutError`` ...); ``None`` if nobody was
    reading when it ended, or it ended cleanly."""

    @property
    def clean(self) -> bool:
        """True when the binary exited with code 0 and no error ended the session."""
        return self.exit_code == 0 and self.error is None

    def _cause(self) -> str:
        if self.signal is not None:
            how = f"was killed by {self.signal}"
        elif self.exit_code is not None:
            how = "exited"
        else:
            how = "stopped being readable"
        # A bare ProcessError or TransportClosedError says no more than the
        # exit status already does.
        if self.error is not None and type(self.error) not in (ProcessError, TransportClosedError):
            first = (str(self.error).splitlines() or [""])[0]
            how += f" after {type(self.error).__name__}: {first}"
        return how


def _signal_name(code: int | None) -> str | None:
    if code is None or code >= 0:
        return None
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


class ClaudeSDKClient:
    """A conversation that stays open across turns.

    Use it as ``async with ClaudeSDKClient(options) as client:`` or call
    ``connect()`` and ``disconnect()`` yourself. Send prompts with ``query()``
    and read with ``receive_response()`` (through the next ``ResultMessage``)
    or ``receive_messages()`` (everything, until the binary exits).

    No background task runs between your calls: whoever awaits the client
    (receiving, or waiting for a control answer) reads the binary's output
    and answers its callbacks. Any task may call control methods such as
    ``interrupt()`` while another one is receiving. (A ``Transport`` given
    as ``transport`` is read by a task of its own, and an async iterable
    given to ``connect()`` is written by one; see ``query()`` for what such
    a transport takes over.)
    """

    def __init__(
        self, options: ClaudeAgentOptions | None = None, transport: Transport | LineTransport | None = None
    ) -> None:
        self.options: ClaudeAgentOptions = options if options is not None else ClaudeAgentOptions()
        self._transport = transport
        self._connection: Connection | None = None
        self._closed = False
        self._session_id: str | None = None  # the last one seen in a message: what reconnect() resumes
        self._end_error: BaseException | None = None  # what ended the current connection, as its reader saw it
        self._drained = False  # the current connection's reader was handed its end (None or the error)
        self._exit: ExitInfo | None = None  # the last connection's end, kept once that connection is dropped
        self._auto_used = 0
        self._restart_lock: anyio.Lock | None = None

    @classmethod
    def _adopt(cls, connection: Connection, options: ClaudeAgentOptions) -> ClaudeSDKClient:
        """A connected client around a connection that is already open (warm pool).

        The client owns the connection from now on: ``disconnect()`` stops it.
        """
        client = cls(options)
        client._connection = connection
        return client

    # -- lifecycle --------------------------------------------------------------

    async def connect(self, prompt: str | AsyncIterable[dict[str, Any]] | None = None) -> None:
        """Start the binary and complete the handshake; optionally send a first prompt.

        A client may connect again after ``disconnect()``: that starts a new
        binary (and a new session, unless the options say to resume one).

        An async iterable of stream-json ``user`` frames is written as it
        yields, unchanged, by a task of the client's own (while you receive:
        it may wait for an answer before its next prompt), and the binary's
        input is closed once the last one's run is over, as ``query()``
        does: the conversation then ends when the binary exits.
        ``disconnect()`` stops that task.
        """
        if self._connection is not None:
            raise SessionStateError("already connected; call disconnect() first")
        self._closed = False
        self._exit = None
        first = user_frame(prompt, "default") if isinstance(prompt, str) else None
        self._connection = await open_connection(self.options, first_message=first, transport=self._transport)
        self._fresh_session()
        if prompt is not None and not isinstance(prompt, str):
            self._connection.feed(prompt)
            await self._connection.end_input_at_run_end()

    async def disconnect(self) -> None:
        """Stop the binary and everything it started. Idempotent."""
        connection, self._connection = self._connection, None
        self._closed = True
        if connection is not None:
            try:
                await connection.aclose()
            finally:
                self._exit = self._snapshot(connection)

    async def reconnect(self) -> None:
        """Stop what is left of the binary and start a new one that resumes
        the conversation.

        The new binary gets this client's options with ``resume`` set to the
        last session id the client saw (``continue_conversation``,
        ``fork_session`` and ``session_id`` cleared), so the model sees the
        turns the transcript holds; a turn that was running when the old one
        died is not sent again. A client that never saw a session id, or whose
        options say ``persist_session=False``, starts a fresh session with
        its options as they are. Works on a dead client and, as a deliberate
        restart, on a live one (a running turn is interrupted first). Not
        possible after ``disconnect()`` or with a ``transport`` given to the
        constructor, which cannot be started twice.
        """
        if self._closed:
            raise CLIConnectionError(_NOT_CONNECTED)
        if self._transport is not None:
            raise SessionStateError(
                "reconnect() starts a new binary, which a client built on its own transport cannot do"
            )
        async with self._restarting():
            await self._restart()

    def _restarting(self) -> anyio.Lock:
        """One restart at a time (made on first use: a client may be built
        outside any event loop)."""
        if self._restart_lock is None:
            self._restart_lock = anyio.Lock()
        return self._restart_lock

    async def _restart(self) -> None:
        old, self._connection = self._connection, None
        if old is not None:
            # Closed before the new start: the old binary's last transcript
            # writes (and a session store's final flush) must land before the
            # new one reads them.
            try:
                await old.aclose()
            finally:
                self._exit = self._snapshot(old)
        if self._closed:
            raise SessionStateError("this client was disconnected while it reconnected")
        self._connection = await open_connection(self._restart_options())
        self._fresh_session()

    def _restart_options(self) -> ClaudeAgentOptions:
        sid = self._session_id
        if sid is None or not self.options.persist_session:
            return self.options
        return resuming(self.options, sid)

    def _fresh_session(self) -> None:
        self._exit = None
        self._end_error = None
        self._drained = False

    async def __aenter__(self) -> ClaudeSDKClient:  # noqa: PYI034 - typing.Self needs 3.11
        await self.connect()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.disconnect()

    if not TYPE_CHECKING:  # type checkers keep rejecting a plain `with` outright

        def __enter__(self):
            raise TypeError(
                "ClaudeSDKClient is asynchronous: use `async with ClaudeSDKClient(...) as client:` inside an "
                "`async def`, or claude_wrap.sync.ClaudeSDKClient in synchronous code"
            )

        def __exit__(self, *exc_info):  # `with` looks both up before it calls __enter__
            return None

    def _live(self) -> Connection:
        if self._connection is None:
            if self._exit is not None and not self._closed:
                raise self._dead_error(self._exit)  # a reconnect failed: the old end still explains it
            raise CLIConnectionError(_NOT_CONNECTED)
        return self._connection

    @property
    def pid(self) -> int | None:
        """Process id of the running binary (``None`` when not connected)."""
        if self._connection is None:
            return None
        return getattr(self._connection.transport, "pid", None)

    @property
    def is_alive(self) -> bool:
        """True while connected, the binary is running and its output has not ended.

        It shows what the event loop has seen: a binary killed a moment ago
        may still count as alive until the loop notices its exit.
        """
        return self._connection is not None and self._running(self._connection)

    @property
    def exit_info(self) -> ExitInfo | None:
        """How the binary ended: ``None`` while it is alive or before ``connect()``.

        After a ``reconnect()`` it describes the new binary again (``None``
        while that one lives); after ``disconnect()`` it describes the
        binary that was stopped.
        """
        if self._connection is None:
            return self._exit
        if self._running(self._connection):
            return None
        return self._snapshot(self._connection)

    @staticmethod
    def _running(connection: Connection) -> bool:
        return not connection.ended and connection.transport.returncode is None

    def _snapshot(self, connection: Connection) -> ExitInfo:
        code = connection.transport.returncode
        return ExitInfo(
            exit_code=code,
            signal=_signal_name(code),
            stderr=connection.transport.stderr_tail,
            session_id=self._session_id,
            error=self._end_error,
        )

    def _dead_error(self, info: ExitInfo, *, reading: bool = False, lost_turn: bool = False) -> ClaudeSDKError:
        """The error for a call on a client whose binary is gone: what happened
        and what to do. A write says what the official package says when it
        cannot write (a ``CLIConnectionError``); a read, what it says when
        the binary failed (a ``ProcessError``)."""
        resume = f" and resume session {info.session_id}" if info.session_id else ""
        hint = f"call `await client.reconnect()` to start it again{resume}"
        if reading:
            what = "the turn in progress is lost (it is not sent again)" if lost_turn else "nothing more will come"
            head = (
                "Claude Code stopped" if info.exit_code is None else f"Command failed with exit code {info.exit_code}"
            )
            return ProcessError(f"{head}: it {info._cause()}; {what}; {hint}", info.exit_code, info.stderr)
        if info.clean:
            return SessionStateError(
                f"Cannot write to terminated process (exit code: 0): the session has ended; {hint}"
            )
        return TransportClosedError(
            f"Cannot write to terminated process: Claude Code {info._cause()}, nothing was sent; {hint}",
            info.exit_code,
            info.stderr,
        )

    async def _gone(self, connection: Connection) -> bool:
        """After a failed write or read: did the binary die? The loop may learn
        of the exit a moment after the pipe broke, so give it that moment."""
        with anyio.move_on_after(1.0):
            while self._running(connection):
                await anyio.sleep(0.01)
        return not self._running(connection)

    def _usable(self) -> Connection:
        connection = self._live()
        if not self._running(connection):
            raise self._dead_error(self._snapshot(connection))
        return connection

    async def _request(self, subtype: str, fields: dict[str, Any] | None = None) -> Any:
        connection = self._usable()
        try:
            return await connection.request(subtype, fields)
        except (TransportClosedError, ProcessError) as exc:
            if type(exc) not in (TransportClosedError, ProcessError) or not await self._gone(connection):
                raise
            self._end_error = self._end_error or exc
            raise self._dead_error(self._snapshot(connection)) from exc

    async def _reply(self, subtype: str, fields: dict[str, Any] | None = None) -> dict[str, Any]:
        """`_request`'s answer as a dict: ``{}`` where the binary sends none
        (or something else)."""
        reply = await self._request(subtype, fields)
        return reply if isinstance(reply, dict) else {}

    def _may_respawn(self) -> bool:
        """Whether ``query()`` should reconnect on its own first (``auto_reconnect``)."""
        if self._closed or self._transport is not None or self._auto_used >= self.options.auto_reconnect:
            return False
        if self._connection is None:
            return self._exit is not None and not self._exit.clean
        if self._running(self._connection):
            return False
        return not self._snapshot(self._connection).clean

    async def _respawn(self) -> None:
        self._auto_used += 1
        async with self._restarting():
            # Another task may have reconnected while this one waited.
            if self._connection is None or not self._running(self._connection):
                await self._restart()

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
        if self._may_respawn():
            await self._respawn()
        connection = self._usable()
        if isinstance(prompt, str):
            frame = user_frame(prompt, session_id)
            if uuid is not None:
                frame["uuid"] = uuid
            try:
                await connection.send_user(frame)
                return
            except (TransportClosedError, ProcessError) as exc:
                if type(exc) not in (TransportClosedError, ProcessError) or not await self._gone(connection):
                    raise
                if not self._may_respawn():
                    raise self._dead_error(self._snapshot(connection)) from exc
            # The pipe was already broken, so the binary never saw this prompt:
            # sending it to the new one is not a repeat.
            await self._respawn()
            await self._usable().send_user(frame)
            return
        async for frame in prompt:
            if not isinstance(frame, dict):
                raise TypeError(f"prompt messages must be dicts, got {type(frame).__name__}")
            frame.setdefault("session_id", session_id)
            try:
                await connection.send_user(frame)
            except (TransportClosedError, ProcessError) as exc:
                if type(exc) not in (TransportClosedError, ProcessError) or not await self._gone(connection):
                    raise
                raise self._dead_error(self._snapshot(connection)) from exc

    def receive_messages(self) -> AsyncIterator[Message]:
        """Yield every message until the binary's output ends."""
        return _Stream(self._receive(through_result=False))

    def receive_response(self) -> AsyncIterator[Message]:
        """Yield messages through the next ``ResultMessage`` (included)."""
        return _Stream(self._receive(through_result=True))

    async def _receive(self, *, through_result: bool) -> AsyncGenerator[Message, None]:
        connection = self._live()
        if self._drained and not self._running(connection):
            info = self._snapshot(connection)
            if info.clean:
                return  # a finished conversation simply has nothing more
            raise self._dead_error(info, reading=True)
        while True:
            try:
                message = await connection.receive()
            except ProcessError as exc:
                if self._connection is not connection:
                    return  # disconnect() or reconnect() in another task stopped it on purpose
                if type(exc) is not ProcessError or not await self._gone(connection):
                    raise
                self._drained = True
                self._end_error = exc
                raise self._dead_error(
                    self._snapshot(connection), reading=True, lost_turn=connection.turn_open
                ) from exc
            except Exception as exc:
                if connection.ended:
                    self._drained = True
                    self._end_error = exc
                raise
            if message is None:
                self._drained = True
                return
            sid = getattr(message, "session_id", None)
            if isinstance(sid, str) and sid:
                self._session_id = sid
            yield message
            if through_result and isinstance(message, ResultMessage):
                return

    # -- control ----------------------------------------------------------------------

    async def interrupt(self, *, cancel_queued: bool = False) -> InterruptResult:
        """Stop the current turn. Returns the uuids of user messages still
        queued (they run next, unless cancelled with `cancel_async_message`).

        ``cancel_queued=True`` withdraws those too, in the same request: they
        are listed in the result's ``cancelled`` instead.
        """
        reply = await self._reply("interrupt", {"cancel_queued": True} if cancel_queued else None)
        return InterruptResult(
            [str(u) for u in reply.get("still_queued") or []], [str(u) for u in reply.get("cancelled") or []]
        )

    async def cancel_async_message(self, message_uuid: str) -> bool:
        """Withdraw a queued user message (sent with a ``uuid``) before it
        runs; False when it is no longer in the queue."""
        reply = await self._reply("cancel_async_message", {"message_uuid": message_uuid})
        return bool(reply.get("cancelled"))

    async def answer_permission(self, request_id: str, result: PermissionResult) -> None:
        """Answer a ``can_use_tool`` request whose callback returned
        ``ANSWER_LATER`` (``request_id`` is its context's ``request_id``):
        the tool waits until this call.

        Raises:
            LookupError: no request by that id waits (answered already,
                withdrawn by the binary, or not deferred).
            TypeError: ``result`` is no ``PermissionResultAllow`` or
                ``PermissionResultDeny``.
        """
        from claude_wrap._launch.control_plane import PermissionHandler

        handler = self._live().responder.handlers.get("can_use_tool")
        if not isinstance(handler, PermissionHandler):
            raise LookupError(f"no can_use_tool request {request_id!r} waits for an answer")
        handler.pending.answer(request_id, result)

    async def set_permission_mode(self, mode: PermissionMode) -> PermissionMode | None:
        """Change the permission mode for the rest of the session. Returns
        the mode now in effect, which may differ from ``mode`` (``None``
        where the binary does not say)."""
        effective = (await self._reply("set_permission_mode", {"mode": mode})).get("mode")
        return cast("PermissionMode", effective) if isinstance(effective, str) else None

    async def set_model(self, model: str | None = None) -> None:
        """Switch the model (``None``: the default model)."""
        await self._request("set_model", {"model": model})

    async def get_server_info(self) -> dict[str, Any] | None:
        """What the binary said in its ``initialize`` answer (commands, models, ...)."""
        return self._live().server_info

    async def set_max_thinking_tokens(
        self, max_thinking_tokens: int | None, *, display: ThinkingDisplay | None | Literal["keep"] = "keep"
    ) -> None:
        """Limit thinking tokens per turn (``None``: the default).

        ``display`` sets how thinking is shown for the rest of the session
        (``"summarized"``, ``"omitted"``, ``"highlights"``); ``None`` clears
        that setting, ``"keep"`` (the default) leaves it as it is.
        """
        fields: dict[str, Any] = {"max_thinking_tokens": max_thinking_tokens}
        if display != "keep":
            fields["thinking_display"] = display
        await self._request("set_max_thinking_tokens", fields)

    async def rewind_files(self, user_message_id: str, *, dry_run: bool = False) -> RewindFilesResult:
        """Undo file edits made since the user message ``user_message_id``.

        Needs file checkpointing (``enable_file_checkpointing``); with
        ``dry_run`` nothing changes and the reply lists what would.
        """
        fields: dict[str, Any] = {"user_message_id": user_message_id}
        if dry_run:
            fields["dry_run"] = True
        return cast(RewindFilesResult, await self._request("rewind_files", fields) or {})

    async def get_mcp_status(self) -> McpStatusResponse:
        """Every MCP server the session knows, with its connection status."""
        return cast(McpStatusResponse, await self._request("mcp_status") or {})

    async def reconnect_mcp_server(self, server_name: str) -> None:
        """Reconnect the MCP server ``server_name``."""
        await self._request("mcp_reconnect", {"serverName": server_name})

    async def toggle_mcp_server(self, server_name: str, enabled: bool) -> None:
        """Enable or disable the MCP server ``server_name``."""
        await self._request("mcp_toggle", {"serverName": server_name, "enabled": enabled})

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
        await self._request("mcp_message", {"server_name": server_name, "message": notification})

    async def stop_task(self, task_id: str) -> None:
        """Stop a background task; a ``task_notification`` with status ``stopped`` follows."""
        await self._request("stop_task", {"task_id": task_id})

    async def get_context_usage(self, *, detail: Literal["summary", "full"] = "full") -> ContextUsageResponse:
        """How the context window is used (what ``/context`` shows).

        ``"full"`` (the default, as in the official package) has the binary
        count tokens through the API, dozens of calls per request;
        ``"summary"`` answers from what the binary already knows, at once.
        """
        fields = {"detail": "summary"} if detail == "summary" else {}
        return cast(ContextUsageResponse, await self._request("get_context_usage", fields) or {})

    async def get_usage(self) -> UsageResponse:
        """Cost and usage of the session so far."""
        return cast(UsageResponse, await self._request("get_usage") or {})

    async def rename_session(self, title: str) -> None:
        """Set the session's title."""
        await self._request("rename_session", {"title": title})

    async def end_session(self, reason: str = "other") -> None:
        """Ask the binary to end the session; it exits afterwards."""
        await self._request("end_session", {"reason": reason})

    async def list_models(self) -> list[ModelInfo]:
        """The models the binary offers."""
        reply = await self._request("list_models") or {}
        return cast("list[ModelInfo]", reply.get("models", []))

    async def get_settings(self) -> dict[str, Any]:
        """The effective settings and where each came from."""
        return cast("dict[str, Any]", await self._request("get_settings") or {})

    async def apply_flag_settings(self, settings: dict[str, Any]) -> None:
        """Apply settings for the rest of the session, as ``--settings`` would."""
        await self._request("apply_flag_settings", {"settings": settings})

    async def reload_plugins(
        self,
        *,
        hold_on_cache_impact: bool = False,
        add_plugins: list[SdkPluginConfig] | None = None,
        refuse_if_busy: bool = False,
    ) -> ReloadPluginsResponse:
        """Reload plugins, commands, agents and MCP servers from disk.

        ``hold_on_cache_impact``: apply nothing if the reload would change
        the tool list the conversation's prompt cache depends on (the reply
        then says ``held`` and what would change). ``add_plugins``: local
        plugins to load as well (absolute paths). ``refuse_if_busy``: refuse
        while a turn runs rather than reload under it.
        """
        fields: dict[str, Any] = {}
        if hold_on_cache_impact:
            fields["hold_on_cache_impact"] = True
        if add_plugins:
            fields["add_plugins"] = [dict(p) for p in add_plugins]
        if refuse_if_busy:
            fields["refuse_if_busy"] = True
        return cast(ReloadPluginsResponse, await self._reply("reload_plugins", fields or None))

    # -- what the session offers ------------------------------------------------

    def _initialize_answer(self) -> dict[str, Any]:
        info = self._live().server_info
        return info if isinstance(info, dict) else {}

    async def initialization_result(self) -> SDKControlInitializeResponse:
        """The binary's answer to ``initialize``, typed (`get_server_info`
        returns the same as a plain dict)."""
        return cast(SDKControlInitializeResponse, self._initialize_answer())

    async def reinitialize(self) -> SDKControlInitializeResponse:
        """Send ``initialize`` again on the running binary (no new process,
        unlike `reconnect`) and return its fresh answer, which later calls
        of `initialization_result` return too. Hooks are registered anew; a
        hook the binary was still waiting on is settled by the binary."""
        connection = self._usable()
        reply = await self._reply("initialize", dict(connection.initialize_fields))
        if reply:
            connection.server_info = reply
        return cast(SDKControlInitializeResponse, reply)

    async def supported_commands(self) -> list[SlashCommand]:
        """The slash commands and skills the session offers."""
        return cast("list[SlashCommand]", list(self._initialize_answer().get("commands") or []))

    async def supported_agents(self) -> list[AgentInfo]:
        """The subagents the session offers."""
        return cast("list[AgentInfo]", list(self._initialize_answer().get("agents") or []))

    async def account_info(self) -> AccountInfo:
        """Who the session runs as (the keys the binary knows)."""
        return cast(AccountInfo, dict(self._initialize_answer().get("account") or {}))

    async def reload_skills(self) -> list[SlashCommand]:
        """Read the skill folders again; returns the skills now offered."""
        reply = await self._reply("reload_skills")
        return cast("list[SlashCommand]", list(reply.get("skills") or []))

    async def reload_output_styles(self) -> list[str]:
        """Read the output-style folders again; returns the style names now offered."""
        reply = await self._reply("reload_output_styles")
        return [str(name) for name in reply.get("available_output_styles") or []]

    async def update_settings(self, source: Literal["localSettings", "userSettings"], settings: dict[str, Any]) -> None:
        """Write settings through the binary's own settings writer, and apply
        them. The binary allows few keys (``outputStyle`` for
        ``localSettings``, ``effortLevel`` for ``userSettings``) and refuses
        the rest (`ControlRejectedError`); `apply_flag_settings` changes
        this session only and writes nothing."""
        await self._request("update_settings", {"source": source, "settings": settings})

    # -- files and tasks ------------------------------------------------------

    async def read_file(
        self, path: str, *, max_bytes: int | None = None, encoding: Literal["utf-8", "base64"] | None = None
    ) -> ReadFileResponse:
        """Read a file as the session sees it: ``path`` relative to its
        working directory, under the Read tool's permission rules (a denied
        or missing file is a `ControlRejectedError`). ``max_bytes`` caps the
        read (the binary's default: 1 MB); ``encoding="base64"`` for binary
        files."""
        fields: dict[str, Any] = {"path": path}
        if max_bytes is not None:
            fields["max_bytes"] = max_bytes
        if encoding is not None:
            fields["encoding"] = encoding
        return cast(ReadFileResponse, await self._reply("read_file", fields))

    async def seed_read_state(self, path: str, mtime: float) -> None:
        """Tell the binary the file ``path`` was read when it had ``mtime``
        (ms since the epoch), so an Edit of it is allowed after the Read left
        the context; a file changed since then still fails the Edit."""
        await self._request("seed_read_state", {"path": path, "mtime": mtime})

    async def background_tasks(self, tool_use_id: str | None = None) -> bool:
        """Send running foreground work (Bash commands, subagents) to the
        background, as Ctrl+B does: all of it, or only the task the tool call
        ``tool_use_id`` started. False when that id matched no task."""
        reply = await self._reply("background_tasks", {"tool_use_id": tool_use_id} if tool_use_id else None)
        return bool(reply.get("backgrounded", True))

    async def get_task_output(self, task_id: str) -> TaskOutputResponse:
        """The end (at most 8 KiB) of a background shell or Monitor task's
        output, while it runs or after it ended."""
        return cast(TaskOutputResponse, await self._reply("get_task_output", {"task_id": task_id}))

    # -- MCP servers ----------------------------------------------------------

    async def set_mcp_servers(self, servers: Mapping[str, McpServerConfig]) -> McpSetServersResult:
        """Replace the MCP servers managed this way: the ones named are
        added (or replaced), the ones an earlier call added and this one
        leaves out are removed. In-process servers (``create_sdk_mcp_server``)
        work too. Servers from ``options.mcp_servers`` or settings files stay
        unless named. Returns what changed and each server's start error."""
        from claude_wrap._launch.control_plane import mcp_handler
        from claude_wrap._mcp.server import McpRouter

        connection = self._usable()
        wire: dict[str, Any] = {}
        local: dict[str, Any] = {}
        for name, config in servers.items():
            if config.get("type") == "sdk":
                local[name] = cast("dict[str, Any]", config)["instance"]
                wire[name] = {"type": "sdk", "name": name}
            else:
                wire[name] = dict(config)
        handlers = connection.responder.handlers
        if local and "mcp_message" not in handlers:  # no in-process server at launch
            handlers["mcp_message"] = mcp_handler({}, timeout=self.options.callback_timeout)
        handler = handlers.get("mcp_message")
        router = handler.answer if handler is not None and isinstance(handler.answer, McpRouter) else None
        if router is not None:
            for name, instance in local.items():
                router.serve(name, instance)  # before the request: the binary connects to it at once
        reply = await self._reply("mcp_set_servers", {"servers": wire})
        result = McpSetServersResult(
            added=[str(n) for n in reply.get("added") or []],
            removed=[str(n) for n in reply.get("removed") or []],
            errors={str(k): str(v) for k, v in (reply.get("errors") or {}).items()},
        )
        if router is not None:
            for name in result["removed"]:
                if name not in local:
                    router.drop(name)
        return result

    async def read_mcp_resource(self, server_name: str, uri: str) -> McpReadResourceResponse:
        """Read a ``ui://`` resource of the external MCP server
        ``server_name`` (the binary reads no other scheme, and no in-process
        server: read those directly). The reply is the server's content,
        untrusted: render it sandboxed."""
        fields = {"serverName": server_name, "uri": uri}
        return cast(McpReadResourceResponse, await self._reply("mcp_read_resource", fields))

    async def set_mcp_permission_mode_override(
        self, server_name: str, mode: Literal["default", "auto"] | None
    ) -> str | None:
        """Pin the permission mode for the tools of MCP server
        ``server_name`` (``None`` clears it). It only tightens: ``"default"``
        prompts for each call, ``"auto"`` asks the classifier, and either
        applies only when the session's mode would allow the call anyway.
        Returns the binary's warning, if any (no server of that name yet)."""
        fields = {"serverName": server_name, "mode": mode}
        warning = (await self._reply("set_mcp_permission_mode_override", fields)).get("warning")
        return str(warning) if warning else None

    # -- read-only queries ----------------------------------------------------

    async def get_hooks_listing(self) -> dict[str, Any]:
        """The hooks the session runs, as the binary's ``/hooks`` menu lists
        them (settings files, this session, plugins), grouped by event."""
        return await self._reply("get_hooks_listing")

    async def list_permission_rules(self) -> dict[str, Any]:
        """The session's permission rules and working directories, each with
        its source, as the binary's ``/permissions`` lists them."""
        return await self._reply("list_permission_rules")

    async def request(self, subtype: str, **fields: Any) -> dict[str, Any]:
        """Send the control request ``subtype`` with ``fields`` and return
        the binary's reply (``{}`` when it has none): for the requests this
        client has no method for (``get_session_cost``, ``get_status``,
        ``get_plan``, ``get_binary_version``, ``file_suggestions`` ...). A
        refusal raises `ControlRejectedError`."""
        return await self._reply(subtype, fields or None)


class _Stream(GeneratorView):
    """What ``receive_messages()`` and ``receive_response()`` return: their
    async generator, iterated as it is (``aclose()``, ``asend()``,
    ``athrow()`` included), and closed when it is dropped unfinished.

    Leaving ``async for`` early leaves the generator suspended; garbage
    collected so, it would be finalized by the event loop (trio warns then
    with a ResourceWarning). A receive holds nothing to clean up that
    needs the loop, so it is closed in place, at once."""

    __slots__ = ()

    def __del__(self) -> None:
        closing = self._gen.aclose()
        try:
            closing.send(None)
        except StopIteration:
            return  # closed: nothing of it was waiting on the loop
        except BaseException:  # noqa: BLE001 - a finalizer raises nothing
            return
        closing.close()  # it awaited after all: the loop's own finalizer takes it from here
