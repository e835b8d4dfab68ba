"""A frame the decoder cannot take as it is does not end a healthy run.

The real binary passes on what an external MCP server answered: text cut in
the middle of an emoji, which JSON carries as a lone surrogate escape. The
run completes, on both backends, with the tool result in place (the half
character read as U+FFFD). Lines that cannot be decoded at all are proven
with a stand-in binary in tests/unit/test_unknown_frames.py.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from _e2e import Options, run, tool_results

from claude_wrap import ClaudeSDKClient, ResultMessage
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

PROBE = Path(__file__).with_name("probe_mcp_server.py")


def _probe_options(make_options: Options) -> Any:
    server = {"type": "stdio", "command": sys.executable, "args": [str(PROBE)]}
    return make_options(mcp_servers={"probe": server}, allowed_tools=["mcp__probe__cut"])


async def test_a_tool_result_with_a_lone_surrogate_completes_the_run(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.tool_use("mcp__probe__cut", {}), Reply.text("after the cut"))
    messages = await run("cut it", _probe_options(make_options), limit=90)
    assert isinstance(messages[-1], ResultMessage) and not messages[-1].is_error
    assert messages[-1].result == "after the cut"
    (result,) = tool_results(messages)
    assert result.content == [{"type": "text", "text": "party \ufffd cut"}]
    assert not any(type(m).__name__ == "UnknownMessage" for m in messages)
    # The model got the tool's text as the binary holds it.
    sent = str(scripted_model.main_requests[-1].body["messages"])
    assert "party" in sent and " cut" in sent


async def test_a_client_reads_on_after_the_same_frame(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.tool_use("mcp__probe__cut", {}), Reply.text("first"), Reply.text("second"))
    async with ClaudeSDKClient(_probe_options(make_options)) as client:
        for prompt, reply in (("cut it", "first"), ("again", "second")):
            await client.query(prompt)
            messages = [m async for m in client.receive_response()]
            assert isinstance(messages[-1], ResultMessage) and messages[-1].result == reply
