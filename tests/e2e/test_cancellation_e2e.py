"""Cancellation at every await point of a turn, chosen by hypothesis.

The real binary runs against the scripted model. Each example runs one turn
(two for ``ClaudeSDKClient``) with a Bash tool call whose argv carries a
unique marker, and cancels it at a point hypothesis picks:

* after the k-th message (``message``);
* after a delay (``delay``), which lands anywhere: spawn, handshake, model
  request, tool run, shutdown, or after the run already ended;
* inside the ``PreToolUse`` hook (``hook``) or inside ``can_use_tool``
  (``can_use_tool``), i.e. in a callback task of the session's pump;
* while the tool's process runs (``tool``).

After each example, /proc must show neither the binary (nothing left with
the example's cwd) nor the tool's commands (nothing with the marker in its
argv, the one the tool left running detached included) within a bound. Four test instances (query / client x asyncio / trio)
run 25 examples each: the issue's 100 repetitions. Generation is
derandomized, so CI runs the same examples every time.
"""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import aclosing
from pathlib import Path
from typing import Any

import anyio
import pytest
from _procs import processes_where
from hypothesis import HealthCheck, event, example, given, settings, strategies as st

from claude_wrap import (
    ClaudeAgentOptions,
    ClaudeSDKClient,
    HookMatcher,
    Message,
    PermissionResultAllow,
    ResultMessage,
    query,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

EXAMPLES_PER_TEST = 25
EXPLICIT = 4  # the @example cases of each test (they run in addition to max_examples)
LEFTOVER_BOUND = 10.0  # seconds for processes to disappear after the cancel
_serial = itertools.count()

CancelPoint = tuple[str, float]

cancel_points = st.one_of(
    st.tuples(st.just("message"), st.integers(min_value=1, max_value=8).map(float)),
    st.tuples(st.just("delay"), st.floats(min_value=0.0, max_value=1.6)),
    st.tuples(st.sampled_from(["hook", "can_use_tool", "tool"]), st.just(0.0)),
)

SETTINGS = settings(
    max_examples=EXAMPLES_PER_TEST - EXPLICIT,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


class Run:
    """One example: its own cwd, scripted model, marker and cancel scope."""

    def __init__(self, base: Path, point: CancelPoint) -> None:
        self.kind, self.value = point
        event(f"cancel point: {self.kind}")  # shown by --hypothesis-show-statistics
        self.dir = Path(tempfile.mkdtemp(prefix="cancel ü ", dir=base))
        self.home = base / "home"
        self.marker = f"claude-wrap-cancel-{os.getpid()}-{next(_serial)}"
        self.scope = anyio.CancelScope()
        self.messages: list[Message] = []
        self.reached = False  # the chosen point was reached and cancel() called

    def cancel(self) -> None:
        self.reached = True
        self.scope.cancel()

    def script(self, model: ScriptedModel, turns: int) -> None:
        sleep = 60 if self.kind == "tool" else 0.2
        # A detached child first (a session of its own, its parent shell gone
        # at once): the close must find it too.
        detached = f"(setsid python3 -c 'import time; time.sleep(300)' {self.marker}-detached >/dev/null 2>&1 &)"
        command = f"{detached}; python3 -c 'import time; time.sleep({sleep})' {self.marker}"
        model.add(Reply.tool_use("Bash", {"command": command, "description": "wait"}), Reply.text("done"))
        for i in range(1, turns):
            model.add(Reply.text(f"turn {i + 1}"))

    def options(self, model: ScriptedModel) -> ClaudeAgentOptions:
        async def hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
            if self.kind == "hook":
                self.cancel()
                await anyio.sleep(30)  # the cancel arrives here
            return {}

        async def can_use_tool(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
            if self.kind == "can_use_tool":
                self.cancel()
                await anyio.sleep(30)
            return PermissionResultAllow()

        return ClaudeAgentOptions(
            env=model.env(self.home),
            cwd=self.dir,
            setting_sources=[],
            hooks={"PreToolUse": [HookMatcher("Bash", [hook])]},
            can_use_tool=can_use_tool,
            shutdown_grace=3.0,
        )

    def seen(self, message: Message) -> None:
        self.messages.append(message)
        if self.kind == "message" and len(self.messages) == int(self.value):
            self.cancel()

    async def watch(self) -> None:
        """Background trigger for the time- and process-based points."""
        if self.kind == "delay":
            await anyio.sleep(self.value)
            self.cancel()
        elif self.kind == "tool":
            while not processes_where(cmdline_contains=self.marker):
                await anyio.sleep(0.02)
            self.cancel()

    async def check(self, expected_messages: int) -> None:
        """The outcome is a cancel or a clean end, and nothing is left running."""
        if self.kind in ("hook", "can_use_tool", "tool") or (self.kind == "message" and self.value < expected_messages):
            assert self.reached, f"cancel point {self.kind} never reached: {self.messages}"
            assert self.scope.cancelled_caught
        if not self.scope.cancelled_caught:
            # Not cancelled (a delay past the end, or k beyond the last message): a clean run.
            assert isinstance(self.messages[-1], ResultMessage), self.messages
            assert not self.messages[-1].is_error
        with anyio.fail_after(LEFTOVER_BOUND):
            while processes_where(cwd=self.dir) or processes_where(cmdline_contains=self.marker):
                await anyio.sleep(0.05)


async def _guarded(run: Run, body: Callable[[], Any]) -> None:
    """Run ``body`` and the trigger under the example's cancel scope (hang guard outside)."""
    with anyio.fail_after(60):
        with run.scope:
            async with anyio.create_task_group() as tg:
                tg.start_soon(run.watch)
                await body()
                tg.cancel_scope.cancel()  # the run ended first: stop the trigger


@SETTINGS
@given(point=cancel_points)
@example(point=("hook", 0.0))
@example(point=("can_use_tool", 0.0))
@example(point=("tool", 0.0))
@example(point=("message", 2.0))
async def test_cancelling_query_anywhere_leaves_no_process(point: CancelPoint, tmp_path: Path) -> None:
    run = Run(tmp_path, point)
    with ScriptedModel() as model:
        run.script(model, turns=1)
        options = run.options(model)

        async def body() -> None:
            async with aclosing(query(prompt="go", options=options)) as messages:
                async for message in messages:
                    run.seen(message)

        await _guarded(run, body)
        # init, assistant (tool_use), user (tool_result), assistant (text), result
        await run.check(expected_messages=5)


@SETTINGS
@given(point=cancel_points)
@example(point=("hook", 0.0))
@example(point=("can_use_tool", 0.0))
@example(point=("tool", 0.0))
@example(point=("message", 6.0))  # in the second turn
async def test_cancelling_client_anywhere_leaves_no_process(point: CancelPoint, tmp_path: Path) -> None:
    run = Run(tmp_path, point)
    with ScriptedModel() as model:
        run.script(model, turns=2)
        options = run.options(model)

        async def body() -> None:
            async with ClaudeSDKClient(options) as client:
                for prompt in ("go", "again"):
                    await client.query(prompt)
                    responses: AsyncIterator[Message] = client.receive_response()
                    async with aclosing(responses) as messages:  # type: ignore[type-var]
                        async for message in messages:
                            run.seen(message)

        await _guarded(run, body)
        # turn 1: init, assistant, user, assistant, result; turn 2: init, assistant, result
        await run.check(expected_messages=8)
