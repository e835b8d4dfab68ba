"""One attempt at a task, on the node that runs it.

Every task drives a :class:`TaskClient`: a prompt task sends its prompt and
reads through the result, a ``run`` function does what it likes. The client
reports the attempt to the batch as it goes (``_journal`` events): the
session id once known, each prompt just before it is written, each turn's
end, and, under a budget, the running cost after each model reply. On a
retry it answers the turns recorded before from the record, and lets the
resumed binary run a cut-off turn on by itself (see ``_resume``).
"""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import AsyncGenerator, AsyncIterable, Awaitable, Callable
from contextlib import aclosing
from typing import Any

import anyio
import anyio.lowlevel

from claude_wrap._client import ClaudeSDKClient
from claude_wrap._exceptions import ClaudeSDKError
from claude_wrap._fleet.journal import (
    CostSoFar,
    Event,
    Finished,
    NotReplayable,
    PromptSending,
    SessionStarted,
    TaskRecord,
    Turn,
    TurnEnded,
)
from claude_wrap._fleet.rate import Pacer
from claude_wrap._fleet.resume import Plan, plan_attempt, resumed_options
from claude_wrap._fleet.types import ReplayError, Task
from claude_wrap._launch.options import ClaudeAgentOptions
from claude_wrap._run.protocol import Connection
from claude_wrap._run.run_end import AgentsInFlight
from claude_wrap._wire.messages import (
    AssistantMessage,
    Message,
    ResultMessage,
    SystemMessage,
    TaskNotificationMessage,
)

__all__ = ["Attempt", "TaskClient", "run_attempt"]

Emit = Callable[[Event], Awaitable[None]]

# Asking for the cost after a reply: first after 10 ms, then twice as long
# each time, at most 0.25 s apart, for at most 10 s.
_COST_POLL_FIRST = 0.01
_COST_POLL_MAX = 0.25
_COST_POLL_LIMIT = 10.0
# A stop that lets an answered turn finish gives its result this long (the
# binary's Stop hooks run between the final reply and the result).
_ANSWERED_GRACE = 30.0


class _Journal:
    """The attempt's side of the task's record."""

    def __init__(
        self,
        index: int,
        plan: Plan,
        emit: Emit,
        attempt: Attempt,
        *,
        keep_messages: bool,
        track_cost: bool,
        pacer: Pacer | None = None,
    ) -> None:
        self.index = index
        self.pacer = pacer
        self._replies: set[str] = set()
        """The ids of the model replies spent from the pacer's budget."""
        self.attempt = attempt
        self.emit = emit
        self.keep_messages = keep_messages
        self.track_cost = track_cost
        self.replay: deque[Turn] = deque(plan.replay)
        self.rerun = plan.rerun
        self.nudge = plan.nudge
        self.served: Turn | None = None
        self.turn: str | None = None  # the prompt of the live turn
        self.collected: list[Message] = []
        self.results: list[ResultMessage] = []
        self.session_id = plan.resume
        self.cost = 0.0
        self.num_turns = 0
        self.replayable = True
        self.stopped_at: int | None = None
        """How many results had come when a soft stop interrupted the turn."""
        self.cut = False
        """The soft stop ended background work of the task's (an agent)."""
        self._replied = anyio.Event()
        """Set by each model reply while the cost is tracked; `watch_cost` takes it."""
        self.agents = AgentsInFlight()
        """Background agents at work, as far as the messages read so far say."""

    def replays(self, prompt: Any) -> bool:
        """Whether ``prompt`` is a turn recorded before (then served from the record)."""
        if not self.replay:
            return False
        expected = self.replay[0].prompt
        if prompt != expected:
            raise ReplayError(
                f"on its retry the task function sent {prompt!r} where it sent {expected!r} before; "
                "a function that is retried must send the same prompts in the same order"
            )
        self.served = self.replay.popleft()
        return True

    def take_rerun(self, prompt: Any) -> str | None:
        """``prompt`` is the one whose turn goes on in the resumed session:
        what to send for it (``None``: the binary runs it on by itself)."""
        if prompt != self.rerun:
            raise ReplayError(f"on its retry the task function sent {prompt!r}, not the interrupted {self.rerun!r}")
        self.rerun = None
        if self.nudge is None:
            self.turn = prompt
        return self.nudge

    async def not_replayable(self) -> None:
        if self.replayable:
            self.replayable = False
            await self.emit(NotReplayable(self.index))

    async def observe(self, client: ClaudeSDKClient, message: Message) -> None:
        sid = (
            message.data.get("session_id")
            if isinstance(message, SystemMessage)
            else getattr(message, "session_id", None)
        )
        if isinstance(sid, str) and sid and sid != self.session_id:
            self.session_id = sid
            await self.emit(SessionStarted(self.index, sid))
        if self.turn is not None and self.keep_messages:
            self.collected.append(message)
        if isinstance(message, SystemMessage):
            self.agents.track(message.data)
            if (
                isinstance(message, TaskNotificationMessage)
                and message.status == "stopped"
                and self.stopped_at is not None
            ):
                self.cut = True  # the stop's interrupt ended background work
            if self.pacer is not None:
                _pace_retry(self.pacer, message.data)
        elif isinstance(message, AssistantMessage):
            if self.track_cost:
                self._replied.set()
            if self.pacer is not None:
                self._spend(self.pacer, message)
        if isinstance(message, ResultMessage):
            self.results.append(message)
            self.num_turns += message.num_turns
            self.cost = max(self.cost, message.total_cost_usd or 0.0)
            prompt, self.turn = self.turn, None
            messages, self.collected = self.collected, []
            if prompt is not None:
                await self.emit(TurnEnded(self.index, prompt, messages, self.cost, self.num_turns))

    def _spend(self, pacer: Pacer, message: AssistantMessage) -> None:
        # A reply comes as one frame per content block, each with its usage.
        key = message.message_id or message.uuid or str(id(message))
        if key in self._replies:
            return
        self._replies.add(key)
        usage = message.usage or {}
        tokens = sum(
            value
            for name in ("input_tokens", "cache_creation_input_tokens", "output_tokens")
            if isinstance(value := usage.get(name), int)
        )
        pacer.spent(1, tokens)

    def interrupted(self) -> bool:
        """Whether a soft stop cut a turn, or the task's background agents,
        short (a turn that ended by itself first has a successful result)."""
        if self.stopped_at is None:
            return False
        return self.cut or any(r.is_error or r.subtype != "success" for r in self.results[self.stopped_at :])

    async def watch_cost(self, client: ClaudeSDKClient) -> None:
        """Report the binary's running cost after each model reply, for the
        batch's budget; runs beside the task's work until it ends.

        The binary writes a reply's message as its content arrives and counts
        the reply's cost only when the whole API response is in, which can be
        later (a slow stream, a busy machine). So after a reply the total is
        asked for until it grows, or the turn ends, or the next reply takes
        over; the reading of messages never waits for it."""
        while self.track_cost:
            await self._replied.wait()
            self._replied = anyio.Event()
            results = len(self.results)
            delay = _COST_POLL_FIRST
            with anyio.move_on_after(_COST_POLL_LIMIT):  # a reply that costs nothing
                while not await self._probe_cost(client):
                    if self._replied.is_set() or len(self.results) != results:
                        break  # superseded: a new reply, or the turn's result has the total
                    await anyio.sleep(delay)
                    delay = min(delay * 2, _COST_POLL_MAX)

    async def _probe_cost(self, client: ClaudeSDKClient) -> bool:
        """Ask the binary for its running total; True if it grew (and was reported)."""
        try:
            usage = await client.get_usage()
        except ClaudeSDKError:
            return True  # a dying binary: its end is reported elsewhere
        cost = usage.get("session", {}).get("total_cost_usd")
        if isinstance(cost, (int, float)) and cost > self.cost:
            self.cost = float(cost)
            await self.emit(CostSoFar(self.index, self.cost))
            return True
        return False


class TaskClient(ClaudeSDKClient):
    """The client a task drives: a :class:`~claude_wrap.ClaudeSDKClient`
    whose turns are reported to the batch (and on a retry, answered from
    the record where they ended before)."""

    _journal: _Journal

    async def query(
        self,
        prompt: str | AsyncIterable[dict[str, Any]],
        session_id: str = "default",
        *,
        uuid: str | None = None,
    ) -> None:
        journal = self._journal
        if journal.replays(prompt):
            return
        await journal.attempt.next_turn()
        text = prompt
        if journal.rerun is not None:
            nudge = journal.take_rerun(prompt)
            if nudge is None:
                return
            text = nudge
        if journal.pacer is not None:
            await journal.pacer.wait()  # the prompt's request is the next to go
        if not isinstance(prompt, str) or not isinstance(text, str) or journal.turn is not None:
            # Several prompts in one turn, or frames: a retry could not tell
            # which of them the model saw.
            await journal.not_replayable()
            await super().query(text, session_id, uuid=uuid)
            return
        tag = uuid if uuid is not None else _new_uuid()
        await journal.emit(PromptSending(journal.index, prompt, tag))
        await super().query(text, session_id, uuid=tag)
        journal.turn = prompt

    async def _receive(self, *, through_result: bool) -> AsyncGenerator[Message, None]:
        journal = self._journal
        served, journal.served = journal.served, None
        if served is not None:
            for message in served.messages:
                yield message
            if through_result:
                return
        # Closed with this generator (a receive left early is closed in
        # place, see _client._Stream), so the inner one is never left to
        # the event loop's finalizer.
        async with aclosing(super()._receive(through_result=through_result)) as messages:
            async for message in messages:
                await journal.observe(self, message)
                yield message


def _pace_retry(pacer: Pacer, data: dict[str, Any]) -> None:
    """A retry the binary reports was a request too; a rate-limited one
    holds the whole batch for the delay the binary waits."""
    if data.get("subtype") != "api_retry":
        return
    pacer.spent(1, 0)
    delay = data.get("retry_delay_ms")
    if data.get("error_status") == 429 and isinstance(delay, (int, float)):
        pacer.held(delay / 1000)


def _new_uuid() -> str:
    return str(uuid.uuid4())


def _one_prompt(prompt: str, prompt_uuid: str | None) -> Callable[[TaskClient], Awaitable[None]]:
    """A prompt task's work: its prompt's run, as ``query()`` would see it.

    A background agent still at work when the turn ends wakes the binary
    for another turn once it settles (``query()`` reads on through it); the
    task ends with the last such turn's result, not with its agents cut
    off at the first."""

    async def one_prompt(client: TaskClient) -> None:
        journal = client._journal
        await client.query(prompt, uuid=prompt_uuid)
        async for _ in client.receive_response():
            pass
        while journal.agents:
            async for _ in client.receive_response():
                if not journal.agents and journal.attempt.softly.is_set():
                    # The stop's interrupt ended them: the binary takes no
                    # further turn, so none is waited for.
                    await journal.attempt.next_turn()

    return one_prompt


class Attempt:
    """A running attempt, as the worker sees it: cancel it with a reason."""

    def __init__(self) -> None:
        self.scope = anyio.CancelScope()
        self.reason: BaseException | None = None
        self.softly = anyio.Event()
        """Set by a soft ``cancel``: the binary is to interrupt its turn."""

    def cancel(self, reason: BaseException, *, soft: bool = False) -> None:
        """Stop the attempt; ``reason`` becomes its outcome's error.

        ``soft``: the binary is asked to interrupt its turn, and the attempt
        ends with the turn's result; a turn that had its answer already ends
        as it would have, and the task is reported done, not stopped (the
        binary alone knows whether the model's reply was its last). The
        attempt's next prompt, if any, is not sent."""
        if self.reason is None:
            self.reason = reason
        if soft and not self.scope.cancel_called:
            self.softly.set()
            return
        self.scope.cancel()

    async def next_turn(self) -> None:
        """A prompt is about to go out: not after a soft stop."""
        if self.softly.is_set():
            self.scope.cancel()
            await anyio.lowlevel.checkpoint()


async def _stop_softly(attempt: Attempt, client: TaskClient, journal: _Journal) -> None:
    """Beside the task's work: on a soft stop, interrupt the binary's turn
    and give its result ``_ANSWERED_GRACE`` to come."""
    await attempt.softly.wait()
    journal.stopped_at = len(journal.results)
    with anyio.move_on_after(_ANSWERED_GRACE):
        try:
            await client.interrupt()
        except ClaudeSDKError:
            pass  # a binary that is going away: its end is reported elsewhere
    attempt.scope.deadline = min(attempt.scope.deadline, anyio.current_time() + _ANSWERED_GRACE)


async def run_attempt(
    index: int,
    task: Task,
    record: TaskRecord,
    attempt: Attempt,
    *,
    options: ClaudeAgentOptions,
    take_member: Callable[[], Awaitable[Connection]] | None,
    emit: Emit,
    track_cost: bool,
    pacer: Pacer | None = None,
) -> Finished:
    """Run ``task`` once; every error becomes the ``Finished`` event's
    (cancelling the attempt too: its reason is the error)."""
    journal: _Journal | None = None
    client: TaskClient | None = None
    value: Any = None
    error: BaseException | None = None
    try:
        with attempt.scope:
            plan = await plan_attempt(task, record, options)
            if plan.lost is not None:
                raise plan.lost
            journal = _Journal(
                index, plan, emit, attempt, keep_messages=task.run is not None, track_cost=track_cost, pacer=pacer
            )
            client = await _connect(task, plan, options, take_member, retry=record.attempts > 1)
            client._journal = journal
            if task.run is not None:
                work = task.run(client)
            else:  # in a resumed session the prompt's uuid is taken already
                work = _one_prompt(task.prompt or "", record.prompt_uuid if plan.resume is None else None)(client)
            value = await _beside(work, journal.watch_cost(client), _stop_softly(attempt, client, journal))
    except Exception as exc:  # noqa: BLE001 - the task's error is its outcome
        error = exc
    finally:
        if client is not None:
            await client.disconnect()  # shielded and bounded inside
    results = journal.results if journal is not None else []
    if journal is not None and journal.interrupted():
        error = attempt.reason
        results = results[: journal.stopped_at]  # the stop's own result says only that it stopped
    elif attempt.scope.cancelled_caught:
        error = attempt.reason
    return Finished(
        index=index,
        result=results[-1] if results else None,
        error=error,
        value=value,
        cost_usd=journal.cost if journal is not None else 0.0,
        num_turns=journal.num_turns if journal is not None else 0,
        session_id=journal.session_id if journal is not None else record.session_id,
    )


async def _beside(work: Awaitable[Any], *helpers: Awaitable[None]) -> Any:
    """The result of ``work`` (or its exception, as it is), with ``helpers``
    running beside it until ``work`` ends."""
    outcome: list[Any] = []
    failure: list[BaseException] = []

    async def run_work() -> None:
        try:
            outcome.append(await work)
        except Exception as exc:  # noqa: BLE001 - raised below, outside the task group
            failure.append(exc)
        finally:
            tg.cancel_scope.cancel()

    async def run_helper(helper: Awaitable[None]) -> None:
        await helper

    async with anyio.create_task_group() as tg:
        for helper in helpers:
            tg.start_soon(run_helper, helper)
        tg.start_soon(run_work)
    if failure:
        raise failure[0]
    return outcome[0] if outcome else None


async def _connect(
    task: Task,
    plan: Plan,
    options: ClaudeAgentOptions,
    take_member: Callable[[], Awaitable[Connection]] | None,
    *,
    retry: bool,
) -> TaskClient:
    """A warm member of the node's pool when the task runs on the batch's
    options in a fresh session, else a binary of its own."""
    if plan.resume is None and task.options is None and take_member is not None:
        client = TaskClient._adopt(await take_member(), options)
        assert isinstance(client, TaskClient)
        return client
    own = task.options if task.options is not None else options
    if plan.resume is not None:
        own = resumed_options(own, plan.resume, "node_lost" if retry else "resumed")
    client = TaskClient(own)
    await client.connect()
    return client
