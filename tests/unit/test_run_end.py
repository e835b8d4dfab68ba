"""When a run's stdin closes: the ledger on its own, then query() on a MockTransport.

The end-to-end proofs (background agents, callbacks in later turns) are in
tests/e2e/test_run_end_e2e.py; here are the cases the real binary does not
produce on demand (a state that never turns idle, the ceiling) and the
ledger's rules one by one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest

from claude_wrap import ClaudeAgentOptions, PermissionResultAllow, ResultMessage, SystemMessage, query
from claude_wrap._run.run_end import DEFAULT_CEILING_MS, RunLedger, ceiling_ms
from claude_wrap.testing import MockTransport, initialize_response

# -- the ledger ----------------------------------------------------------------------------


def _state(state: str, **extra: Any) -> dict[str, Any]:
    return {"type": "system", "subtype": "session_state_changed", "state": state, **extra}


def _task(subtype: str, task_id: str = "t1", **extra: Any) -> dict[str, Any]:
    return {"type": "system", "subtype": subtype, "task_id": task_id, **extra}


def _ledger(*, needs_stdin: bool = True, ceiling: int = 1000) -> RunLedger:
    ledger = RunLedger(needs_stdin=needs_stdin, ceiling_ms=ceiling)
    ledger.prompt_written()
    return ledger


def test_a_result_from_a_binary_that_reports_no_state_ends_the_run() -> None:
    ledger = _ledger()
    ledger.result(0.0)
    assert ledger.ended and ledger.ceiling_at is None


def test_with_state_the_run_ends_at_idle_after_a_result() -> None:
    ledger = _ledger()
    ledger.system(_state("running"), 0.0)
    ledger.result(1.0)
    assert not ledger.ended and ledger.ceiling_at == 2.0  # 1000 ms after the result
    ledger.system(_state("idle"), 1.5)
    assert ledger.ended and ledger.ceiling_at is None


def test_idle_before_any_result_does_not_end_the_run() -> None:
    ledger = _ledger()
    ledger.system(_state("idle"), 0.0)
    assert not ledger.ended


def test_a_background_agent_holds_the_run_open_until_it_settles() -> None:
    ledger = _ledger()
    ledger.system(_task("task_started", task_type="local_agent"), 0.0)
    ledger.result(0.0)
    assert not ledger.ended and ledger.agents_in_flight
    ledger.system(_task("task_updated", patch={"status": "completed"}), 1.0)
    assert not ledger.agents_in_flight and not ledger.ended  # its follow-up turn is still owed
    ledger.main_turn_output()
    ledger.result(2.0)
    assert ledger.ended


@pytest.mark.parametrize("task_type", ["local_bash", "monitor", None])
def test_shells_and_other_tasks_are_not_waited_for(task_type: str | None) -> None:
    ledger = _ledger()
    ledger.system(_task("task_started", task_type=task_type), 0.0)
    ledger.result(0.0)
    assert ledger.ended


def test_a_notification_settles_an_agent_too() -> None:
    ledger = _ledger()
    ledger.system(_task("task_started", task_type="local_workflow"), 0.0)
    ledger.system(_task("task_notification", status="failed"), 0.0)
    ledger.result(0.0)
    assert ledger.ended


def test_the_ceiling_counts_only_between_turns() -> None:
    ledger = _ledger()
    ledger.system(_state("running"), 0.0)
    ledger.result(0.0)
    assert ledger.ceiling_at == 1.0
    ledger.main_turn_output()  # a turn the binary started itself
    assert ledger.ceiling_at is None
    ledger.result(5.0)
    assert ledger.ceiling_at == 6.0
    ledger.system(_state("requires_action"), 5.5)  # we are answering a request
    assert ledger.ceiling_at is None
    ledger.system(_state("running"), 7.0)
    assert ledger.ceiling_at == 8.0
    ledger.ceiling_passed()
    assert ledger.ended


def test_the_ceiling_leaves_a_live_agent_alone_and_rearms_when_it_settles() -> None:
    ledger = _ledger()
    ledger.system(_state("running"), 0.0)
    ledger.system(_task("task_started", task_type="local_agent"), 0.0)
    ledger.result(0.0)
    ledger.ceiling_passed()
    assert not ledger.ended
    ledger.system(_task("task_notification"), 3.0)
    assert ledger.ceiling_at == 4.0


def test_no_ceiling_without_callbacks_or_with_zero() -> None:
    for ledger in (_ledger(needs_stdin=False), _ledger(ceiling=0)):
        ledger.system(_state("running"), 0.0)
        ledger.result(0.0)
        assert ledger.ceiling_at is None


def test_a_new_prompt_reopens_the_run_but_closed_input_stays_closed() -> None:
    ledger = _ledger()
    ledger.result(0.0)
    assert ledger.ended
    ledger.prompt_written()
    assert not ledger.ended
    ledger.result(1.0)
    ledger.input_closed()
    ledger.system(_state("running"), 2.0)
    ledger.main_turn_output()
    assert ledger.ended and ledger.final


@pytest.mark.parametrize(
    ("options_env", "process_env", "expected"),
    [
        ({}, None, DEFAULT_CEILING_MS),
        ({"CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS": "250"}, "9000", 250),
        ({}, "9000", 9000),
        ({"CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS": "0"}, None, 0),
        ({"CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS": "-5"}, None, DEFAULT_CEILING_MS),
        ({"CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS": "1e6"}, None, DEFAULT_CEILING_MS),
    ],
)
def test_ceiling_is_read_as_the_binary_reads_it(
    options_env: dict[str, str], process_env: str | None, expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    if process_env is None:
        monkeypatch.delenv("CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS", raising=False)
    else:
        monkeypatch.setenv("CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS", process_env)
    assert ceiling_ms(options_env) == expected


# -- query() against a scripted peer -------------------------------------------------------------


def _result(text: str = "ok") -> dict[str, Any]:
    return {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "duration_ms": 1,
        "duration_api_ms": 1,
        "num_turns": 1,
        "session_id": "s",
        "result": text,
    }


class _Peer:
    """A MockTransport whose answers to each prompt are scripted, noting
    what it had received (EOF or not) whenever it answers."""

    def __init__(self, *answers: list[dict[str, Any]]) -> None:
        self.answers = list(answers)
        self.eof_at_prompt: list[bool] = []
        self.mock = MockTransport(self.handle)

    def handle(self, frame: dict[str, Any]) -> Any:
        if frame.get("type") == "control_request":
            return [initialize_response(frame)]
        if frame.get("type") == "user":
            self.eof_at_prompt.append(self.mock.eof_received)
            return self.answers.pop(0) if self.answers else None
        return None


async def _allow(tool: str, tool_input: dict[str, Any], context: Any) -> PermissionResultAllow:
    return PermissionResultAllow()


async def _run(peer: _Peer, options: ClaudeAgentOptions, prompt: Any = "hi") -> list[Any]:
    out: list[Any] = []
    with anyio.fail_after(10):
        async for message in query(prompt=prompt, options=options, transport=peer.mock):
            out.append(message)
    return out


@pytest.mark.anyio
async def test_without_callbacks_stdin_closes_once_the_prompt_is_written() -> None:
    peer = _Peer([])  # answers nothing yet
    seen: list[Any] = []

    async def consume() -> None:
        seen.extend(await _run(peer, ClaudeAgentOptions()))

    async with anyio.create_task_group() as tg:
        tg.start_soon(consume)
        with anyio.fail_after(10):
            while not peer.mock.eof_received:
                await anyio.sleep(0.01)
        # stdin is closed before any result; the binary still finishes its turn.
        peer.mock.feed(_state("running", sdk_host_only=True), _result("late"), _state("idle", sdk_host_only=True))

    assert [type(m) for m in seen] == [ResultMessage]  # the host-only state frames are not handed out
    assert seen[0].result == "late"


@pytest.mark.anyio
async def test_with_callbacks_stdin_stays_open_until_the_binary_is_idle() -> None:
    peer = _Peer([_state("running", sdk_host_only=True), _result("first")])
    messages: list[Any] = []

    async def consume() -> None:
        messages.extend(await _run(peer, ClaudeAgentOptions(can_use_tool=_allow)))

    async with anyio.create_task_group() as tg:
        tg.start_soon(consume)
        with anyio.fail_after(10):
            while not messages and not peer.mock.sent:
                await anyio.sleep(0.01)
        await anyio.sleep(0.2)
        assert not peer.mock.eof_received  # a result alone does not end a run that is "running"
        # The binary goes on by itself (a background agent finished), then is idle.
        peer.mock.feed(
            {
                "type": "assistant",
                "message": {"role": "assistant", "model": "m", "content": [{"type": "text", "text": "more"}]},
                "parent_tool_use_id": None,
                "session_id": "s",
            },
            _result("second"),
            _state("idle", sdk_host_only=True),
        )

    assert peer.mock.eof_received
    assert [m.result for m in messages if isinstance(m, ResultMessage)] == ["first", "second"]
    assert not [m for m in messages if isinstance(m, SystemMessage)]


@pytest.mark.anyio
async def test_the_ceiling_closes_stdin_when_idle_never_comes() -> None:
    peer = _Peer([_state("running", sdk_host_only=True), _result("only")])
    options = ClaudeAgentOptions(can_use_tool=_allow, env={"CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS": "300"})
    messages = await _run(peer, options)  # ends: the ceiling closed stdin, the peer then ended its output
    assert peer.mock.eof_received
    assert [m.result for m in messages if isinstance(m, ResultMessage)] == ["only"]


@pytest.mark.anyio
async def test_streamed_prompts_each_owe_a_run() -> None:
    """The first prompt's run is over (idle) before the second is written:
    stdin stays open for the second one's run, and closes after it."""
    peer = _Peer(
        [_state("running", sdk_host_only=True), _result("one"), _state("idle", sdk_host_only=True)],
        [_state("running", sdk_host_only=True)],
    )

    async def prompts() -> AsyncIterator[dict[str, Any]]:
        yield {"type": "user", "message": {"role": "user", "content": "first"}}
        await anyio.sleep(0.3)  # the peer answers at once: the first run is over by now
        yield {"type": "user", "message": {"role": "user", "content": "second"}}

    messages: list[Any] = []

    async def consume() -> None:
        messages.extend(await _run(peer, ClaudeAgentOptions(can_use_tool=_allow), prompt=prompts()))

    async with anyio.create_task_group() as tg:
        tg.start_soon(consume)
        with anyio.fail_after(10):
            while len(peer.eof_at_prompt) < 2:
                await anyio.sleep(0.01)
        await anyio.sleep(0.2)
        assert not peer.mock.eof_received  # the second prompt's run is not over
        peer.mock.feed(_result("two"), _state("idle", sdk_host_only=True))

    assert [m.result for m in messages] == ["one", "two"]
    assert peer.eof_at_prompt == [False, False]
    assert peer.mock.eof_received


@pytest.mark.anyio
async def test_nothing_to_write_closes_stdin_at_once() -> None:
    peer = _Peer()

    async def nothing() -> AsyncIterator[dict[str, Any]]:
        return
        yield {}

    assert await _run(peer, ClaudeAgentOptions(can_use_tool=_allow), prompt=nothing()) == []
    assert peer.mock.eof_received and peer.eof_at_prompt == []


# -- the binary is asked for its session state -------------------------------------------------


def test_the_binary_is_asked_to_report_its_session_state() -> None:
    from claude_wrap._launch.argv import build_launch

    assert build_launch(ClaudeAgentOptions(), "claude").env["CLAUDE_CODE_SDK_READS_SESSION_STATE"] == "1"
    # A value the caller chose, in any spelling, is left alone.
    for name in ("CLAUDE_CODE_SDK_READS_SESSION_STATE", "claude_code_sdk_reads_session_state"):
        env = build_launch(ClaudeAgentOptions(env={name: "0"}), "claude").env
        assert env[name] == "0"
        assert [k for k in env if k.upper() == "CLAUDE_CODE_SDK_READS_SESSION_STATE"] == [name]
