"""Property tests of the control-message dispatcher.

Whatever the binary sends (random control requests, cancels, responses
to nothing, unknown frames, broken lines), the session answers each of
the binary's requests at most once, never hangs, and raises nothing but
the library's own typed errors.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from claude_wrap import ClaudeAgentOptions, ClaudeSDKError, HookMatcher, PermissionResultAllow
from claude_wrap._launch.control_plane import control_plane
from claude_wrap._run.protocol import Connection
from claude_wrap.testing import MockTransport

pytestmark = pytest.mark.anyio

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)

subtypes = st.sampled_from(["hook_callback", "can_use_tool", "mcp_message", "elicitation", "bogus", ""]) | st.text(
    max_size=10
)


@st.composite
def control_requests(draw: st.DrawFn, rid: str) -> dict[str, Any]:
    body = draw(
        st.dictionaries(st.sampled_from(["callback_id", "input", "tool_name", "tool_use_id", "x"]), json_values)
    )
    body["subtype"] = draw(subtypes)
    if draw(st.booleans()):
        body["callback_id"] = draw(st.sampled_from(["hook_0", "hook_1", "nope"]))
    return {"type": "control_request", "request_id": rid, "request": body}


@st.composite
def inbound(draw: st.DrawFn) -> list[Any]:
    frames: list[Any] = []
    for i in range(draw(st.integers(min_value=1, max_value=12))):
        kind = draw(st.sampled_from(["request", "cancel", "response", "unknown", "message", "garbage"]))
        rid = f"r{draw(st.integers(min_value=0, max_value=5))}-{i if kind == 'request' else 'x'}"
        if kind == "request":
            frames.append(draw(control_requests(rid)))
        elif kind == "cancel":
            frames.append({"type": "control_cancel_request", "request_id": f"r{draw(st.integers(0, 5))}-{i - 1}"})
        elif kind == "response":
            frames.append({"type": "control_response", "response": draw(json_values)})
        elif kind == "unknown":
            frames.append({"type": draw(st.text(max_size=12)), "payload": draw(json_values)})
        elif kind == "message":
            frames.append({"type": "assistant", "message": draw(json_values)})
        else:
            frames.append(draw(st.binary(max_size=40)).replace(b"\n", b" "))
    return frames


async def _hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
    if isinstance(input_data, dict) and input_data.get("x") == 1:
        raise RuntimeError("hook failure")
    return {}


async def _permission(tool_name: str, tool_input: Any, context: Any) -> Any:
    return PermissionResultAllow()


OPTIONS = ClaudeAgentOptions(
    hooks={"PreToolUse": [HookMatcher(None, [_hook])], "Stop": [HookMatcher(None, [_hook])]},
    can_use_tool=_permission,
)


@pytest.fixture(params=["asyncio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(frames=inbound())
async def test_dispatcher_answers_each_request_at_most_once(frames: list[Any]) -> None:
    plane = control_plane(OPTIONS)
    transport = MockTransport(lambda frame: None)
    session = Connection(transport, handlers=plane.handlers)
    transport.feed(*[f if isinstance(f, bytes) else json.dumps(f).encode() for f in frames])
    transport.close_output()
    with anyio.fail_after(10):
        while True:
            try:
                if await session.receive() is None:
                    break
            except ClaudeSDKError:
                continue  # typed errors are allowed; the stream goes on
    await session.aclose()

    answered = [f["response"]["request_id"] for f in transport.sent if f.get("type") == "control_response"]
    assert len(answered) == len(set(answered))
    asked = {f["request_id"] for f in frames if isinstance(f, dict) and f.get("type") == "control_request"}
    assert set(answered) <= asked


@settings(
    max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(frames=inbound())
async def test_every_request_not_withdrawn_gets_exactly_one_answer(frames: list[Any]) -> None:
    plane = control_plane(OPTIONS)
    transport = MockTransport(lambda frame: None)
    session = Connection(transport, handlers=plane.handlers)
    transport.feed(*[f if isinstance(f, bytes) else json.dumps(f).encode() for f in frames])
    dicts = [f for f in frames if isinstance(f, dict)]
    asked = {f["request_id"] for f in dicts if f.get("type") == "control_request"}
    withdrawn = {f["request_id"] for f in dicts if f.get("type") == "control_cancel_request"}
    must_answer = asked - withdrawn

    def answered() -> list[str]:
        return [f["response"]["request_id"] for f in transport.sent if f.get("type") == "control_response"]

    with anyio.fail_after(10):
        while not must_answer <= set(answered()):
            try:
                await session._drive(lambda: must_answer <= set(answered()))
            except ClaudeSDKError:
                continue
    await session.aclose()
    assert len(answered()) == len(set(answered()))
    assert must_answer <= set(answered()) <= asked
