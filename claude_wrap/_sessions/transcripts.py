"""Transcript files → session metadata, with no I/O.

The binary writes one JSON object per line to
``<config dir>/projects/<sanitized cwd>/<session id>.jsonl``; session stores
hold the same objects. A session's metadata (``SDKSessionInfo``) is read the
way the official package reads it: from the first and last 64 KiB of the
JSONL text (its *head* and *tail*), by scanning for ``"field":"value"``
pairs instead of parsing every line. Listing a project with large sessions
then costs two small reads per session, and disk and store give the same
answer for the same transcript: the store path renders its entries as the
same JSONL text first (``store_jsonl``).
"""

from __future__ import annotations

import json
import os
import re
import time
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "ForkSessionResult",
    "Lite",
    "SDKSessionInfo",
    "SessionMessage",
    "canonical_path",
    "config_dir",
    "epoch_ms",
    "first_prompt_from_head",
    "first_prompt_of_texts",
    "info_from_lite",
    "is_programmatic",
    "is_uuid",
    "last_string_field",
    "lite_from_bytes",
    "page_messages",
    "page_sessions",
    "project_key_for_directory",
    "sanitize_path",
    "store_jsonl",
    "string_field",
]

# Bytes read from each end of a transcript for its metadata.
LITE_BUF = 65536
# Longest sanitized directory name the binary uses before it appends a hash.
_MAX_SANITIZED = 200
_NON_ALNUM = re.compile(r"[^a-zA-Z0-9]")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)
# Auto-generated user turns that are not what the user typed.
_SKIP_PROMPT = re.compile(
    r"^(?:<local-command-stdout>|<session-start-hook>|<tick>|<goal>|"
    r"\[Request interrupted by user[^\]]*\]|"
    r"\s*<ide_opened_file>[\s\S]*</ide_opened_file>\s*$|"
    r"\s*<ide_selection>[\s\S]*</ide_selection>\s*$)"
)
_COMMAND_NAME = re.compile(r"<command-name>(.*?)</command-name>")
# The rest of a JSON string after its opening quote: up to the closing quote,
# a backslash escaping whatever follows it.
_STRING_BODY = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)


@dataclass
class SDKSessionInfo:
    """One session, as ``list_sessions`` / ``get_session_info`` describe it.

    ``summary`` is the best title available: the custom title, the AI title,
    the last prompt, a summary entry, or the first prompt. Times are epoch
    milliseconds; ``file_size`` is the transcript's size in bytes (``None``
    where a store's summary stands in for the transcript).
    """

    # The dataclass keeps its fields in __dict__; the extra slot holds what
    # we add, out of sight of vars(), asdict() and repr().
    __slots__ = ("__dict__", "__weakref__", "_archived")

    session_id: str
    summary: str
    last_modified: int
    file_size: int | None = None
    custom_title: str | None = None
    first_prompt: str | None = None
    git_branch: str | None = None
    cwd: str | None = None
    tag: str | None = None
    created_at: int | None = None

    @property
    def archived(self) -> bool | None:
        """Whether ``archive_session`` archived it (and no prompt was sent in
        it since); ``None`` for a session never archived or unarchived, and
        for one read from a session store (not an official field)."""
        value: bool | None = getattr(self, "_archived", None)
        return value


@dataclass
class SessionMessage:
    """A user or assistant message of a session's conversation.

    ``message`` is the API message as stored (``role`` and ``content``).
    ``parent_tool_use_id`` and ``parent_agent_id`` are set on a subagent's
    messages: the Agent tool call that started it and the subagent that did.
    """

    type: Literal["user", "assistant", "system"]
    uuid: str
    session_id: str
    message: Any
    parent_tool_use_id: str | None = None
    parent_agent_id: str | None = None


@dataclass
class ForkSessionResult:
    """What ``fork_session`` made: the new session's id."""

    session_id: str


def is_uuid(value: str) -> bool:
    """Whether ``value`` looks like a session id (a UUID)."""
    return bool(_UUID.match(value))


# -- paths -----------------------------------------------------------------------


def _simple_hash(text: str) -> str:
    """The binary's 32-bit string hash in base 36 (for over-long names)."""
    h = 0
    for ch in text:
        h = ((h << 5) - h + ord(ch)) & 0xFFFFFFFF
    if h >= 0x80000000:
        h -= 0x100000000
    h = abs(h)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        h, r = divmod(h, 36)
        out = digits[r] + out
        if h == 0:
            return out


def sanitize_path(name: str) -> str:
    """A path as the binary names its project directory: every character
    that is not an ASCII letter or digit becomes ``-``."""
    sanitized = _NON_ALNUM.sub("-", name)
    if len(sanitized) <= _MAX_SANITIZED:
        return sanitized
    return f"{sanitized[:_MAX_SANITIZED]}-{_simple_hash(name)}"


def long_prefix(sanitized: str) -> str | None:
    """For an over-long sanitized name, the part before its hash (another
    runtime may hash differently); ``None`` for a name kept whole."""
    return sanitized[:_MAX_SANITIZED] if len(sanitized) > _MAX_SANITIZED else None


def canonical_path(directory: str | os.PathLike[str]) -> str:
    """``realpath`` + NFC, the form the binary keys projects by."""
    try:
        return unicodedata.normalize("NFC", os.path.realpath(directory))
    except OSError:
        return unicodedata.normalize("NFC", os.fspath(directory))


def project_key_for_directory(directory: str | os.PathLike[str] | None = None) -> str:
    """The project key (directory name under ``projects/``) for a working
    directory; the current one by default. Store keys use the same value."""
    return sanitize_path(canonical_path(directory if directory is not None else "."))


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """The binary's config dir: ``$CLAUDE_CONFIG_DIR``, else ``$HOME/.claude``.

    ``env`` (e.g. ``ClaudeAgentOptions.env``) is consulted before ``os.environ``.
    """
    for source in (env or {}, os.environ):
        value = source.get("CLAUDE_CONFIG_DIR")
        if value:
            return Path(unicodedata.normalize("NFC", value))
    home = (env or {}).get("HOME") or os.path.expanduser("~")
    return Path(unicodedata.normalize("NFC", os.path.join(home, ".claude")))


# -- string fields without parsing ----------------------------------------------------


def _unescape(raw: str) -> str:
    if "\\" not in raw:
        return raw
    try:
        value = json.loads(f'"{raw}"')
    except ValueError:
        return raw
    return value if isinstance(value, str) else raw


def _field_values(text: str, key: str, *, first_only: bool) -> Iterator[str]:
    """Values of ``"key":"..."`` (then of ``"key": "..."``) in ``text``, in
    order, at any nesting depth; an unterminated value ends the scan."""
    for opener in (f'"{key}":"', f'"{key}": "'):
        at = text.find(opener)
        while at >= 0:
            start = at + len(opener)
            body = _STRING_BODY.match(text, start)
            if body is None:
                break
            yield _unescape(text[start : body.end() - 1])
            if first_only:
                break
            at = text.find(opener, body.end())


def string_field(text: str, key: str) -> str | None:
    """The first string value of ``key`` in a JSONL text (``None`` if none)."""
    return next(_field_values(text, key, first_only=True), None)


def last_string_field(text: str, key: str) -> str | None:
    """The last string value of ``key`` in a JSONL text (``None`` if none)."""
    last = None
    for last in _field_values(text, key, first_only=False):
        pass
    return last


# -- first prompt -------------------------------------------------------------------------


def first_prompt_of_texts(texts: Iterable[str]) -> tuple[str, str]:
    """``(prompt, command)`` of a user message's texts: the first one that is
    something the user typed (one line, at most 200 characters), and the
    slash command seen before it, if any (``""`` for none)."""
    command = ""
    for raw in texts:
        text = raw.replace("\n", " ").strip()
        if not text:
            continue
        match = _COMMAND_NAME.search(text)
        if match:
            command = command or match.group(1)
            continue
        if _SKIP_PROMPT.match(text):
            continue
        return (text[:200].rstrip() + "\u2026" if len(text) > 200 else text), command
    return "", command


def message_texts(message: Any) -> list[str]:
    """The text of a stored API message: its string content, or its text blocks."""
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [
            b["text"]
            for b in content
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        ]
    return []


def _prompt_line(line: str) -> bool:
    """Whether a line may hold the first prompt (a user turn that is not a
    tool result, meta or a compaction summary), before parsing it."""
    return (
        ('"type":"user"' in line or '"type": "user"' in line)
        and '"tool_result"' not in line
        and '"isMeta":true' not in line
        and '"isMeta": true' not in line
        and '"isCompactSummary":true' not in line
        and '"isCompactSummary": true' not in line
    )


def first_prompt_from_head(head: str) -> str:
    """The first real user prompt in a JSONL text (``""`` if none); a slash
    command stands in when no typed prompt comes first."""
    fallback = ""
    for line in head.split("\n"):
        if not _prompt_line(line):
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict) or entry.get("type") != "user" or not isinstance(entry.get("message"), dict):
            continue
        prompt, command = first_prompt_of_texts(message_texts(entry["message"]))
        if prompt:
            return prompt
        fallback = fallback or command
    return fallback


# -- metadata from head and tail -------------------------------------------------------------


@dataclass(frozen=True)
class Lite:
    """A transcript's size, write time (epoch ms) and both ends as text."""

    mtime: int
    size: int
    head: str
    tail: str


def lite_from_bytes(data: bytes, mtime: int) -> Lite | None:
    """The ``Lite`` of a whole transcript; ``None`` for an empty one."""
    if not data:
        return None
    head = data[:LITE_BUF].decode("utf-8", errors="replace")
    tail = data[-LITE_BUF:].decode("utf-8", errors="replace") if len(data) > LITE_BUF else head
    return Lite(mtime=mtime, size=len(data), head=head, tail=tail)


def epoch_ms(value: Any) -> int | None:
    """An ISO-8601 timestamp in epoch milliseconds (``None`` if not one)."""
    if not isinstance(value, str):
        return None
    try:
        return int(
            datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value).timestamp() * 1000
        )
    except ValueError:
        return None


def _tag(tail: str) -> str | None:
    # Only a tag entry's own line: "tag" keys also occur in tool inputs.
    line = next((ln for ln in reversed(tail.split("\n")) if ln.startswith('{"type":"tag"')), None)
    return (last_string_field(line, "tag") or None) if line is not None else None


_PROGRAMMATIC_ENTRYPOINTS = frozenset({"sdk-cli", "sdk-ts", "sdk-py"})


def is_programmatic(lite: Lite) -> bool:
    """A session an SDK or ``claude -p`` ran (its ``entrypoint``), or a
    daemon's (its first chain entry's ``sessionKind``): what
    ``list_sessions(include_programmatic=False)`` leaves out, as the
    binary's own ``/resume`` does."""
    entrypoint = string_field(lite.head, "entrypoint") or last_string_field(lite.tail, "entrypoint")
    if entrypoint in _PROGRAMMATIC_ENTRYPOINTS:
        return True
    first = next((line for line in lite.head.split("\n") if '"parentUuid":' in line), lite.head)
    return string_field(first, "sessionKind") in ("daemon", "daemon-worker")


def info_from_lite(session_id: str, lite: Lite, project_path: str | None = None) -> SDKSessionInfo | None:
    """A session's metadata from its transcript's ends, or ``None`` for a
    subagent transcript (sidechain) or one with nothing to call it by."""
    head, tail = lite.head, lite.tail
    first_line = head.split("\n", 1)[0]
    if '"isSidechain":true' in first_line or '"isSidechain": true' in first_line:
        return None
    custom_title = (
        last_string_field(tail, "customTitle")
        or last_string_field(head, "customTitle")
        or last_string_field(tail, "aiTitle")
        or last_string_field(head, "aiTitle")
        or None
    )
    first_prompt = first_prompt_from_head(head) or None
    summary = (
        custom_title or last_string_field(tail, "lastPrompt") or last_string_field(tail, "summary") or first_prompt
    )
    if not summary:
        return None
    return SDKSessionInfo(
        session_id=session_id,
        summary=summary,
        last_modified=lite.mtime,
        file_size=lite.size,
        custom_title=custom_title,
        first_prompt=first_prompt,
        git_branch=last_string_field(tail, "gitBranch") or string_field(head, "gitBranch") or None,
        cwd=string_field(head, "cwd") or project_path or None,
        tag=_tag(tail),
        created_at=epoch_ms(string_field(head, "timestamp")),
    )


# -- store entries as a transcript ------------------------------------------------------------


def store_jsonl(entries: Iterable[Any]) -> str:
    """Entries from a store as the JSONL text the binary would have written
    (compact, ASCII, ``type`` first: a store may reorder keys, and a tag is
    found by its line's start)."""

    def type_first(entry: Any) -> Any:
        return {"type": entry["type"], **entry} if isinstance(entry, dict) and "type" in entry else entry

    return "".join(json.dumps(type_first(e), separators=(",", ":")) + "\n" for e in entries)


def mtime_from_jsonl_tail(jsonl: str) -> int:
    """The last entry's timestamp (epoch ms), or now if it has none."""
    stripped = jsonl.rstrip()
    try:
        last = json.loads(stripped[stripped.rfind("\n") + 1 :])
    except ValueError:
        last = None
    stamp = epoch_ms(last.get("timestamp")) if isinstance(last, dict) else None
    return stamp if stamp is not None else int(time.time() * 1000)


# -- paging -------------------------------------------------------------------------------------


def page_sessions(items: list[Any], limit: int | None, offset: int) -> list[Any]:
    """A page of a session listing (an offset or limit below 1 is ignored)."""
    if offset > 0:
        items = items[offset:]
    return items[:limit] if limit is not None and limit > 0 else items


def page_messages(items: list[Any], limit: int | None, offset: int) -> list[Any]:
    """A page of messages: ``items[offset:offset + limit]``, or from
    ``offset`` on without a positive ``limit``."""
    if limit is not None and limit > 0:
        return items[offset : offset + limit]
    return items[offset:] if offset > 0 else items
