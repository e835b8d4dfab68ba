"""``Transport``: the official package's interface for bringing your own
connection to the binary (a container, a remote sandbox ...).

A transport written for the official package works here unchanged: the
library calls ``connect()``, writes each frame as one JSON line with
``write()``, reads parsed frames from ``read_messages()``, calls
``end_input()`` at the end of input and ``close()`` last. Options that
become the binary's command line (model, cwd, permission mode, tools ...)
are the transport's business, as in the official package; hooks, agents,
``can_use_tool`` and in-process MCP servers travel over the control
protocol and work as usual.

Inside, such a transport is adapted to the byte-line ``LineTransport`` the
rest of the library speaks. ``read_messages()`` is pulled by a task of its
own: an async generator cannot be resumed after a cancelled ``__anext__``,
and the session cancels reads routinely (a callback finished, a watchdog
fired), so the frames go through a buffer whose reads are cancel-safe.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from typing import Any

import anyio

from claude_wrap._exceptions import TransportClosedError
from claude_wrap._process.transport import LineTransport
from claude_wrap._run.detached import Detached
from claude_wrap._wire.codec import encode_value

__all__ = ["Transport", "line_transport"]

log = logging.getLogger("claude_wrap")

_BUFFERED_FRAMES = 64
_READER_STOP_GRACE = 5.0


class Transport(ABC):
    """A connection to the binary that moves parsed JSON frames.

    The same abstract class as the official package's ``Transport``: subclass
    it (or write a class with these methods) and pass an instance as
    ``query(transport=...)`` or ``ClaudeSDKClient(transport=...)``. It is
    used for one run or one client connection; ``connect()`` is called
    again when a client connects again.
    """

    @abstractmethod
    async def connect(self) -> None:
        """Open the connection: start the process, dial the sandbox."""

    @abstractmethod
    async def write(self, data: str) -> None:
        """Send ``data``: one JSON frame followed by a newline."""

    @abstractmethod
    def read_messages(self) -> AsyncIterator[dict[str, Any]]:
        """Yield each frame the binary writes, parsed into a dict, until its
        output ends. An exception raised here reaches the reader of the run."""

    @abstractmethod
    async def close(self) -> None:
        """Release everything. Called last, inside a shielded cancel scope:
        an outer cancellation does not interrupt it, so bound your own waits
        (``anyio.move_on_after``) or closing never returns."""

    @abstractmethod
    def is_ready(self) -> bool:
        """Whether the connection is open for reading and writing."""

    @abstractmethod
    async def end_input(self) -> None:
        """Close the binary's input (its stdin): nothing more will be written."""


async def line_transport(transport: Transport | LineTransport) -> LineTransport:
    """A ready byte-line transport for what the caller passed: a
    ``LineTransport`` as it is, anything with the ``Transport`` methods
    connected and adapted."""
    if isinstance(transport, LineTransport):
        return transport
    missing = [m for m in ("connect", "write", "read_messages", "close", "end_input") if not hasattr(transport, m)]
    if missing:
        raise TypeError(
            f"transport must implement claude_wrap.Transport (or LineTransport); "
            f"{type(transport).__name__} has no {', '.join(missing)}"
        )
    adapted = _FrameTransportLines(transport)
    await adapted.start()
    return adapted


class _FrameTransportLines(LineTransport):
    """A ``Transport`` seen as a ``LineTransport``."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport
        self._reader: Detached | None = None
        self._frames, self._incoming = anyio.create_memory_object_stream[dict[str, Any]](_BUFFERED_FRAMES)
        self._error: BaseException | None = None
        self._write_lock = anyio.Lock()
        self._closed = False

    async def start(self) -> None:
        await self._transport.connect()
        self._reader = Detached.spawn(self._read, "transport reader")

    async def _read(self) -> None:
        messages = self._transport.read_messages()
        try:
            async for message in messages:
                await self._frames.send(message)
        except Exception as exc:  # noqa: BLE001 - handed to the reader of the run
            self._error = exc
        finally:
            self._frames.close()
            closing = getattr(messages, "aclose", None)
            if closing is not None:
                with anyio.CancelScope(shield=True), anyio.move_on_after(_READER_STOP_GRACE):
                    try:
                        await closing()
                    except Exception:
                        log.debug("claude_wrap: closing read_messages() raised", exc_info=True)

    async def send(self, line: bytes) -> None:
        async with self._write_lock:
            try:
                await self._transport.write(line.decode("utf-8"))
            except TransportClosedError:
                raise
            except Exception as exc:
                raise TransportClosedError(f"Failed to write to the transport: {exc}") from exc

    async def receive(self) -> bytes | None:
        try:
            message = await self._incoming.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            if self._error is not None:
                error, self._error = self._error, None
                raise error from None
            return None
        return encode_value(message)

    async def send_eof(self) -> None:
        async with self._write_lock:
            await self._transport.end_input()

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        with anyio.CancelScope(shield=True):
            try:
                if self._reader is not None:
                    self._reader.cancel()
                    with anyio.move_on_after(_READER_STOP_GRACE):
                        await self._reader.wait()
            finally:
                self._incoming.close()
                await self._transport.close()
