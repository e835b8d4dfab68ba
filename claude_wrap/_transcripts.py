"""Transcript entries → sessions and messages, with no I/O.

The binary writes one JSON object per line to
``<config dir>/projects/<sanitized cwd>/<session id>.jsonl``; session stores
hold the same objects. Everything here works on the parsed entries, so the
local-disk functions (``_sessions``) and the store-backed ones
(``_store_helpers``) give the same answers for the same transcript.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
import uuid as uuid_mod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "ForkSessionResult",
    "SDKSessionInfo",
    "SessionMessage",
    "build_chain",
    "config_dir",
    "fork_entries",
    "is_uuid",
    "page",
    "parse_jsonl",
    "project_key_for_directory",
    "sanitize_path",
    "session_info",
    "to_messages",
]

Entry = dict[str, Any]

# Longest sanitized directory name the binary uses before it appends a hash.
_MAX_SANITIZED = 200
_NON_ALNUM = re.compile(r"[^a-zA-Z0-9]")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)
_CHAIN_TYPES = frozenset({"user", "assistant", "progress", "system", "attachment"})
# Auto-generated user turns that are not what the user typed.
_SKIP_PROMPT = re.compile(
    r"^(?:<local-command-stdout>|<session-start-hook>|<tick>|<goal>|"
    r"\[Request interrupted by user[^\]]*\]|"
    r"\s*<ide_opened_file>[\s\S]*</ide_opened_file>\s*$|"
    r"\s*<ide_selection>[\s\S]*</ide_selection>\s*$)"
)
_COMMAND_NAME = re.compile(r"<command-name>(.*?)</command-name>")
# Fields tying an entry to a team/agent/source that a fork must not inherit.
_FORK_DROPPED = ("teamName", "agentName", "slug", "sourceToolAssistantUUID")


@dataclass
class SDKSessionInfo:
    """One session, as ``list_sessions`` / ``get_session_info`` describe it.

    ``summary`` is the best title available: the user's custom title, the
    AI title, the last prompt, a summary entry, or the first prompt.
    Times are epoch milliseconds.
    """

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


@dataclass
class SessionMessage:
    """A user or assistant message of a session's main chain.

    ``message`` is the API message as stored (``role`` and ``content``).
    """

    type: Literal["user", "assistant"]
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


# -- parsing ---------------------------------------------------------------------


def parse_jsonl(data: bytes | str) -> list[Entry]:
    """The JSON objects of a JSONL text; corrupt, half-written and non-object
    lines are skipped (a crash mid-write must not hide the rest)."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    entries: list[Entry] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            entries.append(value)
    return entries


def _chain_entries(entries: Iterable[Entry]) -> list[Entry]:
    return [e for e in entries if e.get("type") in _CHAIN_TYPES and isinstance(e.get("uuid"), str)]


def build_chain(entries: list[Entry], *, leaf_uuid: str | None = None) -> list[Entry]:
    """The conversation chain, root first: from the newest main-line
    user/assistant leaf (or ``leaf_uuid``) back along ``parentUuid``.

    Sidechains, team and meta entries do not pick the leaf; the walk stops
    at a cycle or a missing parent, so a damaged file still yields its tail.
    """
    linked = _chain_entries(entries)
    by_uuid = {e["uuid"]: e for e in linked}
    if leaf_uuid is not None:
        leaf = by_uuid.get(leaf_uuid)
    else:
        position = {e["uuid"]: i for i, e in enumerate(linked)}
        parents = {e.get("parentUuid") for e in linked}
        leaves: list[Entry] = []
        for terminal in (e for e in linked if e["uuid"] not in parents):
            seen: set[str] = set()
            cur: Entry | None = terminal
            while cur is not None and cur["uuid"] not in seen:
                seen.add(cur["uuid"])
                if cur.get("type") in ("user", "assistant"):
                    leaves.append(cur)
                    break
                cur = by_uuid.get(cur.get("parentUuid") or "")
        main = [e for e in leaves if not (e.get("isSidechain") or e.get("teamName") or e.get("isMeta"))]
        pool = main or leaves
        leaf = max(pool, key=lambda e: position[e["uuid"]]) if pool else None
    chain: list[Entry] = []
    seen_chain: set[str] = set()
    while leaf is not None and leaf["uuid"] not in seen_chain:
        seen_chain.add(leaf["uuid"])
        chain.append(leaf)
        leaf = by_uuid.get(leaf.get("parentUuid") or "")
    chain.reverse()
    return chain


def page(items: list[Any], limit: int | None, offset: int) -> list[Any]:
    """``items[offset:offset+limit]`` with ``limit`` ``None``/0 meaning all."""
    offset = max(0, offset)
    if limit is not None and limit > 0:
        return items[offset : offset + limit]
    return items[offset:]


def to_messages(
    entries: list[Entry],
    *,
    sidechain: bool = False,
    parent_tool_use_id: str | None = None,
    parent_agent_id: str | None = None,
) -> list[SessionMessage]:
    """The visible user/assistant messages of the main chain.

    ``sidechain``: the transcript is a subagent's, whose entries are all
    marked ``isSidechain``; they are visible there.
    """
    out: list[SessionMessage] = []
    for e in build_chain(entries):
        kind = e.get("type")
        if kind not in ("user", "assistant") or e.get("isMeta") or e.get("teamName"):
            continue
        if e.get("isSidechain") and not sidechain:
            continue
        out.append(
            SessionMessage(
                type="user" if kind == "user" else "assistant",
                uuid=e["uuid"],
                session_id=str(e.get("sessionId", "")),
                message=e.get("message"),
                parent_tool_use_id=parent_tool_use_id,
                parent_agent_id=parent_agent_id,
            )
        )
    return out


# -- session metadata --------------------------------------------------------------


def _prompt_text(entry: Entry) -> tuple[str, str]:
    """(first real prompt text, slash-command fallback) of a user entry."""
    if entry.get("type") != "user" or entry.get("isMeta") or entry.get("isCompactSummary"):
        return "", ""
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        texts = [content]
    elif isinstance(content, list):
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            return "", ""
        texts = [b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
    else:
        return "", ""
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


def _epoch_ms(value: Any) -> int | None:
    if not isinstance(value, str):
        return None
    try:
        return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        return None


def _last_str(entries: list[Entry], field: str, *, kind: str | None = None) -> str | None:
    for e in reversed(entries):
        value = e.get(field)
        if isinstance(value, str) and value and (kind is None or e.get("type") == kind):
            return value
    return None


def session_info(
    session_id: str,
    entries: list[Entry],
    *,
    last_modified: int,
    file_size: int | None = None,
    project_path: str | None = None,
) -> SDKSessionInfo | None:
    """Metadata of one transcript, or ``None`` for a subagent (sidechain)
    transcript or one with nothing to call it by (metadata only)."""
    if not entries or entries[0].get("isSidechain") is True:
        return None
    custom_title = _last_str(entries, "customTitle") or _last_str(entries, "aiTitle")
    first_prompt: str | None = None
    command = ""
    for e in entries:
        text, cmd = _prompt_text(e)
        command = command or cmd
        if text:
            first_prompt = text
            break
    first_prompt = first_prompt or command or None
    summary = custom_title or _last_str(entries, "lastPrompt") or _last_str(entries, "summary") or first_prompt
    if not summary:
        return None
    tag = None
    for e in reversed(entries):
        if e.get("type") == "tag":
            tag = e.get("tag") or None  # "" clears the tag
            break
    cwd = next((e["cwd"] for e in entries if isinstance(e.get("cwd"), str) and e["cwd"]), None)
    created = next((t for e in entries if (t := _epoch_ms(e.get("timestamp"))) is not None), None)
    return SDKSessionInfo(
        session_id=session_id,
        summary=summary,
        last_modified=last_modified,
        file_size=file_size,
        custom_title=custom_title,
        first_prompt=first_prompt,
        git_branch=_last_str(entries, "gitBranch"),
        cwd=cwd or project_path,
        tag=tag if isinstance(tag, str) else None,
        created_at=created,
    )


# -- mutations -----------------------------------------------------------------------


def now_iso() -> str:
    """The current time as the binary writes it (``...Z``, milliseconds)."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def title_entry(session_id: str, title: str) -> Entry:
    """The entry ``rename_session`` appends."""
    if not isinstance(title, str) or not title.strip():
        raise ValueError("title must be a non-empty string")
    return {"type": "custom-title", "customTitle": title.strip(), "sessionId": session_id}


def tag_entry(session_id: str, tag: str | None) -> Entry:
    """The entry ``tag_session`` appends (``None`` clears the tag)."""
    clean = "" if tag is None else "".join(ch for ch in unicodedata.normalize("NFC", tag) if ch.isprintable()).strip()
    if tag is not None and not clean:
        raise ValueError("tag must be a non-empty printable string, or None to clear it")
    return {"type": "tag", "tag": clean, "sessionId": session_id}


def fork_entries(
    source_id: str,
    entries: list[Entry],
    *,
    new_id: str | None = None,
    up_to_message_id: str | None = None,
    title: str | None = None,
) -> tuple[str, list[Entry]]:
    """A copy of a session's main chain under a new session id.

    Every uuid is remapped (so the two sessions never share entries),
    sidechain and ``progress`` entries are dropped, each entry records
    ``forkedFrom``, and a title entry ``"<title> (fork)"`` is appended.
    ``up_to_message_id`` ends the copy at that message (inclusive).
    """
    if up_to_message_id is not None and not any(e.get("uuid") == up_to_message_id for e in entries):
        raise ValueError(f"message {up_to_message_id!r} is not in session {source_id}")
    chain = build_chain(entries, leaf_uuid=up_to_message_id)
    if not chain:
        raise ValueError(f"session {source_id} has no messages to fork")
    fork_id = new_id or str(uuid_mod.uuid4())
    remap: dict[str, str] = {}
    out: list[Entry] = []
    for e in chain:
        if e.get("isSidechain") or e.get("type") == "progress":
            continue
        copy = {k: v for k, v in e.items() if k not in _FORK_DROPPED}
        remap[e["uuid"]] = copy["uuid"] = str(uuid_mod.uuid4())
        parent = e.get("parentUuid")
        copy["parentUuid"] = remap.get(parent) if isinstance(parent, str) else None
        copy["sessionId"] = fork_id
        copy["forkedFrom"] = {"sessionId": source_id, "messageUuid": e["uuid"]}
        out.append(copy)
    if title is None:
        info = session_info(source_id, entries, last_modified=0)
        title = f"{info.summary if info else source_id} (fork)"
    out.append(title_entry(fork_id, title))
    return fork_id, out


def dumps_line(entry: Mapping[str, Any]) -> str:
    """One JSONL line (compact, like the binary writes)."""
    return json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n"
