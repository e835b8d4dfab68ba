"""Faults in the binary's output that the real binary cannot be made to produce.

* Frame types and content blocks this version does not know, fed through
  ``MockTransport`` into ``query()`` and ``ClaudeSDKClient``: skipped by
  default, as the official package does; with ``keep_unrecognized`` they
  arrive in place as ``UnknownMessage`` / ``UnknownBlock``. Either way the
  stream goes on.
* A stand-in binary (a small Python script used as ``cli_path``) that closes
  its stdout but keeps running, or ends with a partial line: a typed error or
  the message, and the process is gone afterwards.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from claude_wrap import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    CLIJSONDecodeError,
    ProcessError,
    ResultMessage,
    SystemMessage,
    TextBlock,
    UnknownBlock,
    UnknownMessage,
    query,
)
from claude_wrap.testing import MockTransport, initialize_response

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


SESSION = "11111111-2222-3333-4444-555555555555"
UNKNOWN_FRAME = {"type": "hologram_status", "subtype": "flicker", "session_id": SESSION, "payload": {"a": [1, 2]}}
UNKNOWN_BLOCK = {"type": "hologram", "frames": [{"t": 0}], "caption": "ü"}


def _assistant(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "assistant",
        "message": {"id": "msg_1", "model": "m", "role": "assistant", "content": list(blocks)},
        "parent_tool_use_id": None,
        "session_id": SESSION,
    }


def _result(text: str) -> dict[str, Any]:
    return {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "num_turns": 1,
        "session_id": SESSION,
        "result": text,
        "duration_ms": 1,
        "duration_api_ms": 1,
        "total_cost_usd": 0.0,
        "usage": {},
    }


def _turn(reply: str) -> list[dict[str, Any]]:
    """What a newer binary might write for one turn: unknown things in between."""
    return [
        {"type": "system", "subtype": "init", "session_id": SESSION},
        UNKNOWN_FRAME,
        _assistant(UNKNOWN_BLOCK, {"type": "text", "text": reply}),
        {**UNKNOWN_FRAME, "subtype": "fade"},
        _result(reply),
    ]


def _peer() -> MockTransport:
    replies = iter(["first", "second"])

    def handler(frame: dict[str, Any]) -> list[dict[str, Any]] | None:
        if frame.get("type") == "control_request":
            return [initialize_response(frame)]
        if frame.get("type") == "user":
            return _turn(next(replies))
        return None

    return MockTransport(handler)


def _check_turn(messages: list[Any], reply: str, keep: bool) -> None:
    if not keep:
        assert [type(m) for m in messages] == [SystemMessage, AssistantMessage, ResultMessage]
        assert messages[1].content == [TextBlock(text=reply)]
        return
    assert [type(m).__name__ for m in messages] == [
        "SystemMessage",
        "UnknownMessage",
        "AssistantMessage",
        "UnknownMessage",
        "ResultMessage",
    ]
    unknown, assistant, result = messages[1], messages[2], messages[4]
    assert isinstance(unknown, UnknownMessage)
    assert (unknown.type, unknown.subtype, unknown.data, unknown.error) == (
        "hologram_status",
        "flicker",
        UNKNOWN_FRAME,
        None,
    )
    assert isinstance(assistant, AssistantMessage)
    assert assistant.content == [UnknownBlock(type="hologram", data=UNKNOWN_BLOCK), TextBlock(text=reply)]
    assert isinstance(result, ResultMessage) and result.result == reply and not result.is_error


@pytest.mark.parametrize("keep", [False, True])
async def test_query_skips_or_keeps_unknown_frames_and_blocks_in_place(keep: bool) -> None:
    transport = _peer()
    with anyio.fail_after(10):
        options = ClaudeAgentOptions(keep_unrecognized=keep)
        messages = [m async for m in query(prompt="hi", options=options, transport=transport)]
    _check_turn(messages, "first", keep)
    assert transport.closed


@pytest.mark.parametrize("keep", [False, True])
async def test_client_keeps_going_after_unknown_frames_across_turns(keep: bool) -> None:
    transport = _peer()
    with anyio.fail_after(10):
        async with ClaudeSDKClient(ClaudeAgentOptions(keep_unrecognized=keep), transport=transport) as client:
            for reply in ("first", "second"):
                await client.query(reply)
                _check_turn([m async for m in client.receive_response()], reply, keep)
    assert [f["message"]["content"] for f in transport.sent if f.get("type") == "user"] == ["first", "second"]


# -- a stand-in binary -------------------------------------------------------------------------------

FAKE_BINARY = """\
import json, os, sys, time

def out(obj, newline=True):
    os.write(1, (json.dumps(obj) + ("\\n" if newline else "")).encode())

with open(os.environ["FAKE_PID_FILE"], "w") as fh:
    fh.write(str(os.getpid()))
mode = os.environ["FAKE_MODE"]
if mode == "close-stdout":
    os.close(1)  # stdout ends, the process lives on
    time.sleep(120)
    sys.exit(0)
init = json.loads(sys.stdin.readline())
out({"type": "control_response", "response": {"subtype": "success", "request_id": init["request_id"], "response": {}}})
sys.stdin.readline()  # the prompt
out({"type": "system", "subtype": "init", "session_id": "s"})
out(ASSISTANT)
if mode == "partial-result":
    out(RESULT, newline=False)  # the last line has no newline
else:  # "truncated": a frame cut off mid-way, then exit 0
    os.write(1, b'{"type": "assistant", "message": {"id": "m2", "con')
"""


def _fake_binary(tmp_path: Path) -> Path:
    folder = tmp_path / "fake bin ü"
    folder.mkdir()
    path = folder / "claude"
    body = FAKE_BINARY.replace("ASSISTANT", repr(_assistant({"type": "text", "text": "hello"}))).replace(
        "RESULT", repr(_result("hello"))
    )
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(0o700)
    return path


def _options(tmp_path: Path, mode: str) -> tuple[ClaudeAgentOptions, Path]:
    pid_file = tmp_path / "pid"
    env = {"FAKE_MODE": mode, "FAKE_PID_FILE": str(pid_file)}
    return ClaudeAgentOptions(cli_path=_fake_binary(tmp_path), env=env, cwd=tmp_path, shutdown_grace=2.0), pid_file


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


async def test_stdout_closed_while_the_process_lives_is_a_process_error(tmp_path: Path) -> None:
    options, pid_file = _options(tmp_path, "close-stdout")
    with pytest.raises(ProcessError) as info:
        with anyio.fail_after(30):
            async for _ in query(prompt="hi", options=options):
                pass
    assert "closed its output but kept running" in str(info.value)
    assert info.value.exit_code is None
    pid = int(pid_file.read_text())
    with anyio.fail_after(5):
        while not _gone(pid):
            await anyio.sleep(0.02)


async def test_partial_last_line_at_eof_is_still_a_message(tmp_path: Path) -> None:
    options, pid_file = _options(tmp_path, "partial-result")
    with anyio.fail_after(30):
        messages = [m async for m in query(prompt="hi", options=options)]
    assert [type(m) for m in messages] == [SystemMessage, AssistantMessage, ResultMessage]
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "hello"
    assert _gone(int(pid_file.read_text()))


async def test_truncated_last_frame_is_a_typed_decode_error(tmp_path: Path) -> None:
    options, pid_file = _options(tmp_path, "truncated")
    seen: list[Any] = []
    with pytest.raises(CLIJSONDecodeError) as info:
        with anyio.fail_after(30):
            async for message in query(prompt="hi", options=options):
                seen.append(message)
    assert [type(m) for m in seen] == [SystemMessage, AssistantMessage]
    line = info.value.line
    assert (line if isinstance(line, bytes) else line.encode()).startswith(b'{"type": "assistant", "message"')
    assert _gone(int(pid_file.read_text()))
