"""The batch journal's rules, with a backend whose tasks end at once: what
a second driver of a ``batch_id`` reports, resumes or runs; the lease; a
store that is down. (End to end, with real binaries and a killed driver:
tests/fleet/test_fleet_journal.py.)"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest

import claude_wrap._fleet.batch_journal as batch_journal
from claude_wrap import ClaudeAgentOptions, InMemorySessionStore
from claude_wrap._fleet.batch import Batch, Driver, Node
from claude_wrap._fleet.batch_journal import JOURNAL_PROJECT, BatchJournal
from claude_wrap._fleet.journal import Event, Finished, SessionStarted, TaskRecord
from claude_wrap._fleet.worker import NodeInfo
from claude_wrap._wire.codec import decode_line
from claude_wrap._wire.messages import ResultMessage
from claude_wrap.fleet import BatchBusyError, FleetError, NodeLostError, Outcome, Task, run_many

pytestmark = pytest.mark.anyio


def _result(n: int) -> ResultMessage:
    line = json.dumps({
        "type": "result", "subtype": "success", "duration_ms": 5, "duration_api_ms": 4, "is_error": False,
        "num_turns": 1, "session_id": f"session-{n}", "result": f"done {n}", "total_cost_usd": 0.5,
    })  # fmt: skip
    message = decode_line(line.encode())
    assert isinstance(message, ResultMessage)
    return message


class _Node:
    def __init__(self, ran: list[int], behave: Callable[[int], Any]) -> None:
        self.info = NodeInfo("fake", "host", 1, "claude", "path")
        self.capacity = 2
        self.in_flight = 0
        self.alive = True
        self._ran = ran
        self._behave = behave

    async def run(self, index: int, task: Task, record: TaskRecord, on_event: Callable[[Event], None]) -> Finished:
        self._ran.append(index)
        on_event(SessionStarted(index, f"session-{index}"))
        value = await self._behave(index)
        result = _result(index) if not isinstance(value, BaseException) else None
        error = value if isinstance(value, BaseException) else None
        return Finished(index, result, error, value if error is None else None, 0.5, 1, f"session-{index}")

    def cancel(self, index: int, reason: BaseException) -> None:
        pass


class _Backend:
    retries = 0

    def __init__(self, behave: Callable[[int], Any]) -> None:
        self.ran: list[int] = []
        self._behave = behave

    @asynccontextmanager
    async def start(self, added: Callable[[], None], demand: Callable[[], int]) -> AsyncIterator[list[Node]]:
        yield [_Node(self.ran, self._behave)]


async def _value(n: int) -> Any:
    return {"n": n}


async def _batch(tasks: list[Any], store: Any, behave: Callable[[int], Any] = _value, **journal: Any) -> tuple[list[Outcome], _Backend]:  # fmt: skip
    backend = _Backend(behave)
    driver = Driver(tasks, backend, budget_usd=None, progress=None, journal=BatchJournal(store, "b-1", **{"lease_s": 30.0, **journal}))  # fmt: skip
    with anyio.fail_after(10):
        async with Batch(driver) as batch:
            return [o async for o in batch], backend


async def test_a_second_run_reports_what_the_first_finished_and_runs_nothing_again() -> None:
    store = InMemorySessionStore()
    prompts = [f"task {n}" for n in range(4)]
    first, backend = await _batch(prompts, store)
    assert sorted(backend.ran) == [0, 1, 2, 3] and not any(o.recorded for o in first)
    second, backend = await _batch(prompts, store)
    assert backend.ran == []
    by_index = {o.index: o for o in second}
    assert sorted(by_index) == [0, 1, 2, 3] and all(o.recorded and o.ok for o in second)
    for n, o in by_index.items():
        assert o.value == {"n": n} and o.output == f"done {n}" and o.session_id == f"session-{n}"
        assert o.result is not None and o.result.total_cost_usd == 0.5 and o.attempts == 1
        assert o.total_cost_usd == 0.5 and o.task.prompt == f"task {n}"


async def test_what_the_journal_keeps_of_values_and_errors() -> None:
    async def behave(n: int) -> Any:
        if n == 0:
            return object()  # not JSON: kept as None
        if n == 1:
            return NodeLostError("gone")  # not finished: run again next time
        return FleetError("broke")

    store = InMemorySessionStore()
    await _batch(["a", "b", "c"], store, behave)
    second, backend = await _batch(["a", "b", "c"], store)
    assert backend.ran == [1]
    by_index = {o.index: o for o in second}
    assert by_index[0].recorded and by_index[0].value is None
    assert not by_index[1].recorded and by_index[1].ok
    assert by_index[2].recorded and type(by_index[2].error) is FleetError and str(by_index[2].error) == "broke"


async def test_other_tasks_at_a_journal_s_positions_are_refused() -> None:
    store = InMemorySessionStore()
    await _batch(["a", "b"], store)
    outcomes, error, backend = await _batch_or_error(["a", "changed"], store)
    assert error is not None and "same tasks in the same order" in str(error)
    assert [o.index for o in outcomes] == [0] and outcomes[0].recorded and backend.ran == []


async def _batch_or_error(tasks: list[Any], store: Any) -> tuple[list[Outcome], FleetError | None, _Backend]:
    backend = _Backend(_value)
    driver = Driver(tasks, backend, budget_usd=None, progress=None, journal=BatchJournal(store, "b-1", 30.0))
    outcomes: list[Outcome] = []
    try:
        with anyio.fail_after(10):
            async with Batch(driver) as batch:
                async for outcome in batch:
                    outcomes.append(outcome)
    except FleetError as exc:
        return outcomes, exc, backend
    return outcomes, None, backend


async def test_one_driver_at_a_time_until_the_lease_lapses(monkeypatch: pytest.MonkeyPatch) -> None:
    store = InMemorySessionStore()
    now = [1000.0]
    monkeypatch.setattr(batch_journal.time, "time", lambda: now[0])
    holder = BatchJournal(store, "b-1", lease_s=10.0)
    await holder.open()
    with pytest.raises(BatchBusyError, match="another driver"):
        await BatchJournal(store, "b-1", lease_s=10.0).open()
    now[0] += 9.0
    await holder.renew()  # renewed: still held
    now[0] += 9.0
    with pytest.raises(BatchBusyError):
        await BatchJournal(store, "b-1", lease_s=10.0).open()
    now[0] += 2.0  # past the renewal's end: the driver died
    await BatchJournal(store, "b-1", lease_s=10.0).open()
    # Two claims appended before either read back: the first in the store's order holds.
    a, b = BatchJournal(store, "b-2", 10.0), BatchJournal(store, "b-2", 10.0)
    await a.renew()
    await b.renew()
    await a.open()
    with pytest.raises(BatchBusyError):
        await b.open()
    # A release frees it at once.
    await a.release()
    await b.open()


async def test_a_journal_that_cannot_be_written_ends_the_batch_with_an_error_and_loses_no_outcome(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = InMemorySessionStore()
    appends = 0
    original = store.append

    async def failing(key: Any, entries: Any) -> None:
        nonlocal appends
        appends += 1
        if appends > 2:  # the claim and the first entries go in; then the store is down
            raise ConnectionError("store down")
        await original(key, entries)

    monkeypatch.setattr(store, "append", failing)
    slept: list[float] = []

    async def no_wait(delay: float) -> None:
        slept.append(delay)

    monkeypatch.setattr("claude_wrap._fleet.batch.anyio.sleep", no_wait)
    outcomes, error, backend = await _batch_or_error(["a", "b", "c"], store)
    assert error is not None and "batch journal could not be written" in str(error) and "store down" in str(error)
    assert slept == [0.5, 1.0, 2.0]
    # Every task has its outcome, written to the journal or not.
    assert sorted(o.index for o in outcomes) == [0, 1, 2]


async def test_a_batch_id_needs_a_session_store() -> None:
    with pytest.raises(ValueError, match="session_store"):
        run_many(["a"], options=ClaudeAgentOptions(), batch_id="b")
    with pytest.raises(ValueError, match="batch_id"):
        run_many(["a"], options=ClaudeAgentOptions(session_store=InMemorySessionStore()), batch_id="")
    with pytest.raises(ValueError, match="lease_s"):
        run_many(["a"], batch_id="b", lease_s=0)


async def test_the_journal_lives_under_its_own_project_key() -> None:
    store = InMemorySessionStore()
    await _batch(["a"], store)
    entries = await store.load({"project_key": JOURNAL_PROJECT, "session_id": "b-1"})
    assert entries is not None
    states = [e.get("state") for e in entries if "task" in e]
    assert states[-1] == "done" and "running" in states
