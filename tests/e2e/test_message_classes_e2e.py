"""A real run gives exactly the messages the official package would.

The binary runs under the scripted model (partial messages, thinking, a tool
call, hook events, a background task and the turn the session starts when
it ends). Every stdout line the session reads is recorded as it is decoded,
and the official package's own parser, run in its venv, is given the same
lines: each message claude_wrap yields has the class and ``repr`` (every
field and value) the official parser gives for its line, in the same order,
and what the official parser skips is skipped (or, with
``keep_unrecognized``, arrives in its place as ``UnknownMessage``).
"""

from __future__ import annotations

import json
import subprocess
import uuid as uuid_mod
from contextlib import aclosing
from typing import Any

import anyio
import pytest
from _e2e import Options
from _official import official_python

from claude_wrap import (
    AssistantMessage,
    ClaudeSDKClient,
    HookEventMessage,
    InitSystemMessage,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    TaskNotificationMessage,
    TaskStartedMessage,
    ThinkingBlock,
    UnknownMessage,
    UserMessage,
)
from claude_wrap._run import protocol as _protocol
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


# Reads a JSON list of stdout lines; writes, per line, what parse_message gives.
_OFFICIAL_PARSE = r"""
import json, sys
from claude_agent_sdk._errors import MessageParseError
from claude_agent_sdk._internal.message_parser import parse_message

out = []
for line in json.load(sys.stdin):
    try:
        message = parse_message(json.loads(line))
    except MessageParseError as exc:
        out.append({"raises": str(exc)})
        continue
    out.append(None if message is None else {"class": type(message).__name__, "repr": repr(message)})
print(json.dumps(out))
"""


def _official(lines: list[bytes]) -> list[Any]:
    proc = subprocess.run(
        [str(official_python()), "-c", _OFFICIAL_PARSE],
        input=json.dumps([ln.decode() for ln in lines]),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    parsed: list[Any] = json.loads(proc.stdout)
    return parsed


@pytest.fixture
def stdout_lines(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every stdout line the session decodes, in order."""
    seen: list[bytes] = []
    decode = _protocol.decode_frame

    def tee(line: bytes, **kwargs: Any) -> Any:
        seen.append(bytes(line))
        return decode(line, **kwargs)

    monkeypatch.setattr(_protocol, "decode_frame", tee)
    return seen


@pytest.mark.parametrize("keep", [False, True], ids=["default", "keep_unrecognized"])
async def test_messages_equal_the_official_parsers_for_the_same_stdout_lines(
    scripted_model: ScriptedModel, make_options: Options, stdout_lines: list[bytes], keep: bool
) -> None:
    marker = uuid_mod.uuid4().hex[:12]
    command = f"python3 -c 'import time; time.sleep(0.5)' {marker}"
    scripted_model.add(
        Reply.tool_use("Bash", {"command": command, "description": "nap", "run_in_background": True}, text="starting"),
        Reply.thinking("The job runs in the background.", "started it"),
        Reply.text("it finished"),
    )
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}
    options = make_options(
        include_partial_messages=True,
        include_hook_events=True,
        settings={"hooks": hooks},
        allowed_tools=["Bash"],
        extra_args={"replay-user-messages": None},
        keep_unrecognized=keep,
    )
    ours: list[Any] = []
    with anyio.fail_after(90):
        async with ClaudeSDKClient(options) as client:
            await client.query("start a background job", uuid=str(uuid_mod.uuid4()))
            async with aclosing(client.receive_messages()) as messages:  # type: ignore[type-var]
                async for message in messages:
                    ours.append(message)
                    if sum(isinstance(m, ResultMessage) for m in ours) == 2:
                        break

    # The official package's reader keeps control frames and the state frames
    # the binary sends only for the host (sdk_host_only) from its parser too.
    frames = [(ln, json.loads(ln)) for ln in stdout_lines if ln.strip()]
    lines = [
        ln for ln, d in frames if not d.get("type", "").startswith("control_") and d.get("sdk_host_only") is not True
    ]
    official = _official(lines)
    assert [o for o in official if o is not None and "raises" in o] == []
    expected = []
    for line, o in zip(lines, official):
        if o is not None:
            expected.append((o["class"], o["repr"]))
        elif keep:  # skipped by the official parser (2.1.328 writes command_lifecycle frames)
            data = json.loads(line)
            expected.append(("UnknownMessage", repr(UnknownMessage(data["type"], data.get("subtype"), data))))
    assert [(type(m).__name__, repr(m)) for m in ours] == expected[: len(ours)]
    assert any(isinstance(m, UnknownMessage) for m in ours) == keep

    # The run covered what it meant to, and init is the plain class.
    kinds = {type(m) for m in ours}
    assert {SystemMessage, StreamEvent, AssistantMessage, UserMessage, ResultMessage} <= kinds
    assert {HookEventMessage, TaskStartedMessage, TaskNotificationMessage} <= kinds
    init = next(m for m in ours if isinstance(m, SystemMessage) and m.subtype == "init")
    assert type(init) is SystemMessage
    view = InitSystemMessage.of(init)
    assert view is not None and view.session_id == init.data["session_id"]
    assert any(isinstance(b, ThinkingBlock) for m in ours if isinstance(m, AssistantMessage) for b in m.content)
