"""When a run is over, so that stdin may close.

A ``result`` ends one turn, not necessarily the run: a background agent that
is still working (or has just finished) wakes the binary for another turn,
and that turn's hooks, permission prompts and in-process tool calls need
stdin to get their answers. So a run whose callbacks need stdin keeps it
open until the binary itself says it has nothing more to do:

* the binary reports ``session_state_changed`` ``"idle"`` after a result
  (it sends these frames when ``CLAUDE_CODE_SDK_READS_SESSION_STATE`` is set
  in its environment, marked ``sdk_host_only``), or
* a binary that reports no state at all gives a result while no background
  agent we know of is in flight, or
* the ceiling passes: ``CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS`` (the binary's
  own bound on waiting for background work once stdin is closed) after a
  result with no new turn, while the binary still says ``"running"``.

``RunLedger`` holds that bookkeeping as plain state: the session feeds it the
frames it reads and asks it whether the run has ended and when the ceiling
is due. It does no I/O and starts no task; the session's pump checks the
deadline while it reads.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from claude_wrap._wire.shapes import TERMINAL_TASK_STATUSES

__all__ = ["CEILING_ENV", "DEFAULT_CEILING_MS", "AgentsInFlight", "RunLedger", "ceiling_ms"]

CEILING_ENV = "CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS"
DEFAULT_CEILING_MS = 600_000
# The longest wait honoured (about 24.8 days); it keeps huge values sane.
_MAX_CEILING_MS = 2**31 - 1

# Background work whose end wakes the binary for another turn and reliably
# reaches a terminal status. Shells and monitors may run forever, so waiting
# on them would hold stdin open for good; the binary bounds those itself.
_DEFERRING_TASK_TYPES = frozenset({"local_agent", "local_workflow"})


def ceiling_ms(options_env: Mapping[str, str]) -> int:
    """``CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS`` as the binary will see it:
    the options' ``env`` first, then ours. ``0`` means no limit; a value
    that is not a plain non-negative integer means the default (10 minutes)."""
    raw = options_env[CEILING_ENV] if CEILING_ENV in options_env else os.environ.get(CEILING_ENV)
    if raw is None:
        return DEFAULT_CEILING_MS
    try:
        value = int(raw)
    except (TypeError, ValueError):
        return DEFAULT_CEILING_MS
    return value if value >= 0 else DEFAULT_CEILING_MS


class AgentsInFlight:
    """The background agents the binary started and has not yet reported
    settled, from the ``system`` frames it sends (each frame's payload, in
    the order they came): while any is left, the binary will take another
    turn on its own once it settles."""

    def __init__(self) -> None:
        self._tasks: set[str] = set()

    def __bool__(self) -> bool:
        return bool(self._tasks)

    def track(self, data: Mapping[str, Any]) -> None:
        # Only lifecycle frames: ``background_tasks_changed`` lists the live
        # background set, which omits an agent that started in the foreground
        # and was moved to the background later.
        task_id = data.get("task_id")
        if not task_id:
            return
        subtype = data.get("subtype")
        if subtype == "task_started":
            if data.get("task_type") in _DEFERRING_TASK_TYPES:
                self._tasks.add(task_id)
        elif subtype == "task_notification":
            self._tasks.discard(task_id)
        elif subtype == "task_updated":
            patch = data.get("patch")
            if isinstance(patch, dict) and patch.get("status") in TERMINAL_TASK_STATUSES:
                self._tasks.discard(task_id)


class RunLedger:
    """What the binary has said about the run so far.

    ``needs_stdin``: the run has callbacks that answer over stdin; only then
    is the ceiling armed (otherwise stdin closes as soon as the prompts are
    written and the binary bounds its own wait).
    """

    def __init__(self, *, needs_stdin: bool, ceiling_ms: int = DEFAULT_CEILING_MS) -> None:
        self.needs_stdin = needs_stdin
        self.ceiling_s = min(ceiling_ms, _MAX_CEILING_MS) / 1000
        self.state: str | None = None
        """The binary's last reported session state (``None``: it reports none)."""
        self.ended = False
        """The run is over: the last prompt's work is done."""
        self.final = False
        """stdin is closed: the run stays ended whatever comes after."""
        self.turn_in_progress = False
        """A main-thread turn is under way (its output has started, its result
        has not come), whether a prompt or the binary itself started it."""
        self.ceiling_at: float | None = None
        """When the run ends anyway (``anyio.current_time()`` clock), if armed."""
        self._result_seen = False
        self._tasks = AgentsInFlight()

    @property
    def agents_in_flight(self) -> bool:
        """A background agent started and has not reached a terminal status."""
        return bool(self._tasks)

    # -- what we did -------------------------------------------------------------

    def prompt_written(self) -> None:
        """A prompt owes a run of its own: an earlier one having ended does not end it."""
        self._reopen()
        self._result_seen = False
        self.ceiling_at = None

    def input_closed(self) -> None:
        self.final = True
        self._end()

    # -- what the binary said ----------------------------------------------------

    def system(self, data: Mapping[str, Any], now: float) -> None:
        """A ``system`` frame (its whole payload)."""
        had_tasks = bool(self._tasks)
        self._tasks.track(data)
        if had_tasks and not self._tasks:
            # The last agent settled: the wait between turns starts over.
            self._rearm_between_turns(now)
        if data.get("subtype") == "session_state_changed":
            self._state_changed(data.get("state"), now)

    def result(self, now: float) -> None:
        self._result_seen = True
        self.turn_in_progress = False
        if self.state in (None, "idle") or not self.needs_stdin:
            self._maybe_end()
        elif self.state != "requires_action":
            # While we are answering a request the ceiling waits for the
            # "running" that follows.
            self._arm(now)

    def main_turn_output(self) -> None:
        """Output of a main-thread turn (an ``assistant`` or ``stream_event``
        frame without a parent tool use): the run is not over, and the
        ceiling, which counts only the wait between turns, stops."""
        self.turn_in_progress = True
        self._reopen()
        self.ceiling_at = None

    def ceiling_passed(self) -> None:
        """Called once ``now >= ceiling_at``."""
        self.ceiling_at = None
        if not self._tasks:  # a live agent may still need stdin; re-armed when it settles
            self._end()

    # -- internals ------------------------------------------------------------------

    def _state_changed(self, state: Any, now: float) -> None:
        self.state = state if isinstance(state, str) else None
        if state == "idle":
            if self._result_seen:
                self._maybe_end()
            return
        # Work the binary took up on its own (a finished agent woke it)
        # reopens the run until the next "idle".
        self._reopen()
        if state == "requires_action":
            self.ceiling_at = None  # we are answering a request; stdin must outlast it
        else:
            self._rearm_between_turns(now)

    def _maybe_end(self) -> None:
        if not self._tasks:
            self._end()

    def _end(self) -> None:
        self.ceiling_at = None
        self.ended = True

    def _reopen(self) -> None:
        if self.ended and not self.final:
            self.ended = False

    def _arm(self, now: float) -> None:
        self.ceiling_at = None
        if self.ceiling_s <= 0 or self.ended or self.turn_in_progress or not self.needs_stdin:
            return
        self.ceiling_at = now + self.ceiling_s

    def _rearm_between_turns(self, now: float) -> None:
        if self._result_seen and self.state not in (None, "idle", "requires_action"):
            self._arm(now)
