"""``NodeWorker``: runs a batch's tasks on one node.

One per node (the local backend: this process; the Ray backend: one actor
per node). It finds the binary once, when it starts (the bundled binary of
a platform wheel, else the verified cache, fetched into it if missing), and
keeps a warm :class:`~claude_wrap.ClaudePool` for the batch's options,
started when the first task that can use it arrives. ``serve()`` owns the
pool: it runs until ``stop()``.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import socket
import sys
import time
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.abc

from claude_wrap._exceptions import CLINotFoundError
from claude_wrap._fleet.journal import Finished, TaskRecord
from claude_wrap._fleet.rate import Pacer
from claude_wrap._fleet.runner import Attempt, Emit, run_attempt
from claude_wrap._fleet.types import BudgetExceededError, FleetError, Task
from claude_wrap._launch.options import ClaudeAgentOptions, copy_with
from claude_wrap._lazy import publish
from claude_wrap._pool import ClaudePool
from claude_wrap._process.binary import binary_info
from claude_wrap._run.mirror import StoredToolCalls
from claude_wrap._run.protocol import Connection
from claude_wrap._wire.hooks import HookContext, HookJSONOutput, HookMatcher

__all__ = ["NodeInfo", "NodeWorker", "node_binary", "tasks_log"]

log = logging.getLogger("claude_wrap")
tasks_log = logging.getLogger("claude_wrap.fleet")
"""What each task did on this node, a line as it starts and one as it ends
(INFO; a Ray node's worker writes them to its log)."""


@dataclass(frozen=True)
class NodeInfo:
    """A node of a batch, as its worker found it."""

    name: str
    """``"local"``, or the Ray node id."""
    host: str
    pid: int
    """The process that runs the node's tasks (their binaries are its children)."""
    binary: str
    binary_source: str
    """Where the binary came from: ``bundled`` (a platform wheel), ``cache``
    (the verified cache), ``cli_path``, ``env`` (``CLAUDE_WRAP_CLI``) or ``path``."""


def node_binary(options: ClaudeAgentOptions) -> tuple[str, str]:
    """The binary for this node, fetched into the verified cache if need be."""
    try:
        info = binary_info(options.cli_path, prefer_path=options.prefer_path, version=False)
    except CLINotFoundError:
        if options.cli_path is not None:
            raise
        from claude_wrap._process.fetch import ensure_binary

        ensure_binary()
        info = binary_info(None, prefer_path=options.prefer_path, version=False)
    return os.fspath(info.path), info.source


def _tool_gate(calls: StoredToolCalls, limit: float) -> HookMatcher:
    """A PreToolUse hook that holds each tool's start until its call is in
    the session store, so that a node lost while the tool runs leaves the
    call on record: the retry shows it to the model as cut off rather than
    asking again (a tool whose effect comes first would run twice).

    It has no opinion on the call: whatever the user's hooks and
    permissions decide stands. A store that does not confirm the call
    within ``limit`` seconds lets the tool start all the same (with a
    warning): the run is not held up by a store that is down."""

    async def until_recorded(hook_input: Any, tool_use_id: str | None, context: HookContext) -> HookJSONOutput:
        if tool_use_id and not await calls.wait(tool_use_id, limit):
            log.warning(
                "claude_wrap: tool call %s is not in the session store after %g s; it runs unrecorded",
                tool_use_id,
                limit,
            )
        return {}

    return HookMatcher(hooks=[until_recorded])


def _pacing(pacer: Pacer) -> HookMatcher:
    """A PreToolUse hook that starts no tool while the batch's request
    budget is spent: the tool's result is the next request's (no opinion
    on the call either)."""

    async def paced(hook_input: Any, tool_use_id: str | None, context: HookContext) -> HookJSONOutput:
        await pacer.wait()
        return {}

    return HookMatcher(hooks=[paced])


def _ending(finished: Finished, seconds: float) -> str:
    """How an attempt ended, for the node's log."""
    result = finished.result
    if finished.error is not None:
        how = f"ended with {type(finished.error).__name__}: {finished.error}"
    elif result is not None and result.is_error:
        status = f" {result.api_error_status}" if result.api_error_status else ""
        text = (result.result or result.subtype).splitlines()[0][:120]
        how = f"ended with an error{status}: {text}"
    else:
        how = "done"
    turns = finished.num_turns
    spent = f"{turns} turn{'' if turns == 1 else 's'}, ${finished.cost_usd:.4f}"
    session = f", session {finished.session_id}" if finished.session_id else ""
    return f"{how} after {seconds:.1f} s ({spent}{session})"


class NodeWorker:
    """Runs tasks on this node (see the module docstring).

    ``warm``: pool members kept ready (0: every task starts its binary).
    ``durable``: mirror each transcript frame to the session store as it
    comes, and start no tool before its call is in the store, so a task can
    go on elsewhere if this node is lost.
    """

    def __init__(
        self,
        options: ClaudeAgentOptions,
        *,
        name: str,
        warm: int,
        track_cost: bool,
        durable: bool = False,
        pacer: Pacer | None = None,
    ) -> None:
        self.name = name
        self._pacer = pacer
        self.info: NodeInfo | None = None
        self._base = options
        self._options = options
        self._warm = warm
        self._track_cost = track_cost
        self._durable = durable
        self._attempts: dict[int, Attempt] = {}
        self._pool: ClaudePool | None = None
        self._want_pool = False
        self._stopping = False
        self._changed: anyio.Event | None = None
        self._recorded = StoredToolCalls()

    def _notify(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = anyio.Event()

    async def _wait(self) -> None:
        assert self._changed is not None
        await self._changed.wait()

    # -- lifecycle ----------------------------------------------------------------

    async def serve(self, *, task_status: anyio.abc.TaskStatus[NodeInfo] = anyio.TASK_STATUS_IGNORED) -> None:
        """Find the binary, then hold the pool (once a task wants it) until ``stop()``."""
        self._changed = anyio.Event()
        with self._recorded.watching():
            await self._serve(task_status)

    async def _serve(self, task_status: anyio.abc.TaskStatus[NodeInfo]) -> None:
        binary, source = await anyio.to_thread.run_sync(node_binary, self._base)
        self._options = self.prepare(self._base, binary)
        self.info = NodeInfo(self.name, socket.gethostname(), os.getpid(), binary, source)
        task_status.started(self.info)
        while not (self._stopping or self._want_pool):
            await self._wait()
        if self._stopping or not self._warm:
            return
        async with ClaudePool(self._options, size=self._warm) as pool:
            self._pool = pool
            self._notify()
            while not self._stopping:
                await self._wait()
        self._pool = None

    def stop(self) -> None:
        """Cancel every running task and let ``serve()`` close the pool."""
        self._stopping = True
        for attempt in self._attempts.values():
            attempt.cancel(FleetError("the batch was stopped"))
        self._notify()

    @property
    def running(self) -> int:
        """Attempts still running (a cancelled one until its binary stopped)."""
        return len(self._attempts)

    def prepare(self, options: ClaudeAgentOptions, binary: str | None = None) -> ClaudeAgentOptions:
        """``options`` as this node runs them: its binary, and under
        ``durable`` every transcript frame mirrored as it comes."""
        changes: dict[str, object] = {}
        binary = binary or (self.info.binary if self.info is not None else None)
        if options.cli_path is None and options.prefer_path is None and binary is not None:
            changes["cli_path"] = binary
        gates: list[HookMatcher] = []
        if self._durable and options.session_store is not None:
            changes["session_store_flush"] = "eager"
            # A flush is bounded by its timeout, retries included; the gate
            # waits for one flush after the call's frame arrives.
            gates.append(_tool_gate(self._recorded, 2 * options.session_store_flush_timeout))
        if self._pacer is not None:
            gates.append(_pacing(self._pacer))
        if gates:
            hooks = dict(options.hooks or {})
            hooks["PreToolUse"] = [*hooks.get("PreToolUse", []), *gates]
            changes["hooks"] = hooks
        return copy_with(options, **changes) if changes else options

    # -- tasks --------------------------------------------------------------------------

    async def _take_member(self) -> Connection:
        self._want_pool = True
        self._notify()
        while self._pool is None:
            if self._stopping:
                raise FleetError("the batch was stopped")
            await self._wait()
        return await self._pool._take()

    async def run(self, index: int, task: Task, record: TaskRecord, emit: Emit) -> Finished:
        """Run one attempt at ``task``; never raises but for cancellation."""
        if task.options is not None:
            task = dataclasses.replace(task, options=self.prepare(task.options))
        attempt = Attempt()
        self._attempts[index] = attempt
        if self._stopping:
            attempt.cancel(FleetError("the batch was stopped"))
        which = f"task {index} ({task.label}) attempt {record.attempts}"
        if record.session_id is not None:
            which += f", session {record.session_id}"
        tasks_log.info("node %s: %s started", self.name, which)
        began = time.monotonic()
        try:
            finished = await run_attempt(
                index,
                task,
                record,
                attempt,
                options=self._options,
                take_member=self._take_member if self._warm else None,
                emit=emit,
                track_cost=self._track_cost,
                pacer=self._pacer,
            )
        finally:
            del self._attempts[index]
        tasks_log.info("node %s: %s %s", self.name, which, _ending(finished, time.monotonic() - began))
        return finished

    def cancel(self, index: int, reason: BaseException) -> None:
        """Stop the task at ``index`` (if it runs here); its outcome's error is
        ``reason``. The budget lets a turn that has its answer finish."""
        attempt = self._attempts.get(index)
        if attempt is not None:
            attempt.cancel(reason, soft=isinstance(reason, BudgetExceededError))


publish(sys.modules[__name__], ["NodeInfo"], "claude_wrap.fleet")
