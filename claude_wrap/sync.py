"""A synchronous facade for scripts and notebooks.

The same API as the async one, with plain calls and plain iterators::

    from claude_wrap.sync import query, ClaudeSDKClient

    for message in query(prompt="Hello"):
        print(message)

    with ClaudeSDKClient(options) as client:
        client.query("Read setup.py")
        for message in client.receive_response():
            ...

    for outcome in run_many(["Summarize a.py", "Summarize b.py"], options=options):
        print(outcome.index, outcome.output)

The async core runs on a private event loop in a helper thread (one per
``query()`` call or client), so this works where an event loop is already
running in the calling thread, as in Jupyter. Callbacks from the options
(hooks, ``can_use_tool``, ``stderr``) run on that helper thread.

Stopping is clean: leaving a ``for`` loop early (``break``, an exception),
``close()`` on the iterator, or Ctrl-C (``KeyboardInterrupt``) while a call
or an iteration is blocked cancels the work on the helper loop, stops the
binary and everything it started, and only then returns or re-raises.
Ctrl-C during a client call disconnects that client.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import (
    AsyncIterable,
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    Mapping,
)
from contextlib import AbstractContextManager
from functools import partial
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import anyio
from anyio.from_thread import BlockingPortal, start_blocking_portal

from claude_wrap._client import ClaudeSDKClient as _AsyncClient, ExitInfo
from claude_wrap._exceptions import CLIConnectionError, SessionStateError
from claude_wrap._launch.options import ClaudeAgentOptions, PermissionMode
from claude_wrap._process.transport import LineTransport
from claude_wrap._query import query as _async_query
from claude_wrap._run.custom_transport import Transport
from claude_wrap._wire.messages import Message

if TYPE_CHECKING:
    from typing_extensions import Self

    from claude_wrap._fleet.batch import Batch
    from claude_wrap._fleet.rate import RateLimit
    from claude_wrap._fleet.types import FleetStats, Outcome, Task  # noqa: F401 - Outcome is named in a string
    from claude_wrap._launch.option_types import SdkPluginConfig, ThinkingDisplay
    from claude_wrap._mcp.config import McpServerConfig
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
    from claude_wrap._wire.permissions import PermissionResult

__all__ = ["ClaudeSDKClient", "MessageIterator", "OutcomeIterator", "query", "run_many"]

T = TypeVar("T")


class _Cancelled(Exception):
    """The step was cancelled from the calling thread (Ctrl-C)."""


_END: Any = object()


class _LoopThread:
    """An event loop in a daemon helper thread, driven from the caller's thread."""

    def __init__(self) -> None:
        self._cm: AbstractContextManager[BlockingPortal] = start_blocking_portal(name="claude-wrap-sync")
        self.portal: BlockingPortal = self._cm.__enter__()
        self._lock = threading.Lock()
        self._closed = False

    def run(self, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Run ``await fn(*args)`` on the loop; on Ctrl-C cancel it, wait, re-raise."""
        if self._closed:
            raise SessionStateError("this client was disconnected (or its run ended); create a new one")
        state: dict[str, Any] = {"cancelled": False, "scope": None}

        async def step() -> T:
            with anyio.CancelScope() as scope:
                state["scope"] = scope
                if state["cancelled"]:
                    scope.cancel()
                return await fn(*args)
            raise _Cancelled

        def cancel() -> None:  # runs on the loop thread, so it cannot race step()
            state["cancelled"] = True
            if state["scope"] is not None:
                state["scope"].cancel()

        future = self.portal.start_task_soon(step)
        try:
            return future.result()
        except KeyboardInterrupt:
            try:
                self.portal.call(cancel)
            except RuntimeError:  # the portal already stopped
                pass
            # The cancelled work (a shielded, bounded shutdown of the binary)
            # finishes before the interrupt reaches the caller.
            concurrent.futures.wait([future])
            raise

    @property
    def closed(self) -> bool:
        """True once the loop was stopped."""
        return self._closed

    def close(self) -> None:
        """Stop the loop and join the thread; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._cm.__exit__(None, None, None)


async def _aiter(items: Iterable[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
    for item in items:
        yield item


class _PlainIterator(Iterator[T]):
    """A plain iterator over an async iterator of the core, read on its loop."""

    def __init__(
        self,
        loop: _LoopThread,
        messages: AsyncIterator[T],
        *,
        owns_loop: bool,
        on_interrupt: Callable[[], None] | None = None,
    ) -> None:
        self._loop = loop
        self._messages = messages
        self._owns_loop = owns_loop
        self._on_interrupt = on_interrupt
        self._done = False
        self._closed = False

    async def _next(self) -> T:
        try:
            return await self._messages.__anext__()
        except StopAsyncIteration:
            return _END  # type: ignore[no-any-return]

    def __iter__(self) -> Self:
        return self

    def __next__(self) -> T:
        if self._done or self._closed:
            raise StopIteration
        try:
            message = self._loop.run(self._next)
        except KeyboardInterrupt:
            self._done = True
            self.close()
            if self._on_interrupt is not None:
                self._on_interrupt()
            raise
        except BaseException:
            self._done = True
            self.close()
            raise
        if message is _END:
            self._done = True
            self.close()
            raise StopIteration
        return message

    def close(self) -> None:
        """Stop the run (if still going) and release the helper loop; idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            aclose = getattr(self._messages, "aclose", None)
            if aclose is not None and not self._loop.closed:
                self._loop.run(aclose)
        finally:
            if self._owns_loop:
                self._loop.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:
        # `for m in query(...): break` drops the iterator: stop the run now,
        # not at interpreter exit.
        if not getattr(self, "_closed", True):
            try:
                self.close()
            except Exception:  # noqa: BLE001 - nothing to report to from __del__
                pass


class MessageIterator(_PlainIterator[Message]):
    """A plain iterator over messages from the async core.

    Close it (``close()``, ``with``, or just let the ``for`` loop end) to
    stop the run; breaking out early and dropping the iterator also closes it.
    """


class OutcomeIterator(_PlainIterator["Outcome"]):
    """A plain iterator over a batch's outcomes (``run_many``).

    Close it (``close()``, ``with``, or let the ``for`` loop end) to stop
    the batch; breaking out early and dropping it also stops it.
    """

    def __init__(self, loop: _LoopThread, batch: Batch) -> None:
        super().__init__(loop, batch, owns_loop=True)
        self._batch = batch

    @property
    def stats(self) -> FleetStats:
        """Where the batch stands now."""
        return self._batch.stats


def query(
    *,
    prompt: str | Iterable[dict[str, Any]] | AsyncIterable[dict[str, Any]],
    options: ClaudeAgentOptions | None = None,
    transport: Transport | LineTransport | None = None,
) -> MessageIterator:
    """Run the agent on ``prompt``; a plain iterator of its messages.

    The synchronous :func:`claude_wrap.query`: same messages, same errors
    (raised from ``next()``). ``prompt`` may also be a plain iterable of
    stream-json ``user`` frames (read on the helper thread). The run starts
    on the first ``next()``.
    """
    source: str | AsyncIterable[dict[str, Any]]
    if isinstance(prompt, (str, AsyncIterable)):
        source = prompt
    else:
        source = _aiter(prompt)
    loop = _LoopThread()
    return MessageIterator(loop, _async_query(prompt=source, options=options, transport=transport), owns_loop=True)


def run_many(
    tasks: Iterable[str | Task],
    *,
    options: ClaudeAgentOptions | None = None,
    backend: Literal["local", "ray"] = "local",
    concurrency: int | None = None,
    budget_usd: float | None = None,
    progress: bool | Callable[[FleetStats], None] = False,
    batch_id: str | None = None,
    lease_s: float = 30.0,
    api_retries: int = 3,
    api_backoff_s: float = 2.0,
    rate_limit: RateLimit | None = None,
    **backend_options: Any,
) -> OutcomeIterator:
    """Run many tasks; a plain iterator of their outcomes as they finish.

    The synchronous :func:`claude_wrap.fleet.run_many`: same arguments, same
    outcomes. A task's ``run`` function is still ``async`` (it runs on the
    helper loop, with an async client). Bad arguments raise here; the batch
    starts on the first ``next()``.
    """
    from claude_wrap.fleet import run_many as _run_many

    batch = _run_many(
        tasks,
        options=options,
        backend=backend,
        concurrency=concurrency,
        budget_usd=budget_usd,
        progress=progress,
        batch_id=batch_id,
        lease_s=lease_s,
        api_retries=api_retries,
        api_backoff_s=api_backoff_s,
        rate_limit=rate_limit,
        **backend_options,
    )
    return OutcomeIterator(_LoopThread(), batch)


class ClaudeSDKClient:
    """The synchronous :class:`claude_wrap.ClaudeSDKClient`.

    Use it as ``with ClaudeSDKClient(options) as client:`` or call
    ``connect()`` and ``disconnect()``. ``receive_response()`` and
    ``receive_messages()`` return plain iterators. Control methods such as
    ``interrupt()`` may be called from another thread while one thread
    iterates. Ctrl-C while a call or an iteration is blocked disconnects the
    client (the binary stops) and re-raises ``KeyboardInterrupt``.
    """

    def __init__(
        self, options: ClaudeAgentOptions | None = None, transport: Transport | LineTransport | None = None
    ) -> None:
        self._client = _AsyncClient(options, transport)
        self._loop: _LoopThread | None = None

    @property
    def options(self) -> ClaudeAgentOptions:
        """The options this client starts the binary with."""
        return self._client.options

    @property
    def pid(self) -> int | None:
        """Process id of the running binary (``None`` when not connected)."""
        return self._client.pid

    @property
    def is_alive(self) -> bool:
        """True while connected and the binary is running (see the async client)."""
        return self._client.is_alive

    @property
    def exit_info(self) -> ExitInfo | None:
        """How the binary ended; ``None`` while it is alive or before ``connect()``."""
        return self._client.exit_info

    def _call(self, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        if self._loop is None:
            raise CLIConnectionError("Not connected. Call connect() first.")
        try:
            return self._loop.run(fn, *args)
        except KeyboardInterrupt:
            self.disconnect()
            raise

    # -- lifecycle ---------------------------------------------------------------

    def connect(self, prompt: str | Iterable[dict[str, Any]] | AsyncIterable[dict[str, Any]] | None = None) -> None:
        """Start the binary and complete the handshake; optionally send a first
        prompt. A client may connect again after ``disconnect()``."""
        if self._loop is not None:
            raise SessionStateError("already connected; call disconnect() first")
        source: str | AsyncIterable[dict[str, Any]] | None
        if prompt is None or isinstance(prompt, (str, AsyncIterable)):
            source = prompt
        else:
            source = _aiter(prompt)
        self._loop = _LoopThread()
        try:
            self._call(self._client.connect, source)
        except BaseException:
            self.disconnect()
            raise

    def disconnect(self) -> None:
        """Stop the binary and everything it started, and the helper loop. Idempotent."""
        loop, self._loop = self._loop, None
        if loop is None:
            return
        try:
            loop.run(self._client.disconnect)
        finally:
            loop.close()

    def reconnect(self) -> None:
        """Start a new binary that resumes the last session (see the async
        client's ``reconnect()``); after the old one died, or to restart it."""
        self._call(self._client.reconnect)

    def __enter__(self) -> ClaudeSDKClient:  # noqa: PYI034 - typing.Self needs 3.11
        self.connect()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.disconnect()

    # -- conversation ------------------------------------------------------------------

    def query(
        self,
        prompt: str | Iterable[dict[str, Any]] | AsyncIterable[dict[str, Any]],
        session_id: str = "default",
        *,
        uuid: str | None = None,
    ) -> None:
        """Send a prompt (or several stream-json ``user`` frames). Returns once written."""
        source = prompt if isinstance(prompt, (str, AsyncIterable)) else _aiter(prompt)

        async def send() -> None:
            await self._client.query(source, session_id, uuid=uuid)

        self._call(send)

    def _iterate(self, messages: AsyncIterator[Message]) -> MessageIterator:
        assert self._loop is not None  # _live() passed, so connect() set it
        return MessageIterator(self._loop, messages, owns_loop=False, on_interrupt=self.disconnect)

    def receive_messages(self) -> MessageIterator:
        """Every message until the binary's output ends."""
        self._client._live()
        return self._iterate(self._client.receive_messages())

    def receive_response(self) -> MessageIterator:
        """Messages through the next ``ResultMessage`` (included)."""
        self._client._live()
        return self._iterate(self._client.receive_response())

    # -- control ---------------------------------------------------------------------------

    def interrupt(self, *, cancel_queued: bool = False) -> InterruptResult:
        """Stop the current turn. Returns the uuids of user messages still
        queued; ``cancel_queued=True`` withdraws them (see the async client)."""
        return self._call(partial(self._client.interrupt, cancel_queued=cancel_queued))

    def cancel_async_message(self, message_uuid: str) -> bool:
        """Withdraw a queued user message before it runs (see the async client)."""
        return self._call(self._client.cancel_async_message, message_uuid)

    def answer_permission(self, request_id: str, result: PermissionResult) -> None:
        """Answer a ``can_use_tool`` request deferred with ``ANSWER_LATER`` (see the async client)."""
        self._call(self._client.answer_permission, request_id, result)

    def set_permission_mode(self, mode: PermissionMode) -> PermissionMode | None:
        """Change the permission mode for the rest of the session; returns the mode in effect."""
        return self._call(self._client.set_permission_mode, mode)

    def set_model(self, model: str | None = None) -> None:
        """Switch the model (``None``: the default model)."""
        self._call(self._client.set_model, model)

    def get_server_info(self) -> dict[str, Any] | None:
        """What the binary said in its ``initialize`` answer."""
        return self._call(self._client.get_server_info)

    def set_max_thinking_tokens(
        self, max_thinking_tokens: int | None, *, display: ThinkingDisplay | None | Literal["keep"] = "keep"
    ) -> None:
        """Limit thinking tokens per turn (``None``: the default); ``display``
        as in the async client."""
        self._call(partial(self._client.set_max_thinking_tokens, max_thinking_tokens, display=display))

    def rewind_files(self, user_message_id: str, *, dry_run: bool = False) -> RewindFilesResult:
        """Undo file edits made since the user message ``user_message_id``."""

        async def rewind() -> RewindFilesResult:
            return await self._client.rewind_files(user_message_id, dry_run=dry_run)

        return self._call(rewind)

    def get_mcp_status(self) -> McpStatusResponse:
        """Every MCP server the session knows, with its connection status."""
        return self._call(self._client.get_mcp_status)

    def reconnect_mcp_server(self, server_name: str) -> None:
        """Reconnect the MCP server ``server_name``."""
        self._call(self._client.reconnect_mcp_server, server_name)

    def toggle_mcp_server(self, server_name: str, enabled: bool) -> None:
        """Enable or disable the MCP server ``server_name``."""
        self._call(self._client.toggle_mcp_server, server_name, enabled)

    def add_mcp_tool(self, server_name: str, tool: Any) -> None:
        """Add a tool (made with ``@tool``) to an in-process server while
        connected; the binary lists the tools again before this returns."""
        self._call(self._client.add_mcp_tool, server_name, tool)

    def remove_mcp_tool(self, server_name: str, tool_name: str) -> None:
        """Remove a tool from an in-process server while connected."""
        self._call(self._client.remove_mcp_tool, server_name, tool_name)

    def notify_mcp_tools_changed(self, server_name: str) -> None:
        """Tell the binary that an in-process server's tools changed."""
        self._call(self._client.notify_mcp_tools_changed, server_name)

    def stop_task(self, task_id: str) -> None:
        """Stop a background task."""
        self._call(self._client.stop_task, task_id)

    def get_context_usage(self, *, detail: Literal["summary", "full"] = "full") -> ContextUsageResponse:
        """How the context window is used (see the async client)."""

        async def usage() -> ContextUsageResponse:
            return await self._client.get_context_usage(detail=detail)

        return self._call(usage)

    def get_usage(self) -> UsageResponse:
        """Cost and usage of the session so far."""
        return self._call(self._client.get_usage)

    def rename_session(self, title: str) -> None:
        """Set the session's title."""
        self._call(self._client.rename_session, title)

    def end_session(self, reason: str = "other") -> None:
        """Ask the binary to end the session; it exits afterwards."""
        self._call(self._client.end_session, reason)

    def list_models(self) -> list[ModelInfo]:
        """The models the binary offers."""
        return self._call(self._client.list_models)

    def get_settings(self) -> dict[str, Any]:
        """The effective settings and where each came from."""
        return self._call(self._client.get_settings)

    def apply_flag_settings(self, settings: dict[str, Any]) -> None:
        """Apply settings for the rest of the session, as ``--settings`` would."""
        self._call(self._client.apply_flag_settings, settings)

    def reload_plugins(
        self,
        *,
        hold_on_cache_impact: bool = False,
        add_plugins: list[SdkPluginConfig] | None = None,
        refuse_if_busy: bool = False,
    ) -> ReloadPluginsResponse:
        """Reload plugins, commands, agents and MCP servers from disk (options as in the async client)."""
        reload = partial(
            self._client.reload_plugins,
            hold_on_cache_impact=hold_on_cache_impact,
            add_plugins=add_plugins,
            refuse_if_busy=refuse_if_busy,
        )
        return self._call(reload)

    def initialization_result(self) -> SDKControlInitializeResponse:
        """The binary's answer to ``initialize``, typed."""
        return self._call(self._client.initialization_result)

    def reinitialize(self) -> SDKControlInitializeResponse:
        """Send ``initialize`` again on the running binary; returns its fresh answer."""
        return self._call(self._client.reinitialize)

    def supported_commands(self) -> list[SlashCommand]:
        """The slash commands and skills the session offers."""
        return self._call(self._client.supported_commands)

    def supported_agents(self) -> list[AgentInfo]:
        """The subagents the session offers."""
        return self._call(self._client.supported_agents)

    def account_info(self) -> AccountInfo:
        """Who the session runs as."""
        return self._call(self._client.account_info)

    def reload_skills(self) -> list[SlashCommand]:
        """Read the skill folders again; returns the skills now offered."""
        return self._call(self._client.reload_skills)

    def reload_output_styles(self) -> list[str]:
        """Read the output-style folders again; returns the style names now offered."""
        return self._call(self._client.reload_output_styles)

    def update_settings(self, source: Literal["localSettings", "userSettings"], settings: dict[str, Any]) -> None:
        """Write settings through the binary's own writer (see the async client)."""
        self._call(self._client.update_settings, source, settings)

    def read_file(
        self, path: str, *, max_bytes: int | None = None, encoding: Literal["utf-8", "base64"] | None = None
    ) -> ReadFileResponse:
        """Read a file as the session sees it (see the async client)."""
        return self._call(partial(self._client.read_file, path, max_bytes=max_bytes, encoding=encoding))

    def seed_read_state(self, path: str, mtime: float) -> None:
        """Tell the binary the file ``path`` was read when it had ``mtime`` (ms)."""
        self._call(self._client.seed_read_state, path, mtime)

    def background_tasks(self, tool_use_id: str | None = None) -> bool:
        """Send running foreground work to the background (see the async client)."""
        return self._call(self._client.background_tasks, tool_use_id)

    def get_task_output(self, task_id: str) -> TaskOutputResponse:
        """The end of a background shell or Monitor task's output."""
        return self._call(self._client.get_task_output, task_id)

    def set_mcp_servers(self, servers: Mapping[str, McpServerConfig]) -> McpSetServersResult:
        """Replace the MCP servers managed this way (see the async client)."""
        return self._call(self._client.set_mcp_servers, servers)

    def read_mcp_resource(self, server_name: str, uri: str) -> McpReadResourceResponse:
        """Read a ``ui://`` resource of an external MCP server."""
        return self._call(self._client.read_mcp_resource, server_name, uri)

    def set_mcp_permission_mode_override(self, server_name: str, mode: Literal["default", "auto"] | None) -> str | None:
        """Pin the permission mode for one MCP server's tools; returns the binary's warning, if any."""
        return self._call(self._client.set_mcp_permission_mode_override, server_name, mode)

    def get_hooks_listing(self) -> dict[str, Any]:
        """The hooks the session runs, as the binary's ``/hooks`` menu lists them."""
        return self._call(self._client.get_hooks_listing)

    def list_permission_rules(self) -> dict[str, Any]:
        """The session's permission rules and working directories, with their sources."""
        return self._call(self._client.list_permission_rules)

    def request(self, subtype: str, **fields: Any) -> dict[str, Any]:
        """Send the control request ``subtype`` with ``fields``; returns the reply (see the async client)."""
        return self._call(partial(self._client.request, subtype, **fields))
