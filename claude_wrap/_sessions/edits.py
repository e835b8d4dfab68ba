"""The entries that rename, tag and fork write, with no I/O.

Shared by the disk helpers (``_sessions.disk_helpers``) and the store helpers
(``_sessions.store_helpers``). Entries are written the way the official package
writes them (compact ASCII JSON, the same keys in the same order), so a
session edited by either package reads the same in both.
"""

from __future__ import annotations

import json
import unicodedata
import uuid
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from claude_wrap._sessions.chain import TRANSCRIPT_TYPES
from claude_wrap._sessions.transcripts import first_prompt_from_head, is_uuid, last_string_field, lite_from_bytes

__all__ = [
    "check_session_id",
    "fork_entries",
    "fork_source",
    "fork_title_from_entries",
    "fork_title_from_jsonl",
    "iso_now",
    "json_line",
    "sanitize_unicode",
    "tag_entry",
    "title_entry",
]

Entry = dict[str, Any]

# Fields tying an entry to a team, an agent or a source that a fork must not inherit.
_FORK_DROPPED = ("teamName", "agentName", "slug", "sourceToolAssistantUUID")
# Unicode categories a tag loses: format, private use, unassigned.
_STRIPPED_CATEGORIES = frozenset({"Cf", "Co", "Cn"})


def iso_now() -> str:
    """The current UTC time in ISO 8601 with a ``Z``."""
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


def json_line(entry: Any) -> str:
    """One transcript line, without its newline (compact, ASCII)."""
    return json.dumps(entry, separators=(",", ":"))


def check_session_id(session_id: str) -> None:
    """Raise ``ValueError`` unless ``session_id`` is a UUID."""
    if not is_uuid(session_id):
        raise ValueError(f"Invalid session_id: {session_id}")


def title_entry(session_id: str, title: str) -> Entry:
    """The ``custom-title`` entry for ``title`` (stripped; must not be empty)."""
    stripped = title.strip()
    if not stripped:
        raise ValueError("title must be non-empty")
    return {"type": "custom-title", "customTitle": stripped, "sessionId": session_id}


def sanitize_unicode(value: str) -> str:
    """``value`` NFKC-normalized without invisible and private-use
    characters (zero-width, direction marks, BOM ...), until stable."""
    for _ in range(10):
        before = value
        value = "".join(
            c for c in unicodedata.normalize("NFKC", value) if unicodedata.category(c) not in _STRIPPED_CATEGORIES
        )
        if value == before:
            break
    return value


def tag_entry(session_id: str, tag: str | None) -> Entry:
    """The ``tag`` entry for ``tag`` (sanitized, stripped; ``None`` clears)."""
    if tag is not None:
        tag = sanitize_unicode(tag).strip()
        if not tag:
            raise ValueError("tag must be non-empty (use None to clear)")
    return {"type": "tag", "tag": tag if tag is not None else "", "sessionId": session_id}


# -- fork ---------------------------------------------------------------------------------


def fork_source(entries: list[Any], session_id: str) -> tuple[list[Entry], list[Any]]:
    """``(chain entries, content replacements)`` of a session to fork: the
    replacements are the session's own records of tool output it replaced
    (with a file reference), which the fork needs to read those turns."""
    transcript: list[Entry] = []
    replacements: list[Any] = []
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        kind = entry.get("type")
        if kind in TRANSCRIPT_TYPES and isinstance(entry.get("uuid"), str):
            transcript.append(entry)
        elif (
            kind == "content-replacement"
            and entry.get("sessionId") == session_id
            and isinstance(entry.get("replacements"), list)
        ):
            replacements.extend(entry["replacements"])
    return transcript, replacements


def fork_title_from_jsonl(content: bytes) -> str | None:
    """The title a fork of this transcript inherits: the custom title, the
    AI title or the first prompt, read from the transcript's ends."""
    lite = lite_from_bytes(content, 0)
    if lite is None:
        return None
    head, tail = lite.head, lite.tail
    return (
        last_string_field(tail, "customTitle")
        or last_string_field(head, "customTitle")
        or last_string_field(tail, "aiTitle")
        or last_string_field(head, "aiTitle")
        or first_prompt_from_head(head)
        or None
    )


def fork_title_from_entries(entries: list[Any]) -> str | None:
    """``fork_title_from_jsonl`` for a store's entries."""
    custom = ai = None
    for entry in entries:
        if isinstance(entry, dict):
            custom = (
                entry.get("customTitle")
                if isinstance(entry.get("customTitle"), str) and entry["customTitle"]
                else custom
            )
            ai = entry.get("aiTitle") if isinstance(entry.get("aiTitle"), str) and entry["aiTitle"] else ai
    return custom or ai or first_prompt_from_head("".join(json_line(e) + "\n" for e in entries)) or None


def _new_parent(entry: Entry, by_uuid: dict[str, Entry], remap: dict[str, str]) -> str | None:
    """The fork's uuid for the nearest ancestor that is not a progress entry."""
    parent = entry.get("parentUuid")
    seen: set[str] = set()
    while parent and parent not in seen:
        seen.add(parent)
        found = by_uuid.get(parent)
        if not found:
            return None
        if found.get("type") != "progress":
            return remap.get(parent)
        parent = found.get("parentUuid")
    return None


def fork_entries(
    transcript: list[Entry],
    replacements: list[Any],
    session_id: str,
    up_to_message_id: str | None,
    title: str | None,
    derive_title: Callable[[], str | None],
) -> tuple[str, list[Entry]]:
    """``(new session id, entries)`` of a fork of ``session_id``.

    Copies the main-line entries in file order (up to and including
    ``up_to_message_id``) under new uuids, keeping their ``parentUuid``
    links (progress entries are left out and linked past), each with
    ``forkedFrom``; the last one is stamped now, as the leaf a resume
    continues from. Then the content replacements, if any, and the title:
    ``title``, or the inherited one (``derive_title``) plus ``" (fork)"``.
    """
    kept = [e for e in transcript if not e.get("isSidechain")]
    if not kept:
        raise ValueError(f"Session {session_id} has no messages to fork")
    if up_to_message_id:
        cut = next((i for i, e in enumerate(kept) if e.get("uuid") == up_to_message_id), None)
        if cut is None:
            raise ValueError(f"Message {up_to_message_id} not found in session {session_id}")
        kept = kept[: cut + 1]
    remap = {e["uuid"]: str(uuid.uuid4()) for e in kept}
    writable = [e for e in kept if e.get("type") != "progress"]
    if not writable:
        raise ValueError(f"Session {session_id} has no messages to fork")
    by_uuid = {e["uuid"]: e for e in kept}
    fork_id = str(uuid.uuid4())
    now = iso_now()
    out: list[Entry] = []
    for i, original in enumerate(writable):
        logical = original.get("logicalParentUuid")
        copy = {
            **original,
            "uuid": remap[original["uuid"]],
            "parentUuid": _new_parent(original, by_uuid, remap),
            "logicalParentUuid": remap.get(logical) if logical else logical,
            "sessionId": fork_id,
            "timestamp": now if i == len(writable) - 1 else original.get("timestamp", now),
            "isSidechain": False,
            "forkedFrom": {"sessionId": session_id, "messageUuid": original["uuid"]},
        }
        for key in _FORK_DROPPED:
            copy.pop(key, None)
        out.append(copy)
    if replacements:
        out.append(
            {
                "type": "content-replacement",
                "sessionId": fork_id,
                "replacements": replacements,
                "uuid": str(uuid.uuid4()),
                "timestamp": now,
            }
        )
    fork_title = title.strip() if title else None
    if not fork_title:
        fork_title = f"{derive_title() or 'Forked session'} (fork)"
    out.append(
        {
            "type": "custom-title",
            "sessionId": fork_id,
            "customTitle": fork_title,
            "uuid": str(uuid.uuid4()),
            "timestamp": now,
        }
    )
    return fork_id, out
