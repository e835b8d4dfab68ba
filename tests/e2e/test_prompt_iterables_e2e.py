"""Prompt iterables: written as they come, while the caller reads, owned by the run.

A common shape of a conversation is an iterable that waits for the answer
before it yields its next prompt, while the loop that reads the messages
tells it the answer came. That only works if messages flow while the
iterable is pending. Whatever ends the run (a break, a cancellation, a
dropped generator, a disconnect, an iterable that never ends), nothing it
started is left: no task, thread or process, and the iterable's own
cleanup has run. Both anyio backends.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import aclosing
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options
from _procs import processes_where

from claude_wrap import ClaudeSDKClient, ResultMessage, query
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.e2e,
    # trio warns when an async generator is left unexhausted (and closes it anyway).
    pytest.mark.filterwarnings("ignore:Async generator .* was garbage collected:ResourceWarning"),
]


def _user(text: str) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": text}}


def _waiting_prompts(answered: anyio.Event) -> AsyncIterator[dict[str, Any]]:
    async def prompts() -> AsyncIterator[dict[str, Any]]:
        yield _user("first")
        await answered.wait()  # the reader of the messages sets it
        yield _user("second")

    return prompts()


def _live_tasks() -> int:
    try:
        return len(asyncio.all_tasks())
    except RuntimeError:  # not asyncio
        import trio

        return trio.lowlevel.current_statistics().tasks_living


def _working_threads() -> int:
    """Threads doing work: an idle worker of trio's thread cache is left out.
    Trio's guest mode (how the test runs trio) reads its events in such a
    worker, which comes and goes between ticks whatever the test does; one
    running a job (an abandoned blocking call) still counts."""
    frames = sys._current_frames()
    idle = 0
    for thread in threading.enumerate():
        frame = frames.get(thread.ident or -1)
        if frame is not None and frame.f_code.co_name == "_work" and "_thread_cache" in frame.f_code.co_filename:
            idle += 1
    return threading.active_count() - idle


async def _settles(probe: Callable[[], object]) -> None:
    """Until ``probe()`` is falsy; a hang guard, not a speed check."""
    with anyio.fail_after(30):
        while probe():
            await anyio.sleep(0.05)


async def test_query_iterable_may_wait_for_each_answer(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.text("one"), Reply.text("two"))
    answered = anyio.Event()
    results = []
    with anyio.fail_after(60):
        async for message in query(prompt=_waiting_prompts(answered), options=make_options()):
            if isinstance(message, ResultMessage):
                results.append(message.result)
                answered.set()
    assert results == ["one", "two"]
    assert [r.last_user_text for r in scripted_model.main_requests][-1].endswith("second")


async def test_client_connected_with_an_iterable_that_waits_for_each_answer(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("one"), Reply.text("two"))
    answered = anyio.Event()
    results = []
    with anyio.fail_after(60):
        async with ClaudeSDKClient(make_options()) as client:
            await client.disconnect()  # connect again, with the iterable
            await client.connect(_waiting_prompts(answered))
            async for message in client.receive_messages():  # ends: its input closed after "second"
                if isinstance(message, ResultMessage):
                    results.append(message.result)
                    answered.set()
    assert results == ["one", "two"]


async def test_client_query_with_an_iterable_while_another_task_reads(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    """``client.query(iterable)`` writes in the caller's task, as the
    official package does: it returns once the iterable is exhausted, so
    answers it waits for must be read by another task."""
    scripted_model.add(Reply.text("one"), Reply.text("two"))
    answered = anyio.Event()
    results: list[str | None] = []
    with anyio.fail_after(60):
        async with ClaudeSDKClient(make_options()) as client:

            async def read() -> None:
                async for message in client.receive_messages():
                    if isinstance(message, ResultMessage):
                        results.append(message.result)
                        answered.set()
                        if len(results) == 2:
                            return

            async with anyio.create_task_group() as tg:
                tg.start_soon(read)
                await client.query(_waiting_prompts(answered))
    assert results == ["one", "two"]


async def test_an_error_in_the_iterable_is_raised_after_the_messages_before_it(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("one"))
    answered = anyio.Event()

    async def prompts() -> AsyncIterator[dict[str, Any]]:
        yield _user("first")
        await answered.wait()
        raise LookupError("no second prompt")

    seen: list[Any] = []
    with anyio.fail_after(60), pytest.raises(LookupError, match="no second prompt"):
        async for message in query(prompt=prompts(), options=make_options()):
            seen.append(message)
            if isinstance(message, ResultMessage):
                answered.set()
    assert [m.result for m in seen if isinstance(m, ResultMessage)] == ["one"]
    assert processes_where(cwd=workdir) == []


LEAVE = ["break", "cancel", "drop", "disconnect"]


@pytest.mark.parametrize("leave", LEAVE)
async def test_an_iterable_that_never_ends_leaves_nothing_behind(
    leave: str, scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("one"))
    cleaned: list[str] = []

    async def prompts() -> AsyncIterator[dict[str, Any]]:
        try:
            yield _user("first")
            await anyio.sleep_forever()
        finally:
            cleaned.append("closed")

    tasks, threads = _live_tasks(), _working_threads()
    options = make_options()
    with anyio.fail_after(60):
        if leave == "break":
            async with aclosing(query(prompt=prompts(), options=options)) as messages:
                async for message in messages:
                    if isinstance(message, ResultMessage):
                        break
        elif leave == "cancel":
            async with anyio.create_task_group() as tg:

                async def read() -> None:
                    async for message in query(prompt=prompts(), options=options):
                        if isinstance(message, ResultMessage):
                            tg.cancel_scope.cancel()

                tg.start_soon(read)
        elif leave == "disconnect":
            async with ClaudeSDKClient(options) as client:
                await client.disconnect()
                await client.connect(prompts())
                async for message in client.receive_messages():
                    if isinstance(message, ResultMessage):
                        break
        else:
            dropped = query(prompt=prompts(), options=options)
            while not isinstance(await dropped.__anext__(), ResultMessage):
                pass
            del dropped  # the event loop's finalizer closes it, in a task of its own
            await _settles(lambda: processes_where(cwd=workdir) or _live_tasks() > tasks)
    # Closed when the call that left returned: the writer task stopped, the
    # iterable's cleanup ran, the binary is gone.
    assert (processes_where(cwd=workdir), _live_tasks(), cleaned) == ([], tasks, ["closed"])
    await _settles(lambda: _working_threads() > threads)  # a child watcher thread ends on its own
