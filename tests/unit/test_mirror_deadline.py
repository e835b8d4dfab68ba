"""The mirror's flush is bounded: a store that hangs holds back no result
for longer than ``flush_timeout``, a cancellation cuts the flush at once,
and whatever was not appended stays queued, in order, without duplicates.

Fake stores here; the real binary with a stopped Redis and a store that
never answers is in tests/e2e/test_store_faults_e2e.py.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest

from claude_wrap import ClaudeAgentOptions
from claude_wrap._run.mirror import MirrorBatcher
from claude_wrap._sessions.store_memory import InMemorySessionStore
from claude_wrap._wire.messages import MirrorErrorMessage, ResultMessage, UnknownMessage

pytestmark = pytest.mark.anyio

SID = str(uuid.UUID(int=9))
KEY = {"project_key": "-proj", "session_id": SID}
_RESULT = ResultMessage(
    subtype="success", duration_ms=0, duration_api_ms=0, is_error=False, num_turns=1, session_id=SID
)


def _frame(projects: Path, n: int) -> UnknownMessage:
    path = str(projects / "-proj" / f"{SID}.jsonl")
    entry = {"type": "x", "n": n, "uuid": str(uuid.UUID(int=1000 + n))}
    return UnknownMessage(type="transcript_mirror", subtype=None, data={"filePath": path, "entries": [entry]})


class Gated(InMemorySessionStore):
    """Appends wait until ``open`` is set (forever, by default); with
    ``lands_first`` an append is written before it waits (a write that went
    through although its caller gave up on it)."""

    def __init__(self, *, lands_first: bool = False) -> None:
        super().__init__()
        self.open = anyio.Event()
        self.lands_first = lands_first
        self.calls = 0

    async def append(self, key: Any, entries: list[Any]) -> None:
        self.calls += 1
        if self.lands_first:
            await super().append(key, entries)
            await self.open.wait()
            return
        await self.open.wait()
        await super().append(key, entries)


def _stored(store: InMemorySessionStore) -> list[int]:
    return [e["n"] for e in store.get_entries(KEY)]  # type: ignore[arg-type, typeddict-item]


async def test_a_hung_store_holds_the_result_back_only_until_the_deadline(tmp_path: Path) -> None:
    store = Gated()
    batcher = MirrorBatcher(store, tmp_path, flush_timeout=0.5)
    for n in (1, 2):
        batcher.enqueue(_frame(tmp_path, n))
    with anyio.fail_after(10):  # without the deadline: forever
        error = await batcher.before_result(_RESULT)
    assert isinstance(error, MirrorErrorMessage) and error.key == KEY
    assert error.error == (
        "the session store did not finish within 0.5 s (2 transcript entries are not mirrored yet; "
        "they stay queued for the next flush)"
    )
    assert batcher.pending == 2 and _stored(store) == []

    batcher.enqueue(_frame(tmp_path, 3))
    store.open.set()  # the store answers again
    assert await batcher.before_result(_RESULT) is None
    assert _stored(store) == [1, 2, 3] and batcher.pending == 0


async def test_cancellation_cuts_a_flush_at_once_and_loses_nothing(tmp_path: Path) -> None:
    store = Gated()
    batcher = MirrorBatcher(store, tmp_path, flush_timeout=3600)
    batcher.enqueue(_frame(tmp_path, 1))
    with anyio.fail_after(10):  # without it, the deadline: an hour
        with anyio.move_on_after(0.2) as scope:
            await batcher.flush()
    assert scope.cancelled_caught
    assert batcher.pending == 1 and batcher.take_error() is None  # the caller's choice, no store failure
    store.open.set()
    await batcher.flush()
    assert _stored(store) == [1]


async def test_an_append_cut_off_that_landed_anyway_is_not_sent_twice(tmp_path: Path) -> None:
    store = Gated(lands_first=True)
    batcher = MirrorBatcher(store, tmp_path, flush_timeout=0.3)
    batcher.enqueue(_frame(tmp_path, 1))
    batcher.enqueue(_frame(tmp_path, 2))
    assert await batcher.before_result(_RESULT) is not None  # cut off, but written
    assert batcher.pending == 2
    batcher.enqueue(_frame(tmp_path, 3))
    store.open.set()
    assert await batcher.before_result(_RESULT) is None
    assert _stored(store) == [1, 2, 3]  # the store's tail held 1, 2: only 3 was sent


async def test_after_a_failure_the_flushes_between_results_pause(tmp_path: Path) -> None:
    store = Gated()
    batcher = MirrorBatcher(store, tmp_path, eager=True, flush_timeout=0.2, retry_after=3600)
    batcher.enqueue(_frame(tmp_path, 1))
    assert batcher.due
    await batcher.before_read()
    assert store.calls == 1 and not batcher.due  # each stdout line would wait again otherwise
    await batcher.before_read()
    assert store.calls == 1
    store.open.set()
    assert await batcher.before_result(_RESULT) is not None  # the earlier failure, reported with the result
    assert _stored(store) == [1] and batcher.due is False and batcher.pending == 0
    batcher.enqueue(_frame(tmp_path, 2))
    assert batcher.due  # a flush that worked ends the pause


async def test_close_is_bounded_too(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    batcher = MirrorBatcher(Gated(), tmp_path, flush_timeout=0.2)
    batcher.enqueue(_frame(tmp_path, 1))
    with anyio.fail_after(10):
        await batcher.before_close()
    # An in-memory store lives in this process only: nothing after the run
    # could take what it did not, so it is dropped, and said so.
    assert "did not take the run's last entries before it closed: dropped 1 transcript entries" in caplog.text


def test_the_flush_timeout_is_an_option() -> None:
    assert ClaudeAgentOptions().session_store_flush_timeout == 5.0
    for bad in (0, -1, float("nan"), "5"):
        with pytest.raises(ValueError, match="session_store_flush_timeout"):
            ClaudeAgentOptions(session_store_flush_timeout=bad)  # type: ignore[arg-type]
