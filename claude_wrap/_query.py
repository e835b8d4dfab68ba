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

    ``prompt`` is a string, or an async iterable of stream-json ``user``
    frames (each one a prompt of its own). The run ends when the binary
    exits: once the prompts are written its input is closed (with hooks,
    ``can_use_tool`` or in-process MCP servers, only after the binary says
    the last prompt's run is over, so they keep working until then), and
    everything it still produces is yielded, including the turns it starts
    on its own when a background agent finishes.

    If the binary exits non-zero right after an error result (``is_error``),
    that result is yielded and then ``ResultError`` is raised with its
    details; other failures raise the typed errors of
    ``claude_wrap._exceptions`` (a crashed binary gives ``ProcessError`` with
    its exit code and stderr in the message).

    Leaving the loop early (``break``, an exception, cancellation) stops the
    binary and everything it started; nothing is left running.

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
    """Drive one run on a started session to the binary's exit, then close it
    (shared by ``query()`` and pre-started sessions). ``prompt_sent``: a
    string prompt was already written with the handshake."""
    from ._connect import user_frame

    try:
        if isinstance(prompt, str):
            if not prompt_sent:
                await session.send_user(user_frame(prompt))
        else:
            session.feed(prompt)
        await session.end_input_at_run_end()
        while (message := await session.receive()) is not None:
            yield message
    finally:
        await session.aclose()
