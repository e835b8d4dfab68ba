"""Small helpers shared by the end-to-end tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio

from claude_wrap import ClaudeAgentOptions, ToolResultBlock, UserMessage, query
from claude_wrap.testing import Reply

Options = Callable[..., ClaudeAgentOptions]
"""The ``make_options`` fixture: ClaudeAgentOptions aimed at the scripted model."""


async def run(prompt: Any, options: ClaudeAgentOptions, limit: float = 60) -> list[Any]:
    """Every message of one ``query()``; ``limit`` is a hang guard, not a speed check."""
    out: list[Any] = []
    with anyio.fail_after(limit):
        async for message in query(prompt=prompt, options=options):
            out.append(message)
    return out


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
