"""User dialogs and elicitations through the control plane (MockTransport)."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from claude_wrap import ClaudeAgentOptions, ClaudeSDKClient
from claude_wrap.testing import MockTransport, initialize_response

pytestmark = pytest.mark.anyio


async def _answer(options: ClaudeAgentOptions, request: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Send one binary request through a connected client; return (initialize sent, answer)."""
    transport = MockTransport(
        lambda frame: [initialize_response(frame)] if frame.get("type") == "control_request" else None
    )
    async with ClaudeSDKClient(options, transport=transport) as client:
        transport.feed({"type": "control_request", "request_id": "dlg-1", "request": request})
        with anyio.fail_after(10):
            # Whoever awaits the client answers the binary's requests.
            await client._live()._drive(lambda: any(f.get("type") == "control_response" for f in transport.sent))
    init = next(f for f in transport.sent if f.get("type") == "control_request")["request"]
    reply = next(f for f in transport.sent if f.get("type") == "control_response")["response"]
    return init, reply


@pytest.mark.parametrize("subtype", ["request_user_dialog", "elicitation"])
async def test_without_a_callback_the_binary_gets_the_official_error(subtype: str) -> None:
    _, reply = await _answer(ClaudeAgentOptions(), {"subtype": subtype, "dialog_kind": "x", "payload": {}})
    assert reply["subtype"] == "error"
    assert reply["error"] == f"Unsupported control request subtype: {subtype}"


async def test_user_dialog_callback_answers_and_kinds_are_announced() -> None:
    asked: list[dict[str, Any]] = []

    async def on_user_dialog(request: dict[str, Any]) -> dict[str, Any]:
        asked.append(request)
        return {"behavior": "completed", "result": {"choice": 2}}

    options = ClaudeAgentOptions(on_user_dialog=on_user_dialog, supported_dialog_kinds=["refusal_fallback_prompt"])
    init, reply = await _answer(
        options, {"subtype": "request_user_dialog", "dialog_kind": "refusal_fallback_prompt", "payload": {"a": 1}}
    )
    assert init["supportedDialogKinds"] == ["refusal_fallback_prompt"]
    assert asked[0]["payload"] == {"a": 1}
    assert reply["response"] == {"behavior": "completed", "result": {"choice": 2}}


async def test_a_raising_elicitation_callback_declines() -> None:
    async def broken(request: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError("no UI here")

    _, reply = await _answer(
        ClaudeAgentOptions(on_elicitation=broken), {"subtype": "elicitation", "mcp_server_name": "s", "message": "?"}
    )
    assert reply["response"] == {"action": "decline"}
