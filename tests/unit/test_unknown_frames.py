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
    ProcessError,
    ResultMessage,
    SystemMessage,
    TextBlock,
    UnknownBlock,
    UnknownMessage,
    query,
)
from claude_wrap._wire.nesting import MAX_NESTING, TOO_DEEP_TEXT
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
import json, os, subprocess, sys, time

def out(obj, newline=True):
    os.write(1, (json.dumps(obj) + ("\\n" if newline else "")).encode())

with open(os.environ["FAKE_PID_FILE"], "w") as fh:
    fh.write(str(os.getpid()))
mode = os.environ["FAKE_MODE"]
if mode == "close-stdout":
    os.close(1)  # stdout ends, the process lives on
    time.sleep(120)
    sys.exit(0)
if mode == "exit-holding-stdout":
    # A child that inherits stdout outlives us: the pipe stays open.
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True)
    sys.stderr.write("crashed on start\\n")
    sys.exit(1)
init = json.loads(sys.stdin.readline())
out({"type": "control_response", "response": {"subtype": "success", "request_id": init["request_id"], "response": {}}})
sys.stdin.readline()  # the prompt
out({"type": "system", "subtype": "init", "session_id": "s"})
out(ASSISTANT)
if mode == "partial-result":
    out(RESULT, newline=False)  # the last line has no newline
elif mode == "surrogate":
    out(dict(ASSISTANT, message=dict(ASSISTANT["message"], content=[{"type": "text", "text": "cut \\ud83c"}])))
    out(RESULT)
elif mode == "bad-lines":
    # One healthy run with bad lines in the middle, each followed by good ones.
    cut = dict(ASSISTANT, message=dict(ASSISTANT["message"], content=[{"type": "text", "text": "cut \\ud83c|\\udf89|\\\\ud83c"}]))
    out(cut)  # json.dumps escapes lone surrogates, as JavaScript does
    os.write(1, b'[SandboxDebug] stray console output\\n')
    os.write(1, b'{"type": "assistant", "message": "\\xff\\xfe"}\\n')  # invalid UTF-8
    os.write(1, b'{"type": "user", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\\n")  # nested too deeply
    os.write(1, b'{"type": "assistant", oops}\\n')  # not JSON
    out(ASSISTANT)
    out(RESULT)
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


async def test_truncated_last_frame_is_handed_out_and_the_missing_result_is_an_error(tmp_path: Path) -> None:
    options, pid_file = _options(tmp_path, "truncated")
    seen: list[Any] = []
    with pytest.raises(ProcessError, match="before the turn's result"):
        with anyio.fail_after(30):
            async for message in query(prompt="hi", options=options):
                seen.append(message)
    assert [type(m) for m in seen] == [SystemMessage, AssistantMessage, UnknownMessage]
    cut = seen[-1]
    assert cut.type == "" and cut.error and cut.error.startswith("undecodable stdout line")
    assert cut.data["line"].startswith('{"type": "assistant", "message"')
    assert _gone(int(pid_file.read_text()))


def _check_bad_lines_run(messages: list[Any]) -> None:
    """What the "bad-lines" run hands out: every good line, each bad one in
    its place as an ``UnknownMessage`` saying why, and the result."""
    assert [type(m).__name__ for m in messages] == [
        "SystemMessage",
        "AssistantMessage",
        "AssistantMessage",  # lone surrogates repaired
        "UnknownMessage",  # invalid UTF-8
        "UnknownMessage",  # nested too deeply
        "UnknownMessage",  # not JSON
        "AssistantMessage",
        "ResultMessage",
    ]
    assert messages[2].content == [TextBlock(text="cut \ufffd|\ufffd|\\ud83c")]
    undecodable = [messages[3], messages[5]]
    assert all(
        m.type == "" and m.subtype is None and m.error.startswith("undecodable stdout line: ") for m in undecodable
    )
    assert "UTF-8" in messages[3].error
    assert messages[5].data == {"line": '{"type": "assistant", oops}'}
    # Nested too deeply: read with the deep part cut out, in its place (a
    # user frame without its message, so kept as a malformed one).
    deep = messages[4]
    assert deep.type == "user" and "message" in deep.error
    cut = deep.data["x"]
    for _ in range(MAX_NESTING - 2):
        (cut,) = cut
    assert cut == [TOO_DEEP_TEXT]
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "hello" and not messages[-1].is_error


async def test_bad_lines_do_not_end_a_healthy_query(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    options, pid_file = _options(tmp_path, "bad-lines")
    with anyio.fail_after(60):
        messages = [m async for m in query(prompt="hi", options=options)]
    _check_bad_lines_run(messages)
    assert _gone(int(pid_file.read_text()))
    # The bad lines are logged as warnings; the repaired one and the stray text are not.
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len([w for w in warned if "could not be decoded" in w]) == 2
    assert len([w for w in warned if "nests deeper than" in w]) == 1
    assert len([w for w in warned if "malformed user frame" in w]) == 1
    assert len(warned) == 4


async def test_bad_lines_do_not_end_a_client_turn(tmp_path: Path) -> None:
    options, _ = _options(tmp_path, "bad-lines")
    with anyio.fail_after(60):
        async with ClaudeSDKClient(options) as client:
            await client.query("hi")
            _check_bad_lines_run([m async for m in client.receive_response()])


_BOTH_PACKAGES = """
import anyio
async def main():
    options = sdk.ClaudeAgentOptions(cli_path=args["cli"], env=args["env"], cwd=args["cwd"])
    seen = []
    try:
        async for m in sdk.query(prompt="hi", options=options):
            seen.append(type(m).__name__)
    except Exception as exc:
        seen.append("raised " + type(exc).__name__)
    emit(seen)
anyio.run(main)
"""


@pytest.mark.compat
def test_a_lone_surrogate_completes_the_run_on_both_packages(tmp_path: Path) -> None:
    from _official import run_both

    options, _ = _options(tmp_path, "surrogate")
    args = {"cli": str(options.cli_path), "env": options.env, "cwd": str(tmp_path)}
    official, ours = run_both(_BOTH_PACKAGES, args)
    assert official == ours == ["SystemMessage", "AssistantMessage", "AssistantMessage", "ResultMessage"]


async def test_a_binary_that_exits_while_a_child_holds_its_stdout_fails_connect_at_once(tmp_path: Path) -> None:
    # Without watching the exit, the connect waited out initialize_timeout
    # (60 s), then raised a timeout instead of the binary's own failure.
    options, pid_file = _options(tmp_path, "exit-holding-stdout")
    with anyio.fail_after(10):
        with pytest.raises(ProcessError) as info:
            async with ClaudeSDKClient(options):
                pass
    assert info.value.exit_code == 1 and "crashed on start" in str(info.value)
