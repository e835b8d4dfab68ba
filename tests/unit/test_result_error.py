"""``ResultError``: the official constructor, attributes, text and pickling."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from claude_wrap import ProcessError, ResultError
from claude_wrap._exceptions import error_result_text

MAX_TURNS: dict[str, Any] = {
    "type": "result",
    "subtype": "error_max_turns",
    "is_error": True,
    "errors": ["  Reached maximum number of turns (1) ", "", 7],
    "terminal_reason": "max_turns",
    "session_id": "s-1",
    "api_error_status": None,
}


def test_attributes_come_from_the_result_frame() -> None:
    error = ResultError("Claude Code returned an error result: x", MAX_TURNS, exit_code=1)
    assert isinstance(error, ProcessError)
    assert error.data is MAX_TURNS
    assert error.subtype == "error_max_turns"
    assert error.errors == ["Reached maximum number of turns (1)"]  # normalised
    assert error.result is None and error.api_error_status is None
    assert (error.terminal_reason, error.session_id) == ("max_turns", "s-1")
    assert (error.exit_code, error.stderr, error.result_message) == (1, None, None)
    assert str(error) == str(ProcessError("Claude Code returned an error result: x", exit_code=1))


def test_fields_of_the_wrong_type_are_none() -> None:
    error = ResultError("m", {"subtype": 3, "errors": "one error", "result": [], "api_error_status": "500"})
    assert (error.subtype, error.result, error.api_error_status) == (None, None, None)
    assert error.errors == ["one error"]
    assert ResultError("m").data == {} and ResultError("m", data="not a dict").data == {}  # type: ignore[arg-type]


@pytest.mark.parametrize("clone", [lambda e: pickle.loads(pickle.dumps(e)), copy.copy, copy.deepcopy])
def test_copies_and_pickles_keep_everything(clone: Any) -> None:
    error = ResultError("Claude Code returned an error result: x", MAX_TURNS, exit_code=1)
    error.result_message = "the message"
    twin = clone(error)
    assert type(twin) is ResultError and str(twin) == str(error)
    assert (twin.data, twin.subtype, twin.errors, twin.exit_code) == (MAX_TURNS, "error_max_turns", error.errors, 1)
    assert twin.result_message == "the message"


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (MAX_TURNS, "Reached maximum number of turns (1)"),
        ({"errors": ["a", " b "]}, "a; b"),
        ({"subtype": "success", "result": " API Error: 500 boom \n", "errors": []}, "API Error: 500 boom"),
        ({"subtype": "error_during_execution", "result": "  "}, "error_during_execution"),
        ({"subtype": "success", "api_error_status": 529}, "API error (HTTP 529)"),
        ({"subtype": "success"}, "unknown error"),
    ],
)
def test_the_text_picks_the_most_telling_field(data: dict[str, Any], text: str) -> None:
    assert error_result_text(data) == text
