"""``fold_session_summary``: incremental, the same as the official package's
fold (tests/stores/test_summary_fold_vs_official.py compares them on random
transcripts), and what ``summary_to_info`` makes of it."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings, strategies as st

from claude_wrap._sessions.store import SessionKey, SessionSummaryEntry
from claude_wrap._sessions.summary import fold_session_summary, summary_to_info

KEY: SessionKey = {"project_key": "proj", "session_id": "sid"}


def _fold(*batches: list[dict[str, Any]]) -> SessionSummaryEntry:
    summary = None
    for batch in batches:
        summary = fold_session_summary(summary, KEY, batch)
    assert summary is not None
    return summary


def _user(content: Any, **extra: Any) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": content}, **extra}


def test_fields_set_once_and_fields_the_latest_value_wins() -> None:
    summary = _fold(
        [
            {"type": "permission-mode", "mode": "default"},  # no timestamp: created_at waits for one
            _user(
                "<command-name>/init</command-name>", timestamp="2024-05-01T10:00:00.000Z", cwd="/a", gitBranch="main"
            ),
        ],
        [_user("  what is\nthis  ", timestamp="2024-05-01T10:00:05Z", cwd="/b"), {"type": "x", "aiTitle": "AI"}],
        [
            {"type": "custom-title", "customTitle": "mine"},
            _user("second prompt", gitBranch="dev", lastPrompt="second prompt"),
        ],
        [{"type": "tag", "tag": "t1"}, {"type": "x", "gitBranch": 3}],  # not a string: changes nothing
    )
    info = summary_to_info(summary, "/proj")
    assert info is not None
    assert (info.first_prompt, info.custom_title, info.summary) == ("what is this", "mine", "mine")
    assert (info.cwd, info.git_branch, info.tag) == ("/a", "dev", "t1")
    assert info.created_at == 1714557600000 and info.file_size is None and info.last_modified == 0
    assert summary["mtime"] == 0  # the store stamps it, not the fold
    # An empty title is the latest value too: the AI title shows again.
    info = summary_to_info(fold_session_summary(summary, KEY, [{"type": "custom-title", "customTitle": ""}]))
    assert info is not None and (info.custom_title, info.summary) == ("AI", "AI")


def test_an_empty_tag_entry_clears_the_tag_and_a_slash_command_is_the_fallback_prompt() -> None:
    summary = _fold(
        [_user([{"type": "text", "text": "<command-name>/review</command-name>"}]), {"type": "tag", "tag": "x"}]
    )
    summary = fold_session_summary(summary, KEY, [{"type": "tag", "tag": ""}])
    info = summary_to_info(summary)
    assert info is not None and info.tag is None
    assert info.first_prompt == info.summary == "/review"


def test_sidechain_metadata_only_and_skipped_prompts_give_no_info() -> None:
    assert summary_to_info(_fold([_user("hi", isSidechain=True)])) is None
    assert summary_to_info(_fold([{"type": "permission-mode"}, {"type": "tag", "tag": "t"}])) is None
    skipped = [
        _user("<local-command-stdout>ok</local-command-stdout>"),
        _user("[Request interrupted by user]"),
        _user([{"type": "tool_result", "tool_use_id": "t", "content": "x"}, {"type": "text", "text": "hidden"}]),
        _user("meta", isMeta=True),
        _user("compact", isCompactSummary=True),
    ]
    assert summary_to_info(_fold(skipped)) is None


def test_the_fold_does_not_change_prev_and_keeps_its_mtime() -> None:
    prev = _fold([_user("hello")])
    prev["mtime"] = 1_700_000_000_000
    snapshot = json.dumps(prev, sort_keys=True)
    after = fold_session_summary(prev, KEY, [{"type": "x", "customTitle": "t"}])
    assert json.dumps(prev, sort_keys=True) == snapshot
    assert after["mtime"] == prev["mtime"] and after["session_id"] == "sid"


def test_a_summary_started_by_the_official_fold_folds_further() -> None:
    theirs: SessionSummaryEntry = {
        "session_id": "sid",
        "mtime": 1_700_000_000_000,
        "data": {"is_sidechain": False, "created_at": 1, "first_prompt": "their prompt", "first_prompt_locked": True},
    }
    info = summary_to_info(fold_session_summary(theirs, KEY, [{"type": "x", "gitBranch": "b"}]))
    assert info is not None
    assert (info.first_prompt, info.git_branch, info.file_size, info.last_modified) == (
        "their prompt",
        "b",
        None,
        1_700_000_000_000,
    )


def test_long_prompts_are_cut() -> None:
    entries = [_user("word " * 100, timestamp="2024-01-01T00:00:00Z")]
    info = summary_to_info(_fold(entries), "/proj")
    assert info is not None and info.first_prompt is not None
    assert info.first_prompt.endswith("\u2026") and len(info.first_prompt) == 200


# -- properties ---------------------------------------------------------------------

_text = st.sampled_from(
    [
        "",
        "   ",
        "hello",
        "line one\nline two",
        "<command-name>/init</command-name>",
        "<local-command-stdout>x</local-command-stdout>",
        "[Request interrupted by user for tool use]",
        "<ide_opened_file>f</ide_opened_file>",
        "x" * 230,
        "é ü \u2028 nul\u0000",
    ]
)
_maybe_str = st.one_of(st.none(), st.just(""), st.sampled_from(["a", "b", "title c"]))
_timestamp = st.one_of(
    st.none(),
    st.just("not a time"),
    st.sampled_from(["2024-01-01T00:00:00.000Z", "2024-06-30T12:34:56Z", "2025-02-03T04:05:06+02:00"]),
)


@st.composite
def _entry(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["user", "assistant", "custom-title", "ai-title", "tag", "summary", "x"]))
    entry: dict[str, Any] = {"type": kind}
    if kind == "user":
        if draw(st.booleans()):
            content: Any = draw(_text)
        else:
            blocks = draw(
                st.lists(
                    st.one_of(
                        _text.map(lambda t: {"type": "text", "text": t}),
                        st.just({"type": "tool_result", "tool_use_id": "t", "content": "r"}),
                        st.just({"type": "image"}),
                    ),
                    max_size=3,
                )
            )
            content = blocks
        entry["message"] = {"role": "user", "content": content}
        for flag in ("isMeta", "isCompactSummary"):
            if draw(st.integers(0, 5)) == 0:
                entry[flag] = True
    if kind == "tag":
        entry["tag"] = draw(st.one_of(_maybe_str, st.just(7)))
    for field in ("customTitle", "aiTitle", "lastPrompt", "summary", "gitBranch", "cwd"):
        if draw(st.integers(0, 4)) == 0:
            value = draw(_maybe_str)
            if value is not None:
                entry[field] = value
    stamp = draw(_timestamp)
    if stamp is not None:
        entry["timestamp"] = stamp
    if draw(st.integers(0, 8)) == 0:
        entry["isSidechain"] = draw(st.booleans())
    return entry


_entries = st.lists(_entry(), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(_entries, st.data())
def test_folding_in_batches_equals_folding_at_once(entries: list[dict[str, Any]], data: st.DataObject) -> None:
    cuts = sorted(data.draw(st.lists(st.integers(0, len(entries)), max_size=4)))
    batches = [entries[a:b] for a, b in zip([0, *cuts], [*cuts, len(entries)])]
    assert _fold(*batches) == _fold(entries)


@settings(max_examples=100, deadline=None)
@given(_entries)
def test_the_summary_survives_a_json_round_trip(entries: list[dict[str, Any]]) -> None:
    summary = _fold(entries)
    assert json.loads(json.dumps(summary)) == summary  # what every store does with it
