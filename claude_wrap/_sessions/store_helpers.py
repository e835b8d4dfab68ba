"""Sessions held by a ``SessionStore``: the async twins of ``_sessions.disk_helpers``.

Same names, signatures and results as the official package
(``list_sessions_from_store``, ``rename_session_via_store`` ...). They share
the transcript reading of ``_sessions.transcripts`` and ``_sessions.chain`` with
the local-disk functions, so disk and store agree on the same transcript.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any, Union, cast

import anyio

from claude_wrap._sessions.chain import (
    parent_ids,
    session_messages,
    split_agent_metadata,
    subagent_messages,
    transcript_entries,
)
from claude_wrap._sessions.disk_helpers import find_session, read_agent_meta
from claude_wrap._sessions.edits import (
    check_session_id,
    fork_entries,
    fork_source,
    fork_title_from_entries,
    iso_now,
    json_line,
    tag_entry,
    title_entry,
)
from claude_wrap._sessions.store import (
    SessionKey,
    SessionStore,
    SessionStoreEntry,
    SessionStoreListEntry,
    SessionSummaryEntry,
    implements,
)
from claude_wrap._sessions.summary import summary_to_info
from claude_wrap._sessions.transcripts import (
    ForkSessionResult,
    SDKSessionInfo,
    SessionMessage,
    canonical_path,
    info_from_lite,
    is_uuid,
    lite_from_bytes,
    mtime_from_jsonl_tail,
    page_sessions,
    project_key_for_directory,
    sanitize_path,
    store_jsonl,
)

__all__ = [
    "delete_session_via_store",
    "fork_session_via_store",
    "get_session_info_from_store",
    "get_session_messages_from_store",
    "get_subagent_messages_from_store",
    "import_session_to_store",
    "list_sessions_from_store",
    "list_subagents_from_store",
    "rename_session_via_store",
    "tag_session_via_store",
]

# Loads at a time when a listing reads whole transcripts: a big project must
# not exhaust a store's connection pool or rate limit.
_LOAD_CONCURRENCY = 16
# Import batches: at most this many entries, or about this many bytes.
_IMPORT_BATCH = 500
_IMPORT_BATCH_BYTES = 1 << 20


class MissingStoreMethodError(ValueError):
    """The store lacks an optional method this helper needs (a ``ValueError``,
    as in the official package)."""


def _key(session_id: str, directory: str | os.PathLike[str] | None, subpath: str | None = None) -> SessionKey:
    key: SessionKey = {"project_key": project_key_for_directory(directory), "session_id": session_id}
    if subpath:
        key["subpath"] = subpath
    return key


def _project_path(directory: str | os.PathLike[str] | None) -> str:
    return canonical_path(directory if directory is not None else ".")


# -- listing -------------------------------------------------------------------------------


async def _infos_by_loading(
    store: SessionStore, project: str, listing: list[SessionStoreListEntry], path: str
) -> list[SDKSessionInfo]:
    """Each listed session's info from its whole transcript, loaded at most
    ``_LOAD_CONCURRENCY`` at a time. Sessions with no info (none stored, a
    subagent's, metadata only) are left out; a session whose load fails is
    there with an empty summary, so one bad row does not fail the list."""
    loaded: list[list[Any] | None | Exception] = [None] * len(listing)
    limiter = anyio.CapacityLimiter(_LOAD_CONCURRENCY)

    async def one(i: int, session_id: str) -> None:
        async with limiter:
            try:
                loaded[i] = await store.load({"project_key": project, "session_id": session_id})
            except Exception as exc:  # noqa: BLE001 - the store is user code
                loaded[i] = exc

    async with anyio.create_task_group() as tg:
        for i, item in enumerate(listing):
            tg.start_soon(one, i, item["session_id"])
    infos: list[SDKSessionInfo] = []
    for item, entries in zip(listing, loaded):
        sid, mtime = item["session_id"], item["mtime"]
        if isinstance(entries, Exception):
            infos.append(SDKSessionInfo(session_id=sid, summary="", last_modified=mtime))
            continue
        lite = lite_from_bytes(store_jsonl(entries).encode(), mtime) if entries else None
        info = None if lite is None else info_from_lite(sid, lite, path)
        if info is not None:
            infos.append(info)
    return infos


async def list_sessions_from_store(
    session_store: SessionStore,
    directory: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[SDKSessionInfo]:
    """Sessions of the project at ``directory`` (default: the current one)
    held by the store, newest first (the store's write times).

    With ``list_session_summaries()`` this reads the stored summaries, plus
    ``list_sessions()`` to find sessions whose summary is missing or older
    than the session, which alone are loaded (only those on the requested
    page). Without it, every session is loaded. A store needs one of the two
    methods (``ValueError`` otherwise); without ``list_sessions()`` only
    summarised sessions are seen.
    """
    path = _project_path(directory)
    project = sanitize_path(path)
    if implements(session_store, "list_session_summaries"):
        try:
            summaries = await session_store.list_session_summaries(project)
        except NotImplementedError:
            pass
        else:
            return await _list_with_summaries(session_store, project, path, summaries, limit, offset)
    if not implements(session_store, "list_sessions"):
        raise MissingStoreMethodError(
            "session_store implements neither list_session_summaries() nor list_sessions() -- cannot list "
            "sessions. Provide a store with at least one of those methods."
        )
    listing = list(await session_store.list_sessions(project))
    infos = await _infos_by_loading(session_store, project, listing, path)
    infos.sort(key=lambda i: i.last_modified, reverse=True)
    return page_sessions(infos, limit, offset)


Slot = tuple[Any, Union[SDKSessionInfo, SessionStoreListEntry]]


async def _list_with_summaries(
    store: SessionStore,
    project: str,
    path: str,
    summaries: list[SessionSummaryEntry],
    limit: int | None,
    offset: int,
) -> list[SDKSessionInfo]:
    listing: list[SessionStoreListEntry] | None = None
    if implements(store, "list_sessions"):
        listing = list(await store.list_sessions(project))
    known = None if listing is None else {e["session_id"]: e["mtime"] for e in listing}
    # (mtime, info or the listing entry to load it from), summaries first.
    slots: list[Slot] = []
    summarised: set[str] = set()
    for summary in summaries:
        sid = summary["session_id"]
        if known is not None and (sid not in known or summary["mtime"] < known[sid]):
            continue  # deleted since, or written after its summary: load it below
        summarised.add(sid)
        info = summary_to_info(summary, path)
        # Dropped before paging, as the slow path filters before paging.
        if info is not None:
            slots.append((summary["mtime"], info))
    slots += [(item["mtime"], item) for item in listing or () if item["session_id"] not in summarised]
    slots.sort(key=lambda s: s[0], reverse=True)
    chosen = page_sessions(slots, limit, offset)
    # Load only what this page shows. A loaded session that turns out to
    # have no info (a subagent's, metadata only) leaves its page one short.
    to_load = [got for _, got in chosen if not isinstance(got, SDKSessionInfo)]
    loaded = {i.session_id: i for i in await _infos_by_loading(store, project, to_load, path)} if to_load else {}
    out: list[SDKSessionInfo] = []
    for _, got in chosen:
        info = got if isinstance(got, SDKSessionInfo) else loaded.get(got["session_id"])
        if info is not None:
            out.append(info)
    return out


async def get_session_info_from_store(
    session_store: SessionStore, session_id: str, directory: str | os.PathLike[str] | None = None
) -> SDKSessionInfo | None:
    """Metadata of one session held by the store, or ``None``. Its
    ``last_modified`` is the time of its last entry."""
    if not is_uuid(session_id):
        return None
    entries = await session_store.load(_key(session_id, directory))
    if not entries:
        return None
    jsonl = store_jsonl(entries)
    lite = lite_from_bytes(jsonl.encode(), mtime_from_jsonl_tail(jsonl))
    return None if lite is None else info_from_lite(session_id, lite, _project_path(directory))


# -- messages ---------------------------------------------------------------------------


async def get_session_messages_from_store(
    session_store: SessionStore,
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    offset: int = 0,
    *,
    include_system_messages: bool = False,
) -> list[SessionMessage]:
    """The conversation of a session held by the store, as
    ``get_session_messages`` gives it (``include_system_messages`` too)."""
    if not is_uuid(session_id):
        return []
    entries = await session_store.load(_key(session_id, directory))
    if not entries:
        return []
    return session_messages(transcript_entries(entries), limit, offset, system=include_system_messages)


def _need_subkeys(store: SessionStore) -> None:
    if not implements(store, "list_subkeys"):
        raise MissingStoreMethodError(
            "session_store does not implement list_subkeys() -- cannot list subagents. "
            "Provide a store with a list_subkeys() method."
        )


async def list_subagents_from_store(
    session_store: SessionStore, session_id: str, directory: str | os.PathLike[str] | None = None
) -> list[str]:
    """Ids of the subagents of a session held by the store, each once.
    Needs ``list_subkeys()`` (``ValueError`` otherwise)."""
    if not is_uuid(session_id):
        return []
    _need_subkeys(session_store)
    subkeys = await session_store.list_subkeys(
        {"project_key": project_key_for_directory(directory), "session_id": session_id}
    )
    ids: dict[str, None] = {}
    for subpath in subkeys:
        name = subpath.rsplit("/", 1)[-1]
        if subpath.startswith("subagents/") and name.startswith("agent-"):
            ids.setdefault(name[len("agent-") :])
    return list(ids)


async def get_subagent_messages_from_store(
    session_store: SessionStore,
    session_id: str,
    agent_id: str,
    directory: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[SessionMessage]:
    """A subagent's messages from the store. It is looked for among the
    session's subkeys when the store lists them (it may be nested under
    ``subagents/``), else at ``subagents/agent-<id>``."""
    if not is_uuid(session_id) or not agent_id:
        return []
    subpath: str | None = f"subagents/agent-{agent_id}"
    if implements(session_store, "list_subkeys"):
        subkeys = await session_store.list_subkeys(
            {"project_key": project_key_for_directory(directory), "session_id": session_id}
        )
        name = f"agent-{agent_id}"
        subpath = next((s for s in subkeys if s.startswith("subagents/") and s.rsplit("/", 1)[-1] == name), None)
        if subpath is None:
            return []
    entries = await session_store.load(_key(session_id, directory, subpath))
    if not entries:
        return []
    meta, transcript = split_agent_metadata(entries)
    if not transcript:
        return []
    tool, parent = parent_ids(meta)
    return subagent_messages(transcript_entries(transcript), limit, offset, tool, parent)


# -- writing ---------------------------------------------------------------------------------


def _stamped(entry: dict[str, Any]) -> SessionStoreEntry:
    return cast(SessionStoreEntry, {**entry, "uuid": str(uuid.uuid4()), "timestamp": iso_now()})


async def rename_session_via_store(
    session_store: SessionStore, session_id: str, title: str, directory: str | os.PathLike[str] | None = None
) -> None:
    """Give a stored session a custom title (appends a ``custom-title`` entry)."""
    check_session_id(session_id)
    entry = _stamped(title_entry(session_id, title))
    await session_store.append(_key(session_id, directory), [entry])


async def tag_session_via_store(
    session_store: SessionStore, session_id: str, tag: str | None, directory: str | os.PathLike[str] | None = None
) -> None:
    """Tag a stored session (``None`` clears the tag)."""
    check_session_id(session_id)
    entry = _stamped(tag_entry(session_id, tag))
    await session_store.append(_key(session_id, directory), [entry])


async def delete_session_via_store(
    session_store: SessionStore, session_id: str, directory: str | os.PathLike[str] | None = None
) -> None:
    """Delete a stored session (with its subkeys, if the store's ``delete``
    cascades); nothing happens if the store cannot delete."""
    check_session_id(session_id)
    if implements(session_store, "delete"):
        await session_store.delete(_key(session_id, directory))


async def fork_session_via_store(
    session_store: SessionStore,
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    up_to_message_id: str | None = None,
    title: str | None = None,
) -> ForkSessionResult:
    """Copy a stored session into a new one in the same store, as
    ``fork_session`` does on disk."""
    check_session_id(session_id)
    if up_to_message_id and not is_uuid(up_to_message_id):
        raise ValueError(f"Invalid up_to_message_id: {up_to_message_id}")
    loaded = await session_store.load(_key(session_id, directory))
    if not loaded:
        raise FileNotFoundError(f"Session {session_id} not found")
    transcript, replacements = fork_source(loaded, session_id)
    new_id, entries = fork_entries(
        transcript, replacements, session_id, up_to_message_id, title, lambda: fork_title_from_entries(loaded)
    )
    # Plain JSON values, sharing nothing with the source session's entries.
    await session_store.append(_key(new_id, directory), [json.loads(json_line(e)) for e in entries])
    return ForkSessionResult(session_id=new_id)


# -- import -------------------------------------------------------------------------------------


async def _append_file(path: Path, key: SessionKey, store: SessionStore, batch_size: int) -> None:
    batch: list[Any] = []
    size = 0
    for line in (await anyio.Path(path).read_bytes()).decode("utf-8", errors="replace").split("\n"):
        try:
            batch.append(json.loads(line))
        except ValueError:
            continue  # blank, or a half-written last line
        size += len(line)
        if len(batch) >= batch_size or size >= _IMPORT_BATCH_BYTES:
            await store.append(key, batch)
            batch, size = [], 0
    if batch:
        await store.append(key, batch)


def _jsonl_files(base: Path) -> list[Path]:
    """Every ``.jsonl`` file under ``base``, depth first, by name."""
    try:
        children = sorted(base.iterdir(), key=lambda p: p.name)
    except OSError:
        return []
    out: list[Path] = []
    for child in children:
        if child.is_dir():
            out += _jsonl_files(child)
        elif child.is_file() and child.name.endswith(".jsonl"):
            out.append(child)
    return out


async def import_session_to_store(
    session_id: str,
    store: SessionStore,
    *,
    directory: str | os.PathLike[str] | None = None,
    include_subagents: bool = True,
    batch_size: int = _IMPORT_BATCH,
    config_dir: str | os.PathLike[str] | None = None,
) -> None:
    """Copy a local session (and its subagents, with their ``.meta.json``
    as an ``agent_metadata`` entry) into a store, ``batch_size`` entries (or
    1 MiB) per append, under the key the live mirror would have used."""
    check_session_id(session_id)
    found = find_session(session_id, directory, config_dir)
    if found is None:
        raise FileNotFoundError(f"Session {session_id} not found")
    path = found[0]
    batch_size = batch_size if batch_size > 0 else _IMPORT_BATCH
    main: SessionKey = {"project_key": path.parent.name, "session_id": session_id}
    await _append_file(path, main, store, batch_size)
    if not include_subagents:
        return
    session_dir = path.with_suffix("")
    for file in _jsonl_files(session_dir / "subagents"):
        parts = list(file.relative_to(session_dir).parts)
        parts[-1] = parts[-1][: -len(".jsonl")]
        key: SessionKey = {**main, "subpath": "/".join(parts)}
        await _append_file(file, key, store, batch_size)
        meta = read_agent_meta(file)
        if meta is not None:
            # The marker last: a "type" key in the sidecar must not shadow it.
            await store.append(key, [cast(SessionStoreEntry, {**meta, "type": "agent_metadata"})])
