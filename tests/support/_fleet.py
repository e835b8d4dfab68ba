"""Scripted tasks for the fleet tests: each task's prompt names it, and the
scripted model answers each task by its name, whichever binary asks.

A task ``n`` runs one tool call, then answers ``done n``. After a lost node
its cut-off turn is run on by the resumed binary, with "Continue from where
you left off." in the request: then it answers ``done n after a resume``.
Each reply is used once, so a request a task makes twice finds nothing
queued and shows in ``ScriptedModel.unexpected``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from claude_wrap.testing import Reply, ScriptedModel
from claude_wrap.testing._recorded import RecordedRequest

CONTINUE = "Continue from where you left off."


def prompt(n: int) -> str:
    return f"task {n}: do the job"


def of_task(n: int) -> Callable[[RecordedRequest], bool]:
    marker = f'"task {n}: '

    def matches(request: RecordedRequest) -> bool:
        return request.is_main and bool(request.messages) and marker in json.dumps(request.messages[0])

    return matches


def is_resumed(request: RecordedRequest) -> bool:
    return CONTINUE in request.last_user_text


def answered(request: RecordedRequest) -> bool:
    return any(m.get("role") == "assistant" for m in request.messages)


def script_tasks(
    model: ScriptedModel,
    tasks: Iterable[int],
    command: Callable[[int], str],
    *,
    usage: dict[str, int] | None = None,
    slow_calls: Iterable[int] = (),
) -> None:
    """Queue each task's replies: its tool call, its answer, and its answer
    after a resume. The tool calls of ``slow_calls`` stream slowly: the API
    response (and so its cost) ends well after the binary wrote the call."""
    slow = set(slow_calls)
    for n in tasks:
        task = of_task(n)
        call = Reply.tool_use("Bash", {"command": command(n), "description": f"task {n}"})
        if n in slow:
            call = call.slow(between_events=0.3)
        replies = [
            Reply.text(f"done {n} after a resume").match_if(lambda r, t=task: t(r) and is_resumed(r)),
            call.match_if(lambda r, t=task: t(r) and not answered(r) and not is_resumed(r)),
            Reply.text(f"done {n}").match_if(lambda r, t=task: t(r) and answered(r) and not is_resumed(r)),
        ]
        if usage is not None:
            replies = [r.with_usage(**usage) for r in replies]
        model.add(*replies)


def requests_of(model: ScriptedModel, n: int) -> list[RecordedRequest]:
    return [r for r in model.main_requests if of_task(n)(r)]


async def store_holds(store: Any, workdir: Any, texts: list[str]) -> bool:
    """Whether the sessions of ``workdir`` in ``store`` hold every one of ``texts``."""
    from claude_wrap._sessions.transcripts import project_key_for_directory

    project_key = project_key_for_directory(workdir)
    sessions = await store.list_sessions(project_key)
    held = json.dumps([await store.load({"project_key": project_key, "session_id": s["session_id"]}) for s in sessions])
    return all(t in held for t in texts)


def texts(messages: list[dict[str, Any]]) -> str:
    return json.dumps(messages)
