"""query() against the real binary, driven by the scripted model.

Every test runs under asyncio and trio (see ``anyio_backend`` in conftest).
The anyio timeouts here are hang guards, not speed assertions.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options, run
from _procs import processes_where

from claude_wrap import (
    AssistantMessage,
    CLINotFoundError,
    InitSystemMessage,
    ProcessError,
    ResultError,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
    query,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


async def test_text_reply(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.text("Hello from the scripted model."))
    messages = await run("Say hello", make_options())

    assert type(messages[0]) is SystemMessage and messages[0].subtype == "init"  # as the official package gives it
    init = InitSystemMessage.of(messages[0])
    assert init is not None and init.session_id
    texts = [b.text for m in messages if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, TextBlock)]
    assert texts == ["Hello from the scripted model."]
    result = messages[-1]
    assert isinstance(result, ResultMessage)
    assert (result.subtype, result.is_error, result.result) == ("success", False, "Hello from the scripted model.")
    assert result.outcome == "completed"
    assert result.session_id == init.session_id
    assert scripted_model.main_requests[0].last_user_text == "Say hello"


async def test_bash_tool_loop_writes_file_and_result_reaches_model(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(
        Reply.tool_use("Bash", {"command": "echo tool-output > made.txt && cat made.txt", "description": "write"}),
        Reply.text("done"),
    )
    messages = await run("make a file", make_options(allowed_tools=["Bash"]))

    assert (workdir / "made.txt").read_text().strip() == "tool-output"
    uses = [b for m in messages if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, ToolUseBlock)]
    assert [u.name for u in uses] == ["Bash"]
    results = [b for m in messages if isinstance(m, UserMessage) and isinstance(m.content, list) for b in m.content]
    assert any(isinstance(b, ToolResultBlock) and b.tool_use_id == uses[0].id for b in results)
    # What the model saw next: the tool's output as a tool_result.
    seen = scripted_model.main_requests[1].tool_results
    assert "tool-output" in json.dumps(seen)
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "done"


async def test_resume_sends_earlier_turns(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.text("noted"), Reply.text("PINEAPPLE it was"))
    first = await run("remember the word PINEAPPLE", make_options())
    session_id = first[-1].session_id

    second = await run("what word?", make_options(resume=session_id))

    assert second[-1].session_id == session_id
    request = scripted_model.main_requests[1]
    assert "PINEAPPLE" in json.dumps(request.messages)
    assert len(request.messages) >= 3


async def test_partial_messages_stream_deltas(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.thinking("Let me think.", "Streaming works."))
    messages = await run("stream please", make_options(include_partial_messages=True))

    events = [m.event for m in messages if isinstance(m, StreamEvent)]
    deltas = "".join(
        e["delta"]["text"]
        for e in events
        if e.get("type") == "content_block_delta" and e["delta"].get("type") == "text_delta"
    )
    assert deltas == "Streaming works."
    assert any(e.get("type") == "message_stop" for e in events)
    assert isinstance(messages[-1], ResultMessage) and not messages[-1].is_error


async def test_max_turns_gives_error_result_then_result_error(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.tool_use("Bash", {"command": "echo hi", "description": "x"}), Reply.text("never"))
    seen: list[Any] = []
    with pytest.raises(ResultError) as info:
        with anyio.fail_after(60):
            async for message in query(prompt="loop", options=make_options(max_turns=1, allowed_tools=["Bash"])):
                seen.append(message)

    result, error = seen[-1], info.value
    assert isinstance(result, ResultMessage)
    assert result.subtype == "error_max_turns" and result.is_error
    assert result.outcome == "max_turns"
    # The binary exits 1 right after the error result; the error says what the result said.
    assert str(error) == str(ProcessError(f"Claude Code returned an error result: {result.errors[0]}", exit_code=1))
    assert error.exit_code == 1 and error.stderr is None
    assert (error.subtype, error.errors, error.terminal_reason) == ("error_max_turns", result.errors, "max_turns")
    assert error.session_id == result.session_id and error.data["type"] == "result"
    assert error.result_message is result
    assert isinstance(error.__cause__, ProcessError) and error.__cause__.exit_code == 1
    twin = pickle.loads(pickle.dumps(error))
    assert type(twin) is ResultError and str(twin) == str(error) and twin.data == error.data


async def test_api_error_ends_with_typed_outcome(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.error(500, "scripted outage"))
    seen: list[Any] = []
    with pytest.raises(ResultError) as info:
        with anyio.fail_after(60):
            async for message in query(prompt="hi", options=make_options()):
                seen.append(message)

    result = seen[-1]
    assert isinstance(result, ResultMessage) and result.is_error
    assert info.value.api_error_status == 500
    assert "500" in str(info.value)


async def test_two_megabyte_assistant_frame(scripted_model: ScriptedModel, make_options: Options) -> None:
    big = "".join(chr(0x41 + i % 26) for i in range(2_000_000))
    scripted_model.add(Reply.text(big))
    messages = await run("big", make_options())

    texts = [b.text for m in messages if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, TextBlock)]
    assert texts == [big]


async def test_twenty_megabyte_prompt_reaches_the_binary_intact(
    scripted_model: ScriptedModel, make_options: Options, tmp_path: Path
) -> None:
    # Written to stdin in pieces; the binary refuses a prompt this long
    # without asking the model, after saving it in the session's transcript.
    big = "".join(f'line "{i:07d}"\n' for i in range(20 * 1024 * 1024 // 16))
    seen: list[Any] = []
    with pytest.raises(ResultError), anyio.fail_after(120):
        async for message in query(prompt=big, options=make_options()):
            seen.append(message)

    assert isinstance(seen[-1], ResultMessage) and seen[-1].result == "Prompt is too long"
    assert scripted_model.main_requests == []
    [transcript] = (tmp_path / "home").rglob("*.jsonl")
    entries = [json.loads(line) for line in transcript.read_text().splitlines()]
    prompts = [e["message"]["content"] for e in entries if e.get("type") == "user"]
    assert prompts == [big]


async def test_structured_output(scripted_model: ScriptedModel, make_options: Options) -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "integer"}}, "required": ["answer"]}
    scripted_model.add(Reply.tool_use("StructuredOutput", {"answer": 42}), Reply.text("ok").sticky())
    messages = await run("answer", make_options(output_format={"type": "json_schema", "schema": schema}))

    assert "StructuredOutput" in scripted_model.main_requests[0].tool_names
    result = messages[-1]
    assert isinstance(result, ResultMessage)
    assert result.structured_output == {"answer": 42}
    assert result.outcome == "completed"


async def test_structured_output_that_never_fits_the_schema(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "integer"}}, "required": ["answer"]}
    scripted_model.add(Reply.tool_use("StructuredOutput", {"answer": "forty-two"}).sticky())
    with pytest.raises(ResultError) as info:
        await run("answer", make_options(output_format={"type": "json_schema", "schema": schema}))
    result = info.value.result_message
    assert result is not None and result.is_error and result.structured_output is None
    assert result.outcome == "output_invalid", (result.subtype, result.terminal_reason)


async def test_crashing_binary_reports_exit_code_and_stderr(make_options: Options) -> None:
    options = make_options(extra_args={"definitely-not-a-flag": None})
    with pytest.raises(ProcessError) as info:
        await run("hi", options)

    assert info.value.exit_code not in (0, None)
    assert "definitely-not-a-flag" in str(info.value)  # the binary's own stderr, in the message


async def test_binary_killed_mid_stream(scripted_model: ScriptedModel, make_options: Options, workdir: Path) -> None:
    scripted_model.add(Reply.stall())
    with pytest.raises(ProcessError) as info:
        with anyio.fail_after(60):
            async for message in query(prompt="hang", options=make_options()):
                if InitSystemMessage.of(message) is not None:
                    scripted_model.wait_for_requests(1)
                    for pid in processes_where(cwd=workdir):
                        os.kill(pid, signal.SIGKILL)
    assert info.value.exit_code == -signal.SIGKILL


async def test_missing_binary(make_options: Options, tmp_path: Path) -> None:
    with pytest.raises(CLINotFoundError) as info:
        await run("hi", make_options(cli_path=tmp_path / "no-such-claude"))
    assert "no-such-claude" in str(info.value)


async def test_cancelling_a_query_leaves_no_process(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    marker = f"claude-wrap-cancel-{os.getpid()}-{id(workdir)}"
    command = f"python3 -c 'import time; time.sleep(120)' {marker}"
    scripted_model.add(Reply.tool_use("Bash", {"command": command, "description": "wait"}), Reply.text("x"))
    options = make_options(allowed_tools=["Bash"])

    async def run() -> None:
        async for _ in query(prompt="start a long tool", options=options):
            pass

    with anyio.fail_after(60):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            while not processes_where(cmdline_contains=marker):
                await anyio.sleep(0.05)
            assert processes_where(cwd=workdir)  # the binary and its tool are running
            tg.cancel_scope.cancel()

    assert processes_where(cmdline_contains=marker) == []
    assert processes_where(cwd=workdir) == []


# No ResourceWarning either (warnings are errors here): trio gives one for
# an async generator left to the garbage collector unfinished.
async def test_break_out_of_iteration_leaves_no_process(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("first").slow(between_events=0.2))
    pids: list[int] = []
    async for message in query(prompt="hi", options=make_options()):
        if InitSystemMessage.of(message) is not None:
            pids = processes_where(cwd=workdir)
            break
    assert pids
    # Leaving the loop drops the iterator, which closes the run: the binary
    # is stopped and reaped (no zombie either), while the program goes on.
    with anyio.fail_after(30):
        while any(os.path.exists(f"/proc/{pid}") for pid in pids):
            await anyio.sleep(0.05)
        await anyio.sleep(0.5)  # let the closing task release the pipes


async def test_six_concurrent_queries(scripted_model: ScriptedModel, make_options: Options) -> None:
    for i in range(6):
        scripted_model.add(Reply.text(f"reply {i}"))
    results: list[str] = []

    async def one(n: int) -> None:
        messages = await run(f"q{n}", make_options(), limit=120)
        assert isinstance(messages[-1], ResultMessage)
        results.append(messages[-1].result or "")

    async with anyio.create_task_group() as tg:
        for n in range(6):
            tg.start_soon(one, n)
    assert sorted(results) == [f"reply {i}" for i in range(6)]


async def test_async_iterable_prompt_runs_each_turn(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.text("one"), Reply.text("two"))

    async def prompts() -> Any:
        for text in ("first", "second"):
            yield {"type": "user", "message": {"role": "user", "content": text}}

    messages = await run(prompts(), make_options())
    results = [m.result for m in messages if isinstance(m, ResultMessage)]
    assert results == ["one", "two"]


async def test_resuming_an_unknown_session_fails_fast_with_the_reason(make_options: Options) -> None:
    # The binary writes an error result and exits before answering initialize;
    # that result becomes the error, not a 60 s wait for the handshake.
    missing = "00000000-0000-4000-8000-000000000000"
    with pytest.raises(ResultError) as info:
        await run("hello?", make_options(resume=missing), limit=30)
    assert "No conversation found" in str(info.value)
    assert info.value.subtype == "error_during_execution"
