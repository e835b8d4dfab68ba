"""The exception tree.

Every error this library raises on purpose is a ``ClaudeSDKError``; the names
users of the official package already catch keep their meaning::

    ClaudeSDKError
    ├── CLIConnectionError              the binary could not be reached or talked to
    │   ├── CLINotFoundError            no binary was found (the message says how to get one)
    │   └── TransportClosedError        stdin/stdout closed under us
    ├── ProcessError                    the binary exited non-zero (exit code + stderr tail)
    │   └── ResultError                 it exited right after an error result (the result's details attached)
    ├── CLIJSONDecodeError              a stdout line that is not valid JSON / not a valid frame
    │   └── LineTooLongError            a stdout line larger than ``max_buffer_size``
    ├── ControlError                    a control request we sent failed
    │   ├── ControlTimeoutError         ... got no answer in time (also a ``TimeoutError``)
    │   └── ControlRejectedError        ... was answered with an error
    ├── StructuredOutputError           structured output did not fit ``output_type``
    ├── StoreTimeoutError               a session store did not answer in time (also a ``TimeoutError``)
    └── TurnTimeoutError                a turn went silent or ran too long (also a ``TimeoutError``)

Misuse stays outside the tree: invalid options raise ``pydantic.ValidationError``
(a ``ValueError``), and using a closed client raises ``SessionStateError``
(a ``RuntimeError``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "CLIConnectionError",
    "CLIJSONDecodeError",
    "CLINotFoundError",
    "ClaudeSDKError",
    "ControlError",
    "ControlRejectedError",
    "ControlTimeoutError",
    "LineTooLongError",
    "ProcessError",
    "ResultError",
    "SessionStateError",
    "StoreTimeoutError",
    "StructuredOutputError",
    "TransportClosedError",
    "TurnTimeoutError",
]


class ClaudeSDKError(Exception):
    """Root of every error raised by claude_wrap on purpose."""


class CLIConnectionError(ClaudeSDKError):
    """The Claude Code binary could not be started or talked to."""


class CLINotFoundError(CLIConnectionError):
    """No Claude Code binary was found; the message says how to get one."""

    def __init__(self, message: str, cli_path: str | None = None) -> None:
        super().__init__(message)
        self.cli_path = cli_path


class TransportClosedError(CLIConnectionError):
    """The pipes to the binary were closed while we still needed them."""


def _with_stderr(message: str, stderr: str | None) -> str:
    if stderr and stderr.strip():
        return f"{message}\n--- stderr (last lines) ---\n{stderr.rstrip()}"
    return message


class ProcessError(ClaudeSDKError):
    """The binary exited with a non-zero code.

    Unlike the official package, the tail of the binary's stderr is part of
    the message itself, so it reaches logs and tracebacks.
    """

    def __init__(
        self, message: str, exit_code: int | None = None, stderr: str | None = None
    ) -> None:
        self.exit_code = exit_code
        self.stderr = stderr
        text = message if exit_code is None else f"{message} (exit code {exit_code})"
        super().__init__(_with_stderr(text, stderr))


def _result_errors(raw: Any) -> list[str]:
    """The ``errors`` of a result frame as clean strings: a bare string counts
    as one, and entries that are not strings or are blank are dropped."""
    if isinstance(raw, str):
        raw = [raw]
    elif not isinstance(raw, list):
        return []
    return [e.strip() for e in raw if isinstance(e, str) and e.strip()]


def error_result_text(data: Mapping[str, Any]) -> str:
    """What an error ``result`` frame says went wrong, in one line.

    ``errors`` first (limits and execution errors put their prose there),
    then ``result`` (an API failure arrives as ``subtype: "success"`` with
    the "API Error: ..." text there), then a subtype other than success,
    then the HTTP status.
    """
    errors = _result_errors(data.get("errors"))
    if errors:
        return "; ".join(errors)
    result = data.get("result")
    if isinstance(result, str) and result.strip():
        return result.strip()
    subtype = data.get("subtype")
    if isinstance(subtype, str) and subtype and subtype != "success":
        return subtype
    status = data.get("api_error_status")
    if status is not None:
        return f"API error (HTTP {status})"
    return "unknown error"


class ResultError(ProcessError):
    """The binary reported an error result and then exited non-zero.

    A failed run ends with a ``ResultMessage`` whose ``is_error`` is true
    (it is yielded like any other message), after which the binary exits
    with a non-zero code. This error stands for that exit instead of a bare
    ``ProcessError`` and carries the result's details; while the binary keeps
    running (a ``ClaudeSDKClient`` between turns) the error result is just a
    message. Being a ``ProcessError``, ``except ProcessError`` catches it.

    ``data`` is the result frame as the binary wrote it; ``subtype``,
    ``errors``, ``result``, ``api_error_status``, ``terminal_reason`` and
    ``session_id`` are read from it (``None`` / ``[]`` where absent or of
    the wrong type). ``result_message`` is the decoded ``ResultMessage``
    when the error came from a run (not part of the constructor).
    """

    def __init__(self, message: str, data: dict[str, Any] | None = None, exit_code: int | None = None) -> None:
        # ``data`` may be left out, so copying and pickling (which call
        # ``type(e)(*e.args)`` and then restore ``__dict__``) work.
        data = data if isinstance(data, dict) else {}
        self.data = data
        subtype = data.get("subtype")
        self.subtype: str | None = subtype if isinstance(subtype, str) else None
        self.errors: list[str] = _result_errors(data.get("errors"))
        result = data.get("result")
        self.result: str | None = result if isinstance(result, str) else None
        status = data.get("api_error_status")
        self.api_error_status: int | None = status if isinstance(status, int) else None
        reason = data.get("terminal_reason")
        self.terminal_reason: str | None = reason if isinstance(reason, str) else None
        session_id = data.get("session_id")
        self.session_id: str | None = session_id if isinstance(session_id, str) else None
        self.result_message: Any = None
        super().__init__(message, exit_code=exit_code)


class CLIJSONDecodeError(ClaudeSDKError):
    """A stdout line could not be decoded as a frame; ``line`` holds its start."""

    def __init__(self, message: str, line: bytes | str = b"", original_error: BaseException | None = None) -> None:
        self.line = line
        self.original_error = original_error
        super().__init__(message)


class LineTooLongError(CLIJSONDecodeError):
    """A stdout line grew past ``max_buffer_size`` bytes."""

    def __init__(self, limit: int, seen: int) -> None:
        self.limit = limit
        self.seen = seen
        super().__init__(
            f"a stdout line exceeded max_buffer_size ({seen} bytes buffered, limit {limit}); "
            "raise ClaudeAgentOptions.max_buffer_size or leave it unset (no limit)"
        )


class ControlError(ClaudeSDKError):
    """A control request sent to the binary failed."""

    def __init__(self, message: str, subtype: str) -> None:
        self.subtype = subtype
        super().__init__(message)


class ControlTimeoutError(ControlError, TimeoutError):
    """A control request got no answer within its timeout."""

    def __init__(self, subtype: str, timeout: float) -> None:
        self.timeout = timeout
        super().__init__(f"control request {subtype!r} got no answer within {timeout:g} s", subtype)


class ControlRejectedError(ControlError):
    """The binary answered a control request with an error."""

    def __init__(self, subtype: str, error: str, error_code: str | None = None) -> None:
        self.error = error
        self.error_code = error_code
        code = f" [{error_code}]" if error_code else ""
        super().__init__(f"control request {subtype!r} was rejected{code}: {error}", subtype)


class StructuredOutputError(ClaudeSDKError):
    """The run's structured output did not validate against ``output_type``.

    ``raw`` is the value the model produced, ``result_message`` the result
    that carried it, and the pydantic error is ``__cause__``.
    """

    def __init__(self, message: str, *, raw: Any, result_message: Any = None) -> None:
        self.raw = raw
        self.result_message = result_message
        super().__init__(message)


class StoreTimeoutError(ClaudeSDKError, TimeoutError):
    """A session store did not answer within ``load_timeout_ms`` (on resume)."""


class TurnTimeoutError(ClaudeSDKError, TimeoutError):
    """A turn went silent for ``idle_timeout`` or ran past ``turn_timeout``.

    The process group was killed; nothing is left running.
    """

    def __init__(self, message: str, stderr: str | None = None) -> None:
        self.stderr = stderr
        super().__init__(_with_stderr(message, stderr))


class SessionStateError(RuntimeError):
    """A client or session was used in a state that does not allow it
    (before ``connect()``, or after it was closed)."""
