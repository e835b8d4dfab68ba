"""Session summaries: what ``list_sessions_from_store`` needs, kept up to date
by the store as entries arrive instead of recomputed from every transcript.

``fold_session_summary`` is a pure function a store calls inside ``append``:
it takes the summary stored so far and the new entries and returns the next
summary. Every field it derives is either set once (first prompt, creation
time, cwd, sidechain flag) or overwritten by later entries (titles, last
prompt, git branch, tag), so a store never has to re-read old entries. The
``data`` dict uses the same keys as the official package's fold, so a
summary it started folds on here (with no known size, which is ours alone;
the other way round, its fold would leave our byte count behind).

``summary_to_info`` turns a stored summary into the ``SDKSessionInfo`` that
``session_info`` would compute from the whole transcript.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ._session_store import SessionKey, SessionStoreEntry, SessionSummaryEntry
from ._transcripts import SDKSessionInfo, _epoch_ms, _prompt_text

__all__ = ["fold_session_summary", "fold_stored", "jsonl_line_size", "stored_line_size", "summary_to_info", "with_size"]


# Transcript field → summary key, for fields where the latest non-empty value
# counts (as in ``session_info``, which takes the last non-empty one).
_LATEST = (
    ("customTitle", "custom_title"),
    ("aiTitle", "ai_title"),
    ("lastPrompt", "last_prompt"),
    ("summary", "summary_hint"),
    ("gitBranch", "git_branch"),
)
# Our own addition to ``data``: the transcript's size as JSONL, which the
# slow path reports as ``file_size``. Stores count it with ``with_size`` from
# the text they write anyway (serializing every entry again in the fold
# would halve append throughput). A summary without it has no known size.
_SIZE = "jsonl_bytes"


def jsonl_line_size(entry: Any) -> int:
    """An entry's size as a line of the store's JSONL view (compact, ASCII,
    as the official package measures it), newline included."""
    return len(json.dumps(entry, separators=(",", ":"))) + 1


def stored_line_size(text: str) -> int:
    """``jsonl_line_size`` of an entry from its compact ``ensure_ascii=False``
    text, without serializing it again. The two texts differ only where the
    ASCII one escapes a character as ``\\uXXXX``: every non-ASCII character
    (a surrogate pair of escapes above U+FFFF) and DEL."""
    extra = 5 * text.count("\x7f")
    if not text.isascii():
        ascii_chars = len(text.encode("ascii", "ignore"))
        astral = len(text.encode("utf-16-le", "surrogatepass")) // 2 - len(text)
        extra += 5 * (len(text) - ascii_chars - astral) + 11 * astral
    return len(text) + extra + 1


def with_size(prev: SessionSummaryEntry | None, summary: SessionSummaryEntry, line_sizes: Iterable[int]) -> SessionSummaryEntry:
    """``summary``, just folded from ``prev``, with the byte count carried on
    by the sizes of the lines appended (unless ``prev`` had no count)."""
    if prev is None or isinstance(prev["data"].get(_SIZE), int):
        summary["data"][_SIZE] = (prev["data"][_SIZE] if prev is not None else 0) + sum(line_sizes)
    return summary


def fold_stored(
    prev: SessionSummaryEntry | None,
    key: SessionKey,
    texts: list[str],
    entries: list[SessionStoreEntry] | None = None,
) -> SessionSummaryEntry:
    """What a store's ``append`` folds: the entries it writes as the compact
    JSON ``texts`` (parsed from them unless ``entries`` are given), their
    size counted from those texts."""
    if entries is None:
        entries = [json.loads(t) for t in texts]
    return with_size(prev, fold_session_summary(prev, key, entries), map(stored_line_size, texts))


def fold_session_summary(
    prev: SessionSummaryEntry | None, key: SessionKey, entries: list[SessionStoreEntry]
) -> SessionSummaryEntry:
    """The summary of ``key``'s main transcript after ``entries`` are appended.

    ``prev`` is the stored summary (``None`` before the first append); it is
    not modified. Folding ``a + b`` at once equals folding ``a`` then ``b``.
    Call it for main transcripts only: a key with a ``subpath`` is a
    subagent's transcript and must not change its session's summary.

    ``mtime`` is carried over from ``prev`` (``0`` for a new summary): the
    store sets it to its own write time after saving, because entry
    timestamps lag behind the store's clock and would make the summary look
    stale next to ``list_sessions``.
    """
    data: dict[str, Any] = dict(prev["data"]) if prev is not None else {}
    if entries:
        data.pop(_SIZE, None)  # no longer right, unless the store counts these entries too
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        if "is_sidechain" not in data:
            # A subagent transcript is recognised by its first entry.
            data["is_sidechain"] = entry.get("isSidechain") is True
        if "created_at" not in data:
            created = _epoch_ms(entry.get("timestamp"))
            if created is not None:
                data["created_at"] = created
        if "cwd" not in data:
            cwd = entry.get("cwd")
            if isinstance(cwd, str) and cwd:
                data["cwd"] = cwd
        if not data.get("first_prompt_locked"):
            text, command = _prompt_text(entry)
            if command and not data.get("command_fallback"):
                data["command_fallback"] = command
            if text:
                data["first_prompt"] = text
                data["first_prompt_locked"] = True
        for field, name in _LATEST:
            value = entry.get(field)
            if isinstance(value, str) and value:
                data[name] = value
        if entry.get("type") == "tag":
            tag = entry.get("tag")
            if isinstance(tag, str) and tag:
                data["tag"] = tag
            else:
                data.pop("tag", None)  # an empty tag entry is how a tag is cleared
    return {
        "session_id": prev["session_id"] if prev is not None else key["session_id"],
        "mtime": prev["mtime"] if prev is not None else 0,
        "data": data,
    }


def summary_to_info(summary: SessionSummaryEntry, project_path: str | None = None) -> SDKSessionInfo | None:
    """The session's ``SDKSessionInfo``, or ``None`` where ``session_info``
    would give none (a subagent transcript, or nothing to call it by)."""
    data = summary["data"]
    if data.get("is_sidechain"):
        return None
    first_prompt = (data.get("first_prompt") if data.get("first_prompt_locked") else None) or data.get(
        "command_fallback"
    ) or None
    custom_title = data.get("custom_title") or data.get("ai_title") or None
    label = custom_title or data.get("last_prompt") or data.get("summary_hint") or first_prompt
    if not label:
        return None
    size = data.get(_SIZE)
    return SDKSessionInfo(
        session_id=summary["session_id"],
        summary=label,
        last_modified=int(summary["mtime"]),
        file_size=size if isinstance(size, int) else None,
        custom_title=custom_title,
        first_prompt=first_prompt,
        git_branch=data.get("git_branch") or None,
        cwd=data.get("cwd") or project_path or None,
        tag=data.get("tag") or None,
        created_at=data.get("created_at"),
    )
