"""``query()``: one run, as an async iterator of messages."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from claude_wrap._launch.options import ClaudeAgentOptions
from claude_wrap._run.generator_view import GeneratorView

if TYPE_CHECKING:
    from claude_wrap._process.transport import LineTransport
    from claude_wrap._run.custom_transport import Transport
    from claude_wrap._run.protocol import Connection
    from claude_wrap._wire.messages import Message

# The machinery of a run (anyio, msgspec, the connection and the codec) loads
# when a run starts, so importing ``query`` stays as cheap as the options.

__all__ = ["RunCloser", "query", "start_run"]


def query(
    *,
    prompt: str | AsyncIterable[dict[str, Any]],
    options: ClaudeAgentOptions | None = None,
    transport: Transport | LineTransport | None = None,
) -> AsyncIterator[Message]:
    """Run the agent on ``prompt`` and yield every message it produces.

    ``prompt`` is a string, or an async iterable of stream-json ``user``
    frames (each one a prompt of its own), written unchanged as it yields
    while you read, so it may wait for an answer before its next prompt; an
    exception it raises is raised here after the messages that came before
    it. The run ends when the binary exits: once the prompts are written
    its input is closed (with hooks, ``can_use_tool`` or in-process MCP
    servers, only after the binary says the last prompt's run is over, so
    they keep working until then), and everything it still produces is
    yielded, including the turns it starts on its own when a background
    agent finishes.

    If the binary exits non-zero right after an error result (``is_error``),
    that result is yielded and then ``ResultError`` is raised with its
    details; other failures raise the typed errors of
    ``claude_wrap`` (a crashed binary gives ``ProcessError`` with
    its exit code and stderr in the message).

    Leaving the loop early (``break``, an exception, cancellation) stops the
    binary and everything it started; nothing is left running.

    ``transport`` replaces the binary this would start: a ``Transport``
    (the official package's interface, e.g. a binary in a container) or a
    ``LineTransport``. The options that become the binary's command line
    (model, cwd, permission mode, tools ...) are then the transport's
    business; hooks, agents and the rest of ``initialize`` are sent as usual.
    """
    return _Messages(prompt, options, transport)


_NOT_ITERABLE = (
    "query() returns an async iterator: read it with `async for message in query(...)` inside an "
    "`async def`, or use claude_wrap.sync.query(...) in synchronous code"
)


# Runs under way: their generators, kept alive from their first step to
# their end. A program that leaves ``async for`` early drops the generator
# unfinished; garbage-collected, it would be closed only by a task the
# event loop may cancel before it runs (asyncio does at shutdown, leaving
# the binary's pipes to be closed after the loop, which fails) or, on trio,
# with a ResourceWarning. Kept here, it is closed when its ``_Messages`` is
# dropped (see ``__del__``), or else by the loop's own shutdown, which
# closes every generator still alive.
_LIVE: set[AsyncGenerator[Message, None]] = set()


class _Messages(GeneratorView):
    """What ``query()`` returns: the run's async generator, iterated as it is
    (``asend()``, ``athrow()``, ``aclose()`` and its ``ag_*`` attributes
    included) and closed when dropped unfinished, plus a ``TypeError`` that
    says what to write instead for a plain ``for``.

    No ``__await__``: an object that looks awaitable (``inspect.isawaitable``)
    would be awaited by frameworks that await what they are given, where
    the official package's async generator is iterated; ``await query(...)``
    keeps Python's own TypeError."""

    __slots__ = ()

    def __init__(
        self,
        prompt: str | AsyncIterable[dict[str, Any]],
        options: ClaudeAgentOptions | None,
        transport: Transport | LineTransport | None,
    ) -> None:
        cell: list[AsyncGenerator[Message, None]] = []
        super().__init__(_run(prompt, options, transport, cell))
        cell.append(self._gen)

    def __del__(self) -> None:
        # Dropped with its run still open (a `break`, a `return`, an
        # exception out of the loop): close it now, in a task of its own,
        # while the event loop runs. Without a loop here, its shutdown does.
        gen = self._gen
        if gen in _LIVE and not getattr(gen, "ag_running", False):
            from claude_wrap._run.detached import Detached

            try:
                Detached.spawn(gen.aclose, "query closer", finish=True)
            except Exception:  # noqa: BLE001 - no loop in this thread: its shutdown closes the run
                pass

    if not TYPE_CHECKING:  # type checkers keep rejecting these uses outright

        def __getitem__(self, index):
            # Not __iter__: collections.abc.Iterable must stay False, as for
            # an async generator; a `for` loop still lands here.
            raise TypeError(_NOT_ITERABLE)

        def __getattr__(self, name):
            return getattr(self._gen, name)  # ag_running, ag_frame, ...


async def _run(
    prompt: str | AsyncIterable[dict[str, Any]],
    options: ClaudeAgentOptions | None,
    transport: Transport | LineTransport | None,
    this: list[AsyncGenerator[Message, None]],
) -> AsyncGenerator[Message, None]:
    """The run; ``this`` holds this generator itself (see ``_LIVE``)."""
    from claude_wrap._run.connect import open_connection, user_frame

    _LIVE.add(this[0])
    try:
        opts = options if options is not None else ClaudeAgentOptions()
        single = isinstance(prompt, str)
        connection = await open_connection(
            opts, first_message=user_frame(prompt) if single else None, transport=transport
        )
        try:
            await start_run(connection, prompt, prompt_sent=single)
            while (message := await connection.receive()) is not None:
                yield message
        finally:
            closer = RunCloser(connection)
            while not closer.done:
                with suppress(GeneratorExit):  # see RunCloser
                    await closer.wait()
    finally:
        _LIVE.discard(this[0])


async def start_run(
    connection: Connection, prompt: str | AsyncIterable[dict[str, Any]], *, prompt_sent: bool = False
) -> None:
    """Start one run on an open connection, to last until the binary exits
    (shared by ``query()`` and pre-started sessions): write the prompt, or
    start writing the iterable, and close the input once the run is over.
    ``prompt_sent``: a string prompt was already written with the handshake."""
    from claude_wrap._run.connect import user_frame

    if isinstance(prompt, str):
        if not prompt_sent:
            await connection.send_user(user_frame(prompt))
    else:
        connection.feed(prompt)
    await connection.end_input_at_run_end()


class RunCloser:
    """Closes a run's connection from its generator's ``finally``, as::

        closer = RunCloser(connection)
        while not closer.done:
            with suppress(GeneratorExit):
                await closer.wait()

    On asyncio the closing runs in a task of its own and the loop stays in
    the generator's frame: when asyncio cancels the task that finalizes an
    abandoned generator before that task starts (``asyncio.run()`` does so
    at shutdown), CPython 3.11 later closes whatever the generator awaits
    with ``GeneratorExit``, and a coroutine that awaits after that fails
    with "coroutine ignored GeneratorExit". The generator itself may await
    again, so it waits on while its closer goes on. Trio finalizes
    generators without that flaw (and after its system tasks are gone, at
    the end of a run), so there the connection closes in place.
    """

    def __init__(self, connection: Connection) -> None:
        from claude_wrap._run.detached import running_asyncio

        self._connection = connection
        self._task = connection.close_in_background() if running_asyncio() else None
        self._closed = False

    @property
    def done(self) -> bool:
        return self._task.done if self._task is not None else self._closed

    async def wait(self) -> None:
        """Until the connection is closed; shielded (closing is bounded)."""
        if self._task is None:
            await self._connection.aclose()  # shielded inside
            self._closed = True
            return
        import anyio

        with anyio.CancelScope(shield=True):
            await self._task.wait()
