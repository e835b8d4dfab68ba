"""The exception tree.

Every error this library raises on purpose is a ``ClaudeSDKError``. The
classes of the official package keep its constructors, attributes and the
start of its messages (ours may add the binary's stderr tail after it), and
our finer classes hang below the official class that fits::

    ClaudeSDKError
    ├── CLIConnectionError              the binary could not be reached or talked to
    │   ├── CLINotFoundError            no binary was found (the message says how to get one)
    │   ├── SessionStateError           a client used before connect() or in a state that forbids the call
    │   │                               (also a ``RuntimeError``)
    │   └── TransportClosedError        the pipes closed under us (also a ``ProcessError``:
    │                                   exit code and stderr tail when the binary is gone)
    ├── ProcessError                    the binary exited non-zero (exit code + stderr tail)
    │   └── ResultError                 a run ended with an error result (its details attached)
    ├── CLIJSONDecodeError              a stdout line that is not JSON / not a JSON object
    │   └── LineTooLongError            a stdout line larger than ``max_buffer_size``
    ├── MessageParseError               a frame's data does not fit the type asked for
    ├── ControlError                    a control request we sent failed
    │   ├── ControlTimeoutError         ... got no answer in time (also a ``TimeoutError``)
    │   └── ControlRejectedError        ... was answered with an error
    ├── StructuredOutputError           structured output did not fit ``output_type``
    ├── SessionStoreError               a session store failed on resume (also a ``RuntimeError``)
    │   └── StoreTimeoutError           ... did not answer in time (also a ``TimeoutError``)
    └── TurnTimeoutError                a turn went silent or ran too long (also a ``TimeoutError``)

Invalid arguments raise ``ValueError`` or ``TypeError``, as in the official
package (invalid options: ``ValueError`` naming the option). Every class here
survives ``pickle`` and ``copy`` with its attributes, whatever its
constructor takes.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, TypeVar

from claude_wrap._lazy import publish

__all__ = [
    "AuthenticationError",
    "ClaudeSDKError",
    "CLIConnectionError",
    "CLIJSONDecodeError",
    "CLINotFoundError",
    "ControlError",
    "ControlRejectedError",
    "ControlTimeoutError",
    "LineTooLongError",
    "MessageParseError",
    "ProcessError",
    "ResultError",
    "SessionStateError",
    "SessionStoreError",
    "StoreTimeoutError",
    "StructuredOutputError",
    "TransportClosedError",
    "TurnTimeoutError",
]


def _rebuild(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> BaseException:
    """Unpickle an error without calling its ``__init__`` (whose parameters
    need not match ``args``, the formatted message)."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class ClaudeSDKError(Exception):
    """Root of every error raised by claude_wrap on purpose."""

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), self.args, self.__dict__)


class CLIConnectionError(ClaudeSDKError):
    """The Claude Code binary could not be started or talked to."""


class LaunchValueError(CLIConnectionError, ValueError):
    """An option value no process can be started with (a NUL byte in an
    argument, an environment variable that is not a string ...), found
    before the spawn and naming the option.

    A ``CLIConnectionError``, as the official package raises ("Failed to
    start Claude Code: ..."), and a ``ValueError``, as a bad value is.
    """

    def __init__(self, problem: str) -> None:
        super().__init__(f"Failed to start Claude Code: {problem}")


class CLINotFoundError(CLIConnectionError):
    """No Claude Code binary was found; the message says how to get one.

    As in the official package, a ``cli_path`` is appended to the message
    (``"message: cli_path"``); it is also kept as ``cli_path``.
    """

    def __init__(self, message: str = "Claude Code not found", cli_path: str | None = None) -> None:
        self.cli_path = cli_path
        if cli_path:
            message = f"{message}: {cli_path}"
        super().__init__(message)


class SessionStateError(CLIConnectionError, RuntimeError):
    """A client was used in a state that does not allow the call: after its
    binary ended cleanly, connected twice, or a pool used outside its
    ``async with``. (Before ``connect()`` it is a plain ``CLIConnectionError``
    saying ``"Not connected. Call connect() first."``, as in the official
    package.)"""


class ProcessError(ClaudeSDKError):
    """The binary failed: ``exit_code`` and the tail of its ``stderr``.

    The message reads ``"<message> (exit code: N)"`` followed by
    ``"\\nError output: <stderr>"``, as in the official package; here
    ``stderr`` is the binary's real stderr tail.
    """

    def __init__(self, message: str, exit_code: int | None = None, stderr: str | None = None) -> None:
        self.exit_code = exit_code
        self.stderr = stderr
        if exit_code is not None:
            message = f"{message} (exit code: {exit_code})"
        if stderr:
            message = f"{message}\nError output: {stderr}"
        super().__init__(message)


class TransportClosedError(CLIConnectionError, ProcessError):
    """The pipes to the binary were closed while we still needed them.

    A ``CLIConnectionError`` (what the official package raises when it cannot
    write to the binary) and a ``ProcessError``: ``exit_code`` and ``stderr``
    say how the binary ended when it is known to be gone.
    """


def _normalized_errors(raw: Any) -> list[str]:
    """The ``errors`` of a result frame as clean strings (a bare string and
    non-string or blank entries are tolerated, as the official package does)."""
    if isinstance(raw, str):
        raw = [raw]
    elif not isinstance(raw, list):
        return []
    return [e.strip() for e in raw if isinstance(e, str) and e.strip()]


def error_result_text(data: Mapping[str, Any]) -> str:
    """What an error result frame says went wrong, in the official package's
    order of preference (an API failure has ``subtype == "success"`` and its
    prose in ``result``)."""
    errors = _normalized_errors(data.get("errors"))
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


def error_result_hint(data: Mapping[str, Any]) -> str | None:
    """A line saying what to try, for the error results a set-up causes
    (no credentials, an API that cannot be reached); ``None`` for the rest."""
    text = error_result_text(data)
    status = data.get("api_error_status")
    if status in (401, 403) and not isinstance(status, bool):
        return (
            f"hint: the API rejected the credentials (HTTP {status}); check ANTHROPIC_API_KEY (or "
            "CLAUDE_CODE_OAUTH_TOKEN, ANTHROPIC_AUTH_TOKEN) and ANTHROPIC_BASE_URL; `claude-wrap doctor` "
            "checks the key with one request"
        )
    if text.startswith("Not logged in"):
        return (
            "hint: the binary found no credentials; set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN) in "
            "the environment or in ClaudeAgentOptions(env=...); `claude-wrap doctor` checks the set-up"
        )
    if text.startswith("API Error") and data.get("api_error_status") is None:
        # No HTTP status: the request never got an answer (refused, DNS, TLS, timeout).
        return (
            "hint: the API could not be reached; `claude-wrap doctor` checks the binary, the credentials "
            "and the API URL (ANTHROPIC_BASE_URL) in a few seconds"
        )
    return None


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


class ResultError(ProcessError):
    """The binary reported an error result and then exited non-zero.

    A failed run ends with a ``ResultMessage`` whose ``is_error`` is true
    (it is yielded like any other message), after which the binary exits
    with a non-zero code. This error stands for that exit instead of a bare
    ``ProcessError`` and carries the result's details; while the binary keeps
    running (a ``ClaudeSDKClient`` between turns) the error result is just a
    message. Being a ``ProcessError``, ``except ProcessError`` catches it.

    Built as in the official package, ``ResultError(message, data, exit_code)``
    with ``data`` the result frame as the binary wrote it; ``subtype``,
    ``errors``, ``result``, ``api_error_status``, ``terminal_reason`` and
    ``session_id`` are read from it (``None`` / ``[]`` where absent or of the
    wrong type). ``result_message`` is the ``ResultMessage`` that was yielded
    just before, and ``hint`` a last line of the message saying what to try
    (both claude_wrap only).
    """

    def __init__(
        self,
        message: str,
        data: Mapping[str, Any] | None = None,
        exit_code: int | None = None,
        *,
        stderr: str | None = None,
        result_message: Any = None,
        hint: str | None = None,
    ) -> None:
        # The caller's dict itself, as in the official package; any other
        # mapping is copied, anything else (pickle's reconstruction) is empty.
        data = data if isinstance(data, dict) else dict(data) if isinstance(data, Mapping) else {}
        self.data = data
        self.subtype: str | None = _str_or_none(data.get("subtype"))
        self.errors: list[str] = _normalized_errors(data.get("errors"))
        self.result: str | None = _str_or_none(data.get("result"))
        status = data.get("api_error_status")
        self.api_error_status: int | None = status if isinstance(status, int) and not isinstance(status, bool) else None
        self.terminal_reason: str | None = _str_or_none(data.get("terminal_reason"))
        self.session_id: str | None = _str_or_none(data.get("session_id"))
        self.result_message = result_message
        super().__init__(message, exit_code=exit_code, stderr=stderr)
        if hint:
            self.args: tuple[Any, ...] = (f"{self.args[0]}\n{hint}",)


class AuthenticationError(ResultError):
    """The API rejected the credentials (HTTP 401 or 403): a wrong, expired
    or revoked key, or one without access. Raised in place of the plain
    ``ResultError`` the run ends with (it is one, and a ``ProcessError``), so
    ``except ResultError`` still catches it. ``api_error_status`` is the
    HTTP status; the message is the API's, with a ``hint:`` line."""


def result_error_class(data: Mapping[str, Any]) -> type[ResultError]:
    """The class for an error result: ``AuthenticationError`` when the API
    refused the credentials, else ``ResultError``."""
    status = data.get("api_error_status")
    return AuthenticationError if status in (401, 403) and not isinstance(status, bool) else ResultError


class CLIJSONDecodeError(ClaudeSDKError):
    """A stdout line could not be decoded: ``line`` holds it, ``original_error``
    says why. The message starts ``"Failed to decode JSON: "`` and the line's
    first 100 characters, as in the official package; when it comes from a
    running binary, ``"\nError output: "`` and the binary's stderr tail
    follow (also in ``stderr``)."""

    stderr: str | None = None

    def __init__(self, line: str, original_error: Exception) -> None:
        self.line = line
        self.original_error = original_error
        super().__init__(f"Failed to decode JSON: {line[:100]}...")


class LineTooLongError(CLIJSONDecodeError):
    """A stdout line grew past ``max_buffer_size`` bytes (``limit``; ``seen``
    bytes were buffered). ``line`` and ``original_error`` read as the
    official package's buffer-overflow error does."""

    def __init__(self, limit: int, seen: int) -> None:
        self.limit = limit
        self.seen = seen
        super().__init__(
            f"JSON message exceeded maximum buffer size of {limit} bytes",
            ValueError(
                f"Buffer size {seen} exceeds limit {limit}; raise ClaudeAgentOptions.max_buffer_size "
                "or leave it unset (no limit)"
            ),
        )


class MessageParseError(ClaudeSDKError):
    """A frame's data does not fit the type it was read as; ``data`` holds it.

    Decoding the stream never raises it (a frame that does not fit arrives as
    ``UnknownMessage`` with ``error`` set); the typed views of system messages
    (``InitSystemMessage.of`` and the like) do.
    """

    def __init__(self, message: str, data: dict[str, Any] | None = None) -> None:
        self.data = data
        super().__init__(message)


class ControlError(ClaudeSDKError):
    """A control request sent to the binary failed."""

    def __init__(self, message: str, subtype: str) -> None:
        self.subtype: str = subtype
        super().__init__(message)


class ControlTimeoutError(ControlError, TimeoutError):
    """A control request got no answer within ``timeout`` seconds, or the
    binary did not take it in within that time (it is stopped or wedged; it
    was then killed).

    The message starts ``"Control request timeout: <subtype>"``, the text of
    the plain ``Exception`` the official package raises; ``"\nError output: "``
    and the binary's stderr tail follow when it wrote any (also in ``stderr``).
    """

    stderr: str | None = None

    def __init__(self, subtype: str, timeout: float) -> None:
        self.timeout = timeout
        super().__init__(f"Control request timeout: {subtype} (no answer within {timeout:g} s)", subtype)


_E = TypeVar("_E", CLIJSONDecodeError, ControlTimeoutError)


def with_stderr(error: _E, stderr: str | None) -> _E:
    """``error`` with the binary's stderr tail in ``stderr`` and after its
    message, where ``ProcessError`` puts it (the constructor, which the
    official package defines, stays as it is)."""
    error.stderr = stderr
    if stderr:
        error.args = (f"{error.args[0]}\nError output: {stderr}", *error.args[1:])
    return error


class ControlRejectedError(ControlError):
    """The binary answered a control request with an error.

    The message starts with the binary's ``error`` text, all that the plain
    ``Exception`` of the official package says.
    """

    def __init__(self, subtype: str, error: str, error_code: str | None = None) -> None:
        self.error = error
        self.error_code = error_code
        code = f" [{error_code}]" if error_code else ""
        super().__init__(f"{error} (control request {subtype!r} was rejected{code})", subtype)


class StructuredOutputError(ClaudeSDKError):
    """The run's structured output did not validate against ``output_type``.

    ``raw`` is the value the model produced, ``result_message`` the result
    that carried it, and the pydantic error is ``__cause__``.
    """

    def __init__(self, message: str, *, raw: Any, result_message: Any = None) -> None:
        self.raw = raw
        self.result_message = result_message
        super().__init__(message)


class SessionStoreError(ClaudeSDKError, RuntimeError):
    """A session store call failed while a session was copied out of it to
    resume (a ``RuntimeError``, as in the official package); the store's
    exception is the ``__cause__``."""


class StoreTimeoutError(SessionStoreError, TimeoutError):
    """A session store did not answer within ``load_timeout_ms`` (on resume)."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Two built-in bases (RuntimeError, OSError) leave the default
        # reduction without a safe __new__; rebuild from args and state.
        return (type(self), self.args, self.__dict__ or None)


class TurnTimeoutError(ClaudeSDKError, TimeoutError):
    """A turn went silent for ``idle_timeout`` or ran past ``turn_timeout``.

    The process group was killed; nothing is left running. The binary's
    stderr tail follows the message, as for ``ProcessError``.
    """

    def __init__(self, message: str, stderr: str | None = None) -> None:
        self.stderr = stderr
        super().__init__(f"{message}\nError output: {stderr}" if stderr else message)


# Raised from inside the package, so presented as public names right away:
# tracebacks show ``claude_wrap.CLINotFoundError``, not this module.
publish(sys.modules[__name__], __all__, "claude_wrap")
