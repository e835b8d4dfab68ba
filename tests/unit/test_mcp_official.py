"""In-process MCP servers answer the binary as the official package's do.

``tests/fixtures/official_mcp.json`` holds the official package's replies to
the exchanges of ``tests/support/_mcp_cases.py`` (recorded by
``scripts/official_mcp.py``): tool schemas in ``tools/list``, the arguments
each handler got, results, errors, and the protocol around them. Here the
same messages go to claude_wrap's ``mcp_message`` handler, one reply at a
time, and every reply must be the recorded one.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from _mcp_cases import EXCHANGE_SERVER, EXCHANGES, servers

import claude_wrap
from claude_wrap._mcp.server import mcp_message_handler

pytestmark = pytest.mark.anyio

RECORDED = json.loads((Path(__file__).parent.parent / "fixtures" / "official_mcp.json").read_text())


def test_the_recording_covers_every_exchange() -> None:
    recorded = RECORDED["exchanges"]
    assert sorted(recorded) == sorted(EXCHANGES), "run scripts/official_mcp.py with the official package"
    for name, (_, messages) in EXCHANGES.items():
        assert [step["message"] for step in recorded[name]] == json.loads(json.dumps(messages)), name


async def _replies(name: str) -> list[dict[str, Any]]:
    group, messages = EXCHANGES[name]
    instances = {key: config["instance"] for key, config in servers(claude_wrap, group).items()}
    handler = mcp_message_handler(instances)
    out = []
    for message in messages:
        request = {"subtype": "mcp_message", "server_name": EXCHANGE_SERVER[name], "message": message}
        try:
            reply: dict[str, Any] = {"subtype": "success", "response": await handler(request)}
        except Exception as exc:  # noqa: BLE001 - compared with the official control error
            reply = {"subtype": "error", "error": str(exc)}
        out.append(json.loads(json.dumps(reply)))  # what reaches the binary is JSON
    return out


@pytest.mark.parametrize("name", sorted(EXCHANGES))
@pytest.mark.skipif(
    RECORDED["recorded_with"]["python"] != "{}.{}".format(*sys.version_info[:2]),
    reason="recorded on another Python, whose typing module tells TypedDicts apart differently",
)
async def test_replies_match_the_official_package(name: str) -> None:
    expected = [step["reply"] for step in RECORDED["exchanges"][name]]
    got = await _replies(name)
    for step, (mine, theirs) in enumerate(zip(got, expected)):
        assert mine == theirs, f"{name}[{step}]: {json.dumps(EXCHANGES[name][1][step])[:200]}"
    assert len(got) == len(expected)


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_ints_reach_the_handler_as_ints(anyio_backend: str) -> None:
    # The official calculator example: {"a": float, "b": float} and the model sends 15 and 27.
    seen: list[Any] = []

    @claude_wrap.tool("add", "Add two numbers", {"a": float, "b": float})
    async def add(args: dict[str, Any]) -> dict[str, Any]:
        seen.append(args)
        return {"content": [{"type": "text", "text": f"{args['a']} + {args['b']} = {args['a'] + args['b']}"}]}

    handler = mcp_message_handler({"calc": claude_wrap.create_sdk_mcp_server("calc", tools=[add])["instance"]})
    for message in (
        {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 15, "b": 27}}},
    ):  # fmt: skip
        reply = await handler({"subtype": "mcp_message", "server_name": "calc", "message": message})
    assert reply["mcp_response"]["result"]["content"] == [{"type": "text", "text": "15 + 27 = 42"}]
    assert [type(v) for v in seen[0].values()] == [int, int]
