"""Opening a connection: find the binary, spawn it, shake hands.

Shared by ``query()`` and ``ClaudeSDKClient`` so both start runs the same way.

The binary takes hundreds of milliseconds to start, so only what spawning it
needs is imported up front: the connection, the codec and the message types load
after the spawn, while the binary boots.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from claude_wrap._exceptions import StructuredOutputError
from claude_wrap._launch import argv as _argv
from claude_wrap._launch.checks import check_run
from claude_wrap._launch.control_plane import check_hooks_registered
from claude_wrap._launch.options import ClaudeAgentOptions
from claude_wrap._launch.plan import plan_run
from claude_wrap._process.binary import find_binary
from claude_wrap._process.transport import LineTransport, SubprocessTransport
from claude_wrap._run.extension import Extension
from claude_wrap._run.run_end import ceiling_ms

if TYPE_CHECKING:
    from pathlib import Path

    from claude_wrap._run.custom_transport import Transport
    from claude_wrap._run.protocol import Connection
    from claude_wrap._wire.messages import ResultMessage

__all__ = ["open_connection", "user_frame"]


def user_frame(content: Any, session_id: str = "") -> dict[str, Any]:
    """A stream-json ``user`` frame for a prompt (a string or content blocks)."""
    return {
        "type": "user",
        "message": {"role": "user", "content": content},
        "parent_tool_use_id": None,
        "session_id": session_id,
    }


class _StructuredOutput(Extension):
    """Turns ``structured_output`` into an instance of the pydantic ``model``."""

    def __init__(self, model: Any) -> None:
        self.model = model

    def filter_result(self, result: ResultMessage) -> ResultMessage:
        from pydantic import ValidationError

        raw = result.structured_output
        if raw is None or result.is_error:
            return result
        try:
            value = self.model.model_validate(raw)
        except ValidationError as exc:
            raise StructuredOutputError(
                f"structured output does not fit {self.model.__name__}: {exc}", raw=raw, result_message=result
            ) from exc
        result.structured_output = value
        return result


class _CleanUp(Extension):
    """Removes what the run left on disk (temp files, a materialized resume)."""

    def __init__(self, *callbacks: Callable[[], None]) -> None:
        self.callbacks = callbacks

    def after_close(self) -> None:
        for callback in self.callbacks:
            callback()


def _initialize_timeout(options: ClaudeAgentOptions) -> float:
    """``initialize_timeout``, raised to ``CLAUDE_CODE_STREAM_CLOSE_TIMEOUT``
    (milliseconds) when that is set, as the official package reads it."""
    raw = os.environ.get("CLAUDE_CODE_STREAM_CLOSE_TIMEOUT")
    try:
        floor = int(raw) / 1000 if raw else 0.0
    except ValueError:
        floor = 0.0
    return max(options.initialize_timeout, floor)


async def open_connection(
    options: ClaudeAgentOptions,
    *,
    first_message: dict[str, Any] | None = None,
    transport: Transport | LineTransport | None = None,
) -> Connection:
    """Spawn the binary (unless ``transport`` is given) and complete ``initialize``.

    A given ``transport`` is connected here; the options that become the
    binary's command line are its business, those sent with ``initialize``
    are sent as usual (as in the official package).

    ``first_message`` is written right after ``initialize`` without waiting
    for its answer: the binary reads stdin in order, so hooks are registered
    before the prompt runs, and the handshake overlaps the binary's start-up.
    """
    check_run(options)
    launch = None
    resumed = None
    if transport is None and options.session_store is not None:
        from claude_wrap._run.mirror import materialize_resume

        # A session held by the store is copied to a private config dir first.
        resumed = await materialize_resume(options)
        if resumed is not None:
            options = resumed.options
    lines: LineTransport
    if transport is not None:
        from claude_wrap._run.custom_transport import line_transport

        # The transport starts the binary its own way; the plan's
        # ``initialize`` and handlers are sent and served as usual.
        plan = plan_run(options, "claude", check_cwd=False)
        lines = await line_transport(transport)
    else:
        try:
            cli = find_binary(options.cli_path, prefer_path=options.prefer_path)
            plan = plan_run(options, os.fspath(cli))
            launch = plan.launch
            argv = launch.materialize()
            private = [d for d in (launch.private_dir, resumed.directory if resumed else None) if d]
            sub = SubprocessTransport(
                argv,
                env=launch.env,
                cwd=launch.cwd,
                max_buffer_size=options.max_buffer_size,
                stderr_callback=options.stderr,
                shutdown_grace=options.shutdown_grace,
                user=options.user,
                private_dirs=private,
            )
            await sub.start()
        except BaseException:
            if launch is not None:
                launch.cleanup()
            if resumed is not None:
                resumed.cleanup()
            raise
        lines = sub
    from claude_wrap._run.protocol import Connection  # see the module docstring

    extensions: list[Extension] = []
    if options.output_type is not None:
        extensions.append(_StructuredOutput(options.output_type))
    cleanups = [c.cleanup for c in (launch, resumed) if c is not None]
    if cleanups:
        extensions.append(_CleanUp(*cleanups))
    if options.session_store is not None:
        from claude_wrap._run.mirror import mirror_for

        env = launch.env if launch is not None else dict(options.env)
        extensions.append(mirror_for(options.session_store, options, env))
    connection_args: dict[str, Any] = {
        "handlers": plan.plane.handlers,
        "control_timeout": options.control_timeout,
        "idle_timeout": options.idle_timeout,
        "turn_timeout": options.turn_timeout,
        "needs_stdin": plan.plane.needs_stdin,
        "run_end_ceiling_ms": ceiling_ms(options.env),
        "shutdown_grace": options.shutdown_grace,
        "keep_unrecognized": options.keep_unrecognized,
        "user_fields": {"client_composed": True} if options.verbatim_prompts else None,
        "extensions": extensions,
        "transcript_of": _transcripts(options, launch.env if launch is not None else None),
    }
    if _argv.tracing():
        from claude_wrap._run.tracing import TracedConnection

        connection: Connection = TracedConnection(lines, request_model=options.model, **connection_args)
    else:
        connection = Connection(lines, **connection_args)
    try:
        timeout = _initialize_timeout(options)
        connection.initialize_fields = plan.initialize
        rid = await connection.start_request("initialize", plan.initialize, timeout)
        if first_message is not None:
            await connection.send_user(first_message, part_of=("initialize", timeout))
        # A binary that fails here (resuming an unknown session, say) writes
        # an error result and exits: that is a ResultError.
        connection.server_info = await connection.finish_request(rid, "initialize", timeout)
        check_hooks_registered(options, connection.server_info)
    except BaseException:
        await connection.aclose()
        raise
    return connection


def _transcripts(options: ClaudeAgentOptions, env: dict[str, str] | None) -> Callable[[str], Path] | None:
    """Where a binary of ours writes a session's transcript (for the close:
    see ``Connection._until_recorded``); ``None`` for a custom transport."""
    if env is None:
        return None
    from claude_wrap._sessions.transcripts import config_dir, project_key_for_directory

    folder = config_dir(env) / "projects" / project_key_for_directory(options.cwd)
    return lambda session_id: folder / f"{session_id}.jsonl"
