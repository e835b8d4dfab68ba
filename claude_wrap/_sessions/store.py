"""The ``SessionStore`` protocol and its key types.

A session store keeps transcripts outside the machine that ran them, so any
host can list, read and resume any session. Entries are the binary's own
JSONL objects, opaque to the store. A key names one transcript file:
``{"project_key", "session_id"}`` for a session's main transcript, plus
``"subpath"`` (e.g. ``"subagents/agent-<id>"``) for a subagent's.

A store may also keep a summary per session (``list_session_summaries``),
folded from each append, so listing sessions does not read every transcript.

Importing this module is cheap (stdlib only): ``ClaudeAgentOptions`` refers
to the protocol.
"""

# No ``from __future__ import annotations``: the TypedDicts need real
# annotations, or NotRequired keys would count as required at runtime.

import json
import os
import time
from pathlib import Path
from typing import Any, Literal, Protocol

from typing_extensions import NotRequired, Required, TypedDict

__all__ = [
    "SessionKey",
    "SessionListSubkeysKey",
    "SessionStore",
    "SessionStoreEntry",
    "SessionStoreFlushMode",
    "SessionStoreListEntry",
    "SessionSummaryEntry",
    "file_path_to_session_key",
    "implements",
    "json_text",
    "now_ms",
]


class SessionStoreEntry(TypedDict, total=False):
    """One transcript entry (a JSONL object) as a store sees it.

    Only ``type`` is always there; every other key is opaque JSON that a
    store must keep exactly as it came.
    """

    type: Required[str]
    uuid: str
    timestamp: str


SessionStoreFlushMode = Literal["batched", "eager"]
"""``"batched"``: mirror at each result and at close; ``"eager"``: every frame."""


class SessionKey(TypedDict):
    """Names one transcript: a session's main one, or a ``subpath`` of it."""

    project_key: str
    session_id: str
    subpath: NotRequired[str]


class SessionListSubkeysKey(TypedDict):
    """A session, for ``list_subkeys``."""

    project_key: str
    session_id: str


class SessionStoreListEntry(TypedDict):
    """A session in ``list_sessions``: its id and last write (epoch ms)."""

    session_id: str
    mtime: int


class SessionSummaryEntry(TypedDict):
    """A session's summary, as ``list_session_summaries`` returns it.

    ``mtime`` is when the store last wrote it (epoch ms), on the same clock as
    the ``mtime`` that ``list_sessions`` reports for the session: a summary
    older than that is stale and gets recomputed from the transcript.
    ``data`` belongs to the fold; stores save and return it unchanged.
    """

    session_id: str
    mtime: int
    data: dict[str, Any]


class SessionStore(Protocol):
    """Where mirrored transcripts live.

    ``append`` and ``load`` are required. ``list_sessions``,
    ``list_session_summaries``, ``delete`` and ``list_subkeys`` are optional:
    a store that subclasses this protocol and does not override them (or a
    duck-typed store without them) does not support them, and the helpers
    that need them say so or take a slower way.
    """

    async def append(self, key: SessionKey, entries: list[SessionStoreEntry]) -> None:
        """Add ``entries`` after the ones already stored under ``key``, in order,
        atomically if possible. ``append(key, [])`` leaves the stored
        entries as they are."""
        ...

    async def load(self, key: SessionKey) -> list[SessionStoreEntry] | None:
        """Every entry under ``key`` in append order, or ``None`` if there are none."""
        ...

    async def list_sessions(self, project_key: str) -> list[SessionStoreListEntry]:
        """Sessions (main transcripts only) of a project, with their mtimes."""
        raise NotImplementedError

    async def list_session_summaries(self, project_key: str) -> list[SessionSummaryEntry]:
        """The stored summaries of a project's sessions (main transcripts only).

        A store that has this keeps each summary current in ``append`` with
        ``fold_session_summary`` (skipping keys with a ``subpath``), stamps it
        with the write time it also reports in ``list_sessions``, and drops it
        in ``delete``. Appends to one session that may run at once must not
        lose each other's fold: read, fold and write under one transaction or
        lock. ``list_sessions_from_store`` then needs no ``load`` per session.
        """
        raise NotImplementedError

    async def delete(self, key: SessionKey) -> None:
        """Remove a transcript; a main key also removes its subkeys."""
        raise NotImplementedError

    async def list_subkeys(self, key: SessionListSubkeysKey) -> list[str]:
        """The subpaths stored under a session (not the main transcript)."""
        raise NotImplementedError


def implements(store: object, method: str) -> bool:
    """Whether ``store`` really provides an optional protocol method (not
    the protocol's default, which raises ``NotImplementedError``)."""
    if getattr(store, method, None) is None:
        return False
    return getattr(type(store), method, None) is not getattr(SessionStore, method, None)


def now_ms() -> int:
    """The current time in epoch milliseconds (store mtimes)."""
    return int(time.time() * 1000)


def json_text(value: Any) -> str:
    """``value`` as compact JSON text for a store's column or key: as it is
    where it can be UTF-8, else with every non-ASCII character escaped, so
    a lone surrogate (text cut in the middle of a character) is kept, as
    ``\\ud83c``, rather than failing the append."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":"))
    return text


def key_parts(key: SessionKey) -> tuple[str, str, str]:
    """``(project_key, session_id, subpath)`` with ``""`` for the main transcript."""
    return key["project_key"], key["session_id"], key.get("subpath") or ""


def file_path_to_session_key(file_path: str, projects_dir: str | os.PathLike[str]) -> SessionKey | None:
    """The key for a transcript path under ``projects_dir``, or ``None``.

    ``<projects>/<project>/<id>.jsonl`` is a main transcript;
    ``<projects>/<project>/<id>/subagents/.../agent-<x>.jsonl`` a subkey
    (``subpath`` joined with ``/``, without ``.jsonl``). ``projects_dir`` may
    also be reached through a symlink.
    """
    for base in (os.fspath(projects_dir), os.path.realpath(projects_dir)):
        try:
            rel = Path(os.path.relpath(file_path, base))
        except ValueError:  # another drive
            continue
        parts = list(rel.parts)
        if not parts or parts[0] == ".." or rel.is_absolute():
            continue
        if len(parts) == 2 and parts[1].endswith(".jsonl"):
            return {"project_key": parts[0], "session_id": parts[1][: -len(".jsonl")]}
        if len(parts) >= 4:
            sub = parts[2:]
            if sub[-1].endswith(".jsonl"):
                sub[-1] = sub[-1][: -len(".jsonl")]
            return {"project_key": parts[0], "session_id": parts[1], "subpath": "/".join(sub)}
        return None
    return None
