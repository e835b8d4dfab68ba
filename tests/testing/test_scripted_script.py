"""Script files and the ``python -m claude_wrap.testing`` runner."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from claude_wrap.testing import (
    Reply,
    ScriptedText,
    ScriptedThinking,
    ScriptedToolUse,
    load_script,
    reply_from_json,
)


def test_reply_kinds() -> None:
    assert reply_from_json("hi") == Reply.text("hi")
    assert reply_from_json({"text": "hi"}) == Reply.text("hi")
    assert reply_from_json({"tool_use": {"name": "Bash", "input": {"command": "ls"}, "id": "t1"}}) == Reply.message(
        ScriptedToolUse("Bash", {"command": "ls"}, "t1")
    )
    assert reply_from_json({"thinking": "hmm", "signature": "s"}).blocks == (ScriptedThinking("hmm", "s"),)
    blocks = reply_from_json(
        {
            "blocks": [
                {"type": "thinking", "thinking": "t"},
                "plain",
                {"type": "tool_use", "name": "X"},
            ]
        }
    ).blocks
    assert blocks == (
        ScriptedThinking("t"),
        ScriptedText("plain"),
        ScriptedToolUse("X", {}),
    )
    assert reply_from_json({"error": 500}) == Reply.error(500)
    err = reply_from_json(
        {
            "error": {
                "status": 429,
                "message": "slow down",
                "retry_after": 1,
                "type": "rate_limit_error",
            }
        }
    )
    assert (err.status, err.error_message, err.retry_after, err.error_type) == (
        429,
        "slow down",
        1.0,
        "rate_limit_error",
    )
    assert reply_from_json({"stall": True}).kind == "stall"


def test_reply_options() -> None:
    reply = reply_from_json(
        {
            "text": "x",
            "usage": {"input_tokens": 200000, "output_tokens": 9},
            "stop_reason": "max_tokens",
            "model": "m",
            "match": "any",
            "repeat": 3,
            "first_byte_delay": 0.5,
            "event_delay": 0.1,
            "chunk_size": 4,
            "stall_after": 2,
            "delta_chars": 2,
        }
    )
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (200000, 9)
    assert (reply.stop_reason, reply.model, reply.matcher, reply.count) == (
        "max_tokens",
        "m",
        "any",
        3,
    )
    assert (reply.first_byte_delay, reply.event_delay, reply.chunk_size) == (
        0.5,
        0.1,
        4,
    )
    assert (reply.stall_after_events, reply.delta_chars) == (2, 2)
    assert reply_from_json({"text": "x", "sticky": True}).count is None


@pytest.mark.parametrize(
    "bad",
    [
        {"text": "a", "stall": True},
        {},
        {"text": "a", "colour": 1},
        {"text": "a", "match": "side"},
        42,
    ],
)
def test_bad_replies(bad: object) -> None:
    with pytest.raises(ValueError):
        reply_from_json(bad)


def test_load_ndjson_and_json(tmp_path: Path) -> None:
    nd = tmp_path / "s.ndjson"
    nd.write_text('# comment\n{"text": "one"}\n\n"two"\n')
    assert load_script(nd) == [Reply.text("one"), Reply.text("two")]
    arr = tmp_path / "s.json"
    arr.write_text(json.dumps([{"text": "one"}, {"error": 529}]))
    assert load_script(arr) == [Reply.text("one"), Reply.error(529)]
    nd.write_text('{"text": "one"}\n{"nope": 1}\n')
    with pytest.raises(ValueError, match=":2:"):
        load_script(nd)


def test_main_serves_script(tmp_path: Path) -> None:
    script = tmp_path / "s.ndjson"
    script.write_text('{"text": "from file"}\n')
    proc = subprocess.Popen(
        [sys.executable, "-m", "claude_wrap.testing", "--script", str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on http://127.0.0.1:"), line
        base_url = line.split()[2]
        request = urllib.request.Request(
            base_url + "/v1/messages",
            data=json.dumps({"model": "m", "tools": [{"name": "T"}], "messages": []}).encode(),
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as resp:
            assert json.loads(resp.read())["content"] == [{"type": "text", "text": "from file"}]
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0
    assert "served 1 requests; 0 replies left; 0 unexpected" in out
    assert "POST /v1/messages [main] model=m -> 200" in err


def test_main_help_documents_format() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "claude_wrap.testing", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert '{"tool_use":' in out and "stall_after" in out


def test_main_bad_script(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[{}]")
    proc = subprocess.run(
        [sys.executable, "-m", "claude_wrap.testing", "--script", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and "cannot load script" in proc.stderr
