"""The exception classes as apps build and catch them: constructors, str(), attributes, hierarchy."""

from claude_agent_sdk import (
    ClaudeSDKError,
    CLIConnectionError,
    CLIJSONDecodeError,
    CLINotFoundError,
    ProcessError,
    ResultError,
)
from twin import note


def attempt(label, build):
    try:
        exc = build()
        note(label, {"exception": exc, "str": str(exc), "args": list(exc.args)})
    except Exception as exc:
        note(label, {"constructor raised": exc})


attempt("ProcessError", lambda: ProcessError("Command failed", exit_code=2, stderr="boom"))
attempt("ProcessError bare", lambda: ProcessError("Command failed"))
attempt("CLIJSONDecodeError", lambda: CLIJSONDecodeError("{not json", ValueError("Expecting value")))
attempt("CLINotFoundError", lambda: CLINotFoundError("Claude Code not found", cli_path="/nowhere/claude"))
attempt("CLINotFoundError bare", lambda: CLINotFoundError())
attempt("CLIConnectionError", lambda: CLIConnectionError("not connected"))
attempt(
    "ResultError", lambda: ResultError("returned an error result", data={"subtype": "error_max_turns"}, exit_code=1)
)
note(
    "hierarchy",
    {
        "ProcessError < ClaudeSDKError": issubclass(ProcessError, ClaudeSDKError),
        "ResultError < ProcessError": issubclass(ResultError, ProcessError),
        "CLINotFoundError < CLIConnectionError": issubclass(CLINotFoundError, CLIConnectionError),
        "CLIJSONDecodeError < ClaudeSDKError": issubclass(CLIJSONDecodeError, ClaudeSDKError),
    },
)
