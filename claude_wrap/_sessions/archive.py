"""The archive mark of a session: ``<project>/<session id>/archived.json``.

A session is archived by a small record beside its transcript (the binary's
layout: the folder that also holds its subagents), never by changing the
transcript. A prompt sent in the session after the record was written
unarchives it, so the record is read against the transcript's ends. A
session store holds no such record.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from claude_wrap._sessions.transcripts import Lite, epoch_ms

__all__ = ["is_archived", "write_mark"]

_NAME = "archived.json"
_MAX_RECORD = 4096  # bytes; a bigger file is not a record of ours


def _mark_path(transcript: Path, session_id: str) -> Path:
    return transcript.parent / session_id / _NAME


def write_mark(transcript: Path, session_id: str, archived: bool) -> None:
    """Record ``archived`` for the session of ``transcript`` (private to the
    user: the folder 0700, the record 0600), replacing any earlier record."""
    path = _mark_path(transcript, session_id)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    at = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    record = json.dumps({"archived": archived, "at": at, "by": "sdk"})
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".archived-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(record)
        os.replace(tmp, path)  # readers see the old record or the new one, never half of one
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _prompted_after(text: str, at_ms: int) -> bool:
    """Whether ``text`` (transcript lines) holds a prompt sent after ``at_ms``:
    a user entry that is not a tool result, a meta entry or a subagent's."""
    for line in text.splitlines():
        if '"user"' not in line and '"queued_command"' not in line:
            continue
        if '"tool_result"' in line:
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue  # a line cut by the head or tail window
        if not isinstance(entry, dict) or entry.get("type") != "user":
            continue
        if entry.get("isMeta") or entry.get("isSidechain") or entry.get("isCompactSummary"):
            continue
        stamp = epoch_ms(entry.get("timestamp"))
        if stamp is not None and stamp > at_ms:
            return True
    return False


def is_archived(transcript: Path, session_id: str, lite: Lite) -> bool | None:
    """``True`` or ``False`` for a session that has a record, ``None`` for
    one that never had (or whose record does not read)."""
    try:
        with _mark_path(transcript, session_id).open("rb") as fh:
            raw = fh.read(_MAX_RECORD + 1)
    except OSError:
        return None
    if len(raw) > _MAX_RECORD:
        return None
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(record, dict) or not isinstance(record.get("archived"), bool):
        return None
    at_ms = epoch_ms(record.get("at"))
    if not record["archived"] or at_ms is None:
        return bool(record["archived"])
    return not (_prompted_after(lite.tail, at_ms) or (lite.head != lite.tail and _prompted_after(lite.head, at_ms)))
