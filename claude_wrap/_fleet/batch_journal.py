"""The batch journal: a named batch's state in the session store, so that
another driver (on another machine, after this one died) can go on with it.

``run_many(..., batch_id=...)`` keeps, under the store key
``{"project_key": "claude_wrap-batches", "session_id": batch_id}``, one
entry each time a task's state changes: *running* (with what its record
knows: the session, the prompt's uuid, the prompt that may be under way),
*stopped* (by the budget, or its node lost: it goes on in the next run) and
*done* (with its outcome). The last entry of a task is its state. A driver
that opens the journal again reports the done tasks without running them,
resumes the running and stopped ones from their sessions, and starts the
rest.

One driver at a time: the journal also holds a lease, claimed when a
driver opens it and renewed while it runs (``lease_s``: how long a claim
holds without renewal). A driver that finds another's unexpired claim
refuses with ``BatchBusyError``. Claims race through the store's own
order: each driver appends its claim, then reads the journal back, and
the first claim after the last expiry or release is the holder. (The
stores of this package give the entries of one key one order all readers
see.) The clocks of the drivers' machines are compared, so they should
agree within a fraction of ``lease_s``.

A task is matched to its entries by its position in the tasks iterable and
by a fingerprint (its prompt and resume, or its function's qualified name):
the same batch must pass the same tasks in the same order.

Entries are JSON, never pickles: a store that others can write must not be
able to run code in the driver. So an outcome keeps its result (the result
frame's own line), its ``value`` if it is JSON (else ``None``, with a
warning), and its error by class name and text.
"""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import time
import uuid
from dataclasses import dataclass
from typing import Any, cast

import msgspec

import claude_wrap._exceptions as _exceptions
from claude_wrap._fleet import types as _fleet_types
from claude_wrap._fleet.journal import Pending, TaskRecord
from claude_wrap._fleet.types import BatchBusyError, FleetError, Outcome, Task
from claude_wrap._sessions.store import SessionKey, SessionStore, SessionStoreEntry
from claude_wrap._wire.codec import decode_line
from claude_wrap._wire.messages import ResultMessage

__all__ = ["JOURNAL_PROJECT", "BatchJournal", "Prior", "fingerprint"]

log = logging.getLogger("claude_wrap")

JOURNAL_PROJECT = "claude_wrap-batches"
_TYPE = "claude_wrap_batch"


def fingerprint(task: Task) -> str:
    """What identifies ``task`` across drivers (not its options: they may
    hold a store connection or callbacks that differ from run to run)."""
    if task.run is not None:
        fn = task.run
        what = f"run:{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', repr(fn))}"
    else:
        what = f"prompt:{task.prompt}\0{task.resume or ''}"
    return hashlib.sha256(what.encode()).hexdigest()[:32]


@dataclass
class Prior:
    """What the journal holds of one task, from an earlier driver."""

    state: str
    """``running``, ``stopped`` or ``done``."""
    fp: str
    record: TaskRecord
    outcome: dict[str, Any] | None
    cost_usd: float
    num_turns: int

    def outcome_for(self, index: int, task: Task) -> Outcome:
        """The done task's outcome, as the earlier driver reported it."""
        data = self.outcome or {}
        line = data.get("result_line")
        result = decode_line(line.encode()) if isinstance(line, str) else None
        return Outcome(
            index=index,
            task=task,
            result=result if isinstance(result, ResultMessage) else None,
            error=_error_from(data.get("error")),
            value=data.get("value"),
            session_id=self.record.session_id,
            total_cost_usd=self.cost_usd,
            num_turns=self.num_turns,
            duration_ms=int(data.get("duration_ms") or 0),
            attempts=self.record.attempts,
            node=data.get("node"),
            recorded=True,
        )


class BatchJournal:
    """One driver's handle on a batch's journal (see the module docstring)."""

    def __init__(self, store: SessionStore, batch_id: str, lease_s: float) -> None:
        self._store = store
        self.batch_id = batch_id
        self.lease_s = lease_s
        self.owner: str = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        self._key: SessionKey = {"project_key": JOURNAL_PROJECT, "session_id": batch_id}

    # -- opening: the lease, and what earlier drivers left ----------------------------------

    async def open(self) -> dict[int, Prior]:
        """Claim the batch and return what the journal holds of its tasks;
        ``BatchBusyError`` if another driver holds it."""
        entries = await self._load()
        holder, until = _holder(entries, time.time())
        if holder is not None and holder != self.owner:
            raise _busy(self.batch_id, until)
        await self.renew()
        entries = await self._load()
        holder, until = _holder(entries, time.time())
        if holder != self.owner:
            raise _busy(self.batch_id, until)
        return _fold(entries)

    async def renew(self) -> None:
        await self.append([{"type": _TYPE, "lease": self.owner, "until": time.time() + self.lease_s}])

    async def release(self) -> None:
        await self.append([{"type": _TYPE, "release": self.owner}])

    async def _load(self) -> list[Any]:
        return list(await self._store.load(self._key) or [])

    async def append(self, entries: list[dict[str, Any]]) -> None:
        await self._store.append(self._key, cast("list[SessionStoreEntry]", entries))

    # -- what a driver writes -----------------------------------------------------------

    @staticmethod
    def task_entry(
        index: int,
        task: Task,
        state: str,
        record: TaskRecord,
        *,
        cost_usd: float,
        num_turns: int,
        outcome: Outcome | None = None,
    ) -> dict[str, Any]:
        pending = record.pending
        entry: dict[str, Any] = {
            "type": _TYPE,
            "task": index,
            "fp": fingerprint(task),
            "state": state,
            "session_id": record.session_id,
            "prompt_uuid": record.prompt_uuid,
            "pending": None if pending is None else {"uuid": pending.uuid},
            "attempts": record.attempts,
            "cost_usd": cost_usd,
            "num_turns": num_turns,
        }
        if outcome is not None:
            entry["outcome"] = _outcome_data(outcome)
        return entry


def _busy(batch_id: str, until: float | None) -> BatchBusyError:
    left = f" for {max(0.0, (until or 0) - time.time()):.1f} s more unless renewed" if until else ""
    return BatchBusyError(f"batch {batch_id!r} is being run by another driver (its lease holds{left})")


def _holder(entries: list[Any], now: float) -> tuple[str | None, float | None]:
    """Who holds the lease at ``now``, and until when: the first claim
    after the last moment the lease was free."""
    holder: str | None = None
    until = 0.0
    for entry in entries:
        if not isinstance(entry, dict) or entry.get("type") != _TYPE:
            continue
        owner = entry.get("lease")
        if isinstance(owner, str):
            at = entry.get("until")
            if not isinstance(at, (int, float)):
                continue
            if holder is None or until < now:
                holder, until = owner, float(at)  # the lease was free: this claim takes it
            elif owner == holder:
                until = max(until, float(at))
        elif entry.get("release") == holder:
            holder, until = None, 0.0
    if holder is None or until < now:
        return None, None
    return holder, until


def _fold(entries: list[Any]) -> dict[int, Prior]:
    prior: dict[int, Prior] = {}
    for entry in entries:
        if not isinstance(entry, dict) or entry.get("type") != _TYPE or not isinstance(entry.get("task"), int):
            continue
        pending = entry.get("pending")
        uuid_ = pending.get("uuid") if isinstance(pending, dict) else None
        record = TaskRecord(
            session_id=entry.get("session_id") if isinstance(entry.get("session_id"), str) else None,
            prompt_uuid=entry.get("prompt_uuid") if isinstance(entry.get("prompt_uuid"), str) else None,
            # The prompt itself is the task's (the fingerprint holds it to that).
            pending=Pending("", uuid_ if isinstance(uuid_, str) else None) if isinstance(pending, dict) else None,
            attempts=int(entry.get("attempts") or 0),
        )
        prior[entry["task"]] = Prior(
            state=str(entry.get("state")),
            fp=str(entry.get("fp")),
            record=record,
            outcome=entry.get("outcome") if isinstance(entry.get("outcome"), dict) else None,
            cost_usd=float(entry.get("cost_usd") or 0.0),
            num_turns=int(entry.get("num_turns") or 0),
        )
    return prior


def _outcome_data(outcome: Outcome) -> dict[str, Any]:
    data: dict[str, Any] = {"duration_ms": outcome.duration_ms, "node": outcome.node}
    result = outcome.result
    if result is not None:
        line = getattr(result, "_line", None)
        data["result_line"] = (line if isinstance(line, bytes) else msgspec.json.encode(_as_frame(result))).decode()
    if outcome.value is not None:
        try:
            data["value"] = msgspec.json.decode(msgspec.json.encode(outcome.value))
        except (TypeError, ValueError, msgspec.MsgspecError):
            log.warning(
                "claude_wrap: task %s: its value (%s) is not JSON, so the batch journal keeps None for it",
                outcome.index,
                type(outcome.value).__name__,
            )
    if outcome.error is not None:
        data["error"] = {"type": type(outcome.error).__name__, "message": str(outcome.error)}
    return data


def _as_frame(result: ResultMessage) -> dict[str, Any]:
    """A result frame for a result that kept no line of its own."""
    return {"type": "result", **msgspec.to_builtins(result)}


def _error_from(data: Any) -> BaseException | None:
    """An error as the journal kept it: the package's own class when it
    names one, else a ``FleetError`` saying what it was."""
    if not isinstance(data, dict):
        return None
    name, message = str(data.get("type")), str(data.get("message", ""))
    for module in (_fleet_types, _exceptions):
        cls = getattr(module, name, None)
        if isinstance(cls, type) and issubclass(cls, _exceptions.ClaudeSDKError):
            try:
                return cls(message)
            except Exception:  # noqa: BLE001 - a class that takes other arguments
                break
    return FleetError(f"{name}: {message}")
