"""Local transcripts on disk (synthetic files in the binary's layout) and the
mirror batcher's retry rules, without the binary."""

from __future__ import annotations

import json
import stat
import uuid
from pathlib import Path
from typing import Any

import pytest

from claude_wrap import (
    InMemorySessionStore,
    MirrorErrorMessage,
    ResultMessage,
    UnknownMessage,
    delete_session,
    fork_session,
    get_session_info,
    get_session_messages,
    get_subagent_messages,
    list_sessions,
    list_subagents,
    project_key_for_directory,
    rename_session,
    tag_session,
)
from claude_wrap._run.mirror import MirrorBatcher
from claude_wrap._sessions.transcripts import sanitize_path

SID = "11111111-2222-4333-8444-555555555555"
U1 = "00000000-0000-4000-8000-0000000000a1"
A1 = "00000000-0000-4000-8000-0000000000b1"


def _entry(kind: str, uid: str, parent: str | None, text: str, **extra: Any) -> dict[str, Any]:
    role = "user" if kind == "user" else "assistant"
    return {"type": kind, "uuid": uid, "parentUuid": parent, "sessionId": SID, "isSidechain": False,
            "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/proj", "message": {"role": role, "content": text}, **extra}  # fmt: skip


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """(config dir, project dir) with one session: two turns, a dead branch,
    a corrupt line and a half-written last line."""
    config = tmp_path / "config"
    project = tmp_path / "my project"
    project.mkdir()
    pdir = config / "projects" / project_key_for_directory(project)
    pdir.mkdir(parents=True)
    lines = [
        json.dumps({"type": "queue-operation", "operation": "enqueue", "sessionId": SID}),
        json.dumps(_entry("user", U1, None, "first question")),
        "{not json at all",
        json.dumps(_entry("assistant", A1, U1, "first answer")),
        json.dumps(_entry("assistant", "dead", U1, "abandoned branch")),
        json.dumps({"type": "attachment", "uuid": "att", "parentUuid": A1, "sessionId": SID}),
        json.dumps(_entry("user", "u2", "att", "second question")),
        json.dumps(_entry("assistant", "a2", "u2", "second answer", gitBranch="main")),
        json.dumps({"type": "last-prompt", "lastPrompt": "second question", "sessionId": SID}),
        '{"type": "user", "uuid": "half',  # a crash mid-write
    ]
    (pdir / f"{SID}.jsonl").write_text("\n".join(lines), encoding="utf-8")
    return config, project


def test_project_key_matches_the_binary() -> None:
    # Observed: /tmp/sx/run/cwd -> -tmp-sx-run-cwd; every non-alphanumeric is "-".
    assert sanitize_path("/tmp/sx/run/cwd") == "-tmp-sx-run-cwd"
    assert sanitize_path("/a/work dir ü") == "-a-work-dir--"
    long = sanitize_path("/" + "x" * 300)
    assert long[:200] == "-" + "x" * 199 and long[200] == "-" and len(long) > 201


def test_messages_follow_the_main_chain_and_skip_bad_lines(layout: tuple[Path, Path]) -> None:
    config, project = layout
    messages = get_session_messages(SID, directory=project, config_dir=config)
    assert [(m.type, m.uuid, m.message["content"]) for m in messages] == [
        ("user", U1, "first question"),
        ("assistant", A1, "first answer"),
        ("user", "u2", "second question"),
        ("assistant", "a2", "second answer"),
    ]
    assert messages[0].session_id == SID
    assert [m.uuid for m in get_session_messages(SID, directory=project, limit=2, offset=1, config_dir=config)] == [
        A1,
        "u2",
    ]
    # Without a directory every project is searched.
    assert len(get_session_messages(SID, config_dir=config)) == 4
    assert get_session_messages("not-a-uuid", config_dir=config) == []
    assert get_session_messages(str(uuid.uuid4()), config_dir=config) == []


def test_info_listing_and_mutations(layout: tuple[Path, Path]) -> None:
    config, project = layout
    info = get_session_info(SID, directory=project, config_dir=config)
    assert info is not None
    assert (info.summary, info.first_prompt, info.git_branch, info.cwd, info.tag) == (
        "second question", "first question", "main", "/proj", None,
    )  # fmt: skip
    assert info.created_at == 1767323045000 and info.file_size and info.last_modified > 0

    rename_session(SID, "  My title ", directory=project, config_dir=config)
    tag_session(SID, "urgent", directory=project, config_dir=config)
    listed = list_sessions(directory=project, config_dir=config)
    assert [(i.session_id, i.summary, i.custom_title, i.tag) for i in listed] == [
        (SID, "My title", "My title", "urgent")
    ]
    tag_session(SID, None, directory=project, config_dir=config)
    assert list_sessions(config_dir=config)[0].tag is None
    # The half-written line did not swallow the appended entries, and reading still works.
    assert len(get_session_messages(SID, directory=project, config_dir=config)) == 4
    with pytest.raises(ValueError):
        rename_session(SID, "   ", directory=project, config_dir=config)
    with pytest.raises(ValueError):
        tag_session("nope", "x", config_dir=config)
    with pytest.raises(FileNotFoundError):
        rename_session(str(uuid.uuid4()), "t", config_dir=config)


def test_fork_up_to_a_message_and_delete(layout: tuple[Path, Path]) -> None:
    config, project = layout
    fork = fork_session(SID, directory=project, up_to_message_id=A1, config_dir=config)
    path = next((config / "projects").glob(f"*/{fork.session_id}.jsonl"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    forked = get_session_messages(fork.session_id, directory=project, config_dir=config)
    assert [m.message["content"] for m in forked] == ["first question", "first answer"]
    assert {m.session_id for m in forked} == {fork.session_id}
    assert not {m.uuid for m in forked} & {U1, A1}  # every uuid remapped
    raw = [json.loads(line) for line in path.read_text().splitlines()]
    assert raw[0]["forkedFrom"] == {"sessionId": SID, "messageUuid": U1}
    # The title entry is stamped like every other entry of the fork.
    assert raw[-1]["type"] == "custom-title" and raw[-1]["uuid"] and raw[-1]["timestamp"].endswith("Z")
    info = get_session_info(fork.session_id, config_dir=config)
    assert info is not None and info.custom_title == "first question (fork)"
    with pytest.raises(ValueError, match="Invalid up_to_message_id: missing"):
        fork_session(SID, up_to_message_id="missing", config_dir=config)
    with pytest.raises(ValueError, match="not found in session"):
        fork_session(SID, up_to_message_id=str(uuid.uuid4()), config_dir=config)

    delete_session(fork.session_id, directory=project, config_dir=config)
    assert get_session_info(fork.session_id, config_dir=config) is None
    assert [i.session_id for i in list_sessions(config_dir=config)] == [SID]


def test_subagents(layout: tuple[Path, Path]) -> None:
    config, project = layout
    sub = next((config / "projects").iterdir()) / SID / "subagents" / "workflows" / "run1"
    sub.mkdir(parents=True)
    side = [
        {**_entry("user", "s1", None, "sub task"), "isSidechain": True},
        {**_entry("assistant", "s2", "s1", "sub done"), "isSidechain": True},
    ]
    (sub / "agent-abc.jsonl").write_text("".join(json.dumps(e) + "\n" for e in side) + "garbage\n")
    (sub / "agent-abc.meta.json").write_text(json.dumps({"toolUseId": "toolu_1", "parentAgentId": "p"}))
    assert list_subagents(SID, directory=project, config_dir=config) == ["abc"]
    got = get_subagent_messages(SID, "abc", directory=project, config_dir=config)
    assert [(m.message["content"], m.parent_tool_use_id, m.parent_agent_id) for m in got] == [
        ("sub task", "toolu_1", "p"),
        ("sub done", "toolu_1", "p"),
    ]
    assert get_subagent_messages(SID, "other", config_dir=config) == []
    # A subagent transcript is not a session of its own.
    assert [i.session_id for i in list_sessions(config_dir=config)] == [SID]


# -- the mirror batcher ------------------------------------------------------------


class Flaky(InMemorySessionStore):
    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures
        self.calls = 0

    async def append(self, key: Any, entries: list[Any]) -> None:
        self.calls += 1
        if self.failures > 0:
            self.failures -= 1
            raise ConnectionError("store down")
        await super().append(key, entries)


def _frame(projects: Path, n: int, session: str = SID) -> UnknownMessage:
    path = str(projects / "-proj" / f"{session}.jsonl")
    return UnknownMessage(
        type="transcript_mirror", subtype=None, data={"filePath": path, "entries": [{"type": "x", "n": n}]}
    )


_RESULT = ResultMessage(
    subtype="success", duration_ms=0, duration_api_ms=0, is_error=False, num_turns=1, session_id=SID
)


@pytest.mark.anyio
async def test_batcher_reports_keeps_and_retries_failed_batches(tmp_path: Path) -> None:
    store = Flaky(failures=3)
    batcher = MirrorBatcher(store, tmp_path, backoff=(0, 0))
    batcher.enqueue(_frame(tmp_path, 1))
    batcher.enqueue(_frame(tmp_path, 2))
    error = await batcher.before_result(_RESULT)
    assert isinstance(error, MirrorErrorMessage) and error.subtype == "mirror_error"
    assert error.key == {"project_key": "-proj", "session_id": SID} and "store down" in error.error
    assert store.calls == 3 and batcher.pending == 2  # three attempts, nothing lost
    batcher.enqueue(_frame(tmp_path, 3))
    assert await batcher.before_result(_RESULT) is None
    key = {"project_key": "-proj", "session_id": SID}
    assert [e["n"] for e in store.get_entries(key)] == [1, 2, 3]  # order kept across the failure


@pytest.mark.anyio
async def test_batcher_drops_foreign_paths_and_spools_what_it_cannot_keep(tmp_path: Path) -> None:
    # Past what it keeps in memory, the oldest batches go to the spool (to
    # be written by a later run), not away; a path outside the projects dir
    # is never mirrored at all.
    store = Flaky(failures=10**6)
    store.spool_key = "test:a store that is down"  # one other processes reach, unlike a plain in-memory one
    batcher = MirrorBatcher(store, tmp_path / "projects", backoff=(), max_retained_bytes=50)
    batcher.enqueue(_frame(tmp_path / "elsewhere", 0))  # not under the projects dir
    for n in range(5):
        batcher.enqueue(_frame(tmp_path / "projects", n, session=str(uuid.UUID(int=n))))
    error = await batcher.before_result(_RESULT)
    assert error is not None and "written by the next run that mirrors to this store" in error.error
    assert 0 < batcher.pending < 5
    assert batcher.spool is not None
    spooled = batcher.spool.files()
    assert len(spooled) + batcher.pending == 5
    assert all(f.key["project_key"] == "-proj" for f in spooled)


@pytest.mark.anyio
async def test_materialized_resume_is_private_and_removed(tmp_path: Path) -> None:
    from claude_wrap import ClaudeAgentOptions
    from claude_wrap._run.mirror import materialize_resume

    store = InMemorySessionStore()
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    key = {"project_key": project_key_for_directory(cwd), "session_id": SID}
    await store.append(key, [_entry("user", "u1", None, "hi")])  # type: ignore[arg-type]
    await store.append({**key, "subpath": "subagents/agent-z"}, [{"type": "agent_metadata", "toolUseId": "t"}])  # type: ignore[typeddict-item]
    await store.append({**key, "subpath": "../../escape"}, [{"type": "x"}])  # type: ignore[typeddict-item]
    options = ClaudeAgentOptions(
        cwd=cwd, resume=SID, session_store=store, env={"CLAUDE_CONFIG_DIR": str(tmp_path / "none")}
    )
    made = await materialize_resume(options)
    assert made is not None
    root = Path(made.directory)
    assert stat.S_IMODE(root.stat().st_mode) == 0o700
    transcript = root / "projects" / key["project_key"] / f"{SID}.jsonl"
    assert stat.S_IMODE(transcript.stat().st_mode) == 0o600
    assert (transcript.with_suffix("") / "subagents" / "agent-z.meta.json").is_file()
    assert not any("escape" in p.name for p in root.rglob("*"))
    assert made.options.env["CLAUDE_CONFIG_DIR"] == made.directory and made.options.resume == SID
    made.cleanup()
    assert not root.exists()
    # Not in the store, or not a UUID: nothing to materialize.
    assert await materialize_resume(ClaudeAgentOptions(cwd=cwd, resume=str(uuid.uuid4()), session_store=store)) is None
    assert await materialize_resume(ClaudeAgentOptions(cwd=cwd, resume="name", session_store=store)) is None


def test_runs_check_the_store_before_they_start() -> None:
    from claude_wrap import ClaudeAgentOptions
    from claude_wrap._launch.checks import check_run

    class AppendOnly:
        async def append(self, key: Any, entries: Any) -> None: ...
        async def load(self, key: Any) -> Any: ...

    with pytest.raises(ValueError, match="list_sessions"):
        check_run(ClaudeAgentOptions(session_store=AppendOnly(), continue_conversation=True))  # type: ignore[arg-type]
    # resume wins over continue, so the store is never asked to list.
    check_run(ClaudeAgentOptions(session_store=AppendOnly(), resume="s", continue_conversation=False))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="append"):
        check_run(ClaudeAgentOptions(session_store=object()))  # type: ignore[arg-type]
    argv = ClaudeAgentOptions(session_store=InMemorySessionStore()).explain().argv
    assert "--session-mirror" in argv


@pytest.mark.anyio
async def test_resume_from_a_failing_store_raises_a_runtime_error_naming_the_call(tmp_path: Path) -> None:
    from claude_wrap import ClaudeAgentOptions, SessionStoreError
    from claude_wrap._run.mirror import materialize_resume

    class Down(InMemorySessionStore):
        async def load(self, key: Any) -> Any:
            raise ConnectionError("connection refused")

    options = ClaudeAgentOptions(cwd=tmp_path, resume=SID, session_store=Down())
    with pytest.raises(RuntimeError) as info:
        await materialize_resume(options)
    assert isinstance(info.value, SessionStoreError) and isinstance(info.value.__cause__, ConnectionError)
    assert (
        str(info.value)
        == f"SessionStore.load() for session {SID} failed during resume materialization: connection refused"
    )


@pytest.mark.anyio
async def test_continue_skips_ids_that_are_not_uuids_and_subagent_sessions(tmp_path: Path) -> None:
    from claude_wrap import ClaudeAgentOptions
    from claude_wrap._run.mirror import materialize_resume

    store = InMemorySessionStore()
    project = project_key_for_directory(tmp_path)
    await store.append({"project_key": project, "session_id": SID}, [_entry("user", U1, None, "mine")])  # type: ignore[arg-type]
    side = str(uuid.uuid4())
    await store.append(
        {"project_key": project, "session_id": side}, [{**_entry("user", "s", None, "sub"), "isSidechain": True}]
    )  # type: ignore[arg-type]
    await store.append({"project_key": project, "session_id": "../../newest"}, [_entry("user", "x", None, "bad id")])  # type: ignore[arg-type]
    await store.append({"project_key": project, "session_id": SID, "subpath": "subagents/agent-\x00"}, [{"type": "x"}])  # type: ignore[typeddict-item]
    await store.append(
        {"project_key": project, "session_id": SID, "subpath": "subagents/only-meta"},
        [{"type": "agent_metadata", "a": 1}],
    )  # type: ignore[typeddict-item]
    made = await materialize_resume(ClaudeAgentOptions(cwd=tmp_path, continue_conversation=True, session_store=store))
    assert made is not None
    try:
        assert made.options.resume == SID and not made.options.continue_conversation
        session_dir = Path(made.directory) / "projects" / project / SID
        # The sidecar of a subagent without a transcript, and no transcript for it.
        assert sorted(p.name for p in (session_dir / "subagents").iterdir()) == ["only-meta.meta.json"]
    finally:
        made.cleanup()
