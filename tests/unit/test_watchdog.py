"""The idle watchdog pauses while our callbacks run and resumes after them."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from claude_wrap import ClaudeAgentOptions, HookMatcher, TurnTimeoutError
from claude_wrap._launch.control_plane import control_plane
from claude_wrap._run.protocol import Connection
from claude_wrap.testing import MockTransport

pytestmark = pytest.mark.anyio


async def test_idle_timeout_resumes_after_a_callback_and_fires() -> None:
    ran: list[float] = []

    async def slow_hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        await anyio.sleep(0.6)  # longer than idle_timeout: callback time does not count
        ran.append(anyio.current_time())
        return {}

    options = ClaudeAgentOptions(hooks={"PreToolUse": [HookMatcher(None, [slow_hook])]})
    transport = MockTransport(lambda frame: None)
    session = Connection(transport, handlers=control_plane(options).handlers, idle_timeout=0.3)
    await session.send_user({"type": "user", "message": {"role": "user", "content": "hi"}})
    request = {"subtype": "hook_callback", "callback_id": "hook_0", "input": {"hook_event_name": "PreToolUse"}}
    transport.feed({"type": "control_request", "request_id": "h1", "request": request})
    # After the hook answers, the binary says nothing more: the watchdog must fire.
    with anyio.fail_after(10), pytest.raises(TurnTimeoutError, match="idle_timeout"):
        await session.receive()
    assert ran, "the watchdog fired while the callback was still running"
    assert any(f.get("type") == "control_response" for f in transport.sent)
    await session.aclose()


async def test_poll_takes_in_what_an_idle_session_wrote_without_blocking() -> None:
    transport = MockTransport(lambda frame: None)
    session = Connection(transport)
    transport.feed({"type": "system", "subtype": "status", "status": None})
    with anyio.fail_after(5):
        await session.poll()  # returns although the binary writes nothing more
    with anyio.fail_after(5):
        message = await session.receive()
    assert getattr(message, "subtype", None) == "status"
    await session.aclose()
