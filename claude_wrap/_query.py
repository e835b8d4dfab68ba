"""``query()``: one run, as an async iterator of messages."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

from ._options import ClaudeAgentOptions

if TYPE_CHECKING:
    from ._messages import Message
    from ._protocol import Session
    from ._custom_transport import Transport
    from ._transport import LineTransport

# The machinery of a run (anyio, msgspec, the session and the codec) loads
# when a run starts, so importing ``query`` stays as cheap as the options.

__all__ = ["query", "run_prompt"]


async def query(
    *,
    prompt: str | AsyncIterable[dict[str, Any]],
    options: ClaudeAgentOptions | None = None,
    transport: Transport | LineTransport | None = None,
) -> AsyncIterator[Message]:
    """Run the agent on ``prompt`` and yield every message it produces.

    With a string prompt the run ends after its ``ResultMessage``. With an
    async iterable of stream-json ``user`` frames, each frame is a turn and
    the run ends after the last one's result.

    If the final result is an error (``is_error``), it is yielded first and
    then ``ResultError`` is raised with its details; other failures raise
    the typed errors of ``claude_wrap._exceptions`` (a crashed binary gives
    ``ProcessError`` with its exit code and stderr in the message).

    Leaving the loop early (``break``, an exception, cancellation) stops the
    binary and everything it started; nothing is left running. Hooks,
    ``can_use_tool`` and in-process tools keep working until the result,
    because stdin stays open until then.

    ``transport`` replaces the binary this would start: a ``Transport``
    (the official package's interface, e.g. a binary in a container) or a
    ``LineTransport``. The options that become the binary's command line
    (model, cwd, permission mode, tools ...) are then the transport's
    business; hooks, agents and the rest of ``initialize`` are sent as usual.
    """
    from ._connect import open_session, user_frame

    opts = options if options is not None else ClaudeAgentOptions()
    single = isinstance(prompt, str)
    session = await open_session(
        opts, first_message=user_frame(prompt) if single else None, transport=transport
    )
    # aclosing: closing this generator closes the inner one at once (not at GC).
    async with aclosing(run_prompt(session, prompt, prompt_sent=single)) as messages:
        async for message in messages:
            yield message


async def run_prompt(
    session: Session, prompt: str | AsyncIterable[dict[str, Any]], *, prompt_sent: bool = False
) -> AsyncGenerator[Message, None]:
    """Drive one run on a started session, then close it (shared by ``query()``
    and pre-started sessions). ``prompt_sent``: a string prompt was already
    written with the handshake."""
    from ._connect import result_error, user_frame
    from ._exceptions import ProcessError
    from ._messages import ResultMessage

    last: ResultMessage | None = None
    failure: ProcessError | None = None
    single = isinstance(prompt, str)
    try:
        if isinstance(prompt, str):
            if not prompt_sent:
                await session.send_user(user_frame(prompt))
        else:
            session.eof_when_idle = True
            session.feed(prompt)
        while True:
            try:
                message = await session.receive()
            except ProcessError as exc:
                if last is not None and last.is_error:
                    failure = exc  # the error result already says what happened
                    break
                raise
            if message is None:
                break
            yield message
            if isinstance(message, ResultMessage):
                last = message
                if single or (session.feeding_done and not session.turn_open):
                    break
    finally:
        await session.aclose()
    if last is not None and last.is_error:
        raise result_error(last, failure)
