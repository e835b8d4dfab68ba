"""A binary that dies early: the error names its exit code and its stderr.

The binary is a stand-in script (``cli_path``): one that exits at once (a bad
flag, a crash at start), and one that dies in the middle of a turn. Whether a
write or a read notices first, the caller gets ``ProcessError`` with
``exit_code`` and the stderr text, never a bare broken pipe.
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
    ControlTimeoutError,
    ProcessError,
    ResultError,
    query,
)

pytestmark = pytest.mark.anyio

# Shell scripts, so that they are gone (or deaf) before our writes: one
# exits at once, the other closes its input first and exits a moment later.
DIES_AT_ONCE = """\
#!/bin/sh
echo "fatal: unknown option --bogus" >&2
exit 3
"""
CLOSES_INPUT_THEN_DIES = """\
#!/bin/sh
exec 0<&-
echo "fatal: unknown option --bogus" >&2
sleep 0.5
exit 3
"""

# Answers the handshake, starts the turn, then dies the way a crash does.
DIES_MID_TURN = """\
import json, sys

def send(frame):
    sys.stdout.write(json.dumps(frame) + "\\n")
    sys.stdout.flush()

for line in sys.stdin:
    frame = json.loads(line)
    if frame.get("type") == "control_request":
        reply = {"subtype": "success", "request_id": frame["request_id"], "response": {}}
        send({"type": "control_response", "response": reply})
    elif frame.get("type") == "user":
        message = {"id": "m1", "type": "message", "role": "assistant", "model": "stand-in",
                   "content": [{"type": "text", "text": "half an answer"}]}
        send({"type": "assistant", "message": message, "parent_tool_use_id": None, "session_id": "s1"})
        sys.stderr.write("panic: the stand-in crashed\\n")
        sys.exit(5)
"""


def _binary(tmp_path: Path, body: str) -> str:
    path = tmp_path / "claude"
    path.write_text(body if body.startswith("#!") else f"#!{sys.executable}\n{body}")
    path.chmod(0o755)
    return str(path)


def _assert_exit(error: BaseException, code: int, stderr: str) -> None:
    assert type(error) is ProcessError, repr(error)
    assert error.exit_code == code
    assert stderr in (error.stderr or "")
    assert stderr in str(error)


async def _query(options: ClaudeAgentOptions) -> list[Any]:
    seen: list[Any] = []
    with anyio.fail_after(30):
        async for message in query(prompt="hi", options=options):
            seen.append(message)
    return seen


# Whether a write or a read notices first differs from run to run: several attempts.
_EARLY = pytest.mark.parametrize(
    "script",
    [
        pytest.param(script, id=f"{name}-{attempt}")
        for attempt in range(3)
        for name, script in (("exits", DIES_AT_ONCE), ("closes-input", CLOSES_INPUT_THEN_DIES))
    ],
)


@_EARLY
async def test_query_on_a_binary_that_exits_at_once(tmp_path: Path, script: str) -> None:
    options = ClaudeAgentOptions(cli_path=_binary(tmp_path, script))
    with pytest.raises(ProcessError) as info:
        await _query(options)
    _assert_exit(info.value, 3, "fatal: unknown option --bogus")


@_EARLY
async def test_client_connect_on_a_binary_that_exits_at_once(tmp_path: Path, script: str) -> None:
    client = ClaudeSDKClient(ClaudeAgentOptions(cli_path=_binary(tmp_path, script)))
    with anyio.fail_after(30), pytest.raises(ProcessError) as info:
        await client.connect("hi")
    _assert_exit(info.value, 3, "fatal: unknown option --bogus")


async def test_query_on_a_binary_that_dies_mid_turn(tmp_path: Path) -> None:
    options = ClaudeAgentOptions(cli_path=_binary(tmp_path, DIES_MID_TURN))
    seen: list[Any] = []
    with pytest.raises(ProcessError) as info:
        with anyio.fail_after(30):
            async for message in query(prompt="hi", options=options):
                seen.append(message)
    assert [type(m) for m in seen] == [AssistantMessage]  # what it wrote first still arrives
    _assert_exit(info.value, 5, "panic: the stand-in crashed")


async def test_client_on_a_binary_that_dies_mid_turn(tmp_path: Path) -> None:
    seen: list[Any] = []
    async with ClaudeSDKClient(ClaudeAgentOptions(cli_path=_binary(tmp_path, DIES_MID_TURN))) as client:
        await client.query("hi")
        with anyio.fail_after(30), pytest.raises(ProcessError) as info:
            async for message in client.receive_response():
                seen.append(message)
    assert [type(m) for m in seen] == [AssistantMessage]
    assert not isinstance(info.value, ResultError)
    assert info.value.exit_code == 5
    assert "panic: the stand-in crashed" in str(info.value)


# Says why on stderr, then never answers the handshake.
SILENT_AT_START = """\
#!/bin/sh
echo "warning: cannot reach the settings server" >&2
exec sleep 60
"""

# Answers the handshake, says something on stderr, and a moment later
# writes a line larger than the buffer limit.
FLOODS_STDOUT = """\
import json, sys, time

for line in sys.stdin:
    frame = json.loads(line)
    if frame.get("type") == "control_request":
        reply = {"subtype": "success", "request_id": frame["request_id"], "response": {}}
        sys.stdout.write(json.dumps({"type": "control_response", "response": reply}) + "\\n")
        sys.stdout.flush()
    elif frame.get("type") == "user":
        sys.stderr.write("debug: dumping the whole context\\n")
        sys.stderr.flush()
        time.sleep(0.5)
        sys.stdout.write('{"type": "assistant", "pad": "' + "x" * 4096 + '"}\\n')
        sys.stdout.flush()
"""


async def test_a_handshake_timeout_carries_the_stderr_tail(tmp_path: Path) -> None:
    options = ClaudeAgentOptions(cli_path=_binary(tmp_path, SILENT_AT_START), initialize_timeout=1.5)
    with anyio.fail_after(30), pytest.raises(ControlTimeoutError) as info:
        await _query(options)
    text = "warning: cannot reach the settings server"
    assert str(info.value).startswith("Control request timeout: initialize")
    assert f"\nError output: {text}" in str(info.value)
    assert info.value.stderr is not None and text in info.value.stderr
    assert info.value.subtype == "initialize" and info.value.timeout == 1.5


async def test_a_line_too_long_carries_the_stderr_tail(tmp_path: Path) -> None:
    options = ClaudeAgentOptions(cli_path=_binary(tmp_path, FLOODS_STDOUT), max_buffer_size=1024)
    with anyio.fail_after(30), pytest.raises(CLIJSONDecodeError) as info:
        await _query(options)
    assert str(info.value).startswith("Failed to decode JSON: JSON message exceeded maximum buffer size")
    assert "\nError output: debug: dumping the whole context" in str(info.value)
    assert info.value.stderr is not None and "dumping the whole context" in info.value.stderr
