"""A warm pool: binaries spawned and initialized ahead of the prompts that need them.

Starting a run costs a spawn plus the ``initialize`` handshake (the binary
spends about 0.33 s there, more with MCP servers). A :class:`ClaudePool`
pays that cost in the background, for one options profile, so a
``pool.query()`` only writes the prompt::

    async with ClaudePool(options, size=2) as pool:
        async for message in pool.query(prompt="Hello"):
            ...

Structured concurrency: the pool is an async context manager that owns a
task group. Spawning members, refilling after a member is taken, recycling
idle members and replacing dead ones all run as tasks of that group, so no
task outlives the ``async with`` block, and leaving it stops every member it
still holds. A member that was handed out belongs to its run (``query()``)
or client (``client()``), which closes it as usual.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import anyio
import anyio.abc

from claude_wrap._client import ClaudeSDKClient
from claude_wrap._exceptions import SessionStateError
from claude_wrap._launch.options import ClaudeAgentOptions
from claude_wrap._query import RunCloser, start_run
from claude_wrap._run.connect import open_connection
from claude_wrap._run.protocol import Connection
from claude_wrap._wire.messages import Message

__all__ = ["ClaudePool", "prewarm"]


@dataclass
class _Member:
    connection: Connection
    idle_since: float
    polling: bool = False
    """The pool is reading its output; handing it out now would leave the
    new owner's callbacks in the poll's hands."""
    poll_scope: anyio.CancelScope | None = None
    """Cancels that read (it stops at once, as at its own time limit)."""

    def alive(self) -> bool:
        return self.connection.transport.returncode is None and not self.connection.ended


class ClaudePool:
    """Keeps ``size`` binaries spawned and initialized for one options profile.

    Use it as ``async with ClaudePool(options, size=N) as pool:``. Then

    * ``pool.query(prompt=...)`` runs a prompt on a ready member, exactly
      like :func:`claude_wrap.query` (same messages, same errors), minus the
      spawn and the handshake;
    * ``async with pool.client() as client:`` gives a connected
      :class:`~claude_wrap.ClaudeSDKClient` on a ready member.

    A taken member is replaced in the background. Members idle for more than
    ``max_idle`` seconds are replaced by fresh ones (``None``: never), and a
    member whose process exited is replaced when noticed (every
    ``check_interval`` seconds, and always before a member is handed out).
    When no member is ready, a caller waits for the next one to finish
    starting; if starting fails, the caller gets that error.

    With ``prime`` (the default), a new member is also asked for its context
    usage summary once it is initialized: the binary answers locally (no API
    call, nothing in the transcript) and in doing so builds the system prompt
    and tool list that it would otherwise build on the first prompt, which
    takes that work off the pooled query's path too.

    Every member is started from the same ``options``, so everything in them
    applies to every run: ``cwd``, ``env``, ``model``, tools, permissions,
    hooks and ``can_use_tool`` callbacks (callbacks are wired per session, so
    they work as in ``query()``). Options that must differ per prompt
    (``resume``, ``session_id``, another ``cwd``) need a pool of their own or
    a plain ``query()``. The binary's environment is taken when a member is
    spawned, not when the prompt runs.
    """

    def __init__(
        self,
        options: ClaudeAgentOptions | None = None,
        *,
        size: int = 1,
        max_idle: float | None = 300.0,
        check_interval: float = 1.0,
        prime: bool = True,
    ) -> None:
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
        if max_idle is not None and max_idle <= 0:
            raise ValueError(f"max_idle must be positive or None, got {max_idle}")
        if check_interval <= 0:
            raise ValueError(f"check_interval must be positive, got {check_interval}")
        self.options: ClaudeAgentOptions = options if options is not None else ClaudeAgentOptions()
        self.size = size
        self.max_idle = max_idle
        self.check_interval = check_interval
        self.prime = prime
        self._idle: deque[_Member] = deque()
        self._starting = 0
        self._error: BaseException | None = None
        self._changed = anyio.Event()
        self._tg: anyio.abc.TaskGroup | None = None
        self._closed = False
        self.spawned: int = 0
        """How many members were started so far (replacements included)."""

    # -- lifecycle --------------------------------------------------------------

    async def __aenter__(self) -> ClaudePool:  # noqa: PYI034 - typing.Self needs 3.11
        if self._tg is not None or self._closed:
            raise SessionStateError("a ClaudePool can be entered once")
        tg = anyio.create_task_group()
        await tg.__aenter__()
        self._tg = tg
        tg.start_soon(self._maintain)
        self._refill()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        tg = self._tg
        assert tg is not None
        self._closed = True
        self._notify()
        # Members still starting are cancelled (open_connection stops a binary it
        # could not finish starting); ready ones are closed here, in parallel.
        tg.cancel_scope.cancel()
        idle = [m.connection for m in self._idle]
        self._idle.clear()
        try:
            with anyio.CancelScope(shield=True):
                async with anyio.create_task_group() as closer:
                    for connection in idle:
                        closer.start_soon(connection.aclose)
        finally:
            result = await tg.__aexit__(exc_type, exc, tb)
        return result

    @property
    def ready(self) -> int:
        """Members started and waiting for a prompt."""
        return len(self._idle)

    @property
    def starting(self) -> int:
        """Members being spawned and initialized right now."""
        return self._starting

    async def wait_ready(self, count: int | None = None) -> None:
        """Wait until ``count`` members (default: ``size``) are ready.

        Raises the error of a failed start if starting stopped short of it.
        """
        want = self.size if count is None else min(count, self.size)
        while len(self._idle) < want:
            self._check_open()
            if self._error is not None and not self._starting:
                err, self._error = self._error, None
                raise err
            self._refill()
            await self._changed.wait()

    # -- running prompts ------------------------------------------------------------

    async def query(self, *, prompt: str | AsyncIterable[dict[str, Any]]) -> AsyncIterator[Message]:
        """Like :func:`claude_wrap.query`, on a ready member of the pool.

        The member is used for this one run and then stopped; the pool starts
        a replacement in the background.
        """
        connection = await self._take(refill=False)
        try:
            try:
                await start_run(connection, prompt)
            finally:
                # The replacement starts once the prompt is written: spawning
                # it first (a fork and exec on this thread, then the new
                # binary's start beside this one's turn) held the prompt up
                # by 25-95 ms on a busy 2-core machine.
                self._refill()
            while (message := await connection.receive()) is not None:
                yield message
        finally:
            closer = RunCloser(connection)
            while not closer.done:
                with suppress(GeneratorExit):  # see RunCloser
                    await closer.wait()

    @asynccontextmanager
    async def client(self) -> AsyncGenerator[ClaudeSDKClient, None]:
        """A connected :class:`~claude_wrap.ClaudeSDKClient` on a ready member.

        Use as ``async with pool.client() as client:``; leaving the block
        disconnects it (the pool starts a replacement meanwhile).
        """
        connection = await self._take()
        client = ClaudeSDKClient._adopt(connection, self.options)
        try:
            yield client
        finally:
            await client.disconnect()

    # -- members ------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise SessionStateError("the pool is closed")
        if self._tg is None:
            raise SessionStateError("use the pool as 'async with ClaudePool(...) as pool:'")

    def _notify(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()

    async def _take(self, *, refill: bool = True) -> Connection:
        """A ready member, taken out of the pool; ``refill``: start its
        replacement now (else the caller does, when it suits)."""
        while True:
            self._check_open()
            for member in [m for m in self._idle if not m.polling]:
                self._idle.remove(member)
                if member.alive():
                    if refill:
                        self._refill()
                    return member.connection
                self._discard(member)
            for member in self._idle:  # all being read: cut the reads short, not waited out
                if member.poll_scope is not None:
                    member.poll_scope.cancel()
            if self._error is not None and not self._starting:
                err, self._error = self._error, None
                raise err
            self._refill()
            await self._changed.wait()

    def _refill(self) -> None:
        """Start members until ready + starting reaches ``size``."""
        if self._closed or self._tg is None:
            return
        while len(self._idle) + self._starting < self.size:
            self._starting += 1
            self.spawned += 1
            self._tg.start_soon(self._start_member)

    async def _start_member(self) -> None:
        try:
            connection = await open_connection(self.options)
            if self.prime:
                try:
                    await connection.request("get_context_usage", {"detail": "summary"})
                except BaseException:
                    await connection.aclose()
                    raise
        except Exception as exc:  # noqa: BLE001 - handed to whoever waits for a member
            self._error = exc
        else:
            self._error = None
            if self._closed:
                await connection.aclose()
            else:
                self._idle.append(_Member(connection, anyio.current_time()))
        finally:
            self._starting -= 1
            self._notify()

    def _discard(self, member: _Member) -> None:
        """Close a member we no longer want, in the background of the pool."""
        assert self._tg is not None
        self._tg.start_soon(member.connection.aclose)

    async def _maintain(self) -> None:
        """Replace dead members and recycle idle ones, forever (until the pool closes)."""
        interval = self.check_interval
        if self.max_idle is not None:
            interval = min(interval, self.max_idle / 2)
        while True:
            await anyio.sleep(interval)
            now = anyio.current_time()
            limit = math.inf if self.max_idle is None else self.max_idle
            keep: deque[_Member] = deque()
            changed = False
            for member in self._idle:
                if member.alive() and now - member.idle_since < limit:
                    keep.append(member)
                else:
                    self._discard(member)
                    changed = True
            if changed:
                self._idle = keep
                self._refill()
            # Nobody reads a waiting member's pipes: take in what it wrote.
            # (A snapshot: members may be handed out while we poll.)
            for member in list(self._idle):
                if member in self._idle:
                    member.polling = True
                    try:
                        with anyio.CancelScope() as member.poll_scope:
                            await member.connection.poll()
                    finally:
                        member.polling = False
                        member.poll_scope = None
                        self._notify()  # a _take() may be waiting for it


def prewarm(options: ClaudeAgentOptions | None = None, *, size: int = 1, max_idle: float | None = 300.0) -> ClaudePool:
    """A :class:`ClaudePool` of ``size`` members for ``options``; enter it to start them.

    ``async with prewarm(options, size=2) as pool:`` starts two binaries
    right away, in the background of the pool.
    """
    return ClaudePool(options, size=size, max_idle=max_idle)
