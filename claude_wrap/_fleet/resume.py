"""How an attempt starts: a fresh session, or the task's session resumed.

A retry (after a lost node) or ``Task.resume`` looks at the session's
transcript, in the session store (or on this host's disk without one), to
see how far the task got:

* no transcript: nothing reached the binary, or nothing was kept of it:
  a fresh session, from the start;
* the pending prompt's turn was cut off (its process died): the session is
  resumed and the binary runs the turn on by itself (its interrupted-turn
  recovery, ``CLAUDE_CODE_RESUME_INTERRUPTED_TURN``). The model gets the
  transcript as it was, a tool call that had not recorded its result shown
  as cut off with an unknown outcome (``CLAUDE_CODE_RESUME_SHOWS_CUT_OFF_CALLS``),
  and "Continue from where you left off.";
* the pending prompt's turn was stopped (the budget, a cancelled batch):
  the binary recorded the interruption, and resumed, waits for a prompt:
  it gets "Continue from where you left off." (``CLAUDE_CODE_RESUME_PROMPT``
  in the options' ``env`` changes the text) in place of the task's prompt;
* the pending prompt's turn failed on an API error (the fleet tries such a
  turn again): as for a cut-off turn, the resumed binary runs it on by
  itself;
* the pending prompt's turn ended: the answer was lost with the node
  (``TaskLostError``); a ``Task.resume`` sends its prompt as a new turn;
* otherwise the session is resumed as it is.

Turns that ended are never asked of the model again: a function's recorded
turns are answered from the record.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio

from claude_wrap._fleet.journal import Pending, TaskRecord, Turn
from claude_wrap._fleet.types import Task, TaskLostError
from claude_wrap._launch.options import ClaudeAgentOptions, copy_with, resuming
from claude_wrap._sessions.chain import build_chain, parse_jsonl, transcript_entries
from claude_wrap._sessions.store import SessionStore
from claude_wrap._sessions.transcripts import config_dir, project_key_for_directory

__all__ = ["CONTINUE", "Plan", "plan_attempt", "resumed_options", "session_holding", "turn_state"]

log = logging.getLogger("claude_wrap")

# The binary's own recovery of a turn its process did not finish. The
# reason shows in the result frame (``resume_reason``), not to the model.
RESUME_ENV = {
    "CLAUDE_CODE_RESUME_INTERRUPTED_TURN": "1",
    "CLAUDE_CODE_RESUME_SHOWS_CUT_OFF_CALLS": "1",
}

_ENDED = frozenset({"end_turn", "stop_sequence", "max_tokens", "refusal", "pause_turn"})
# What the binary writes into the transcript when a turn is interrupted on request.
_STOPPED_MARK = "[Request interrupted by user"
CONTINUE = "Continue from where you left off."  # the binary's own text for an interrupted turn

TurnState = Literal["absent", "interrupted", "stopped", "failed", "ended"]


@dataclass(frozen=True)
class Plan:
    resume: str | None = None
    """The session to resume (``None``: a fresh one)."""
    rerun: str | None = None
    """The pending prompt, whose turn goes on in the resumed session."""
    nudge: str | None = None
    """What to send in place of ``rerun`` (a stopped turn); ``None``: the
    binary runs the cut-off turn on by itself."""
    replay: list[Turn] = field(default_factory=list)
    """Turns a function will be answered from, without the model."""
    lost: BaseException | None = None
    """The attempt cannot go on (the outcome's error)."""


def turn_state(entries: list[Any], pending: Pending | None) -> TurnState:
    """Whether the transcript holds the pending prompt (any prompt when its
    uuid is unknown), and if so how its turn ended."""
    messages = [e for e in build_chain(transcript_entries(entries)) if e.get("type") in ("user", "assistant")]
    if pending is not None and pending.uuid is not None:
        at = next((i for i, e in enumerate(messages) if e.get("uuid") == pending.uuid), None)
        if at is None:
            return "absent"
        messages = messages[at:]
    if not messages:
        return "absent"
    last = messages[-1]
    message = last.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if last.get("type") == "assistant":
        if last.get("isApiErrorMessage"):
            return "failed"  # the binary's stand-in for a reply the API did not give
        stop = message.get("stop_reason") if isinstance(message, dict) else None
        return "ended" if stop in _ENDED else "interrupted"
    texts = [b.get("text", "") for b in content if isinstance(b, dict)] if isinstance(content, list) else [content]
    return "stopped" if any(isinstance(t, str) and t.startswith(_STOPPED_MARK) for t in texts) else "interrupted"


def _cwd(options: ClaudeAgentOptions) -> str:
    return os.fspath(options.cwd) if options.cwd is not None else os.getcwd()


async def _load(options: ClaudeAgentOptions, store: SessionStore, project_key: str, session_id: str) -> list[Any]:
    """One session's entries from ``store``, within ``load_timeout_ms``."""
    key: Any = {"project_key": project_key, "session_id": session_id}
    with anyio.fail_after(options.load_timeout_ms / 1000):
        return list(await store.load(key) or [])


async def session_entries(options: ClaudeAgentOptions, session_id: str) -> list[Any]:
    """The session's transcript: from the store, or from this host's disk."""
    cwd = _cwd(options)
    store = options.session_store
    if store is not None:
        return await _load(options, store, project_key_for_directory(cwd), session_id)

    def read_local() -> list[Any]:
        from claude_wrap._sessions.disk_helpers import find_session  # (it may ask git for the project's worktrees)

        found = find_session(session_id, cwd, config_dir(options.env))
        return parse_jsonl(found[0].read_text("utf-8")) if found is not None else []

    return await anyio.to_thread.run_sync(read_local)


async def session_holding(options: ClaudeAgentOptions, prompt_uuid: str) -> str | None:
    """The session in the store that holds the prompt sent with
    ``prompt_uuid`` (the newest sessions are looked at first)."""
    store = options.session_store
    if store is None:
        return None
    project_key = project_key_for_directory(_cwd(options))
    with anyio.fail_after(options.load_timeout_ms / 1000):
        listed = await store.list_sessions(project_key)
    for entry in sorted(listed, key=lambda e: e["mtime"], reverse=True):
        entries = await _load(options, store, project_key, entry["session_id"])
        if any(isinstance(e, dict) and e.get("uuid") == prompt_uuid for e in entries):
            return entry["session_id"]
    return None


async def plan_attempt(task: Task, record: TaskRecord, options: ClaudeAgentOptions) -> Plan:
    session_id = record.session_id
    pending = record.pending
    if session_id is None and record.attempts > 1 and record.prompt_uuid is not None and task.prompt is not None:
        # The lost node never said which session it started (or that the
        # prompt went out): the store knows, if the prompt reached it.
        session_id = await session_holding(options, record.prompt_uuid)
        pending = Pending(task.prompt, record.prompt_uuid)
    # ``Task.resume``, not a retry within this batch.
    explicit = session_id is None and task.resume is not None
    if explicit:
        session_id = task.resume
        pending = Pending(task.prompt, None) if task.prompt is not None else record.pending
    if session_id is None:
        return Plan()
    entries = await session_entries(options, session_id)
    if not entries:
        if record.turns:
            log.warning(
                "claude_wrap: task %s: session %s is in no store, so it starts over (its ended turns run again)",
                task.label,
                session_id,
            )
        return Plan()
    state = turn_state(entries, pending) if pending is not None else "absent"
    if state in ("interrupted", "stopped", "failed") and pending is not None:
        nudge = options.env.get("CLAUDE_CODE_RESUME_PROMPT") or CONTINUE if state == "stopped" else None
        return Plan(resume=session_id, rerun=pending.prompt, nudge=nudge, replay=list(record.turns))
    if state == "ended" and not explicit:
        lost = TaskLostError(
            f"task {task.label}: its last turn ended on the lost node but the result never arrived; "
            f"session {session_id} holds the answer"
        )
        return Plan(lost=lost)
    return Plan(resume=session_id, replay=list(record.turns))


def resumed_options(options: ClaudeAgentOptions, session_id: str, reason: str) -> ClaudeAgentOptions:
    """``options`` resuming ``session_id``, with the binary's interrupted-turn
    recovery on (what the options' own ``env`` says wins)."""
    env = {**RESUME_ENV, "CLAUDE_CODE_RESUME_REASON": reason, **options.env}
    return copy_with(resuming(options, session_id), env=env)
