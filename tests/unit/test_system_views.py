"""The typed views of system frames: each reads every key of its frame
into a typed attribute, ``system_view`` picks the view of a subtype, and a
frame whose keys have the wrong types is a ``MessageParseError``."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, get_args, get_origin

import pytest

import claude_wrap
from claude_wrap import (
    AssistantMessage,
    MessageParseError,
    PermissionDeniedMessage,
    SystemMessage,
    TextBlock,
    ThinkingTokensMessage,
    system_view,
)
from claude_wrap._wire import system_views

VIEWS = [getattr(system_views, name) for name in system_views.__all__ if name not in ("system_view", "ResultDetails")]


def _sample(annotation: Any) -> Any:
    """A wire value of the attribute's type, unlike any default."""
    parts = [p for p in get_args(annotation) if p is not type(None)] if get_origin(annotation) is not list else []
    if parts and get_origin(annotation) is not dict:
        return _sample(parts[0])
    if annotation is str:
        return "some text"
    if annotation is float or annotation is int:
        return 7
    if annotation is bool:
        return True
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        return [_sample(item)]
    return {"nested": [1, "two"]}  # dict[str, Any] and Any: the parsed JSON as it came


@pytest.mark.parametrize("view", VIEWS, ids=lambda v: v.__name__)
def test_each_view_reads_every_key_of_its_frame(view: Any) -> None:
    hints = typing.get_type_hints(view)
    data: dict[str, Any] = {"type": "system", "subtype": view.subtype}
    expected: dict[str, Any] = {}
    for f in dataclasses.fields(view):
        value = _sample(hints[f.name])
        data[f.metadata.get("key", f.name)] = value
        expected[f.name] = value
    message = SystemMessage(subtype=view.subtype, data=data)
    read = view.of(message)
    assert read is not None and dataclasses.asdict(read) == expected
    assert system_view(message) == read
    assert view.__name__ in claude_wrap.__all__


def test_a_view_reads_only_its_own_subtype() -> None:
    other = SystemMessage(subtype="permission_denied", data={"type": "system", "subtype": "permission_denied"})
    assert ThinkingTokensMessage.of(other) is None
    assert PermissionDeniedMessage.of(other) == PermissionDeniedMessage()  # absent keys: the defaults
    assert system_view(AssistantMessage(content=[TextBlock("hi")], model="m")) is None
    assert system_view(SystemMessage(subtype="not_a_known_subtype", data={})) is None


def test_a_frame_of_the_wrong_types_is_a_parse_error() -> None:
    frame = {"type": "system", "subtype": "permission_denied", "tool_name": ["not", "a", "name"]}
    with pytest.raises(MessageParseError, match="PermissionDeniedMessage"):
        PermissionDeniedMessage.of(SystemMessage(subtype="permission_denied", data=frame))


def test_every_subtype_has_one_view() -> None:
    subtypes = [view.subtype for view in VIEWS]
    assert len(subtypes) == len(set(subtypes)) >= 24


def test_result_details_read_the_frame_s_other_keys() -> None:
    from claude_wrap import ResultDetails, ResultMessage, decode_line

    frame = (
        b'{"type":"result","subtype":"success","duration_ms":5,"duration_api_ms":4,"is_error":false,'
        b'"num_turns":1,"session_id":"s","ttft_ms":12,"queued_turn_count":2,"fast_mode_state":"off",'
        b'"begun_message_ids":["msg_1"],"something_new":{"a":1}}'
    )
    result = decode_line(frame)
    assert isinstance(result, ResultMessage)
    details = ResultDetails.of(result)
    assert (details.ttft_ms, details.queued_turn_count, details.fast_mode_state) == (12, 2, "off")
    assert details.begun_message_ids == ["msg_1"] and details.resume_reason is None
    built = ResultMessage("success", 1, 1, False, 1, "s")  # not decoded from a line: the defaults
    assert ResultDetails.of(built) == ResultDetails()
    wrong = decode_line(frame.replace(b'"queued_turn_count":2', b'"queued_turn_count":"two"'))
    assert isinstance(wrong, ResultMessage)
    with pytest.raises(MessageParseError, match="ResultDetails"):
        ResultDetails.of(wrong)
