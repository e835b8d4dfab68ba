"""``ClaudeSDKClient``: a long-lived conversation with one binary process."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator
from types import TracebackType
from typing import Any

from ._connect import open_session, user_frame
from ._exceptions import SessionStateError
from ._messages import Message, ResultMessage
from ._options import ClaudeAgentOptions, PermissionMode
from ._session import Session
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

    async def query(self, prompt: str | AsyncIterable[dict[str, Any]], session_id: str = "default") -> None:
        """Send a prompt (or several stream-json ``user`` frames). Returns once written."""
        session = self._live()
        if isinstance(prompt, str):
            await session.send_user(user_frame(prompt, session_id))
            return
        async for frame in prompt:
            frame.setdefault("parent_tool_use_id", None)
            frame.setdefault("session_id", session_id)
            await session.send_user(frame)

    async def receive_messages(self) -> AsyncIterator[Message]:
        """Yield every message until the binary's output ends."""
        session = self._live()
        while True:
            message = await session.receive()
            if message is None:
                return
            yield message

    async def receive_response(self) -> AsyncIterator[Message]:
        """Yield messages through the next ``ResultMessage`` (included)."""
        session = self._live()
        while True:
            message = await session.receive()
            if message is None:
                return
            yield message
            if isinstance(message, ResultMessage):
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
