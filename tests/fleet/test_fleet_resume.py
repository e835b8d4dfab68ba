"""A task's next attempt goes on where the lost one stopped, on another host.

Two node workers in this process stand for two machines (each its own
HOME, so the second has nothing of the first on disk); a session store
between them. The first machine dies mid-turn (every process of the
attempt killed at once); the batch's record of that attempt is all the
second one gets. Under asyncio and trio.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options
from _fleet import CONTINUE
from _procs import processes_where

from claude_wrap import ClaudeSDKClient, ResultMessage, SQLiteSessionStore
from claude_wrap._fleet.journal import Event, Finished, TaskRecord
from claude_wrap._fleet.resume import turn_state
from claude_wrap._fleet.worker import NodeWorker
from claude_wrap._sessions.transcripts import project_key_for_directory
from claude_wrap.fleet import ReplayError, Task, TaskLostError
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


def _last_user_is(text: str) -> Any:
    return lambda r: r.is_main and text in r.last_user_text


def _shows_a_call(request: Any) -> bool:
    return any(
        isinstance(m["content"], list) and any(b.get("type") == "tool_use" for b in m["content"])
        for m in request.messages
        if m["role"] == "assistant"
    )


async def _answers(client: ClaudeSDKClient, prompt: str) -> str:
    await client.query(prompt)
    text = ""
    async for message in client.receive_response():
        if isinstance(message, ResultMessage):
            text = message.result or ""
    return text


def _the_job(marker: str) -> list[Reply]:
    """ "run the job": a tool call that is cut off when its machine dies, then
    the answer to the turn the resumed binary runs on."""
    return [
        Reply.tool_use(
            "Bash", {"command": f"echo job >> ran.log && echo {marker} && sleep 30", "description": "job"}
        ).match_if(_last_user_is("run the job")),
        Reply.text("job looked after").match_if(_last_user_is(CONTINUE)),
    ]


def _two_machines(
    make_options: Options, store: SQLiteSessionStore, scripted_model: ScriptedModel, tmp_path: Path
) -> tuple[NodeWorker, NodeWorker]:
    """Node workers for two machines sharing ``store``; the second has a HOME
    of its own, so nothing of the first is on its disk."""
    first = NodeWorker(
        make_options(session_store=store, allowed_tools=["Bash"]), name="a", warm=0, track_cost=False, durable=True
    )
    other_home = make_options(
        session_store=store, allowed_tools=["Bash"], env=scripted_model.env(tmp_path / "other-machine")
    )
    return first, NodeWorker(other_home, name="b", warm=0, track_cost=False, durable=True)


async def three_turns(client: ClaudeSDKClient) -> list[str]:
    return [await _answers(client, p) for p in ("remember MANGO", "remember KIWI", "run the job")]


async def _attempt(worker: NodeWorker, task: Task, record: TaskRecord, *, kill_when: str | None = None,
                   workdir: Path | None = None, store: SQLiteSessionStore | None = None,
                   after: float | None = None) -> Finished:  # fmt: skip
    """One attempt on ``worker``; with ``kill_when``, every process of the
    attempt is killed once the job's tool is under way (it wrote ran.log)
    and ``store`` holds the tool call that started it (the machine dies
    mid-call); with ``after``, that many seconds after the tool's effect,
    whatever the store holds. The marker is in the shell's command line
    from its start, so it alone does not say the job's first command ran."""

    async def mid_call() -> bool:
        assert store is not None and workdir is not None and kill_when is not None
        log = workdir / "ran.log"
        if not processes_where(cmdline_contains=kill_when) or not log.exists() or "job" not in log.read_text():
            return False
        if after is not None:
            await anyio.sleep(after)
            return True
        if record.session_id is None:
            return False
        key: Any = {"project_key": project_key_for_directory(workdir), "session_id": record.session_id}
        return kill_when in json.dumps(await store.load(key) or [])

    async def fold(event: Event) -> None:
        record.fold(event)

    async with anyio.create_task_group() as tg:
        await tg.start(worker.serve)
        if kill_when is not None:

            async def die() -> None:
                while not await mid_call():
                    await anyio.sleep(0.02)
                assert workdir is not None
                if isinstance(store, _MachineStore):
                    store.dead = True
                for pid in processes_where(cwd=workdir) + processes_where(cmdline_contains=kill_when):
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass

            tg.start_soon(die)
        record.attempts += 1
        try:
            with anyio.fail_after(60):
                return await worker.run(0, task, record, fold)
        finally:
            worker.stop()


async def test_a_function_task_resumes_on_another_host_without_asking_again(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, tmp_path: Path
) -> None:
    marker = f"fleet-job-{id(workdir)}"
    scripted_model.add(
        Reply.text("noted MANGO").match_if(_last_user_is("remember MANGO")),
        Reply.text("noted KIWI").match_if(_last_user_is("remember KIWI")),
        *_the_job(marker),
    )
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    try:
        first, second = _two_machines(make_options, store, scripted_model, tmp_path)
        record = TaskRecord()
        task = Task(run=three_turns)
        lost = await _attempt(first, task, record, kill_when=marker, workdir=workdir, store=store)
        assert lost.error is not None  # what the dead machine's batch would never have heard
        assert [t.prompt for t in record.turns] == ["remember MANGO", "remember KIWI"]
        assert record.pending is not None and record.pending.prompt == "run the job"
        before = len(scripted_model.main_requests)
        finished = await _attempt(second, task, record)
    finally:
        store.close()

    assert finished.error is None and finished.value == ["noted MANGO", "noted KIWI", "job looked after"]
    assert finished.session_id == record.session_id
    # The second machine asked the model once: the cut-off turn, run on by the binary.
    (resumed,) = scripted_model.main_requests[before:]
    assert CONTINUE in resumed.last_user_text
    cut_off = resumed.tool_results
    assert len(cut_off) == 1 and cut_off[0]["is_error"] and "outcome is unknown" in json.dumps(cut_off)
    history = json.dumps(resumed.messages)
    assert history.count("remember MANGO") == 1 and history.count("noted KIWI") == 1
    for prompt in ("remember MANGO", "remember KIWI", "run the job"):
        assert sum(_last_user_is(prompt)(r) for r in scripted_model.main_requests) == 1
    assert (workdir / "ran.log").read_text() == "job\n"
    assert scripted_model.unexpected == []


async def test_a_retried_function_must_send_the_same_prompts(
    scripted_model: ScriptedModel, make_options: Options, tmp_path: Path
) -> None:
    scripted_model.add(Reply.text("noted MANGO"))
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    try:
        record = TaskRecord()
        worker = NodeWorker(make_options(session_store=store), name="a", warm=0, track_cost=False, durable=True)
        await _attempt(worker, Task(run=lambda c: _answers(c, "remember MANGO")), record)
        again = NodeWorker(make_options(session_store=store), name="b", warm=0, track_cost=False, durable=True)
        finished = await _attempt(again, Task(run=lambda c: _answers(c, "remember PEAR")), record)
    finally:
        store.close()
    assert isinstance(finished.error, ReplayError) and "'remember PEAR'" in str(finished.error)


def _entry(kind: str, uuid: str, content: Any, stop: str | None = None, parent: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": kind, "content": content}
    if stop is not None:
        message["stop_reason"] = stop
    return {"type": kind, "uuid": uuid, "parentUuid": parent, "message": message}


class _MachineStore(SQLiteSessionStore):
    """A machine's handle on the shared store: each append takes a while to
    land (a store across a network), and none lands once the machine died,
    nor is any kept on its disk, gone with it."""

    spool_key = False
    dead = False

    async def append(self, key: Any, entries: Any) -> None:
        await anyio.sleep(0.3)
        if self.dead:
            raise ConnectionError("the machine is gone")
        await super().append(key, entries)


@pytest.mark.parametrize("after", [0, 0.01, 0.05, 0.1])
async def test_a_tool_whose_effect_comes_first_runs_once_however_soon_its_machine_dies(
    after: float, scripted_model: ScriptedModel, make_options: Options, workdir: Path, tmp_path: Path
) -> None:
    """The machine dies ``after`` seconds into the tool, which did its work
    first thing. Its call was in the store before it started (the fleet's
    tool gate), so the retry shows the call as cut off; a model that never
    saw the call would ask for it again, as this one does."""
    marker = f"fleet-first-{id(workdir)}"
    job = {"command": f"echo job >> ran.log && echo {marker} && sleep 30", "description": "job"}
    scripted_model.add(
        Reply.tool_use("Bash", job).match_if(lambda r: _last_user_is("run the job")(r) and not _shows_a_call(r)),
        Reply.tool_use("Bash", job).match_if(lambda r: _last_user_is(CONTINUE)(r) and not _shows_a_call(r)),
        Reply.text("job looked after").match_if(lambda r: _last_user_is(CONTINUE)(r) and _shows_a_call(r)),
    )
    lost_machine = _MachineStore(tmp_path / "sessions.db")
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    try:
        first = NodeWorker(
            make_options(session_store=lost_machine, allowed_tools=["Bash"]),
            name="a", warm=0, track_cost=False, durable=True,
        )  # fmt: skip
        second = NodeWorker(
            make_options(session_store=store, allowed_tools=["Bash"], env=scripted_model.env(tmp_path / "b")),
            name="b", warm=0, track_cost=False, durable=True,
        )  # fmt: skip
        record = TaskRecord(prompt_uuid="0f0f0f0f-1111-4222-8333-444444444444")
        lost = await _attempt(
            first, Task("run the job"), record, kill_when=marker, workdir=workdir, store=lost_machine, after=after
        )
        assert lost.error is not None
        finished = await _attempt(second, Task("run the job"), record)
    finally:
        store.close()
        lost_machine.close()

    assert finished.error is None and finished.result is not None
    assert finished.result.result == "job looked after"
    assert (workdir / "ran.log").read_text() == "job\n"  # the tool ran once
    cut_off = scripted_model.main_requests[-1].tool_results
    assert len(cut_off) == 1 and "outcome is unknown" in json.dumps(cut_off)
    assert scripted_model.unexpected == []


async def test_the_tool_gate_passes_a_subagent_s_tools_once_they_are_stored(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, tmp_path: Path, caplog: Any
) -> None:
    """A subagent's tool calls are in a transcript of their own; the gate
    finds them there (none waits out its limit and runs unrecorded)."""
    sub = "SUBTASK: note the files"

    def is_sub(r: Any) -> bool:
        return r.is_main and sub in json.dumps(r.messages[:1])

    scripted_model.add(
        Reply.tool_use(
            "Agent", {"description": "note files", "prompt": sub, "subagent_type": "general-purpose"}
        ).match_if(lambda r: not is_sub(r) and not _shows_a_call(r)),
        Reply.tool_use("Bash", {"command": "echo sub >> ran.log", "description": "note"}).match_if(
            lambda r: is_sub(r) and not _shows_a_call(r)
        ),
        Reply.text("noted").match_if(lambda r: is_sub(r) and _shows_a_call(r)),
        # (sticky: the parent may be asked again once the agent's end is announced)
        Reply.text("the agent noted them").sticky().match_if(lambda r: not is_sub(r) and _shows_a_call(r)),
    )
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    try:
        worker = NodeWorker(
            make_options(session_store=store, allowed_tools=["Bash", "Agent"]),
            name="a", warm=0, track_cost=False, durable=True,
        )  # fmt: skip
        finished = await _attempt(worker, Task("note the files with an agent"), TaskRecord())
    finally:
        store.close()
    assert finished.error is None and finished.result is not None
    assert finished.result.result == "the agent noted them"
    assert (workdir / "ran.log").read_text() == "sub\n"
    assert [r.getMessage() for r in caplog.records if "runs unrecorded" in r.getMessage()] == []
    assert scripted_model.unexpected == []


def test_how_far_a_turn_got_is_read_from_the_transcript() -> None:
    from claude_wrap._fleet.journal import Pending

    prompt = _entry("user", "u1", "do it")
    call = _entry("assistant", "a1", [{"type": "tool_use", "id": "t", "name": "Bash", "input": {}}], "tool_use", "u1")
    result = _entry("user", "r1", [{"type": "tool_result", "tool_use_id": "t", "content": "ok"}], None, "a1")
    answer = _entry("assistant", "a2", [{"type": "text", "text": "done"}], "end_turn", "r1")
    stopped = _entry("user", "s1", [{"type": "text", "text": "[Request interrupted by user for tool use]"}], None, "a1")
    pending = Pending("do it", "u1")
    assert turn_state([], pending) == "absent"
    assert turn_state([prompt], Pending("do it", "other")) == "absent"
    assert turn_state([prompt], pending) == "interrupted"
    assert turn_state([prompt, call], pending) == "interrupted"
    assert turn_state([prompt, call, result], pending) == "interrupted"
    assert turn_state([prompt, call, result, answer], pending) == "ended"
    assert turn_state([prompt, call, stopped], pending) == "stopped"
    assert turn_state([prompt, call, result, answer], Pending("do it", None)) == "ended"


async def test_a_turn_that_ended_on_the_lost_node_is_reported_lost(tmp_path: Path, make_options: Options) -> None:
    from claude_wrap import InMemorySessionStore
    from claude_wrap._fleet.journal import Pending
    from claude_wrap._fleet.resume import plan_attempt
    from claude_wrap._sessions.transcripts import project_key_for_directory

    store = InMemorySessionStore()
    options = make_options(session_store=store)
    sid = "11111111-2222-4333-8444-555555555555"
    key: Any = {"project_key": project_key_for_directory(options.cwd), "session_id": sid}
    await store.append(
        key,
        [_entry("user", "u1", "do it"), _entry("assistant", "a1", [{"type": "text", "text": "x"}], "end_turn", "u1")],
    )
    record = TaskRecord(session_id=sid, pending=Pending("do it", "u1"), attempts=1)
    plan = await plan_attempt(Task("do it"), record, options)
    assert isinstance(plan.lost, TaskLostError) and sid in str(plan.lost)


async def test_a_retry_finds_the_session_by_its_prompt_when_the_node_never_said_which(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, tmp_path: Path
) -> None:
    """The node died before its events reached the batch: the record knows
    only the uuid the batch chose for the prompt. The retry finds the
    session holding it in the store and runs the cut-off turn on there."""
    marker = f"fleet-unsaid-{id(workdir)}"
    scripted_model.add(*_the_job(marker))
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    try:
        first, second = _two_machines(make_options, store, scripted_model, tmp_path)
        # Another session in the store, written later: not the one looked for.
        other = "99999999-2222-4333-8444-555555555555"
        record = TaskRecord(prompt_uuid="0f0f0f0f-1111-4222-8333-444444444444")
        lost = await _attempt(first, Task("run the job"), record, kill_when=marker, workdir=workdir, store=store)
        assert lost.error is not None and record.session_id is not None
        started = record.session_id
        key: Any = {"project_key": project_key_for_directory(workdir), "session_id": other}
        await store.append(key, [_entry("user", "u1", "something else")])
        unsaid = TaskRecord(prompt_uuid=record.prompt_uuid, attempts=record.attempts)
        before = len(scripted_model.main_requests)
        finished = await _attempt(second, Task("run the job"), unsaid)
    finally:
        store.close()

    assert finished.error is None and finished.result is not None
    assert finished.result.result == "job looked after" and finished.session_id == started
    (resumed,) = scripted_model.main_requests[before:]
    assert CONTINUE in resumed.last_user_text and json.dumps(resumed.messages).count("run the job") == 1
    assert (workdir / "ran.log").read_text() == "job\n"  # the tool ran once
    assert scripted_model.unexpected == []
