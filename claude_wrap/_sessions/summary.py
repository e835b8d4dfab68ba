"""Session summaries: what ``list_sessions_from_store`` needs, kept up to date
by the store as entries arrive instead of recomputed from every transcript.

``fold_session_summary`` is a pure function a store calls inside ``append``:
it takes the summary stored so far and the new entries and returns the next
summary. Every field it derives is either set once (first prompt, creation
time, cwd, sidechain flag) or overwritten by later entries (titles, last
prompt, git branch, tag), so a store never has to re-read old entries. The
``data`` dict is the official package's, key for key, so a summary either
package folded reads the same in both.

``summary_to_info`` turns a stored summary into the ``SDKSessionInfo`` that
``list_sessions_from_store`` reports for it.
"""

from __future__ import annotations

from typing import Any

from claude_wrap._sessions.store import SessionKey, SessionStoreEntry, SessionSummaryEntry
from claude_wrap._sessions.transcripts import SDKSessionInfo, epoch_ms, first_prompt_of_texts, message_texts

__all__ = ["fold_session_summary", "summary_to_info"]


# Transcript field → summary key, for fields where the latest value counts.
_LATEST = (
    ("customTitle", "custom_title"),
    ("aiTitle", "ai_title"),
    ("lastPrompt", "last_prompt"),
    ("summary", "summary_hint"),
    ("gitBranch", "git_branch"),
)


def _fold_first_prompt(data: dict[str, Any], entry: dict[str, Any]) -> None:
    """Latch the first real prompt (or remember a slash command until one comes)."""
    if data.get("first_prompt_locked") or entry.get("type") != "user":
        return
    if entry.get("isMeta") is True or entry.get("isCompactSummary") is True:
        return
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
        return
    prompt, command = first_prompt_of_texts(message_texts(message))
    if command and not data.get("command_fallback"):
        data["command_fallback"] = command
    if prompt:
        data["first_prompt"] = prompt
        data["first_prompt_locked"] = True


def fold_session_summary(
    prev: SessionSummaryEntry | None, key: SessionKey, entries: list[SessionStoreEntry]
) -> SessionSummaryEntry:
    """The summary of ``key``'s main transcript after ``entries`` are appended.

    ``prev`` is the stored summary (``None`` before the first append); it is
    not modified. Folding ``a + b`` at once equals folding ``a`` then ``b``.
    Call it for main transcripts only: a key with a ``subpath`` is a
    subagent's transcript and must not change its session's summary.

    ``mtime`` is carried over from ``prev`` (``0`` for a new summary): the
    store sets it to its own write time after saving, on the clock its
    ``list_sessions`` uses, because entry timestamps lag behind the store's
    clock and would make the summary look stale.
    """
    data: dict[str, Any] = dict(prev["data"]) if prev is not None else {}
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        if "is_sidechain" not in data:
            # A subagent transcript is recognised by its first entry.
            data["is_sidechain"] = entry.get("isSidechain") is True
        if "created_at" not in data:
            created = epoch_ms(entry.get("timestamp"))
            if created is not None:
                data["created_at"] = created
        if "cwd" not in data:
            cwd = entry.get("cwd")
            if isinstance(cwd, str) and cwd:
                data["cwd"] = cwd
        _fold_first_prompt(data, dict(entry))
        for field, name in _LATEST:
            value = entry.get(field)
            if isinstance(value, str):
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
    """The session's ``SDKSessionInfo``, or ``None`` for a subagent
    transcript or one with nothing to call it by. A summary has no file, so
    ``file_size`` is ``None``."""
    data = summary["data"]
    if data.get("is_sidechain"):
        return None
    first_prompt = (
        data.get("first_prompt") if data.get("first_prompt_locked") else data.get("command_fallback")
    ) or None
    custom_title = data.get("custom_title") or data.get("ai_title") or None
    label = custom_title or data.get("last_prompt") or data.get("summary_hint") or first_prompt
    if not label:
        return None
    return SDKSessionInfo(
        session_id=summary["session_id"],
        summary=label,
        last_modified=summary["mtime"],
        file_size=None,
        custom_title=custom_title,
        first_prompt=first_prompt,
        git_branch=data.get("git_branch") or None,
        cwd=data.get("cwd") or project_path or None,
        tag=data.get("tag") or None,
        created_at=data.get("created_at"),
    )
