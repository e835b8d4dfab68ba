"""Archiving sessions, leaving programmatic sessions out of a listing, and
reading a conversation's system entries: on transcripts the real binary
wrote."""

from __future__ import annotations

import dataclasses
import json
import stat
import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options

from claude_wrap import (
    ClaudeSDKClient,
    InMemorySessionStore,
    ResultMessage,
    archive_session,
    get_session_info,
    get_session_messages,
    get_session_messages_from_store,
    import_session_to_store,
    list_sessions,
    unarchive_session,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


async def session_with(client: ClaudeSDKClient, *prompts: str) -> str:
    """Run ``prompts`` as turns; the session's id."""
    session_id = None
    with anyio.fail_after(90):  # hang guard
        for prompt in prompts:
            await client.query(prompt)
            async for message in client.receive_response():
                if isinstance(message, ResultMessage):
                    session_id = message.session_id
    assert session_id is not None
    return session_id


def config_of(options: Any) -> Path:
    return Path(options.env["CLAUDE_CONFIG_DIR"])


async def recorded_session(make_options: Options, *prompts: str) -> tuple[str, Path, Path]:
    """A session the binary ran and wrote: its id, config dir and transcript."""
    options = make_options()
    config = config_of(options)
    async with ClaudeSDKClient(options) as client:
        sid = await session_with(client, *prompts)
    return sid, config, next(config.glob(f"projects/*/{sid}.jsonl"))


def archived_by_id(workdir: Path, config: Path, **kwargs: Any) -> dict[str, bool | None]:
    return {i.session_id: i.archived for i in list_sessions(workdir, config_dir=config, **kwargs)}


async def test_an_archived_session_stays_listed_until_unarchived_or_prompted_again(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("first").sticky())
    sid, config, transcript = await recorded_session(make_options, "hello")
    before = transcript.read_bytes()
    assert archived_by_id(workdir, config) == {sid: None}  # never archived

    archive_session(sid, workdir, config_dir=config)
    assert archived_by_id(workdir, config) == {sid: True}
    info = get_session_info(sid, workdir, config_dir=config)
    assert info is not None and info.archived is True
    assert "archived=" not in repr(info) and "archived" not in dataclasses.asdict(info)  # not an official field
    assert transcript.read_bytes() == before  # the mark sits beside the transcript
    mark = transcript.parent / sid / "archived.json"
    assert stat.S_IMODE(mark.stat().st_mode) == 0o600
    assert json.loads(mark.read_text())["archived"] is True

    unarchive_session(sid, config_dir=config)  # found without a directory too
    assert archived_by_id(workdir, config) == {sid: False}

    # A prompt sent in an archived session unarchives it.
    archive_session(sid, workdir, config_dir=config)
    async with ClaudeSDKClient(make_options(resume=sid)) as client:
        assert await session_with(client, "back again") == sid
    assert archived_by_id(workdir, config) == {sid: False}


def test_archiving_an_unknown_or_malformed_session_raises(make_options: Options, workdir: Path) -> None:
    config = config_of(make_options())
    with pytest.raises(FileNotFoundError):
        archive_session(str(uuid.uuid4()), workdir, config_dir=config)
    with pytest.raises(ValueError):
        unarchive_session("not-a-uuid", workdir, config_dir=config)


async def test_include_programmatic_false_leaves_out_what_an_sdk_ran(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("ok").sticky())
    ours, config, transcript = await recorded_session(make_options, "from the sdk")
    # The same conversation as the terminal would have written it.
    typed = str(uuid.uuid4())
    text = transcript.read_text().replace(ours, typed).replace('"entrypoint":"sdk-py"', '"entrypoint":"cli"')
    (transcript.parent / f"{typed}.jsonl").write_text(text)

    assert set(archived_by_id(workdir, config)) == {ours, typed}  # the default lists both
    assert set(archived_by_id(workdir, config, include_programmatic=False)) == {typed}
    assert [i.session_id for i in list_sessions(config_dir=config, include_programmatic=False)] == [typed]


async def test_system_messages_of_a_conversation_on_request(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(Reply.text("answer"))
    sid, config, _ = await recorded_session(make_options, "question", "/compact")

    plain = get_session_messages(sid, workdir, config_dir=config)
    assert plain and {m.type for m in plain} <= {"user", "assistant"}
    with_system = get_session_messages(sid, workdir, config_dir=config, include_system_messages=True)
    system = [m for m in with_system if m.type == "system"]
    assert [m.message["subtype"] for m in system] == ["compact_boundary"]
    assert [m for m in with_system if m.type != "system"] == plain

    # The same from a store holding the session.
    store = InMemorySessionStore()
    await import_session_to_store(sid, store, directory=workdir, config_dir=config)
    from_store = await get_session_messages_from_store(store, sid, workdir, include_system_messages=True)
    assert [(m.type, m.uuid) for m in from_store] == [(m.type, m.uuid) for m in with_system]
