"""Errors as the official package raises them: same classes, constructors,
attributes and message starts; every class pickles and copies.

The official side runs in its own interpreter (see ``tests/support/_official.py``)
and builds the same errors from the same arguments.
"""

from __future__ import annotations

import copy
import inspect
import json
import pickle
from typing import Any

import pytest
from _official import run_official

import claude_wrap
from claude_wrap import _exceptions

OFFICIAL_CLASSES = [
    "ClaudeSDKError",
    "CLIConnectionError",
    "CLINotFoundError",
    "ProcessError",
    "ResultError",
    "CLIJSONDecodeError",
    "MessageParseError",
]

RESULT = {
    "type": "result",
    "subtype": "error_max_turns",
    "is_error": True,
    "errors": [" too many turns ", "", 3],
    "result": "partial",
    "api_error_status": 529,
    "terminal_reason": "max_turns",
    "session_id": "s-1",
}

# (class, positional args, keyword args); a ("ValueError", text) pair stands for an exception.
CASES: list[tuple[str, list[Any], dict[str, Any]]] = [
    ("ClaudeSDKError", ["plain"], {}),
    ("CLIConnectionError", ["cannot connect"], {}),
    ("CLINotFoundError", [], {}),
    ("CLINotFoundError", ["Claude Code not found at"], {"cli_path": "/opt/claude"}),
    ("CLINotFoundError", ["no binary", None], {}),
    ("ProcessError", ["failed"], {}),
    ("ProcessError", ["failed", 1], {}),
    ("ProcessError", ["failed", 0, ""], {}),
    ("ProcessError", ["failed"], {"exit_code": -9, "stderr": "Error: boom\nsecond line"}),
    ("ResultError", ["Claude Code returned an error result: too many turns"], {}),
    ("ResultError", ["bad run", RESULT, 1], {}),
    ("ResultError", ["bad run"], {"data": {"errors": "one string", "api_error_status": "no"}}),
    ("CLIJSONDecodeError", ['{"type": "assistant", "message": ' + "x" * 200, ("ValueError", "cut off")], {}),
    ("MessageParseError", ["Unknown message type: weird"], {}),
    ("MessageParseError", ["Missing field"], {"data": {"type": "assistant"}}),
]

_PROBE = """
import inspect, json, sys
from claude_agent_sdk import _errors as sdk  # MessageParseError is not exported there

NAMES = json.loads(sys.argv[1])
CASES = json.loads(sys.argv[2])

def arg(value):
    if isinstance(value, list) and len(value) == 2 and value[0] == "ValueError":
        return ValueError(value[1])
    return value

def attributes(error):
    return {k: repr(v) for k, v in vars(error).items()}

classes = {n: getattr(sdk, n) for n in NAMES}
out = {
    "bases": {n: sorted(m for m in NAMES if issubclass(c, classes[m])) for n, c in classes.items()},
    "signatures": {
        n: [[p.name, p.kind.name, repr(p.default)] for p in list(inspect.signature(c.__init__).parameters.values())[1:]]
        for n, c in classes.items()
    },
    "cases": [],
}
for name, args, kwargs in CASES:
    error = classes[name](*[arg(a) for a in args], **{k: arg(v) for k, v in kwargs.items()})
    out["cases"].append({"str": str(error), "attributes": attributes(error)})
print(json.dumps(out))
"""


def _arg(value: Any) -> Any:
    if isinstance(value, tuple) and value[0] == "ValueError":
        return ValueError(value[1])
    return value


@pytest.fixture(scope="module")
def official() -> dict[str, Any]:
    cases = [[name, [list(a) if isinstance(a, tuple) else a for a in args], kwargs] for name, args, kwargs in CASES]
    result: dict[str, Any] = run_official(_PROBE, json.dumps(OFFICIAL_CLASSES), json.dumps(cases))
    return result


def test_official_classes_keep_their_tree(official: dict[str, Any]) -> None:
    ours = {n: getattr(claude_wrap, n) for n in OFFICIAL_CLASSES}
    for name, cls in ours.items():
        assert sorted(m for m in OFFICIAL_CLASSES if issubclass(cls, ours[m])) == official["bases"][name], name


def test_official_constructors_are_accepted_as_written(official: dict[str, Any]) -> None:
    for name in OFFICIAL_CLASSES:
        params = list(inspect.signature(getattr(claude_wrap, name).__init__).parameters.values())[1:]
        # Ours may add keyword-only parameters after the official ones.
        shared = [[p.name, p.kind.name, repr(p.default)] for p in params if p.kind is not p.KEYWORD_ONLY]
        assert shared == official["signatures"][name], name


@pytest.mark.parametrize("index", range(len(CASES)))
def test_same_message_start_and_attributes(official: dict[str, Any], index: int) -> None:
    name, args, kwargs = CASES[index]
    error = getattr(claude_wrap, name)(*[_arg(a) for a in args], **{k: _arg(v) for k, v in kwargs.items()})
    expected = official["cases"][index]
    assert str(error).startswith(expected["str"])
    ours = {k: repr(v) for k, v in vars(error).items()}
    for key, value in expected["attributes"].items():
        assert ours.get(key) == value, (name, key)


def test_result_error_reads_the_result_frame() -> None:
    error = claude_wrap.ResultError("bad run", RESULT, 1)
    assert (error.subtype, error.errors, error.result) == ("error_max_turns", ["too many turns"], "partial")
    assert (error.api_error_status, error.terminal_reason, error.session_id) == (529, "max_turns", "s-1")
    assert error.data == RESULT and error.exit_code == 1
    assert isinstance(error, claude_wrap.ProcessError)
    # The official reconstruction protocol: type(e)(*e.args).
    again = type(error)(*error.args)
    assert str(again) == str(error)


def _every_class() -> list[type[BaseException]]:
    return [getattr(_exceptions, n) for n in _exceptions.__all__]


SAMPLES: dict[str, BaseException] = {
    "ClaudeSDKError": _exceptions.ClaudeSDKError("x"),
    "CLIConnectionError": _exceptions.CLIConnectionError("x"),
    "CLINotFoundError": _exceptions.CLINotFoundError("Claude Code not found at", "/opt/claude"),
    "SessionStateError": _exceptions.SessionStateError("Not connected. Call connect() first."),
    "TransportClosedError": _exceptions.TransportClosedError("Failed to write to process stdin", 1, "tail"),
    "ProcessError": _exceptions.ProcessError("failed", 2, "Error: boom"),
    "ResultError": _exceptions.ResultError("bad", RESULT, 1, stderr="tail", result_message="the result"),
    "AuthenticationError": _exceptions.AuthenticationError("denied", RESULT, 1, result_message="401"),
    "CLIJSONDecodeError": _exceptions.CLIJSONDecodeError("{bad", ValueError("cut off")),
    "LineTooLongError": _exceptions.LineTooLongError(10, 25),
    "MessageParseError": _exceptions.MessageParseError("bad", {"type": "x"}),
    "ControlError": _exceptions.ControlError("failed", "interrupt"),
    "ControlTimeoutError": _exceptions.ControlTimeoutError("interrupt", 2.5),
    "ControlRejectedError": _exceptions.ControlRejectedError("set_model", "no such model", "E1"),
    "StructuredOutputError": _exceptions.StructuredOutputError("does not fit", raw={"a": 1}),
    "SessionStoreError": _exceptions.SessionStoreError("Failed to load session from store: down"),
    "StoreTimeoutError": _exceptions.StoreTimeoutError("store is slow"),
    "TurnTimeoutError": _exceptions.TurnTimeoutError("silent", "tail"),
}


def test_every_class_has_a_sample() -> None:
    assert sorted(SAMPLES) == sorted(c.__name__ for c in _every_class())


@pytest.mark.parametrize("name", sorted(SAMPLES))
@pytest.mark.parametrize("clone", ["pickle", "copy", "deepcopy"])
def test_errors_survive_pickle_and_copy(name: str, clone: str) -> None:
    error = SAMPLES[name]
    again = {
        "pickle": lambda e: pickle.loads(pickle.dumps(e)),
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
    }[clone](error)
    assert type(again) is type(error)
    assert str(again) == str(error) and again.args == error.args
    assert {k: repr(v) for k, v in vars(again).items()} == {k: repr(v) for k, v in vars(error).items()}


def test_finer_classes_are_caught_by_the_official_ones() -> None:
    assert issubclass(claude_wrap.SessionStateError, claude_wrap.CLIConnectionError)
    assert issubclass(claude_wrap.SessionStateError, RuntimeError)
    assert issubclass(claude_wrap.TransportClosedError, claude_wrap.CLIConnectionError)
    assert issubclass(claude_wrap.TransportClosedError, claude_wrap.ProcessError)
    assert issubclass(claude_wrap.LineTooLongError, claude_wrap.CLIJSONDecodeError)
    long_line = claude_wrap.LineTooLongError(1024, 4096)
    assert str(long_line).startswith("Failed to decode JSON: JSON message exceeded maximum buffer size of 1024 bytes")
    assert isinstance(long_line.original_error, ValueError) and "4096" in str(long_line.original_error)
    assert str(claude_wrap.ControlTimeoutError("interrupt", 60)).startswith("Control request timeout: interrupt")
    assert str(claude_wrap.ControlRejectedError("set_model", "bad model")).startswith("bad model")


NOT_CONNECTED = r"^Not connected\. Call connect\(\) first\.$"


async def _first(messages: Any) -> Any:
    async for message in messages:
        return message


# Every client call the official package guards with "Not connected".
GUARDED_CALLS = {
    "query": lambda c: c.query("hello"),
    "receive_messages": lambda c: _first(c.receive_messages()),
    "receive_response": lambda c: _first(c.receive_response()),
    "interrupt": lambda c: c.interrupt(),
    "set_permission_mode": lambda c: c.set_permission_mode("default"),
    "set_model": lambda c: c.set_model(None),
    "rewind_files": lambda c: c.rewind_files("user-message-id"),
    "reconnect_mcp_server": lambda c: c.reconnect_mcp_server("server"),
    "toggle_mcp_server": lambda c: c.toggle_mcp_server("server", enabled=False),
    "stop_task": lambda c: c.stop_task("task-id"),
    "get_mcp_status": lambda c: c.get_mcp_status(),
    "get_context_usage": lambda c: c.get_context_usage(),
    "get_server_info": lambda c: c.get_server_info(),
}


@pytest.mark.anyio
@pytest.mark.parametrize("call", sorted(GUARDED_CALLS))
async def test_a_client_used_before_connect_says_not_connected(call: str) -> None:
    client = claude_wrap.ClaudeSDKClient()
    with pytest.raises(claude_wrap.CLIConnectionError, match=NOT_CONNECTED) as raised:
        await GUARDED_CALLS[call](client)
    assert type(raised.value) is claude_wrap.CLIConnectionError  # the official class itself
