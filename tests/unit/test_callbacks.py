"""How user callbacks are called: where they run, and their time limit."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from claude_wrap._callbacks import CallbackTimeoutError, call_user

pytestmark = pytest.mark.anyio


@pytest.fixture
def release() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()


async def test_a_coroutine_function_runs_on_the_event_loop() -> None:
    async def callback(x: int) -> tuple[int, int]:
        return x, threading.get_ident()

    assert await call_user(callback, 1, timeout=None, what="cb") == (1, threading.get_ident())


async def test_an_object_with_an_async_call_runs_on_the_event_loop() -> None:
    class Callback:
        async def __call__(self) -> int:
            return threading.get_ident()

    assert await call_user(Callback(), timeout=None, what="cb") == threading.get_ident()


async def test_a_plain_function_runs_in_a_worker_thread() -> None:
    def callback(x: int) -> tuple[int, int]:
        return x, threading.get_ident()

    value, thread = await call_user(callback, 2, timeout=None, what="cb")
    assert value == 2 and thread != threading.get_ident()


async def test_an_awaitable_a_plain_function_returns_is_awaited() -> None:
    async def real(x: int) -> int:
        return x * 2

    assert await call_user(lambda x: real(x), 21, timeout=None, what="cb") == 42


async def test_a_blocking_plain_function_ends_at_its_limit(release: threading.Event) -> None:
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await anyio.sleep(0.01)
            ticks += 1

    with anyio.fail_after(10):  # a hang guard
        async with anyio.create_task_group() as tg:
            tg.start_soon(tick)
            with pytest.raises(CallbackTimeoutError) as info:
                await call_user(release.wait, 30, timeout=0.3, what="can_use_tool")
            tg.cancel_scope.cancel()
    assert str(info.value) == "can_use_tool did not finish within 0.3 s (callback_timeout)"
    assert isinstance(info.value, TimeoutError)
    assert ticks > 0  # the event loop ran meanwhile


async def test_a_callbacks_own_timeout_error_is_not_rewritten() -> None:
    async def callback() -> Any:
        raise TimeoutError("the policy service timed out")

    with pytest.raises(TimeoutError) as info:
        await call_user(callback, timeout=5, what="cb")
    assert type(info.value) is TimeoutError and str(info.value) == "the policy service timed out"


async def test_an_outer_cancellation_is_not_a_timeout(release: threading.Event) -> None:
    with anyio.move_on_after(0.2) as scope:
        await call_user(release.wait, 30, timeout=60, what="cb")
    assert scope.cancelled_caught
