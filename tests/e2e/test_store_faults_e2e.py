"""A session store that stops answering holds nothing up for long.

The real binary and the scripted model, with a real Redis server stopped
(SIGSTOP, as a network partition looks) and with a store whose appends
never return, on both backends:

* a turn's result arrives within ``session_store_flush_timeout`` (plus the
  turn's own time), preceded by a ``MirrorErrorMessage`` that says how many
  entries are not mirrored yet;
* a cancellation while the mirror waits on the store returns at once, and
  closing is bounded as well;
* once the store answers again, a later flush delivers every queued entry,
  in order and once: the store then equals the transcript on disk.

The bounds below are hang guards: without the deadline each wait lasts the
store client's own timeouts (30 s per Redis attempt, three attempts, twice)
or forever.
"""

from __future__ import annotations

import os
import signal
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from _servers import RedisServer

from claude_wrap import (
    ClaudeAgentOptions,
    ClaudeSDKClient,
    InMemorySessionStore,
    MirrorErrorMessage,
    RedisSessionStore,
    ResultMessage,
    get_session_messages,
    get_session_messages_from_store,
    project_key_for_directory,
    query,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e, pytest.mark.stores]

DEADLINE = 2.0
SLACK = 25.0  # the binary's own turn on a busy machine


class Stoppable:
    """A store that can be made to stop answering and to answer again."""

    def stop(self) -> None:
        raise NotImplementedError

    def resume(self) -> None:
        raise NotImplementedError


class HungMemory(InMemorySessionStore, Stoppable):
    """In memory; while stopped, an append waits until it is resumed (or forever)."""

    def __init__(self) -> None:
        super().__init__()
        self.answering = True
        self.resumed: anyio.Event | None = None
        self.waiting = 0

    def stop(self) -> None:
        self.answering = False

    def resume(self) -> None:
        self.answering = True
        if self.resumed is not None:
            self.resumed.set()

    async def append(self, key: Any, entries: list[Any]) -> None:
        if not self.answering:
            self.waiting += 1
            self.resumed = self.resumed or anyio.Event()
            await self.resumed.wait()
        await super().append(key, entries)


class StoppedRedis(RedisSessionStore, Stoppable):
    """A private Redis server's store; stop() SIGSTOPs the server."""

    def __init__(self, server: RedisServer) -> None:
        super().__init__(server.url, prefix=f"faults:{uuid.uuid4().hex}:")
        self.server = server
        self.waiting = 0
        self.answering = True

    def stop(self) -> None:
        assert self.server.proc is not None
        os.kill(self.server.proc.pid, signal.SIGSTOP)
        self.answering = False

    def resume(self) -> None:
        assert self.server.proc is not None
        os.kill(self.server.proc.pid, signal.SIGCONT)
        self.answering = True

    async def append(self, key: Any, entries: list[Any]) -> None:
        if not self.answering:
            self.waiting += 1
        await super().append(key, entries)


@pytest.fixture(params=["memory", "redis"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Stoppable]:
    if request.param == "memory":
        yield HungMemory()
        return
    server = RedisServer()  # a private one: this test stops it
    server.start()
    made = StoppedRedis(server)
    try:
        yield made
    finally:
        made.resume()
        await made.aclose()
        server.destroy()


def _options(model: ScriptedModel, tmp_path: Path, cwd: Path, store: Any, **extra: Any) -> ClaudeAgentOptions:
    return ClaudeAgentOptions(
        env=model.env(tmp_path / "home"),
        cwd=cwd,
        setting_sources=[],
        session_store=store,
        session_store_flush_timeout=DEADLINE,
        **extra,
    )


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path


async def _turn(client: ClaudeSDKClient, prompt: str) -> list[Any]:
    await client.query(prompt)
    return [m async for m in client.receive_response()]


def _prompts(entries: list[Any]) -> list[str]:
    return [
        e["message"]["content"]
        for e in entries
        if e.get("type") == "user" and isinstance(e.get("message", {}).get("content"), str)
    ]


async def test_a_stopped_store_delays_a_result_by_the_deadline_and_catches_up_later(
    store: Any, scripted_model: ScriptedModel, tmp_path: Path, cwd: Path
) -> None:
    scripted_model.add(Reply.text("one"), Reply.text("two"), Reply.text("three"))
    options = _options(scripted_model, tmp_path, cwd, store)
    async with ClaudeSDKClient(options) as client:
        with anyio.fail_after(60):
            first = await _turn(client, "turn one")
        assert not any(isinstance(m, MirrorErrorMessage) for m in first)
        session_id = first[-1].session_id
        key = {"project_key": project_key_for_directory(cwd), "session_id": session_id}

        store.stop()
        with anyio.fail_after(DEADLINE + SLACK):
            second = await _turn(client, "turn two")
        assert store.waiting  # the flush did reach the stopped store
        assert isinstance(second[-1], ResultMessage) and second[-1].result == "two"
        (error,) = [m for m in second if isinstance(m, MirrorErrorMessage)]
        assert second[-2] is error and error.key == key
        assert error.error.startswith(f"the session store did not finish within {DEADLINE:g} s (")
        assert "transcript entries are not mirrored yet; they stay queued for the next flush" in error.error

        store.resume()
        with anyio.fail_after(60):
            third = await _turn(client, "turn three")
        assert not any(isinstance(m, MirrorErrorMessage) for m in third)
        stored = await store.load(key)
        assert _prompts(stored) == ["turn one", "turn two", "turn three"]  # in order, once

    disk = get_session_messages(session_id, directory=cwd, config_dir=tmp_path / "home" / ".claude")
    from_store = await get_session_messages_from_store(store, session_id, directory=cwd)
    assert [(m.uuid, m.message) for m in from_store] == [(m.uuid, m.message) for m in disk]
    assert len(disk) == 6


async def test_cancelling_while_the_mirror_waits_returns_at_once(
    store: Any, scripted_model: ScriptedModel, tmp_path: Path, cwd: Path
) -> None:
    # The deadline is long here: what ends the wait is the cancellation
    # (the case: move_on_after around a query whose store hangs).
    scripted_model.add(Reply.text("never mirrored"))
    options = _options(scripted_model, tmp_path, cwd, store, turn_timeout=10, shutdown_grace=2.0)
    options.session_store_flush_timeout = 3600
    store.stop()
    seen: list[Any] = []

    async def cancel_once_waiting(scope: anyio.CancelScope) -> None:
        while not store.waiting:
            await anyio.sleep(0.02)
        scope.cancel()

    with anyio.fail_after(
        SLACK + 2 * 2.0
    ):  # the turn, then close: one shutdown_grace for the flush, one for the binary
        async with anyio.create_task_group() as tg:
            with anyio.CancelScope() as scope:
                tg.start_soon(cancel_once_waiting, scope)
                async for message in query(prompt="hi", options=options):
                    seen.append(message)
            tg.cancel_scope.cancel()
    assert scope.cancelled_caught
    assert not any(isinstance(m, ResultMessage) for m in seen)  # it was held back for the mirror when cancelled
    store.resume()
