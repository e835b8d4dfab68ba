"""The live view of ``claude-wrap run`` on a terminal, and the CLI's cheap import."""

from __future__ import annotations

import io
import subprocess
import sys
import time

from claude_wrap import (
    AssistantMessage,
    StreamEvent,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
)
from claude_wrap._cli import LiveView, _encode_json, build_parser


def _delta(text: str) -> StreamEvent:
    return StreamEvent(
        uuid="u", session_id="s", event={"type": "content_block_delta", "delta": {"type": "text_delta", "text": text}}
    )


def test_tty_view_streams_text_spins_while_a_tool_runs_and_prints_one_line() -> None:
    out = io.StringIO()
    view = LiveView(out, tty=True)
    view.handle(_delta("Hel"))
    view.handle(_delta("lo."))
    view.handle(AssistantMessage(content=[TextBlock("Hello.")], model="m"))  # already streamed: not repeated
    view.handle(AssistantMessage(content=[ToolUseBlock("t1", "Bash", {"command": "sleep 1"})], model="m"))
    time.sleep(0.35)
    spinning = out.getvalue()
    view.handle(UserMessage(content=[ToolResultBlock("t1", "slept\nmore", is_error=False)]))
    view.close()
    text = out.getvalue()

    assert text.startswith("Hello.\n")
    assert text.count("Hello.") == 1
    assert "Bash(command='sleep 1')" in spinning.split("Hello.\n", 1)[1]  # the spinner line
    assert "\r\033[K" in text  # the spinner was cleared before the tool line
    last = text.rsplit("\r\033[K", 1)[1]
    assert last.startswith("  ✓ Bash(command='sleep 1') → slept …")


def test_non_tty_view_prints_unstreamed_text_and_unfinished_tools() -> None:
    out = io.StringIO()
    view = LiveView(out, tty=False)
    view.handle(AssistantMessage(content=[TextBlock("No deltas here.")], model="m"))
    view.handle(AssistantMessage(content=[ToolUseBlock("t1", "Read", {"file_path": "/x"})], model="m"))
    view.handle(UserMessage(content=[ToolResultBlock("t1", "boom", is_error=True)]))
    view.handle(AssistantMessage(content=[ToolUseBlock("t2", "Grep", {"pattern": "p"})], model="m"))
    view.close()
    assert out.getvalue().splitlines() == [
        "No deltas here.",
        "  ✗ Read(file_path='/x') → boom (0.0 s)",
        "  … Grep(pattern='p') (no result)",
    ]


def test_view_of_a_recorded_partial_stream_shows_each_text_once() -> None:
    from pathlib import Path

    from claude_wrap._codec import decode_line

    out = io.StringIO()
    view = LiveView(out, tty=False)
    texts = []
    with (Path(__file__).parent.parent / "fixtures" / "recorded_stream.ndjson").open("rb") as f:
        for line in f:
            message = decode_line(line)
            if message is not None:
                view.handle(message)
                if isinstance(message, AssistantMessage):
                    texts += [b.text for b in message.content if isinstance(b, TextBlock)]
    view.close()
    shown = out.getvalue()
    assert len(texts) == 2 and all(shown.count(t) == 1 for t in texts)
    assert shown.startswith(texts[0] + "\n  ✓ Bash(command=")


def test_json_lines_name_each_message_and_block() -> None:
    import json

    message = AssistantMessage(content=[TextBlock("hi"), ToolUseBlock("t1", "Bash", {"command": "ls"})], model="m")
    record = json.loads(_encode_json(message))
    assert record["kind"] == "AssistantMessage"
    assert record["message"]["content"] == [
        {"kind": "TextBlock", "text": "hi"},
        {"kind": "ToolUseBlock", "id": "t1", "name": "Bash", "input": {"command": "ls"}},
    ]
    assert record["message"]["model"] == "m"
    assert json.loads(_encode_json(UserMessage(content="plain")))["message"]["content"] == "plain"


def test_parser_knows_the_commands() -> None:
    args = build_parser().parse_args(["run", "p", "--allowed-tools", "Read,Bash", "Grep", "--max-turns", "3"])
    assert (args.prompt, args.allowed_tools, args.max_turns) == ("p", ["Read,Bash", "Grep"], 3)


def test_cli_module_imports_only_the_stdlib() -> None:
    code = "import sys, claude_wrap._cli; print(sorted(m for m in ('anyio', 'msgspec', 'pydantic') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
