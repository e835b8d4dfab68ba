"""What a batch takes and gives: ``Task``, ``Outcome``, ``FleetStats`` and the
fleet's errors."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claude_wrap._exceptions import ClaudeSDKError
from claude_wrap._launch.options import ClaudeAgentOptions
from claude_wrap._lazy import publish
from claude_wrap._wire.messages import ResultMessage

if TYPE_CHECKING:
    from claude_wrap._client import ClaudeSDKClient

__all__ = [
    "BatchBusyError",
    "BudgetExceededError",
    "FleetError",
    "FleetStats",
    "NodeLostError",
    "Outcome",
    "ReplayError",
    "Task",
    "TaskFunction",
    "TaskLostError",
]

TaskFunction = Callable[["ClaudeSDKClient"], Awaitable[Any]]
"""``async def work(client) -> value``: drives a connected client for a task."""


class FleetError(ClaudeSDKError):
    """A batch could not run a task, or could not run at all."""


class BudgetExceededError(FleetError):
    """The batch's ``budget_usd`` was spent: the task was stopped, or never started."""


class BatchBusyError(FleetError):
    """Another driver runs the batch of this ``batch_id`` (its lease in the
    batch journal has not expired)."""


class NodeLostError(FleetError):
    """The node running the task was lost, and the task could not go on elsewhere."""


class TaskLostError(FleetError):
    """A retried task's last turn had ended on the lost node, but its result
    never arrived: the session holds the answer (see ``Outcome.session_id``)."""


class ReplayError(FleetError):
    """A retried task function sent a prompt other than the one it sent
    before at that point, so its recorded turns cannot stand in for the model."""


@dataclass(frozen=True)
class Task:
    """One unit of work for :func:`claude_wrap.fleet.run_many`.

    Either a ``prompt`` (one turn: the task ends at its ``ResultMessage``,
    or, as with ``query()``, at the result of the turn the binary takes
    once the background agents that turn started have settled) or a ``run``
    function, ``async def run(client) -> value``, that drives a connected
    :class:`~claude_wrap.ClaudeSDKClient` for several turns (its client
    disconnects when it returns, agents still at work or not); its return
    value becomes ``Outcome.value``. A plain string in the tasks
    iterable is ``Task(prompt)``.

    ``options`` replace the batch's options for this task (another ``cwd``,
    another model ...); such a task starts its own binary instead of taking
    a warm one. ``resume`` continues an earlier attempt at a prompt task
    (its ``Outcome.session_id``) from its session: a turn that was cut off
    runs on from where it stopped, otherwise the prompt is sent as a new
    turn of that session. ``name`` labels the task (default: the start of
    the prompt, or the function's name).
    """

    prompt: str | None = None
    options: ClaudeAgentOptions | None = None
    run: TaskFunction | None = None
    resume: str | None = None
    name: str | None = None

    def __post_init__(self) -> None:
        if (self.prompt is None) == (self.run is None):
            raise ValueError("a Task takes a prompt or a run function (exactly one of them)")
        if self.prompt is not None and not isinstance(self.prompt, str):
            raise TypeError(f"Task.prompt must be a string, got {type(self.prompt).__name__}")
        if self.run is not None and not callable(self.run):
            raise TypeError(f"Task.run must be an async function taking a client, got {self.run!r}")
        if self.resume is not None and self.prompt is None:
            raise ValueError("Task.resume continues a prompt task; a run function resumes with its own options")
        if self.options is not None and not isinstance(self.options, ClaudeAgentOptions):
            raise TypeError(f"Task.options must be ClaudeAgentOptions, got {type(self.options).__name__}")

    @property
    def label(self) -> str:
        """``name``, or what the task is (shortened)."""
        if self.name is not None:
            return self.name
        if self.prompt is not None:
            line = self.prompt.strip().splitlines()[0] if self.prompt.strip() else ""
            return line if len(line) <= 40 else line[:39] + "…"
        return getattr(self.run, "__name__", "task")


@dataclass
class Outcome:
    """How one task ended. Exactly one per task, in the order tasks finish."""

    index: int
    """The task's position in the tasks iterable."""
    task: Task
    result: ResultMessage | None = None
    """The last ``ResultMessage`` of the task's conversation (``None`` if
    it got none: stopped, failed to start ...)."""
    error: BaseException | None = None
    """Why the task did not finish (``None`` when it did; an error *result*
    is ``result.is_error`` instead): ``BudgetExceededError``,
    ``NodeLostError``, or what the task raised."""
    value: Any = None
    """What a ``run`` function returned."""
    session_id: str | None = None
    """The task's session (the last one, when it was resumed); resumable."""
    total_cost_usd: float = 0.0
    """What the task cost, over all its attempts, as the binary counts it."""
    num_turns: int = 0
    """Model turns over all attempts."""
    duration_ms: int = 0
    """From the first attempt's start to the end, in this process's clock."""
    attempts: int = 0
    """How many times the task was started (0: never; 2: once more after a lost node)."""
    node: str | None = None
    """Where it ran last (``"local"``, or the Ray node id)."""
    recorded: bool = False
    """True when an earlier driver of the batch (same ``batch_id``) finished
    the task: this outcome is the batch journal's, and nothing ran now."""

    @property
    def ok(self) -> bool:
        """True when the task ended with a result that is not an error."""
        return self.error is None and self.result is not None and not self.result.is_error

    @property
    def output(self) -> Any:
        """The result's ``structured_output`` if it has one, else its text
        (``None`` without a result)."""
        if self.result is None:
            return None
        if self.result.structured_output is not None:
            return self.result.structured_output
        return self.result.result


@dataclass(frozen=True)
class FleetStats:
    """Where a batch stands (what the progress display shows)."""

    total: int | None
    """Tasks in the batch, when the tasks iterable has a length."""
    finished: int
    """Outcomes reported so far."""
    failed: int
    """Of those, the ones that are not ``ok``."""
    running: int
    cost_usd: float
    """Spent so far, running tasks included (as far as they reported)."""
    elapsed_s: float
    nodes: int = 1
    """Nodes alive that run the batch's tasks."""
    retried: int = 0
    """Attempts started again: after a lost node, or after a retryable API error."""


def whole_count(value: Any, name: str, unit: str) -> int:
    """``value``, an argument that counts ``unit`` (0 or more); ``ValueError`` otherwise."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name} must be a number of {unit} (0 or more), got {value!r}")
    return value


# Shown, and pickled (to Ray nodes and back), as public names of claude_wrap.fleet.
publish(sys.modules[__name__], __all__, "claude_wrap.fleet")
