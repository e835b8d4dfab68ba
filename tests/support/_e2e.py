"""Small helpers shared by the end-to-end tests."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import Any

import anyio

from claude_wrap import ClaudeAgentOptions, ClaudeSDKClient, ToolResultBlock, UserMessage, query
from claude_wrap.testing import Reply, ScriptedModel

Options = Callable[..., ClaudeAgentOptions]
"""The ``make_options`` fixture: ClaudeAgentOptions aimed at the scripted model."""


async def run(prompt: Any, options: ClaudeAgentOptions, limit: float = 60) -> list[Any]:
    """Every message of one ``query()``; ``limit`` is a hang guard, not a speed check."""
    out: list[Any] = []
    with anyio.fail_after(limit):
        async for message in query(prompt=prompt, options=options):
            out.append(message)
    return out


async def turn(client: ClaudeSDKClient, prompt: str, limit: float = 60) -> list[Any]:
    """Send ``prompt`` and collect the reply through its ``ResultMessage``."""
    await client.query(prompt)
    with anyio.fail_after(limit):
        return [m async for m in client.receive_response()]


async def kill_binary(client: ClaudeSDKClient) -> None:
    """SIGKILL the client's binary alone (not its group), as the OOM killer
    would, and wait until the client has seen it die."""
    assert client.pid is not None
    os.kill(client.pid, signal.SIGKILL)
    with anyio.fail_after(10):
        while client.is_alive:
            await anyio.sleep(0.01)


def tool_results(messages: list[Any]) -> list[ToolResultBlock]:
    """The tool results the binary reported, in order."""
    return [
        b
        for m in messages
        if isinstance(m, UserMessage) and isinstance(m.content, list)
        for b in m.content
        if isinstance(b, ToolResultBlock)
    ]


def bash(command: str) -> Reply:
    """A scripted reply that runs ``command`` with the Bash tool."""
    return Reply.tool_use("Bash", {"command": command, "description": "run"})


# -- a tool added and removed while connected (async and sync clients) ------------------------


def mul_tool() -> Any:
    """``mul``, the tool added to the ``calc`` server while connected."""
    from claude_wrap import tool

    @tool("mul", "Multiply", {"a": int, "b": int})
    def mul(args: dict[str, Any]) -> int:
        return int(args["a"] * args["b"])

    return mul


def script_tool_change(model: ScriptedModel) -> None:
    """Turn 1 before ``mul`` exists; turn 2 calls it; turn 3 calls it after its removal."""
    model.add(
        Reply.text("ready"),
        Reply.tool_use("mcp__calc__mul", {"a": 6, "b": 7}),
        Reply.text("42"),
        Reply.tool_use("mcp__calc__mul", {"a": 1, "b": 1}),
        Reply.text("gone"),
    )


def check_tool_change(model: ScriptedModel) -> None:
    """The model saw ``mul`` only while it was there, and its call worked."""
    assert "mcp__calc__mul" not in model.main_requests[0].system_text
    assert model.main_requests[2].tool_result_texts == ["42"]
    removed = model.main_requests[4].tool_results[0]
    assert removed["is_error"] is True and "No such tool available: mcp__calc__mul" in str(removed["content"])
