"""End-to-end: the real Claude Code binary against `ScriptedModel`."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from claude_wrap.testing import (
    NO_REPLY_TEXT,
    Reply,
    ScriptedModel,
    ScriptedText,
    ScriptedThinking,
    ScriptedToolUse,
)

pytestmark = pytest.mark.e2e


def test_text_reply_reaches_result(scripted_model: ScriptedModel, run_cli: Any) -> None:
    scripted_model.add(Reply.text("Hello from the script"))
    run = run_cli(scripted_model, "Say hello")
    assert run.returncode == 0, run.stderr
    assert run.result["is_error"] is False
    assert run.result["result"] == "Hello from the script"
    assert scripted_model.unexpected == []
    (main,) = scripted_model.main_requests
    assert main.last_user_text == "Say hello"
    assert "Bash" in main.tool_names
    assert main.system_text
    assert main.stream


def test_bash_tool_loop(scripted_model: ScriptedModel, run_cli: Any) -> None:
    scripted_model.add(
        Reply.tool_use("Bash", {"command": "echo hi > out.txt && cat out.txt", "description": "x"}),
        Reply.text("done"),
    )
    run = run_cli(scripted_model, "Run it", "--allowedTools", "Bash")
    assert run.result["result"] == "done", run.frames
    assert (run_cli.cwd / "out.txt").read_text() == "hi\n"
    _, second = scripted_model.main_requests
    assert second.tool_results[0]["tool_use_id"] == "toolu_scripted_0001"
    assert "hi" in second.tool_result_texts[0]
    assert not second.tool_results[0].get("is_error")
    assert scripted_model.unexpected == []


def test_thinking_text_tool_use_partial_messages(scripted_model: ScriptedModel, run_cli: Any) -> None:
    scripted_model.add(
        Reply.message(
            ScriptedThinking("Let me think briefly."),
            ScriptedText("I will run a command."),
            ScriptedToolUse("Bash", {"command": "echo partial", "description": "Print"}),
        ),
        Reply.text("all done"),
    )
    run = run_cli(scripted_model, "Go", "--allowedTools", "Bash", "--include-partial-messages")
    assert run.result["result"] == "all done"
    deltas = [
        f["event"]["delta"]["type"]
        for f in run.frames
        if f.get("type") == "stream_event" and f["event"]["type"] == "content_block_delta"
    ]
    for kind in ("thinking_delta", "signature_delta", "text_delta", "input_json_delta"):
        assert kind in deltas
    # The binary splits one API message into one assistant frame per block.
    first_msg = [f for f in run.frames if f.get("type") == "assistant"][:3]
    assert [f["message"]["content"][0]["type"] for f in first_msg] == [
        "thinking",
        "text",
        "tool_use",
    ]
    assert len({f["message"]["id"] for f in first_msg}) == 1
    assert "partial" in scripted_model.main_requests[1].tool_result_texts[0]


def test_error_500_without_retries(scripted_model: ScriptedModel, run_cli: Any) -> None:
    scripted_model.add(Reply.error(500, "boom"))
    started = time.monotonic()
    run = run_cli(scripted_model, "hello", max_retries=0)
    assert time.monotonic() - started < 10
    assert run.result["is_error"] is True
    assert run.result["api_error_status"] == 500
    assert run.returncode == 1
    assert len(scripted_model.main_requests) == 1


def test_unqueued_main_request_is_recorded(scripted_model: ScriptedModel, run_cli: Any) -> None:
    run = run_cli(scripted_model, "anyone there?")
    assert run.result["result"] == NO_REPLY_TEXT
    assert len(scripted_model.unexpected) == 1


def test_stall_does_not_block_shutdown(tmp_path: Path, cli: str) -> None:
    (tmp_path / "work").mkdir()
    user_line = json.dumps({"type": "user", "message": {"role": "user", "content": "hi"}}) + "\n"
    model = ScriptedModel(Reply.stall()).start()
    proc = subprocess.Popen(
        [
            cli,
            "--output-format",
            "stream-json",
            "--verbose",
            "--input-format",
            "stream-json",
            "--setting-sources",
            "",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=model.env(tmp_path / "home"),
        cwd=tmp_path / "work",
    )
    outputs: list[tuple[str, str]] = []
    # communicate() runs in a thread so this thread can close the server
    # while the binary is still waiting on the stalled response.
    reader = threading.Thread(target=lambda: outputs.append(proc.communicate(user_line, timeout=60)))
    reader.start()
    try:
        model.wait_for_requests(1, timeout=30)
        time.sleep(0.3)  # let the binary settle into waiting for the body
        started = time.monotonic()
        model.close()
        assert time.monotonic() - started < 2
        assert model.main_requests[0].status == 0
        reader.join(timeout=30)
        assert outputs, "the binary did not exit after the server closed"
        out, err = outputs[0]
        frames = [json.loads(line) for line in out.splitlines() if line.strip()]
        results = [f for f in frames if f.get("type") == "result"]
        assert results, err[-2000:]
        assert results[-1]["is_error"] is True
        assert results[-1]["api_error"] == "connection_failed"
    finally:
        if proc.poll() is None:
            proc.kill()
        reader.join()
        model.close()


def test_big_usage_trips_budget(scripted_model: ScriptedModel, run_cli: Any) -> None:
    scripted_model.add(
        Reply.tool_use("Bash", {"command": "echo one", "description": "x"}).with_usage(200_000, 50_000),
        Reply.text("never reached"),
    )
    run = run_cli(scripted_model, "spend", "--allowedTools", "Bash", "--max-budget-usd", "0.01")
    assert run.result["subtype"] == "error_max_budget_usd"
    assert run.result["total_cost_usd"] > 0.01
    # result.usage reads 0 on this path; the scripted tokens show in modelUsage.
    (usage,) = run.result["modelUsage"].values()
    assert (usage["inputTokens"], usage["outputTokens"]) == (200_000, 50_000)
    assert len(scripted_model.main_requests) == 1


def test_chunked_slow_stream_is_reassembled(scripted_model: ScriptedModel, run_cli: Any) -> None:
    text = "naïve café — 日本語 " * 4
    scripted_model.add(Reply.text(text).chunked(5, delta_chars=3).slow(first_byte=0.2, between_events=0.01))
    run = run_cli(scripted_model, "stream slowly")
    assert run.result["result"] == text
    assistant = [f for f in run.frames if f.get("type") == "assistant"]
    assert assistant[0]["message"]["id"] == "msg_scripted_0001"
    assert assistant[0]["request_id"] == "req_scripted_0001"


def test_400_is_retried_silently_with_fewer_betas(scripted_model: ScriptedModel, run_cli: Any) -> None:
    # Documents binary behaviour scripts must plan for: even with
    # CLAUDE_CODE_MAX_RETRIES=0 a 400 is sent 6 times, so queue it sticky.
    scripted_model.add(Reply.error(400, "bad").sticky())
    run = run_cli(scripted_model, "hello")
    assert run.result["api_error_status"] == 400
    assert run.result["api_error_type"] == "invalid_request_error"
    assert len(scripted_model.main_requests) == 6
    assert not any(f.get("subtype") == "api_retry" for f in run.frames)


def test_429_is_retried_when_allowed(scripted_model: ScriptedModel, run_cli: Any) -> None:
    scripted_model.add(Reply.error(429, retry_after=0.1), Reply.text("ok after 429"))
    run = run_cli(scripted_model, "hello", max_retries=1)
    assert run.result["result"] == "ok after 429"
    (retry,) = [f for f in run.frames if f.get("subtype") == "api_retry"]
    assert (retry["error_status"], retry["error"]) == (429, "rate_limit")
    assert [r.status for r in scripted_model.main_requests] == [429, 200]
