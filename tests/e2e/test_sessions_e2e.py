"""Session stores end to end: the real binary, the scripted model, real servers.

A conversation mirrored to a store is resumed from a second process with an
empty HOME; a store that goes away mid-run does not lose the turn; sessions
sharing a store stay apart; and disk and store agree on the same session.
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest
from _servers import PostgresServer, RedisServer

from claude_wrap import (
    ClaudeAgentOptions,
    ClaudeSDKClient,
    MirrorErrorMessage,
    PostgresSessionStore,
    RedisSessionStore,
    ResultMessage,
    SQLiteSessionStore,
    fork_session,
    get_session_messages,
    get_session_messages_from_store,
    list_sessions,
    list_sessions_from_store,
    project_key_for_directory,
    query,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e, pytest.mark.stores]

_SECOND_PROCESS = r"""
import json, sys, anyio
from claude_wrap import ClaudeAgentOptions, ResultMessage, query
from claude_wrap import SQLiteSessionStore, PostgresSessionStore, RedisSessionStore

args = json.loads(sys.argv[1])
kind, target, extra = args["store"]
store = {"sqlite": SQLiteSessionStore, "postgres": PostgresSessionStore, "redis": RedisSessionStore}[kind](target, **extra)
how = {"resume": args["resume"]} if args["resume"] else {"continue_conversation": True}

async def main():
    options = ClaudeAgentOptions(env=args["env"], cwd=args["cwd"], setting_sources=[], session_store=store, **how)
    async for m in query(prompt=args["prompt"], options=options):
        if isinstance(m, ResultMessage):
            print(json.dumps({"session_id": m.session_id, "result": m.result}))
    close = getattr(store, "aclose", None) or getattr(store, "close")
    result = close()
    if result is not None:
        await result

anyio.run(main)
"""

StoreSpec = tuple[str, str, dict[str, Any]]


def _make(spec: StoreSpec) -> Any:
    kind, target, extra = spec
    return {"sqlite": SQLiteSessionStore, "postgres": PostgresSessionStore, "redis": RedisSessionStore}[kind](
        target, **extra
    )


async def _close(store: Any) -> None:
    close = getattr(store, "aclose", None)
    if close is not None:
        await close()
    elif hasattr(store, "close"):
        store.close()


async def _run(prompt: str, options: ClaudeAgentOptions) -> list[Any]:
    with anyio.fail_after(90):
        return [m async for m in query(prompt=prompt, options=options)]


def _texts(model: ScriptedModel) -> list[str]:
    """Every text the model saw in its last main request, in order."""
    out: list[str] = []
    for message in model.main_requests[-1].messages:
        if message.get("role") not in ("user", "assistant"):
            continue
        content = message["content"]
        blocks = [content] if isinstance(content, str) else [b.get("text", "") for b in content if isinstance(b, dict)]
        out.extend(b for b in blocks if b and not b.startswith("<system-reminder>"))
    return out


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    path = tmp_path / "project ü"
    path.mkdir()
    return path


@pytest.mark.parametrize("kind", ["sqlite", "postgres", "redis"])
# Each store resumes by id under asyncio and continues the newest session
# under trio: both modes and both backends, at half the cost.
@pytest.mark.parametrize(("anyio_backend", "how"), [("asyncio", "resume"), ("trio", "continue")])
async def test_a_second_process_with_an_empty_home_resumes_from_the_store(
    kind: str,
    how: str,
    anyio_backend: str,
    request: pytest.FixtureRequest,
    scripted_model: ScriptedModel,
    tmp_path: Path,
    cwd: Path,
    cli_path: str,
) -> None:
    spec: StoreSpec
    if kind == "sqlite":
        spec = (kind, str(tmp_path / "sessions.db"), {})
    elif kind == "postgres":
        spec = (kind, request.getfixturevalue("postgres_server").url, {"table": "e2e_" + uuid.uuid4().hex[:8]})
    else:
        spec = (kind, request.getfixturevalue("redis_server").url, {"prefix": f"e2e:{uuid.uuid4().hex}:"})
    store = _make(spec)
    scripted_model.add(Reply.text("Noted: PINEAPPLE."), Reply.text("The word was PINEAPPLE."))
    options = ClaudeAgentOptions(
        env=scripted_model.env(tmp_path / "host-a"), cwd=cwd, setting_sources=[], session_store=store
    )
    messages = await _run("remember the word PINEAPPLE", options)
    session_id = messages[-1].session_id
    assert not any(isinstance(m, MirrorErrorMessage) for m in messages)
    await _close(store)

    fresh_home = tmp_path / "host-b"  # has never seen the session
    args = {
        "store": list(spec),
        "env": scripted_model.env(fresh_home),
        "cwd": str(cwd),
        "resume": session_id if how == "resume" else None,
        "prompt": "which word did I ask you to remember?",
    }
    env = {**os.environ, "HOME": str(fresh_home), "CLAUDE_CONFIG_DIR": str(fresh_home / ".claude")}
    env["CLAUDE_WRAP_CLI"] = cli_path  # the binary cache is under the real HOME
    with anyio.fail_after(120):
        done = await anyio.run_process([sys.executable, "-c", _SECOND_PROCESS, json.dumps(args)], env=env, check=False)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    out = json.loads(done.stdout.decode().strip().splitlines()[-1])
    assert out == {"session_id": session_id, "result": "The word was PINEAPPLE."}
    # The model got the earlier turn, which host B only had from the store.
    assert _texts(scripted_model)[:3] == [
        "remember the word PINEAPPLE",
        "Noted: PINEAPPLE.",
        "which word did I ask you to remember?",
    ]
    # Nothing was left on host B's disk: its private config dir is gone.
    assert not list((fresh_home / ".claude").glob("projects/*/*.jsonl"))
    # The store now holds both turns, so any host can go on from there.
    store = _make(spec)
    got = await get_session_messages_from_store(store, session_id, directory=cwd)
    await _close(store)
    assert [m.type for m in got] == ["user", "assistant", "user", "assistant"]


def _prompt_texts(entries: list[dict[str, Any]]) -> list[str]:
    return [
        e["message"]["content"]
        for e in entries
        if e.get("type") == "user" and isinstance(e.get("message", {}).get("content"), str)
    ]


async def _turn(client: ClaudeSDKClient, prompt: str) -> list[Any]:
    await client.query(prompt)
    with anyio.fail_after(90):
        return [m async for m in client.receive_response()]


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_postgres_going_away_mid_run_is_reported_and_retried(
    anyio_backend: str, postgres_server: PostgresServer, scripted_model: ScriptedModel, tmp_path: Path, cwd: Path
) -> None:
    store = PostgresSessionStore(postgres_server.url, table="fault_" + uuid.uuid4().hex[:8])
    await _fault_scenario(store, postgres_server, scripted_model, tmp_path, cwd)


async def test_redis_going_away_mid_run_is_reported_and_retried(
    anyio_backend: str, scripted_model: ScriptedModel, tmp_path: Path, cwd: Path
) -> None:
    server = RedisServer(persistent=True)  # a private one (this test stops it) that keeps data across restarts
    server.start()
    try:
        await _fault_scenario(RedisSessionStore(server.url), server, scripted_model, tmp_path, cwd)
    finally:
        server.destroy()


async def _fault_scenario(
    store: Any, server: PostgresServer | RedisServer, model: ScriptedModel, tmp_path: Path, cwd: Path
) -> None:
    model.add(Reply.text("one"), Reply.text("two"), Reply.text("three"))
    options = ClaudeAgentOptions(env=model.env(tmp_path / "home"), cwd=cwd, setting_sources=[], session_store=store)
    try:
        async with ClaudeSDKClient(options) as client:
            first = await _turn(client, "turn one")
            assert not any(isinstance(m, MirrorErrorMessage) for m in first)
            session_id = first[-1].session_id
            key = {"project_key": project_key_for_directory(cwd), "session_id": session_id}

            await anyio.to_thread.run_sync(server.stop)
            second = await _turn(client, "turn two")
            # The turn completes; the failure is in the stream, right before the result.
            assert isinstance(second[-1], ResultMessage) and second[-1].result == "two"
            errors = [m for m in second if isinstance(m, MirrorErrorMessage)]
            assert len(errors) == 1 and second[-2] is errors[0]
            assert errors[0].subtype == "mirror_error" and errors[0].key == key and errors[0].error

            await anyio.to_thread.run_sync(server.start)
            third = await _turn(client, "turn three")
            assert not any(isinstance(m, MirrorErrorMessage) for m in third)
            # The batch that failed was sent again, before turn three's, in order.
            stored = await store.load(key)
            assert _prompt_texts(stored) == ["turn one", "turn two", "turn three"]
    finally:
        if isinstance(server, PostgresServer):
            try:
                await anyio.to_thread.run_sync(server.start)
            except RuntimeError:
                pass  # already running
        await _close(store)
    disk = get_session_messages(session_id, directory=cwd, config_dir=tmp_path / "home" / ".claude")
    from_store = await get_session_messages_from_store(store, session_id, directory=cwd)
    await _close(store)
    assert [(m.uuid, m.message) for m in from_store] == [(m.uuid, m.message) for m in disk]
    assert len(disk) == 6


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_concurrent_sessions_share_a_store_without_mixing(
    kind: str, request: pytest.FixtureRequest, scripted_model: ScriptedModel, tmp_path: Path, cwd: Path
) -> None:
    postgres = request.getfixturevalue("postgres_server") if kind == "postgres" else None
    if kind == "postgres":
        assert postgres is not None
        store: Any = PostgresSessionStore(postgres.url, table="conc_" + uuid.uuid4().hex[:8])
    else:
        store = SQLiteSessionStore(tmp_path / "shared.db")
    scripted_model.add(*(Reply.text(f"reply {i}") for i in range(3)))
    results: dict[str, str] = {}

    async def one(i: int) -> None:
        options = ClaudeAgentOptions(
            env=scripted_model.env(tmp_path / f"home{i}"), cwd=cwd, setting_sources=[], session_store=store
        )
        messages = await _run(f"session number {i}", options)
        results[f"session number {i}"] = messages[-1].session_id

    try:
        async with anyio.create_task_group() as tg:
            for i in range(3):
                tg.start_soon(one, i)
        project = project_key_for_directory(cwd)
        listed = {s["session_id"] for s in await store.list_sessions(project)}
        assert listed == set(results.values())
        for prompt, session_id in results.items():
            entries = await store.load({"project_key": project, "session_id": session_id})
            assert {e["sessionId"] for e in entries if "sessionId" in e} == {session_id}
            assert _prompt_texts(entries) == [prompt]
    finally:
        await _close(store)


async def test_disk_and_store_agree(scripted_model: ScriptedModel, tmp_path: Path, cwd: Path) -> None:
    store = SQLiteSessionStore(tmp_path / "s.db")
    scripted_model.add(Reply.tool_use("Bash", {"command": "echo hi"}), Reply.text("done"), Reply.text("again"))
    env = scripted_model.env(tmp_path / "home")
    options = ClaudeAgentOptions(env=env, cwd=cwd, setting_sources=[], session_store=store, allowed_tools=["Bash"])
    # One process, two turns: a store-backed resume would run in a private
    # config dir, and the local disk would only have the first turn.
    async with ClaudeSDKClient(options) as client:
        sid = (await _turn(client, "run a command"))[-1].session_id
        await _turn(client, "and again")
    config = env["CLAUDE_CONFIG_DIR"]

    on_disk = list_sessions(directory=cwd, config_dir=config)
    in_store = await list_sessions_from_store(store, directory=cwd)
    fields = ("session_id", "summary", "first_prompt", "custom_title", "cwd", "tag", "created_at")
    assert [[getattr(i, f) for f in fields] for i in in_store] == [[getattr(i, f) for f in fields] for i in on_disk]
    disk_messages = get_session_messages(sid, directory=cwd, config_dir=config)
    store_messages = await get_session_messages_from_store(store, sid, directory=cwd)
    assert store_messages == disk_messages
    assert [m.type for m in disk_messages] == ["user", "assistant", "user", "assistant", "user", "assistant"]
    page = await get_session_messages_from_store(store, sid, directory=cwd, limit=2, offset=1)
    assert page == disk_messages[1:3] == get_session_messages(sid, directory=cwd, limit=2, offset=1, config_dir=config)
    store.close()


async def test_eager_mode_appends_every_frame_before_the_result(
    scripted_model: ScriptedModel, tmp_path: Path, cwd: Path
) -> None:
    from claude_wrap import InMemorySessionStore

    calls: list[list[Any]] = []

    class Counting(InMemorySessionStore):
        async def append(self, key: Any, entries: list[Any]) -> None:
            calls.append(list(entries))
            await super().append(key, entries)

    def holds_final_answer(batches: list[list[Any]]) -> bool:
        return any("FINAL-ANSWER" in json.dumps(entry) for batch in batches for entry in batch)

    at_result = {}
    for mode in ("batched", "eager"):
        calls.clear()
        scripted_model.add(Reply.tool_use("Bash", {"command": "true"}), Reply.text("FINAL-ANSWER"))
        store = Counting()
        options = ClaudeAgentOptions(
            env=scripted_model.env(tmp_path / mode), cwd=cwd, setting_sources=[], allowed_tools=["Bash"],
            session_store=store, session_store_flush=mode,  # type: ignore[arg-type]
        )  # fmt: skip
        async for message in query(prompt="go", options=options):
            if isinstance(message, ResultMessage):
                at_result[mode] = (len(calls), holds_final_answer(calls))
    # Both modes have the turn's last answer in the store when the result is
    # handed out; batched does it in one append, eager as the frames come.
    assert at_result["batched"] == (1, True)
    assert at_result["eager"][0] >= 4 and at_result["eager"][1]


async def test_a_local_fork_resumes_with_the_earlier_turns(
    scripted_model: ScriptedModel, tmp_path: Path, cwd: Path
) -> None:
    scripted_model.add(Reply.text("first answer"), Reply.text("second answer"), Reply.text("forked answer"))
    env = scripted_model.env(tmp_path / "home")
    base = dict(env=env, cwd=cwd, setting_sources=[])
    sid = (await _run("question one", ClaudeAgentOptions(**base)))[-1].session_id  # type: ignore[arg-type]
    await _run("question two", ClaudeAgentOptions(**base, resume=sid))  # type: ignore[arg-type]
    config = env["CLAUDE_CONFIG_DIR"]
    first_answer = get_session_messages(sid, directory=cwd, config_dir=config)[1]
    fork = fork_session(sid, directory=cwd, up_to_message_id=first_answer.uuid, config_dir=config)
    messages = await _run("forked question", ClaudeAgentOptions(**base, resume=fork.session_id))  # type: ignore[arg-type]
    assert messages[-1].session_id == fork.session_id
    assert _texts(scripted_model)[:3] == ["question one", "first answer", "forked question"]
    info = [i for i in list_sessions(directory=cwd, config_dir=config) if i.session_id == fork.session_id]
    assert info and info[0].custom_title == "question one (fork)"  # the first prompt, as the official fork titles it
