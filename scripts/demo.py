#!/usr/bin/env python3
"""An example agent: read a file, run a command on it, answer.

    python scripts/demo.py          # offline: a scripted model plays the API
    ANTHROPIC_API_KEY=... python scripts/demo.py   # the real API, same prompt

It drives the real Claude Code binary through ``claude_wrap.query()``. The
demo creates a small file in a temporary working directory and asks the agent
to read it (``Read``) and count its lines (``Bash``), allowing exactly those
two tools. Offline, a ``ScriptedModel`` on 127.0.0.1 answers the binary's API
calls with a fixed script, so no network or key is needed.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

from claude_wrap import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKError,
    ResultMessage,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
    query,
)

NOTES = """\
Shopping list for the team offsite
- coffee (two bags, one decaf)
- oat milk
- bagels and cream cheese
- fruit for the afternoon
- sparkling water
"""

PROMPT = (
    "Read the file notes.txt in the current directory, then use Bash to run "
    "`wc -l notes.txt`, and tell me in one or two sentences what the file is "
    "about and how many lines it has."
)

WIDTH = 100


def short(text: str, width: int = WIDTH) -> str:
    """First non-empty line, shortened to ``width`` characters."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    first = (lines[0] if lines else "").replace("\t", " ")
    more = len(lines) > 1
    if len(first) > width or more:
        first = textwrap.shorten(first, width=width - 1, placeholder="") if len(first) > width else first
        first += " …"
    return first


def tool_summary(block: ToolUseBlock) -> str:
    data = block.input
    for key in ("command", "file_path", "path", "pattern", "url"):
        if key in data:
            return f"{block.name}({key}={data[key]!r})"
    args = ", ".join(f"{k}={v!r}" for k, v in data.items())
    return f"{block.name}({short(args, 80)})"


def result_text(block: ToolResultBlock) -> str:
    content: Any = block.content
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))


def offline_replies(notes: Path) -> list[Any]:
    """The script the fake API follows: Read, then Bash, then a text answer."""
    from claude_wrap.testing import Reply

    count = NOTES.count("\n")
    return [
        Reply.tool_use("Read", {"file_path": str(notes)}, text="I'll read the file first."),
        Reply.tool_use(
            "Bash",
            {"command": "wc -l notes.txt", "description": "Count the lines of notes.txt"},
            text="Now let me count its lines.",
        ),
        Reply.text(
            f"notes.txt is a shopping list for a team offsite (coffee, oat milk, bagels, "
            f"fruit and sparkling water); it has {count} lines."
        ),
    ]


async def run(options: ClaudeAgentOptions) -> ResultMessage | None:
    final: ResultMessage | None = None
    names: dict[str, str] = {}
    async for message in query(prompt=PROMPT, options=options):
        if isinstance(message, AssistantMessage):
            for block in message.content:
                if isinstance(block, TextBlock) and block.text.strip():
                    print(f"assistant: {block.text.strip()}")
                elif isinstance(block, ToolUseBlock):
                    names[block.id] = block.name
                    print(f"  → {tool_summary(block)}")
        elif isinstance(message, UserMessage) and isinstance(message.content, list):
            for block in message.content:
                if isinstance(block, ToolResultBlock):
                    mark = "✗" if block.is_error else "←"
                    name = names.get(block.tool_use_id, "tool")
                    print(f"  {mark} {name}: {short(result_text(block), 80)}")
        elif isinstance(message, ResultMessage):
            final = message
    return final


def main() -> int:
    live = bool(os.environ.get("ANTHROPIC_API_KEY"))
    with tempfile.TemporaryDirectory(prefix="claude-wrap-demo-") as tmp:
        workdir = Path(tmp) / "work"
        workdir.mkdir()
        notes = workdir / "notes.txt"
        notes.write_text(NOTES, encoding="utf-8")

        options_fields: dict[str, Any] = {
            "cwd": workdir,
            "allowed_tools": ["Read", "Bash"],
            "setting_sources": [],  # ignore the user's and project's settings files
        }
        model = None
        if live:
            mode = "live: the real API (ANTHROPIC_API_KEY is set)"
        else:
            from claude_wrap.testing import ScriptedModel

            model = ScriptedModel(*offline_replies(notes)).start()
            # An isolated HOME and a dummy key pointing at the scripted model.
            options_fields["env"] = model.env(Path(tmp) / "home")
            mode = "offline: a scripted model on 127.0.0.1 (set ANTHROPIC_API_KEY for the real API)"

        from claude_wrap import binary_info

        try:
            info = binary_info()
            print(f"claude_wrap demo — {mode}")
            print(f"binary:  Claude Code {info.version} ({info.path})")
            print(f"workdir: {workdir}")
            print(f"prompt:  {PROMPT}")
            print()
            result = asyncio.run(run(ClaudeAgentOptions(**options_fields)))
        except ClaudeSDKError as exc:
            print(f"\ndemo failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 1
        finally:
            if model is not None:
                model.close()

    if result is None:
        print("\ndemo failed: the run ended without a result", file=sys.stderr)
        return 1
    cost = "n/a" if result.total_cost_usd is None else f"${result.total_cost_usd:.4f}"
    print()
    print(
        f"result: {result.subtype} · {result.num_turns} turns · cost {cost} · "
        f"{result.duration_ms / 1000:.2f} s (API {result.duration_api_ms / 1000:.2f} s)"
    )
    if model is not None and model.errors:
        print("scripted model errors:\n" + "\n".join(model.errors), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
