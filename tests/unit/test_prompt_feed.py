"""Prompt iterables, against an in-memory binary: what is written, and how
the writer task ends. (End to end: tests/e2e/test_prompt_iterables_e2e.py.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import Any

import anyio
import pytest
from test_session_races import _result

from claude_wrap import ClaudeAgentOptions, ClaudeSDKClient, ResultMessage, query
from claude_wrap.testing import MockTransport, initialize_response

pytestmark = pytest.mark.anyio


def _answering() -> MockTransport:
    """A binary that answers each prompt with a result echoing its content."""

    def handler(frame: dict[str, Any]) -> Any:
        if frame.get("type") == "user":
            return [_result(str(frame["message"]["content"]))]
        if frame.get("type") == "control_request" and frame["request"].get("subtype") == "initialize":
            return [initialize_response(frame)]
        return None

    return MockTransport(handler)


def _users(mock: MockTransport) -> list[dict[str, Any]]:
    return [f for f in mock.sent if f.get("type") == "user"]


async def test_query_writes_the_frames_as_they_were_yielded() -> None:
    frames = [
        {"type": "user", "message": {"role": "user", "content": "one"}},
        {"type": "user", "message": {"role": "user", "content": "two"}, "uuid": "u-2", "session_id": "mine"},
    ]

    async def prompts() -> AsyncIterator[dict[str, Any]]:
        for frame in frames:
            yield frame

    mock = _answering()
    with anyio.fail_after(5):
        results = [m.result async for m in query(prompt=prompts(), transport=mock) if isinstance(m, ResultMessage)]
    assert results == ["one", "two"]
    assert _users(mock) == frames  # no session_id or parent_tool_use_id added
    assert frames[0] == {"type": "user", "message": {"role": "user", "content": "one"}}  # nor set on the caller's dict


async def test_client_query_adds_only_a_missing_session_id() -> None:
    async def prompts() -> AsyncIterator[dict[str, Any]]:
        yield {"type": "user", "message": {"role": "user", "content": "one"}}
        yield {"type": "user", "message": {"role": "user", "content": "two"}, "session_id": "mine"}

    mock = _answering()
    with anyio.fail_after(5):
        async with ClaudeSDKClient(transport=mock) as client:
            await client.query(prompts(), session_id="given")
    assert _users(mock) == [
        {"type": "user", "message": {"role": "user", "content": "one"}, "session_id": "given"},
        {"type": "user", "message": {"role": "user", "content": "two"}, "session_id": "mine"},
    ]


async def test_a_frame_that_is_not_a_dict_is_raised_after_the_messages_before_it() -> None:
    answered = anyio.Event()

    async def prompts() -> AsyncIterator[Any]:
        yield {"type": "user", "message": {"role": "user", "content": "one"}}
        await answered.wait()
        yield "two"

    mock = _answering()
    seen: list[Any] = []
    with anyio.fail_after(5), pytest.raises(TypeError, match="prompt messages must be dicts, got str"):
        async for message in query(prompt=prompts(), transport=mock):
            seen.append(message)
            answered.set()
    assert [m.result for m in seen if isinstance(m, ResultMessage)] == ["one"]
    assert mock.eof_received  # the input ended where the iterable failed


async def test_a_frame_that_cannot_be_written_is_raised_and_ends_the_input() -> None:
    async def prompts() -> AsyncIterator[dict[str, Any]]:
        yield {"type": "user", "message": {"role": "user", "content": object()}}

    mock = _answering()
    with anyio.fail_after(5), pytest.raises(TypeError):
        async for _ in query(prompt=prompts(), transport=mock):
            pass
    assert mock.eof_received


async def test_an_iterable_that_ignores_cancellation_does_not_hold_up_closing() -> None:
    """Stopping the writer is bounded by ``shutdown_grace``; the iterable
    is left to finish on its own."""
    release = anyio.Event()
    finished = anyio.Event()

    async def prompts() -> AsyncIterator[dict[str, Any]]:
        yield {"type": "user", "message": {"role": "user", "content": "one"}}
        try:
            await anyio.sleep_forever()
        finally:
            with anyio.CancelScope(shield=True):
                await release.wait()  # a stubborn cleanup
            finished.set()

    mock = _answering()
    options = ClaudeAgentOptions(shutdown_grace=0.2)
    try:
        with anyio.fail_after(5):
            async with aclosing(query(prompt=prompts(), options=options, transport=mock)) as messages:
                async for message in messages:
                    if isinstance(message, ResultMessage):
                        break
        assert mock.closed and not finished.is_set()
    finally:
        release.set()
    with anyio.fail_after(5):
        await finished.wait()
