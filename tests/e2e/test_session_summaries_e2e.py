"""Session summaries end to end: the real binary mirrors two conversations to
a SQLite store, and ``list_sessions_from_store`` lists them from the stored
summaries alone (no transcript loaded), as ``list_sessions`` does from disk."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import anyio
import pytest
from _store_views import CountingLoads, WithoutSummaries

from claude_wrap import (
    ClaudeAgentOptions,
    ClaudeSDKClient,
    SQLiteSessionStore,
    list_sessions,
    list_sessions_from_store,
    project_key_for_directory,
    query,
    rename_session,
    rename_session_via_store,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

_FIELDS = ("session_id", "summary", "first_prompt", "custom_title", "git_branch", "cwd", "tag", "created_at")


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_store_summaries_list_what_the_disk_lists(
    anyio_backend: str, scripted_model: ScriptedModel, tmp_path: Path
) -> None:
    cwd = tmp_path / "project ü"
    cwd.mkdir()
    store = SQLiteSessionStore(tmp_path / "sessions.db")
    env = scripted_model.env(tmp_path / "home")
    config = env["CLAUDE_CONFIG_DIR"]
    scripted_model.add(Reply.text("first answer"), Reply.text("second answer"), Reply.text("other answer"))
    options = ClaudeAgentOptions(env=env, cwd=cwd, setting_sources=[], session_store=store)
    try:
        # Two turns in one session (two appends to fold), then a second session.
        async with ClaudeSDKClient(options) as client:
            for prompt in ("explain the\nparser please", "and the lexer"):
                await client.query(prompt)
                with anyio.fail_after(90):
                    replies = [m async for m in client.receive_response()]
        first = replies[-1].session_id
        with anyio.fail_after(90):
            second = [m async for m in query(prompt="a different question", options=options)][-1].session_id
        rename_session(first, "Parser talk", directory=cwd, config_dir=config)
        await rename_session_via_store(store, first, "Parser talk", directory=cwd)

        on_disk = list_sessions(directory=cwd, config_dir=config)
        counting = CountingLoads(store)
        in_store = await list_sessions_from_store(counting, directory=cwd)  # type: ignore[arg-type]
        assert counting.loads == [], "every session has a fresh summary"
        assert [i.session_id for i in in_store] == [first, second]  # renamed last, so newest
        assert [[getattr(i, f) for f in _FIELDS] for i in in_store] == [
            [getattr(i, f) for f in _FIELDS] for i in on_disk
        ]
        by_id = {i.session_id: i for i in in_store}
        assert (by_id[first].first_prompt, by_id[first].summary) == ("explain the parser please", "Parser talk")
        assert by_id[second].first_prompt == by_id[second].summary == "a different question"
        assert by_id[first].cwd == str(cwd.resolve())

        # The summaries were folded from the binary's own transcript entries:
        # the slow path, which reads the transcripts, says the same (and has
        # their size, which a summary has not).
        slow = await list_sessions_from_store(WithoutSummaries(store), directory=cwd)  # type: ignore[arg-type]
        assert [dataclasses.replace(i, file_size=None) for i in slow] == in_store
        assert all(i.file_size for i in slow) and not any(i.file_size for i in in_store)
        assert {s["session_id"] for s in await store.list_session_summaries(project_key_for_directory(cwd))} == {
            first,
            second,
        }
    finally:
        store.close()
