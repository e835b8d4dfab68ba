"""What a task's attempt tells the batch while it runs, and what the batch
keeps of it so a retry on another node can go on from there.

Events travel from the node running the attempt to the batch (across a
process boundary on Ray, so they are small, picklable dataclasses). The
batch folds them into the task's ``TaskRecord``; a retry gets the record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from claude_wrap._wire.messages import Message, ResultMessage

__all__ = [
    "CostSoFar",
    "Event",
    "Finished",
    "NotReplayable",
    "Pending",
    "PromptSending",
    "SessionStarted",
    "TaskRecord",
    "Turn",
    "TurnEnded",
]


@dataclass(frozen=True)
class Turn:
    """A turn that ended: its prompt and the messages through its result."""

    prompt: str
    messages: list[Message]


@dataclass(frozen=True)
class Pending:
    """A prompt that was (about to be) sent and whose turn has not ended."""

    prompt: str
    uuid: str | None
    """The uuid it was sent with, by which the transcript shows whether it
    reached the binary (``None``: unknown, for ``Task.resume``)."""


@dataclass
class TaskRecord:
    """What the batch knows of a task's attempts so far."""

    session_id: str | None = None
    prompt_uuid: str | None = None
    """The uuid a prompt task's prompt goes out with, chosen by the batch
    before the first attempt: a retry finds the session by it in the store
    when the lost node never got to say which session it started."""
    turns: list[Turn] = field(default_factory=list)
    """Ended turns of a ``run`` function, answered from here on a retry."""
    pending: Pending | None = None
    replayable: bool = True
    """False once the function did something a retry cannot stand in for
    (a prompt that is not a string, two prompts at once)."""
    cost_usd: float = 0.0
    """Spent by the attempts that ended (lost ones as far as they reported)."""
    num_turns: int = 0
    attempts: int = 0

    def fold(self, event: Event) -> None:
        """Take in what the running attempt reported."""
        if isinstance(event, SessionStarted):
            self.session_id = event.session_id
        elif isinstance(event, PromptSending):
            self.pending = Pending(event.prompt, event.uuid)
        elif isinstance(event, TurnEnded):
            self.pending = None
            if event.messages:
                self.turns.append(Turn(event.prompt, event.messages))
        elif isinstance(event, NotReplayable):
            self.replayable = False


# -- events ------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    index: int


@dataclass(frozen=True)
class SessionStarted(Event):
    session_id: str


@dataclass(frozen=True)
class PromptSending(Event):
    """Sent before the prompt is written, so a loss right after it still
    knows which prompt may have reached the binary."""

    prompt: str
    uuid: str


@dataclass(frozen=True)
class TurnEnded(Event):
    prompt: str
    messages: list[Message]
    """Empty for a prompt task (nothing to answer from on a retry)."""
    cost_usd: float
    """This attempt's spending so far (the binary's running total)."""
    num_turns: int


@dataclass(frozen=True)
class CostSoFar(Event):
    """This attempt's spending so far, while a turn runs (with a budget)."""

    cost_usd: float


@dataclass(frozen=True)
class NotReplayable(Event):
    pass


@dataclass(frozen=True)
class Finished(Event):
    """The attempt is over (and its binary stopped)."""

    result: ResultMessage | None
    error: BaseException | None
    value: Any
    cost_usd: float
    num_turns: int
    session_id: str | None
