"""``Batch``: what ``run_many`` returns, and the driver behind it.

The driver hands tasks to nodes (a backend's), at most ``capacity`` at a
time per node, the least busy node first, reading the tasks iterable only
as slots free up. It folds each attempt's events into the task's record,
counts the money, and reports one ``Outcome`` per task as it ends. A task
whose node is lost goes back to the front of the queue (with its record,
so the next attempt resumes its session) until its retries are used up.

With a ``BatchJournal`` (``run_many(batch_id=...)``) the driver writes each
task's state to the session store as it changes, and reports an outcome
only once the journal holds it; what an earlier driver of the batch left
there decides, per task, whether it is reported as it was, resumed or run.

The driver runs in a task of its own (``Detached``), owned by the batch:
iterating only pulls outcomes from it. ``aclose()`` (or leaving ``async
with``, cancelling a waiting ``__anext__``, dropping the batch) stops it:
every node's tasks are cancelled and their binaries stopped.
"""

from __future__ import annotations

import logging
import math
import random
import sys
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sized
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from functools import partial
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol

import anyio
import anyio.abc
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from claude_wrap._fleet.batch_journal import BatchJournal, Prior, fingerprint
from claude_wrap._fleet.journal import (
    CostSoFar,
    Event,
    Finished,
    Pending,
    PromptSending,
    SessionStarted,
    TaskRecord,
    TurnEnded,
)
from claude_wrap._fleet.progress import Progress
from claude_wrap._fleet.types import BudgetExceededError, FleetError, FleetStats, NodeLostError, Outcome, Task
from claude_wrap._fleet.worker import NodeInfo
from claude_wrap._lazy import publish
from claude_wrap._run.detached import Detached
from claude_wrap._wire.messages import ResultMessage

if sys.version_info < (3, 11):
    from exceptiongroup import ExceptionGroup  # type: ignore[import-not-found,unused-ignore]  # anyio needs it there

if TYPE_CHECKING:
    from claude_wrap._fleet.metrics import FleetMeter

__all__ = ["Backend", "Batch", "Driver", "Node", "NodeLost", "as_task"]


class NodeLost(Exception):
    """A node's ``run`` lost its node (the backend's error is the cause)."""


log = logging.getLogger("claude_wrap")

_BACKOFF_MAX = 60.0  # seconds, the longest wait before an API-error retry
# API statuses that say "try again later": a timeout, a conflict, rate
# limited, a server error, overloaded.
_RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})


def retryable(result: ResultMessage | None) -> bool:
    """Whether a turn's result is an API failure worth trying again: one of
    ``_RETRYABLE_STATUS``, or no status at all (the API was not reached).
    A refused request (400, 401, 403, 404 ...) is not."""
    if result is None or result.outcome != "api_error":
        return False
    return result.api_error_status is None or result.api_error_status in _RETRYABLE_STATUS


def _alone(exc: Exception) -> Exception:
    """The error itself, out of the task groups it went through: anyio wraps
    even a lone failure of a group's own body in an ``ExceptionGroup``, and
    the batch's reader is owed the ``FleetError`` (or whatever failed)."""
    while isinstance(exc, ExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


class Node(Protocol):
    info: NodeInfo
    capacity: int
    in_flight: int
    alive: bool

    async def run(self, index: int, task: Task, record: TaskRecord, on_event: Callable[[Event], None]) -> Finished: ...

    def cancel(self, index: int, reason: BaseException) -> None: ...


class Backend(Protocol):
    retries: int
    """Attempts a task gets after the first, when its node is lost."""

    def start(self, added: Callable[[], None], demand: Callable[[], int]) -> AbstractAsyncContextManager[list[Node]]:
        """The nodes, while the batch runs; a backend whose nodes can join
        later appends them to the list and calls ``added``. ``demand()``:
        the tasks running or waiting (for an autoscaler)."""
        ...


def as_task(item: Any) -> Task:
    """A tasks-iterable item as a ``Task`` (a string is a prompt)."""
    if isinstance(item, Task):
        return item
    if isinstance(item, str):
        return Task(item)
    raise TypeError(f"a task is a prompt (str) or a Task, got {type(item).__name__}: {item!r}")


@dataclass
class _Item:
    index: int
    task: Task
    record: TaskRecord = field(default_factory=TaskRecord)
    node: Node | None = None
    started: float | None = None
    cost: float = 0.0  # the running attempt's spending so far
    turns: int = 0
    prior_cost: float = 0.0  # spent under earlier drivers of the batch (not this run's budget)
    prior_turns: int = 0
    api_retries: int = 0  # attempts made again after a retryable API error
    ended: Pending | None = None  # the prompt of the last turn that ended


class Batch:
    """A running batch of tasks (see :func:`claude_wrap.fleet.run_many`).

    ``async for outcome in batch`` gives each task's :class:`Outcome` as it
    ends. Use it as ``async with run_many(...) as batch:`` to be sure it is
    stopped when the block is left; ``aclose()`` stops it at any time
    (running tasks are cancelled, their binaries stopped, on every node).
    A batch that is dropped unfinished (``async for ...: break``) stops too.
    """

    def __init__(self, driver: Driver) -> None:
        self._driver = driver
        self._task: Detached | None = None
        self._receive: MemoryObjectReceiveStream[Outcome] | None = None
        self._closed = False

    def __aiter__(self) -> Batch:
        return self

    async def __anext__(self) -> Outcome:
        if self._closed:
            raise StopAsyncIteration
        receive = self._start()
        try:
            return await receive.receive()
        except anyio.EndOfStream:
            self._closed = True
            receive.close()
            error, self._driver.error = self._driver.error, None
            if error is not None:
                raise error from None
            raise StopAsyncIteration from None
        except BaseException:
            await self.aclose()  # cancelled while waiting: the batch goes with it
            raise

    async def __aenter__(self) -> Batch:  # noqa: PYI034 - typing.Self needs 3.11
        self._start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stop the batch: no more tasks start, running ones are cancelled and
        their binaries stopped on every node. Idempotent."""
        self._closed = True
        task = self._task
        if task is not None and not task.done:
            task.cancel()
            with anyio.CancelScope(shield=True):
                await task.wait()
        if self._receive is not None:
            self._receive.close()

    def __del__(self) -> None:
        # The driver holds no reference to this handle, so dropping the
        # handle unfinished lands here: stop the driver (its nodes stop).
        task = getattr(self, "_task", None)
        receive = getattr(self, "_receive", None)
        try:
            if task is not None and not task.done:
                task.cancel()
            if receive is not None:
                receive.close()
        except Exception:  # noqa: BLE001 - nothing to report to from __del__
            pass

    @property
    def stats(self) -> FleetStats:
        """Where the batch stands now."""
        return self._driver.stats()

    @property
    def nodes(self) -> list[NodeInfo]:
        """The nodes the batch runs on (once started), lost ones included."""
        return [node.info for node in self._driver.nodes]

    def _start(self) -> MemoryObjectReceiveStream[Outcome]:
        if self._receive is None:
            send, self._receive = anyio.create_memory_object_stream[Outcome](math.inf)
            self._task = Detached.spawn(partial(self._driver.drive, send), "fleet batch")
        return self._receive


class Driver:
    """The batch's engine (see the module docstring)."""

    def __init__(
        self,
        tasks: Iterable[str | Task],
        backend: Backend,
        *,
        budget_usd: float | None,
        progress: Progress | None,
        journal: BatchJournal | None = None,
        api_retries: int = 0,
        api_backoff_s: float = 2.0,
    ) -> None:
        self._total = len(tasks) if isinstance(tasks, Sized) else None
        self._source: Iterator[Any] = iter(enumerate(tasks))
        self._backend = backend
        self._budget = budget_usd
        self._progress = progress
        self._retries: deque[_Item] = deque()
        self._running: dict[int, _Item] = {}
        self._api_retries = api_retries
        self._api_backoff_s = api_backoff_s
        self._backing_off = 0  # tasks waiting out a backoff before their next attempt
        self._retried = 0
        self._meter: FleetMeter | None = None
        if "opentelemetry.metrics" in sys.modules:  # the application exports metrics
            from claude_wrap._fleet.metrics import FleetMeter

            self._meter = FleetMeter()
        self._tg: anyio.abc.TaskGroup | None = None
        self.nodes: list[Node] = []
        self._spent = 0.0
        self._finished = 0
        self._failed = 0
        self._stopping = False
        self._stop_reason: BaseException | None = None
        self._started_at = 0.0
        self.error: BaseException | None = None
        self._send: MemoryObjectSendStream[Outcome] | None = None
        self._changed: anyio.Event | None = None
        self._journal = journal
        self._prior: dict[int, Prior] = {}
        self._unwritten: list[tuple[dict[str, Any] | None, Outcome | None]] = []
        self._wrote = anyio.Event()  # set when there is something to write
        self._writing = False  # the writer runs: outcomes wait for it
        self._journal_failed = False

    def stats(self) -> FleetStats:
        return FleetStats(
            total=self._total,
            finished=self._finished,
            failed=self._failed,
            running=len(self._running),
            cost_usd=self._spent_so_far(),
            elapsed_s=time.monotonic() - self._started_at if self._started_at else 0.0,
            nodes=sum(1 for n in self.nodes if n.alive),
            retried=self._retried,
        )

    def _demand(self) -> int:
        """Tasks running or waiting: all that are not finished when the
        tasks iterable has a length, else those running or due for a retry."""
        if self._stopping:
            return 0
        if self._total is not None:
            return max(0, self._total - self._finished)
        return len(self._running) + len(self._retries)

    def _notify(self) -> None:
        assert self._changed is not None
        self._changed.set()
        self._changed = anyio.Event()

    async def drive(self, send: MemoryObjectSendStream[Outcome]) -> None:
        self._send = send
        self._changed = anyio.Event()
        self._started_at = time.monotonic()
        try:
            if self._journal is not None:
                self._prior = await self._journal.open()
            async with self._backend.start(self._notify, self._demand) as nodes:
                self.nodes = nodes
                async with anyio.create_task_group() as tg:
                    if self._journal is not None:
                        self._writing = True
                        tg.start_soon(self._keep_journal, self._journal)
                    await self._dispatch(tg)
                    self._writing = False
                    self._wrote.set()  # the writer writes what is left, then ends
        except Exception as exc:  # noqa: BLE001 - the batch's failure, raised to its reader
            self.error = self.error or _alone(exc)
        finally:
            if self._journal is not None:
                await self._close_journal(self._journal)
            send.close()
            if self._progress is not None:
                self._progress.close()

    async def _dispatch(self, tg: anyio.abc.TaskGroup) -> None:
        self._tg = tg
        while not self._stopping:
            item = self._retries.popleft() if self._retries else self._pull()
            if item is None:
                if not self._running and not self._backing_off:
                    return
                await self._wait()  # a running task may come back for a retry
                continue
            node = await self._free_node()
            if node is None:
                self._report(item, error=NodeLostError("every node of the batch was lost"))
                continue
            if self._stopping:
                self._retries.appendleft(item)
                break
            item.started = item.started or time.monotonic()
            if item.record.attempts == 0 and item.task.run is None and item.task.resume is None:
                item.record.prompt_uuid = str(uuid.uuid4())
            item.record.attempts += 1
            if self._meter is not None:
                self._meter.started(item.record.attempts)
            node.in_flight += 1
            item.node = node
            self._running[item.index] = item
            self._write_state(item, "running")
            self._show()
            tg.start_soon(self._attempt, node, item)
        # Stopped (by the budget): what never started is reported as such.
        while item := (self._retries.popleft() if self._retries else self._pull()):
            self._report(item, error=self._stopped_by())

    def _pull(self) -> _Item | None:
        """The next task from the iterable to run; an item that is not a
        task ends the batch (the tasks started before it are still
        reported, then its ``TypeError`` is raised). Tasks an earlier driver
        of the batch finished are reported on the way."""
        while True:
            try:
                index, raw = next(self._source)
                item = _Item(index, as_task(raw))
                prior = self._prior.pop(index, None)
                if prior is None or self._restore(item, prior):
                    return item
            except StopIteration:
                return None
            except (TypeError, FleetError) as exc:
                self.error = exc
                self._source = iter(())
                return None

    def _restore(self, item: _Item, prior: Prior) -> bool:
        """Take up what an earlier driver left of ``item``; whether it runs."""
        task = item.task
        if prior.fp != fingerprint(task):
            raise FleetError(
                f"task {item.index} ({task.label}) is not the task the journal of this batch holds at that "
                "position: a batch run again under its batch_id must get the same tasks in the same order"
            )
        if prior.state == "done":
            self._finished += 1
            outcome = prior.outcome_for(item.index, task)
            self._failed += 0 if outcome.ok else 1
            if self._meter is not None:
                self._meter.finished(outcome, 0.0)
            self._deliver(None, outcome)
            return False
        item.prior_cost, item.prior_turns = prior.cost_usd, prior.num_turns
        if task.run is not None and prior.record.attempts:
            where = f" (its session: {prior.record.session_id})" if prior.record.session_id else ""
            item.record = prior.record
            self._report(item, error=NodeLostError(
                f"task {task.label} was under way when its driver stopped; a run function is not "
                f"resumed by another driver{where}"
            ))  # fmt: skip
            return False
        record = prior.record
        if record.pending is not None:
            record.pending = Pending(task.prompt or "", record.pending.uuid)
        item.record = record
        return True

    async def _wait(self) -> None:
        assert self._changed is not None
        await self._changed.wait()

    async def _free_node(self) -> Node | None:
        """The least busy live node with a free slot (waiting for one); ``None``
        once no node is alive."""
        while True:
            alive = [n for n in self.nodes if n.alive]
            if not alive:
                return None
            free = [n for n in alive if n.in_flight < n.capacity]
            if free:
                return min(free, key=lambda n: n.in_flight / n.capacity)
            await self._wait()

    async def _attempt(self, node: Node, item: _Item) -> None:
        item.cost = 0.0
        item.turns = 0
        finished: Finished | None = None
        error: BaseException | None = None
        lost: NodeLost | None = None
        try:
            finished = await node.run(item.index, item.task, item.record, lambda event: self._on_event(item, event))
        except NodeLost as exc:
            lost = exc
        except Exception as exc:  # noqa: BLE001 - the backend failed this task: its outcome says so
            error = exc
        finally:
            node.in_flight -= 1
            self._running.pop(item.index, None)
            self._notify()
        if lost is not None:
            node.alive = False
            self._requeue(item, lost)
        elif finished is not None and self._retry_later(item, finished):
            pass
        else:
            self._report(item, finished=finished, error=error, node=node)

    def _retry_later(self, item: _Item, finished: Finished) -> bool:
        """A prompt task whose turn ended on an API error worth trying again
        (overloaded, rate limited, a server error, no connection) runs again
        after a backoff, its session resumed; whether it will."""
        if (
            item.task.run is not None
            or item.api_retries >= self._api_retries
            or self._stopping
            or finished.error is not None
            or not retryable(finished.result)
        ):
            return False
        record = item.record
        record.cost_usd += finished.cost_usd
        record.num_turns += finished.num_turns
        record.session_id = finished.session_id or record.session_id
        record.pending = item.ended  # the failed turn is the one to go on with
        delay = min(_BACKOFF_MAX, self._api_backoff_s * 2**item.api_retries) * random.uniform(0.8, 1.2)
        item.api_retries += 1
        self._retried += 1
        if self._meter is not None:
            self._meter.retried("api_error")
        assert finished.result is not None
        log.info(
            "claude_wrap: task %s ended on an API error (%s); it runs again in %.1f s (retry %d of %d)",
            item.task.label,
            finished.result.api_error_status or finished.result.api_error_type or "no connection",
            delay,
            item.api_retries,
            self._api_retries,
        )
        self._backing_off += 1
        assert self._tg is not None
        self._tg.start_soon(self._back_off, item, delay)
        return True

    async def _back_off(self, item: _Item, delay: float) -> None:
        try:
            with anyio.move_on_after(delay) as waited:
                while not self._stopping:
                    await self._wait()
            if not waited.cancel_called and self._stopping:
                self._report(item, error=self._stopped_by())
            else:
                self._retries.append(item)
        finally:
            self._backing_off -= 1
            self._notify()

    def _requeue(self, item: _Item, lost: NodeLost) -> None:
        record = item.record
        record.cost_usd += item.cost
        record.num_turns += item.turns
        if self._stopping:
            self._report(item, error=self._stopped_by())
        elif record.attempts > self._backend.retries:
            self._report(item, error=NodeLostError(f"the node was lost {record.attempts} times running this task"))
        elif not record.replayable:
            self._report(item, error=NodeLostError("the node was lost, and the task cannot be resumed elsewhere"))
        else:
            self._retried += 1
            if self._meter is not None:
                self._meter.retried("node_lost")
            self._retries.appendleft(item)

    def _on_event(self, item: _Item, event: Event) -> None:
        if isinstance(event, TurnEnded):
            item.ended = item.record.pending
        item.record.fold(event)
        if isinstance(event, (SessionStarted, PromptSending)):
            self._write_state(item, "running")
        if isinstance(event, (TurnEnded, CostSoFar)):
            item.cost = event.cost_usd
        if isinstance(event, TurnEnded):
            item.turns = event.num_turns
        self._check_budget()
        self._show()

    # -- money, outcomes, display ---------------------------------------------------------

    def _spent_so_far(self) -> float:
        unfinished = [*self._running.values(), *self._retries]
        return self._spent + sum(i.record.cost_usd + (i.cost if i.index in self._running else 0.0) for i in unfinished)

    def _over_budget(self) -> BudgetExceededError:
        return BudgetExceededError(f"the batch's budget of ${self._budget:g} was spent")

    def _check_budget(self) -> None:
        if self._budget is None or self._stopping or self._spent_so_far() < self._budget:
            return
        self._stop(self._over_budget())

    def _stopped_by(self) -> BaseException:
        return self._stop_reason if self._stop_reason is not None else self._over_budget()

    def _stop(self, reason: BaseException) -> None:
        """No task starts any more; running ones are stopped with ``reason``."""
        self._stopping = True
        self._stop_reason = reason
        for item in self._running.values():
            if item.node is not None:
                item.node.cancel(item.index, reason)
        self._notify()

    def _report(
        self,
        item: _Item,
        *,
        finished: Finished | None = None,
        error: BaseException | None = None,
        node: Node | None = None,
    ) -> None:
        record = item.record
        outcome = Outcome(
            index=item.index,
            task=item.task,
            session_id=record.session_id,
            total_cost_usd=record.cost_usd,
            num_turns=record.num_turns,
            duration_ms=int((time.monotonic() - item.started) * 1000) if item.started is not None else 0,
            attempts=record.attempts,
            node=node.info.name if node is not None else None,
            error=error,
        )
        if finished is not None:
            outcome.result = finished.result
            outcome.error = finished.error
            outcome.value = finished.value
            outcome.session_id = finished.session_id or outcome.session_id
            outcome.total_cost_usd += finished.cost_usd
            outcome.num_turns += finished.num_turns
        self._spent += outcome.total_cost_usd
        spent_here = outcome.total_cost_usd
        outcome.total_cost_usd += item.prior_cost
        outcome.num_turns += item.prior_turns
        self._finished += 1
        self._failed += 0 if outcome.ok else 1
        # Stopped by the budget or a lost node, a task goes on in the next run of the batch.
        state = "stopped" if isinstance(outcome.error, (BudgetExceededError, NodeLostError)) else "done"
        entry = (
            self._entry(item, state, outcome.total_cost_usd, outcome.num_turns, outcome) if record.attempts else None
        )
        if self._meter is not None:
            self._meter.finished(outcome, spent_here)
        self._deliver(entry, outcome)
        self._check_budget()
        self._show()

    # -- the journal -------------------------------------------------------------------

    def _write_state(self, item: _Item, state: str) -> None:
        record = item.record
        entry = self._entry(item, state, item.prior_cost + record.cost_usd, item.prior_turns + record.num_turns)
        if entry is not None:
            self._deliver(entry, None)

    def _entry(
        self, item: _Item, state: str, cost_usd: float, num_turns: int, outcome: Outcome | None = None
    ) -> dict[str, Any] | None:
        """The journal entry for ``item`` now (``None`` without a journal)."""
        if self._journal is None:
            return None
        return BatchJournal.task_entry(
            item.index, item.task, state, item.record, cost_usd=cost_usd, num_turns=num_turns, outcome=outcome
        )

    def _deliver(self, entry: dict[str, Any] | None, outcome: Outcome | None) -> None:
        """Hand ``outcome`` to the reader once the journal holds ``entry``
        (at once without a journal)."""
        if not self._writing:
            if outcome is not None:
                assert self._send is not None
                self._send.send_nowait(outcome)
            return
        self._unwritten.append((entry, outcome))
        self._wrote.set()

    async def _keep_journal(self, journal: BatchJournal) -> None:
        """Write what the batch hands over, in order, renewing the lease
        between; hand each outcome on once its entry is written."""
        renewed = time.monotonic()
        while self._writing or self._unwritten:
            with anyio.move_on_after(max(0.0, renewed + journal.lease_s / 3 - time.monotonic())):
                await self._wrote.wait()
            self._wrote = anyio.Event()
            if time.monotonic() >= renewed + journal.lease_s / 3:
                await self._journal_write(journal.renew)
                renewed = time.monotonic()
            if self._unwritten:
                await self._flush(journal)

    async def _flush(self, journal: BatchJournal) -> None:
        # Taken off the list only once written: a write cut off by a
        # cancelled batch is done again by ``_close_journal``.
        taken = self._unwritten[:]
        entries = [entry for entry, _ in taken if entry is not None]
        if entries:
            await self._journal_write(partial(journal.append, entries))
        del self._unwritten[: len(taken)]
        assert self._send is not None
        for _, outcome in taken:
            if outcome is not None:
                self._send.send_nowait(outcome)

    async def _journal_write(self, write: Callable[[], Any]) -> None:
        """``write()``, tried again after 0.5, 1 and 2 s; after that the batch
        stops (its running tasks go on in the next run of it)."""
        if self._journal_failed:
            return
        for delay in (0.5, 1.0, 2.0, None):
            try:
                await write()
                return
            except Exception as exc:  # noqa: BLE001 - a store that is down, by whatever error it says so
                if delay is None:
                    self.error = self.error or FleetError(f"the batch journal could not be written: {exc}")
                    self._writing = False  # what is reported from now on goes to the reader at once
                    self._journal_failed = True
                    self._stop(self.error)
                    return
                await anyio.sleep(delay)

    async def _close_journal(self, journal: BatchJournal) -> None:
        """Write what is left and give the lease up (bounded, also when the batch is cancelled)."""
        with anyio.CancelScope(shield=True), anyio.move_on_after(10):
            self._writing = False
            if self._unwritten:
                await self._flush(journal)
            try:
                await journal.release()
            except Exception:  # noqa: BLE001 - the lease then expires by itself
                pass

    def _show(self) -> None:
        if self._progress is not None:
            self._progress.update(self.stats())


publish(sys.modules[__name__], ["Batch"], "claude_wrap.fleet")
