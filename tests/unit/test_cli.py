"""The live view of ``claude-wrap run`` on a terminal, and the CLI's cheap import."""

from __future__ import annotations

import io
import subprocess
import sys
from typing import Any

from _procs import wait_until

from claude_wrap import (
    AssistantMessage,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
)
from claude_wrap._cli import SPINNER, build_parser
from claude_wrap.cli import LiveView, result_line, stream_json


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
    wait_until(lambda: "Bash(command='sleep 1')" in out.getvalue(), what="the spinner line")
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


def _init() -> SystemMessage:
    return SystemMessage(subtype="init", data={"type": "system", "subtype": "init"})


def _status_lines(out: io.StringIO) -> list[str]:
    return [part for part in out.getvalue().split("\r\033[K") if part]


def test_tty_view_says_what_the_run_waits_for_from_the_first_moment() -> None:
    # Before the binary's first line and between a tool result and the
    # model's answer nothing else moves; a person must still see life.
    out = io.StringIO()
    view = LiveView(out, tty=True, version="2.1.332")
    wait_until(lambda: "starting Claude Code 2.1.332…" in out.getvalue(), what="the starting line")
    view.handle(_init())
    wait_until(lambda: "waiting for the model…" in out.getvalue(), what="the waiting line")
    view.handle(AssistantMessage(content=[ToolUseBlock("t1", "Read", {"file_path": "/x"})], model="m"))
    wait_until(lambda: _status_lines(out)[-1].lstrip(SPINNER).startswith(" Read("), what="the tool's line")
    view.handle(UserMessage(content=[ToolResultBlock("t1", "data", is_error=False)]))
    wait_until(lambda: _status_lines(out)[-1].lstrip(SPINNER).startswith(" waiting for the model…"), what="waiting")
    view.handle(AssistantMessage(content=[TextBlock("Done.")], model="m"))
    view.close()
    assert _status_lines(out)[-1].startswith("Done.\n")  # the status line was cleared for the answer
    # Each status line says how long it has been waiting.
    assert all(line.endswith(" s") for line in _status_lines(out) if line[0] in SPINNER)


def test_off_a_terminal_the_view_prints_no_status() -> None:
    out = io.StringIO()
    view = LiveView(out, tty=False, version="2.1.332")
    view.handle(_init())
    view.handle(AssistantMessage(content=[TextBlock("Done.")], model="m"))
    view.close()
    assert out.getvalue() == "Done.\n"


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

    from claude_wrap._wire.codec import decode_line

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


def test_json_lines_are_stream_json_objects() -> None:
    message = AssistantMessage(
        content=[TextBlock("hi"), ToolUseBlock("t1", "Bash", {"command": "ls"})], model="m", session_id="s", uuid="u"
    )
    assert stream_json(message) == {
        "type": "assistant",
        "message": {
            "id": None,
            "type": "message",
            "role": "assistant",
            "model": "m",
            "content": [
                {"type": "text", "text": "hi"},
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}},
            ],
        },
        "parent_tool_use_id": None,
        "session_id": "s",
        "uuid": "u",
    }
    assert stream_json(UserMessage(content="plain")) == {
        "type": "user",
        "message": {"role": "user", "content": "plain"},
        "parent_tool_use_id": None,
    }
    init = SystemMessage(subtype="init", data={"type": "system", "subtype": "init", "cwd": "/w"})
    assert stream_json(init) == {"type": "system", "subtype": "init", "cwd": "/w"}


def test_a_retry_is_one_line_with_attempt_delay_and_error() -> None:
    out = io.StringIO()
    view = LiveView(out, tty=False)
    data = {
        "type": "system",
        "subtype": "api_retry",
        "attempt": 1,
        "max_retries": 10,
        "retry_delay_ms": 577,
        "error_status": None,
        "error": "unknown",
    }
    view.handle(SystemMessage(subtype="api_retry", data=data))
    view.handle(
        SystemMessage(
            subtype="api_retry",
            data=dict(data, attempt=2, retry_delay_ms=1141, error_status=529, error="overloaded_error"),
        )
    )
    view.close()
    assert out.getvalue().splitlines() == [
        "  ↻ API call failed (unknown); retry 1 of 10 in 0.6 s",
        "  ↻ API call failed (HTTP 529 overloaded_error); retry 2 of 10 in 1.1 s",
    ]


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_retry_without_a_status_names_the_network_failure() -> None:
    # The binary's frame says only "unknown"; the view asks the network.
    port = _closed_port()
    out = io.StringIO()
    view = LiveView(out, tty=False, api_url=f"http://127.0.0.1:{port}")
    data = {"attempt": 1, "max_retries": 2, "retry_delay_ms": 600, "error_status": None, "error": "unknown"}
    view.handle(SystemMessage(subtype="api_retry", data={"type": "system", "subtype": "api_retry", **data}))
    view.close()
    assert out.getvalue().splitlines() == [
        f"  ↻ API call failed (no HTTP answer: ECONNREFUSED at 127.0.0.1:{port}); retry 1 of 2 in 0.6 s"
    ]


def test_network_cause_is_none_for_an_api_that_answers() -> None:
    from claude_wrap.cli import network_cause
    from claude_wrap.testing import ScriptedModel

    with ScriptedModel() as model:
        assert network_cause(model.base_url) is None


def test_a_failed_result_names_its_real_reason() -> None:
    failed = ResultMessage(
        subtype="success",
        duration_ms=1200,
        duration_api_ms=0,
        is_error=True,
        num_turns=1,
        session_id="s",
        total_cost_usd=0,
        result="API Error: Connection refused (ECONNREFUSED)",
        terminal_reason="api_error",
    )
    assert result_line(failed).startswith(
        "result: error (api_error, API Error: Connection refused (ECONNREFUSED)) · 1 turns"
    )
    capped = ResultMessage(
        subtype="error_max_turns",
        duration_ms=1,
        duration_api_ms=1,
        is_error=True,
        num_turns=3,
        session_id="s",
        errors=["Reached maximum number of turns (3)"],
    )
    assert result_line(capped).startswith("result: error (error_max_turns, Reached maximum number of turns (3)) ·")


def test_parser_takes_comma_separated_tools_and_a_version_flag(capsys: Any) -> None:
    args = build_parser().parse_args(
        ["run", "p", "--allowed-tools", "Read,Bash", "--allowed-tools", "Grep", "--max-turns", "3"]
    )
    assert (args.prompt, args.allowed_tools, args.max_turns) == ("p", ["Read,Bash", "Grep"], 3)
    import pytest

    with pytest.raises(SystemExit) as swallowed:
        build_parser().parse_args(["run", "--allowed-tools", "Read", "Bash", "p"])
    assert swallowed.value.code == 2
    assert "unrecognized arguments: p" in capsys.readouterr().err
    with pytest.raises(SystemExit) as version:
        build_parser().parse_args(["--version"])
    assert version.value.code == 0
    assert capsys.readouterr().out.startswith("claude-wrap 0.")


def test_the_cli_module_is_public_and_its_objects_say_so() -> None:
    import claude_wrap.cli

    assert LiveView.__module__ == result_line.__module__ == "claude_wrap.cli"
    assert "LiveView" in claude_wrap.cli.__all__


def test_cli_module_imports_only_the_stdlib() -> None:
    code = "import sys, claude_wrap.cli; print(sorted(m for m in ('anyio', 'msgspec', 'pydantic') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
