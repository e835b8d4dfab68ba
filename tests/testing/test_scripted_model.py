"""Unit tests of `ScriptedModel` over plain HTTP (no binary involved)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import claude_wrap.testing as kit
from claude_wrap.testing import (
    NO_REPLY_TEXT,
    SIDE_REPLY_TEXT,
    RecordedRequest,
    Reply,
    ScriptedModel,
    ScriptedText,
    ScriptedThinking,
    ScriptedToolUse,
    Usage,
)

MAIN_BODY: dict[str, Any] = {
    "model": "claude-test-1",
    "stream": True,
    "max_tokens": 1024,
    "system": [
        {"type": "text", "text": "You are a test."},
        {"type": "text", "text": "Be brief."},
    ],
    "tools": [
        {"name": "Bash", "input_schema": {}},
        {"name": "Read", "input_schema": {}},
    ],
    "messages": [
        {
            "role": "user",
            "content": [
                {
                    "type": "text",
                    "text": "<system-reminder>\nnoise\n</system-reminder>",
                },
                {"type": "text", "text": "Say hello"},
            ],
        }
    ],
}


def body(**changes: Any) -> dict[str, Any]:
    return {**MAIN_BODY, **changes}


def post(
    model: ScriptedModel,
    payload: dict[str, Any],
    path: str = "/v1/messages?beta=true",
    timeout: float = 10,
) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(
        model.base_url + path,
        data=json.dumps(payload).encode(),
        headers={"content-type": "application/json", "x-api-key": "sk-test"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as resp:
            return (
                resp.status,
                {k.lower(): v for k, v in resp.headers.items()},
                resp.read(),
            )
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()


def parse_sse(data: bytes) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for frame in data.decode().split("\n\n"):
        if not frame.strip():
            continue
        fields = dict(line.split(": ", 1) for line in frame.splitlines())
        events.append((fields["event"], json.loads(fields["data"])))
    return events


def reassemble(events: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Rebuild content blocks from deltas the way a client does."""
    blocks: dict[int, dict[str, Any]] = {}
    partial: dict[int, str] = {}
    for name, data in events:
        if name == "content_block_start":
            blocks[data["index"]] = dict(data["content_block"])
        elif name == "content_block_delta":
            block, delta = blocks[data["index"]], data["delta"]
            if delta["type"] == "text_delta":
                block["text"] += delta["text"]
            elif delta["type"] == "thinking_delta":
                block["thinking"] += delta["thinking"]
            elif delta["type"] == "signature_delta":
                block["signature"] += delta["signature"]
            elif delta["type"] == "input_json_delta":
                partial[data["index"]] = partial.get(data["index"], "") + delta["partial_json"]
        elif name == "content_block_stop" and data["index"] in partial:
            blocks[data["index"]]["input"] = json.loads(partial[data["index"]])
    return [blocks[i] for i in sorted(blocks)]


@pytest.fixture
def model() -> Any:
    with ScriptedModel() as m:
        yield m
    assert m.errors == []


def test_text_stream_event_sequence(model: ScriptedModel) -> None:
    model.add(Reply.text("Hello there, this is a longer text to split."))
    status, headers, data = post(model, body())
    assert status == 200
    assert headers["content-type"].startswith("text/event-stream")
    assert headers["request-id"] == "req_scripted_0001"
    events = parse_sse(data)
    names = [n for n, _ in events]
    assert names[:3] == ["message_start", "ping", "content_block_start"]
    assert names[-4:] == [
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    assert names.count("content_block_delta") > 1
    start = events[0][1]["message"]
    assert start["id"] == "msg_scripted_0001"
    assert start["model"] == "claude-test-1"
    assert start["content"] == [] and start["stop_reason"] is None
    delta = dict(events)["message_delta"]
    assert delta["delta"]["stop_reason"] == "end_turn"
    assert delta["usage"]["output_tokens"] == 5
    assert reassemble(events) == [{"type": "text", "text": "Hello there, this is a longer text to split."}]


def test_tool_use_json_reassembles(model: ScriptedModel) -> None:
    tool_input = {
        "command": "echo hi > out.txt && cat out.txt",
        "description": "x",
        "n": [1, 2, {"é": None}],
    }
    model.add(
        Reply.tool_use("Bash", tool_input),
        Reply.tool_use("Read", {"file_path": "/x"}, id="toolu_mine"),
    )
    events = parse_sse(post(model, body())[2])
    json_deltas = [d for n, d in events if n == "content_block_delta" and d["delta"]["type"] == "input_json_delta"]
    assert len(json_deltas) >= 3
    assert reassemble(events) == [
        {
            "type": "tool_use",
            "id": "toolu_scripted_0001",
            "name": "Bash",
            "input": tool_input,
        }
    ]
    assert dict(events)["message_delta"]["delta"]["stop_reason"] == "tool_use"
    second = reassemble(parse_sse(post(model, body())[2]))
    assert second[0]["id"] == "toolu_mine"


def test_tiny_tool_input_still_streams(model: ScriptedModel) -> None:
    model.add(Reply.tool_use("Noop"))
    assert reassemble(parse_sse(post(model, body())[2]))[0]["input"] == {}


def test_multi_block_message(model: ScriptedModel) -> None:
    model.add(
        Reply.message(
            ScriptedThinking("Let me think briefly.", signature="sig=="),
            "I'll run it.",
            ScriptedToolUse("Bash", {"command": "ls"}),
        )
    )
    events = parse_sse(post(model, body())[2])
    assert reassemble(events) == [
        {"type": "thinking", "thinking": "Let me think briefly.", "signature": "sig=="},
        {"type": "text", "text": "I'll run it."},
        {
            "type": "tool_use",
            "id": "toolu_scripted_0001",
            "name": "Bash",
            "input": {"command": "ls"},
        },
    ]
    kinds = [d["delta"]["type"] for n, d in events if n == "content_block_delta" and d["index"] == 0]
    assert kinds[-1] == "signature_delta" and set(kinds[:-1]) == {"thinking_delta"}


def test_thinking_builder() -> None:
    reply = Reply.thinking("hmm", "answer")
    assert reply.blocks == (ScriptedThinking("hmm"), ScriptedText("answer"))
    assert reply.effective_stop_reason == "end_turn"


def test_usage_is_configurable(model: ScriptedModel) -> None:
    model.add(
        Reply.text("x", usage=Usage(input_tokens=200_000, output_tokens=50)).with_usage(cache_read_input_tokens=7)
    )
    events = dict(parse_sse(post(model, body())[2]))
    assert events["message_start"]["message"]["usage"]["input_tokens"] == 200_000
    assert events["message_start"]["message"]["usage"]["cache_read_input_tokens"] == 7
    assert events["message_delta"]["usage"]["output_tokens"] == 50


def test_non_streaming_request_gets_json(model: ScriptedModel) -> None:
    model.add(Reply.tool_use("Bash", {"command": "ls"}, text="running"))
    status, headers, data = post(model, body(stream=False))
    assert status == 200 and headers["content-type"] == "application/json"
    message = json.loads(data)
    assert message["type"] == "message" and message["model"] == "claude-test-1"
    assert message["content"] == [
        {"type": "text", "text": "running"},
        {
            "type": "tool_use",
            "id": "toolu_scripted_0001",
            "name": "Bash",
            "input": {"command": "ls"},
        },
    ]
    assert message["stop_reason"] == "tool_use"


@pytest.mark.parametrize(
    ("status", "error_type"),
    [
        (400, "invalid_request_error"),
        (401, "authentication_error"),
        (429, "rate_limit_error"),
        (500, "api_error"),
        (529, "overloaded_error"),
    ],
)
def test_error_replies(model: ScriptedModel, status: int, error_type: str) -> None:
    model.add(Reply.error(status, "nope", retry_after=2 if status == 429 else None))
    got, headers, data = post(model, body())
    assert got == status
    assert json.loads(data) == {
        "type": "error",
        "error": {"type": error_type, "message": "nope"},
        "request_id": headers["request-id"],
    }
    assert headers.get("retry-after") == ("2" if status == 429 else None)
    assert model.requests[0].status == status


def test_error_custom_type_and_headers(model: ScriptedModel) -> None:
    model.add(
        Reply.error(
            503,
            error_type="custom_error",
            retry_after=0.5,
            headers={"x-should-retry": "false"},
        )
    )
    status, headers, data = post(model, body())
    assert (status, headers["retry-after"], headers["x-should-retry"]) == (
        503,
        "0.5",
        "false",
    )
    assert json.loads(data)["error"] == {
        "type": "custom_error",
        "message": "scripted custom_error",
    }


def test_queued_replies_answer_only_main_loop(model: ScriptedModel) -> None:
    model.add(Reply.text("main answer"))
    side = parse_sse(post(model, body(tools=[]))[2])
    assert reassemble(side) == [{"type": "text", "text": SIDE_REPLY_TEXT}]
    no_tools = {k: v for k, v in MAIN_BODY.items() if k != "tools"}
    assert json.loads(post(model, {**no_tools, "stream": False})[2])["content"][0]["text"] == SIDE_REPLY_TEXT
    assert len(model.pending) == 1
    assert reassemble(parse_sse(post(model, body())[2]))[0]["text"] == "main answer"
    assert [r.is_main for r in model.requests] == [False, False, True]
    assert len(model.side_requests) == 2 and len(model.main_requests) == 1
    assert model.unexpected == []


def test_match_any_and_predicate(model: ScriptedModel) -> None:
    def is_title(request: RecordedRequest) -> bool:
        return "title" in request.system_text

    model.add(
        Reply.text("for main"),
        Reply.text("a title").match_if(is_title),
        Reply.text("anything").match_any(),
    )
    assert reassemble(parse_sse(post(model, body(tools=[], system="make a title"))[2]))[0]["text"] == "a title"
    assert reassemble(parse_sse(post(model, body(tools=[]))[2]))[0]["text"] == "anything"
    assert reassemble(parse_sse(post(model, body())[2]))[0]["text"] == "for main"
    assert model.pending == []


def test_empty_queue_fallback_is_recorded(model: ScriptedModel) -> None:
    events = parse_sse(post(model, body())[2])
    assert reassemble(events) == [{"type": "text", "text": NO_REPLY_TEXT}]
    assert len(model.unexpected) == 1 and model.unexpected[0].is_main


def test_repeat_and_sticky(model: ScriptedModel) -> None:
    model.add(Reply.text("twice").repeat(2), Reply.text("forever").sticky())
    texts = [reassemble(parse_sse(post(model, body())[2]))[0]["text"] for _ in range(4)]
    assert texts == ["twice", "twice", "forever", "forever"]
    assert len(model.pending) == 1 and model.unexpected == []
    with pytest.raises(ValueError):
        Reply.text("x").repeat(0)


def test_count_tokens_and_unknown_routes() -> None:
    with ScriptedModel(count_tokens=1234) as model:
        status, _, data = post(model, body(), path="/v1/messages/count_tokens?beta=true")
        assert (status, json.loads(data)) == (200, {"input_tokens": 1234})
        status, _, data = post(model, body(), path="/v1/other")
        assert status == 404 and json.loads(data)["error"]["type"] == "not_found_error"
        assert [r.is_count_tokens for r in model.requests] == [True, False]
        assert model.main_requests == [] and model.unexpected == []


def test_recorded_request_helpers(model: ScriptedModel) -> None:
    model.add(Reply.text("ok"))
    tool_turn = body(
        messages=[
            *MAIN_BODY["messages"],
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "t1", "content": "hi\n"},
                    {
                        "type": "tool_result",
                        "tool_use_id": "t2",
                        "content": [{"type": "text", "text": "a"}],
                    },
                ],
            },
        ]
    )
    post(model, body())
    post(model, tool_turn)
    first, second = model.requests
    assert first.system_text == "You are a test.\nBe brief."
    assert first.last_user_text == "Say hello"
    assert first.tool_names == ["Bash", "Read"]
    assert first.model == "claude-test-1" and first.stream
    assert first.headers["x-api-key"] == "sk-test"
    assert first.path == "/v1/messages?beta=true" and first.endpoint == "/v1/messages"
    assert first.method == "POST" and first.timestamp <= second.timestamp
    assert first.tool_results == []
    assert len(second.messages) == 3
    assert [r["tool_use_id"] for r in second.tool_results] == ["t1", "t2"]
    assert second.tool_result_texts == ["hi\n", "a"]
    assert second.last_user_text == ""
    assert json.loads(first.raw_body) == first.body


def read_raw(model: ScriptedModel, payload: dict[str, Any]) -> bytes:
    """Send a request over a bare socket and return the raw HTTP response."""
    data = json.dumps(payload).encode()
    with socket.create_connection(("127.0.0.1", model.port), timeout=10) as sock:
        sock.sendall(
            b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(data), data)
        )
        chunks = []
        while piece := sock.recv(65536):
            chunks.append(piece)
    return b"".join(chunks)


def dechunk(raw: bytes) -> tuple[list[int], bytes]:
    """Split an HTTP/1.1 chunked body into (chunk sizes, joined payload)."""
    body = raw.split(b"\r\n\r\n", 1)[1]
    sizes, out = [], b""
    while True:
        line, body = body.split(b"\r\n", 1)
        size = int(line, 16)
        if size == 0:
            return sizes, out
        sizes.append(size)
        out, body = out + body[:size], body[size + 2 :]


def test_chunked_stream_writes_small_pieces(model: ScriptedModel) -> None:
    text = "héllo wörld — 日本語 " * 3
    model.add(Reply.text(text), Reply.text(text).chunked(7))
    plain_sizes, plain = dechunk(read_raw(model, body()))
    small_sizes, small = dechunk(read_raw(model, body()))
    assert max(small_sizes) <= 7 < max(plain_sizes)
    assert len(small_sizes) > len(plain_sizes)
    # Same bytes apart from the ids the server numbered.
    assert small.replace(b"msg_scripted_0002", b"msg_scripted_0001") == plain
    assert reassemble(parse_sse(small))[0]["text"] == text


def test_slow_reply_delays(model: ScriptedModel) -> None:
    model.add(Reply.text("slow").slow(first_byte=0.3, between_events=0.02))
    started = time.monotonic()
    post(model, body())
    # 0.3 s first byte plus 6 gaps between 7 events.
    assert time.monotonic() - started >= 0.3 + 6 * 0.02


def test_stall_holds_until_close() -> None:
    model = ScriptedModel(Reply.stall()).start()
    errors: list[BaseException] = []

    def client() -> None:
        try:
            post(model, body(), timeout=30)
        except (OSError, urllib.error.URLError) as exc:  # the server hangs up at close
            errors.append(exc)

    thread = threading.Thread(target=client)
    thread.start()
    model.wait_for_requests(1)
    time.sleep(0.2)
    assert thread.is_alive()
    started = time.monotonic()
    model.close()
    assert time.monotonic() - started < 5  # stalled and idle connections end; no hang
    thread.join(5)
    assert not thread.is_alive() and errors
    assert model.requests[0].status == 0 and model.errors == []


def test_stall_after_some_events() -> None:
    model = ScriptedModel(Reply.text("partial").stall_after(3)).start()
    with socket.create_connection(("127.0.0.1", model.port), timeout=10) as sock:
        data = json.dumps(body()).encode()
        sock.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(data), data))
        received = b""
        while received.count(b"\n\n") < 3:
            received += sock.recv(65536)
        model.close()
        while piece := sock.recv(65536):
            received += piece
    assert b"content_block_start" in received and b"text_delta" not in received
    assert b"\r\n0\r\n\r\n" not in received  # the stream never finished


def test_keep_alive_connection_does_not_block_close() -> None:
    model = ScriptedModel(Reply.text("one")).start()
    sock = socket.create_connection(("127.0.0.1", model.port), timeout=10)
    try:
        data = json.dumps(body(stream=False)).encode()
        sock.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(data), data))
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        model.close()  # the connection is idle but open
        assert time.monotonic() - started < 5  # stalled and idle connections end; no hang
    finally:
        sock.close()


def test_lifecycle() -> None:
    model = ScriptedModel()
    with pytest.raises(RuntimeError):
        model.base_url  # noqa: B018 - not started yet
    model.close()
    with pytest.raises(RuntimeError):
        model.start()
    with ScriptedModel() as running:
        assert running.base_url.startswith("http://127.0.0.1:")
        assert "requests=0" in repr(running)
        with pytest.raises(RuntimeError):
            running.start()
    running.close()  # idempotent
    assert "stopped" in repr(running)


def test_wait_for_requests_times_out(model: ScriptedModel) -> None:
    with pytest.raises(TimeoutError):
        model.wait_for_requests(1, timeout=0.1)
    post(model, body(tools=[]))
    assert len(model.wait_for_requests(1, main=False, timeout=1)) == 1


def test_env(model: ScriptedModel, tmp_path: Path) -> None:
    env = model.env(tmp_path / "home")
    assert env["ANTHROPIC_BASE_URL"] == model.base_url
    assert env["HOME"] == str(tmp_path / "home")
    assert Path(env["CLAUDE_CONFIG_DIR"]).is_dir()
    assert env["CLAUDE_CODE_MAX_RETRIES"] == "0"
    assert env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] == "1"
    assert {"PATH", "LANG", "ANTHROPIC_API_KEY"} <= env.keys()
    assert model.env(tmp_path, max_retries=3)["CLAUDE_CODE_MAX_RETRIES"] == "3"
    assert "CLAUDE_CODE_MAX_RETRIES" not in model.env(tmp_path, max_retries=None)
    assert model.env(tmp_path, extra={"X": "1"})["X"] == "1"


def test_concurrent_requests_consume_each_reply_once(model: ScriptedModel) -> None:
    model.add(*(Reply.text(f"r{i}") for i in range(20)))
    texts: list[str] = []
    lock = threading.Lock()

    def worker() -> None:
        text = reassemble(parse_sse(post(model, body())[2]))[0]["text"]
        with lock:
            texts.append(text)

    threads = [threading.Thread(target=worker) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(texts) == sorted(f"r{i}" for i in range(20))


def test_fixtures(scripted_model: ScriptedModel, claude_env: dict[str, str]) -> None:
    assert claude_env["ANTHROPIC_BASE_URL"] == scripted_model.base_url
    assert claude_env["HOME"].endswith("home")


def test_exports_are_sorted_and_complete() -> None:
    assert kit.__all__ == sorted(kit.__all__)
    for name in kit.__all__:
        assert getattr(kit, name) is not None
    with pytest.raises(AttributeError):
        kit.NoSuchName  # noqa: B018


def test_import_is_lazy_and_light() -> None:
    code = (
        "import sys, claude_wrap.testing, claude_wrap.testing.pytest_plugin;"
        "heavy = {'http.server', 'anyio', 'msgspec', 'pydantic'} & set(sys.modules);"
        "print(sorted(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
