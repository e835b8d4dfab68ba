"""A guard's answer reaches the binary as it was given, whoever reads.

Against the real binary and the scripted model:

* a reader that polls (reads under a short timeout, then reads again, as a
  UI does) never cuts a callback short: a slow hook's deny stays a deny, a
  slow ``can_use_tool``'s allow stays an allow, a slow in-process tool's
  result arrives;
* a deciding callback that outlives ``callback_timeout`` refuses (the tool
  is denied, the prompt blocked), and says so in the stream;
* a tool input nested thousands of levels deep (what a prompt injection can
  ask the model to write) is refused at once, whichever callback would have
  seen it, and the run goes on or ends: it never waits.

The hang guards (``fail_after``) are far above the time each run takes.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options, bash, run, tool_results

from claude_wrap import (
    AssistantMessage,
    CallbackTimeoutMessage,
    ClaudeSDKClient,
    ClaudeSDKError,
    HookMatcher,
    PermissionResultAllow,
    ResultMessage,
    ToolUseBlock,
    create_sdk_mcp_server,
    tool,
)
from claude_wrap._wire.nesting import MAX_NESTING, TOO_DEEP_TEXT
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

CALLS = 50
"""Tool calls in one turn, each decided by a slow callback while the reader
polls: every one must reach the binary unchanged."""


def _delays(seed: int) -> list[float]:
    """How long each callback takes: up to longer than most polls."""
    rng = random.Random(seed)
    return [rng.uniform(0.0, 0.3) for _ in range(CALLS)]


async def _poll(client: ClaudeSDKClient, seed: int) -> list[Any]:
    """The turn's messages, read the way a UI reads: a short timeout, then again."""
    rng = random.Random(seed)
    messages: list[Any] = []
    with anyio.fail_after(120):
        while not messages or not isinstance(messages[-1], ResultMessage):
            with anyio.move_on_after(rng.uniform(0.02, 0.25)):
                async for message in client.receive_response():
                    messages.append(message)
    return messages


def _deny(reason: str) -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }


async def test_a_polling_reader_never_turns_a_slow_deny_into_an_allow(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    delays = iter(_delays(1))

    async def guard(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        await anyio.sleep(next(delays))
        return _deny("the guard says no")

    scripted_model.add(*[bash(f"echo {i} >> ran.txt") for i in range(CALLS)], Reply.text("done"))
    options = make_options(allowed_tools=["Bash"], hooks={"PreToolUse": [HookMatcher("Bash", [guard])]})
    async with ClaudeSDKClient(options) as client:
        await client.query("go")
        messages = await _poll(client, seed=2)

    assert not (workdir / "ran.txt").exists()
    results = tool_results(messages)
    assert len(results) == CALLS
    assert all(r.is_error and "the guard says no" in str(r.content) for r in results)
    assert messages[-1].result == "done"


async def test_a_polling_reader_never_turns_a_slow_allow_into_a_deny(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    delays = iter(_delays(3))

    async def allow(tool_name: str, tool_input: Any, context: Any) -> PermissionResultAllow:
        await anyio.sleep(next(delays))
        return PermissionResultAllow()

    scripted_model.add(*[bash(f"echo {i} >> ran.txt") for i in range(CALLS)], Reply.text("done"))
    async with ClaudeSDKClient(make_options(can_use_tool=allow)) as client:
        await client.query("go")
        messages = await _poll(client, seed=4)

    assert (workdir / "ran.txt").read_text().split() == [str(i) for i in range(CALLS)]
    assert not any(r.is_error for r in tool_results(messages))
    assert messages[-1].result == "done"


async def test_a_polling_reader_never_cuts_a_slow_tool_short(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    delays = iter(_delays(5))

    @tool("slow", "Answers after a while", {"i": int})
    async def slow(args: dict[str, Any]) -> str:
        await anyio.sleep(next(delays))
        return f"done {args['i']}"

    scripted_model.add(*[Reply.tool_use("mcp__g__slow", {"i": i}) for i in range(CALLS)], Reply.text("done"))
    options = make_options(mcp_servers={"g": create_sdk_mcp_server("g", tools=[slow])}, allowed_tools=["mcp__g__slow"])
    async with ClaudeSDKClient(options) as client:
        await client.query("go")
        messages = await _poll(client, seed=6)

    answers = [text for request in scripted_model.main_requests[1:] for text in request.tool_result_texts]
    assert answers == [f"done {i}" for i in range(CALLS)]
    assert messages[-1].result == "done"


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_asyncio_timeouts_around_a_read_never_cut_a_guard_short(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    # asyncio.timeout / wait_for cancel the reading task as move_on_after does.
    import asyncio

    async def guard(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        await anyio.sleep(0.5)
        return _deny("the guard says no")

    scripted_model.add(*[bash(f"echo {i} >> ran.txt") for i in range(3)], Reply.text("done"))
    options = make_options(allowed_tools=["Bash"], hooks={"PreToolUse": [HookMatcher("Bash", [guard])]})
    messages: list[Any] = []
    async with ClaudeSDKClient(options) as client:
        await client.query("go")
        with anyio.fail_after(60):
            while not messages or not isinstance(messages[-1], ResultMessage):
                stream = client.receive_response()
                try:
                    if sys.version_info >= (3, 11):
                        async with asyncio.timeout(0.1):
                            async for message in stream:
                                messages.append(message)
                    else:  # pragma: no cover - Python 3.10
                        messages.append(await asyncio.wait_for(stream.__anext__(), 0.1))
                except (TimeoutError, asyncio.TimeoutError, StopAsyncIteration):
                    pass
    assert not (workdir / "ran.txt").exists()
    assert len(tool_results(messages)) == 3


# -- callback_timeout: a deciding callback that runs out of time refuses -------------------


async def _hangs(*args: Any) -> Any:
    await anyio.sleep(60)


@pytest.mark.parametrize("on_failure", [None, "block"])
async def test_a_pre_tool_use_guard_that_hangs_past_callback_timeout_denies(
    on_failure: str | None, scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(bash("touch ran.txt"), Reply.text("ok"))
    matcher = HookMatcher("Bash", [_hangs], on_failure=on_failure)  # type: ignore[arg-type]
    options = make_options(allowed_tools=["Bash"], hooks={"PreToolUse": [matcher]}, callback_timeout=0.5)
    messages = await run("go", options)

    assert not (workdir / "ran.txt").exists()
    (result,) = tool_results(messages)
    assert result.is_error and "did not finish within 0.5 s (callback_timeout)" in str(result.content)
    (notice,) = [m for m in messages if isinstance(m, CallbackTimeoutMessage)]
    assert notice.subtype == "callback_timeout" and notice.timeout == 0.5
    assert notice.callback.startswith("PreToolUse hook") and notice.tool_use_id == result.tool_use_id
    assert messages[-1].result == "ok"


async def test_on_failure_continue_lets_a_timed_out_guard_pass(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(bash("touch ran.txt"), Reply.text("ok"))
    matcher = HookMatcher("Bash", [_hangs], on_failure="continue")
    options = make_options(allowed_tools=["Bash"], hooks={"PreToolUse": [matcher]}, callback_timeout=0.5)
    messages = await run("go", options)

    assert (workdir / "ran.txt").exists()  # no opinion: the allow rule decides
    assert [type(m) for m in messages].count(CallbackTimeoutMessage) == 1


async def test_a_permission_request_hook_that_hangs_denies(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    # Without can_use_tool (which the binary asks beside the hook, and whose
    # answer wins), the hook decides: the deny the model reads is ours.
    scripted_model.add(bash("touch ran.txt"), Reply.text("ok"))
    options = make_options(hooks={"PermissionRequest": [HookMatcher("Bash", [_hangs])]}, callback_timeout=0.5)
    messages = await run("go", options)

    assert not (workdir / "ran.txt").exists()
    (result,) = tool_results(messages)
    assert result.is_error and "did not finish within 0.5 s (callback_timeout)" in str(result.content)
    assert [type(m) for m in messages].count(CallbackTimeoutMessage) == 1


async def test_a_user_prompt_submit_hook_that_hangs_blocks_the_prompt(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("the model saw the prompt"))
    options = make_options(hooks={"UserPromptSubmit": [HookMatcher(None, [_hangs])]}, callback_timeout=0.5)
    messages = await run("go", options)

    assert scripted_model.main_requests == []  # the prompt never reached the model
    assert not any(isinstance(m, AssistantMessage) for m in messages)
    assert [type(m) for m in messages].count(CallbackTimeoutMessage) == 1
    assert isinstance(messages[-1], ResultMessage)


async def test_a_can_use_tool_that_hangs_denies_with_the_limit_named(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(bash("touch ran.txt"), Reply.text("ok"))
    messages = await run("go", make_options(can_use_tool=_hangs, callback_timeout=0.5))

    assert not (workdir / "ran.txt").exists()
    (result,) = tool_results(messages)
    assert result.is_error and "can_use_tool did not finish within 0.5 s (callback_timeout)" in str(result.content)
    assert [type(m) for m in messages].count(CallbackTimeoutMessage) == 1


async def test_a_post_tool_use_hook_that_hangs_is_no_opinion(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(bash("touch ran.txt"), Reply.text("ok"))
    options = make_options(
        allowed_tools=["Bash"], hooks={"PostToolUse": [HookMatcher("Bash", [_hangs])]}, callback_timeout=0.5
    )
    messages = await run("go", options)

    assert (workdir / "ran.txt").exists()
    assert scripted_model.main_requests[1].tool_results[0].get("is_error") is not True
    assert [type(m) for m in messages].count(CallbackTimeoutMessage) == 1
    assert messages[-1].result == "ok"


async def test_an_in_process_tool_that_hangs_is_reported(scripted_model: ScriptedModel, make_options: Options) -> None:
    @tool("stuck", "Never answers", {})
    async def stuck(args: dict[str, Any]) -> str:
        await anyio.sleep(60)
        return "never"

    scripted_model.add(Reply.tool_use("mcp__g__stuck", {}), Reply.text("ok"))
    options = make_options(
        mcp_servers={"g": create_sdk_mcp_server("g", tools=[stuck])},
        allowed_tools=["mcp__g__stuck"],
        callback_timeout=0.5,
    )
    messages = await run("go", options)

    (result,) = tool_results(messages)
    assert result.is_error and "callback_timeout" in str(result.content)
    (notice,) = [m for m in messages if isinstance(m, CallbackTimeoutMessage)]
    assert notice.callback == "tool 'stuck'" and notice.tool_use_id is None


# -- hostile inputs: nested far too deep -----------------------------------------------------

DEEP_PATHS = pytest.mark.parametrize("path", ["hook", "can_use_tool", "mcp"])


def _deep_call(path: str, depth: int, ran: list[str]) -> tuple[Reply, dict[str, Any]]:
    """A call of an in-process tool (its schema takes any array) with an
    input ``depth`` levels deep, and the options under which ``path`` (a
    PreToolUse hook, ``can_use_tool``, or the tool itself) is the callback
    that would see it first. ``ran`` records every callback that was called."""

    @tool("take", "Takes anything", {"x": list})
    async def take(args: dict[str, Any]) -> str:
        ran.append("tool")
        return "taken"

    async def hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        ran.append("hook")
        return {}

    async def allow(tool_name: str, tool_input: Any, context: Any) -> PermissionResultAllow:
        ran.append("can_use_tool")
        return PermissionResultAllow()

    options: dict[str, Any] = {"mcp_servers": {"g": create_sdk_mcp_server("g", tools=[take])}}
    if path == "hook":
        options.update(allowed_tools=["mcp__g__take"], hooks={"PreToolUse": [HookMatcher("mcp__g__take", [hook])]})
    elif path == "can_use_tool":
        options.update(can_use_tool=allow)
    else:
        options.update(allowed_tools=["mcp__g__take"])
    deep = "[" * depth + "]" * depth
    return Reply.tool_use("mcp__g__take", input_json=f'{{"x": {deep}}}'), options


@DEEP_PATHS
async def test_an_input_nested_1500_deep_is_refused_and_the_turn_goes_on(
    path: str, scripted_model: ScriptedModel, make_options: Options
) -> None:
    ran: list[str] = []
    call, options = _deep_call(path, 1500, ran)
    scripted_model.add(call, Reply.text("went on"))
    messages = await run("go", make_options(**options), limit=60)

    assert ran == []  # no callback saw the input
    (result,) = tool_results(messages)
    assert result.is_error and f"nests deeper than {MAX_NESTING} levels" in str(result.content)
    assert messages[-1].result == "went on"
    # The model's call is handed out all the same, cut where it nests too deep.
    (use,) = [b for m in messages if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, ToolUseBlock)]
    cut = use.input["x"]
    while cut != [TOO_DEEP_TEXT]:
        (cut,) = cut


@DEEP_PATHS
async def test_an_input_nested_100000_deep_never_hangs_the_run(
    path: str, scripted_model: ScriptedModel, make_options: Options
) -> None:
    # So deep that the binary itself cannot write the call out (it ends the
    # run with an error result): nothing may wait for it on our side.
    ran: list[str] = []
    call, options = _deep_call(path, 100_000, ran)
    scripted_model.add(call, Reply.text("went on"))
    try:
        messages = await run("go", make_options(shutdown_grace=1, **options), limit=60)
    except ClaudeSDKError:
        messages = []
    assert ran == []
    assert not any(r for r in tool_results(messages) if not r.is_error)


# -- a callback that raises KeyboardInterrupt ----------------------------------------------


async def test_keyboard_interrupt_in_can_use_tool_is_raised_as_itself(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    # Not wrapped in an exception group, and nothing left half-awaited (the
    # suite turns "coroutine ... was never awaited" into an error).
    async def interrupted(tool_name: str, tool_input: Any, context: Any) -> Any:
        raise KeyboardInterrupt

    scripted_model.add(bash("touch ran.txt"), Reply.text("ok"))
    with pytest.raises(KeyboardInterrupt):
        await run("go", make_options(can_use_tool=interrupted))
    assert not (workdir / "ran.txt").exists()
