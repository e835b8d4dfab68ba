"""Sessions held by a ``SessionStore``: the async twins of ``_sessions``.

Same names as the official package (``list_sessions_from_store``,
``rename_session_via_store`` ...). They share the parsing of
``_transcripts`` with the local-disk functions, so disk and store agree on
the same transcript.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio

from ._session_store import (
    SessionKey,
    SessionStore,
    SessionStoreListEntry,
    SessionSummaryEntry,
    implements,
)
from ._sessions import _find_file, parent_ids
from ._store_summary import jsonl_line_size, summary_to_info
from ._transcripts import (
    ForkSessionResult,
    SDKSessionInfo,
    SessionMessage,
    canonical_path,
    fork_entries,
    is_uuid,
    now_iso,
    page,
    parse_jsonl,
    project_key_for_directory,
    session_info,
    tag_entry,
    title_entry,
    to_messages,
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

_LOAD_CONCURRENCY = 16


class MissingStoreMethodError(ValueError, NotImplementedError):
    """The store lacks an optional method this helper needs.

    A ``ValueError`` as in the official package, and still the
    ``NotImplementedError`` these helpers raised before.
    """


def _key(session_id: str, directory: str | os.PathLike[str] | None, subpath: str | None = None) -> SessionKey:
    key: SessionKey = {"project_key": project_key_for_directory(directory), "session_id": session_id}
    if subpath:
        key["subpath"] = subpath
    return key


def _need(store: SessionStore, method: str, caller: str) -> None:
    if not implements(store, method):
        raise MissingStoreMethodError(f"{caller} needs a session store with {method}()")


def _jsonl_size(entries: list[Any]) -> int:
    """The transcript's size as JSONL, standing in for the file size on disk."""
    return sum(map(jsonl_line_size, entries))


def _newest_first(info: SDKSessionInfo) -> tuple[int, str]:
    # The id breaks ties, so both listing paths give one order.
    return -info.last_modified, info.session_id


async def _infos_by_loading(
    store: SessionStore, project: str, listing: list[SessionStoreListEntry], path: str
) -> list[SDKSessionInfo | None]:
    """Each listed session's info from its whole transcript (``None`` where
    there is none), with at most ``_LOAD_CONCURRENCY`` loads at a time."""
    infos: list[SDKSessionInfo | None] = [None] * len(listing)
    limiter = anyio.CapacityLimiter(_LOAD_CONCURRENCY)

    async def one(i: int, item: SessionStoreListEntry) -> None:
        async with limiter:
            entries = await store.load({"project_key": project, "session_id": item["session_id"]})
        if entries:
            infos[i] = session_info(
                item["session_id"], entries, last_modified=int(item["mtime"]), file_size=_jsonl_size(entries), project_path=path
            )

    async with anyio.create_task_group() as tg:
        for i, item in enumerate(listing):
            tg.start_soon(one, i, item)
    return infos


async def list_sessions_from_store(
    session_store: SessionStore,
    directory: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[SDKSessionInfo]:
    """Sessions of the project at ``directory`` (default: the current one)
    held by the store, newest first.

    With ``list_session_summaries()`` this reads the stored summaries, plus
    ``list_sessions()`` to find sessions whose summary is missing or older
    than the session, which alone are loaded (only those on the requested
    page). Without it, every session is loaded. A store needs one of the two
    methods; without ``list_sessions()`` only summarised sessions are seen.
    """
    project = project_key_for_directory(directory)
    path = canonical_path(directory if directory is not None else ".")
    if implements(session_store, "list_session_summaries"):
        try:
            summaries = await session_store.list_session_summaries(project)
        except NotImplementedError:
            pass
        else:
            return await _list_with_summaries(session_store, project, path, summaries, limit, offset)
    _need(session_store, "list_sessions", "list_sessions_from_store")
    listing = await session_store.list_sessions(project)
    found = [i for i in await _infos_by_loading(session_store, project, listing, path) if i is not None]
    found.sort(key=_newest_first)
    return page(found, limit, offset)


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
    known = None if listing is None else {e["session_id"]: int(e["mtime"]) for e in listing}
    # (info, or the listing entry to load it from); sorted like the slow path.
    slots: list[tuple[int, str, SDKSessionInfo | SessionStoreListEntry]] = []
    fresh: set[str] = set()
    for summary in summaries:
        sid = summary["session_id"]
        if known is not None and (sid not in known or int(summary["mtime"]) < known[sid]):
            continue  # deleted since, or written after its summary: load it below
        fresh.add(sid)
        info = summary_to_info(summary, path)
        # Skipped before paging, as the slow path filters before paging.
        if info is not None:
            slots.append((info.last_modified, sid, info))
    for item in listing or ():
        if item["session_id"] not in fresh:
            slots.append((int(item["mtime"]), item["session_id"], item))
    slots.sort(key=lambda s: (-s[0], s[1]))
    chosen = page(slots, limit, offset)
    # Load only what this page shows. A loaded session that turns out to
    # have no info (a sidechain, metadata only) leaves its page one short,
    # as in the official package.
    to_load: list[SessionStoreListEntry] = []
    for _, _, got in chosen:
        if not isinstance(got, SDKSessionInfo):
            to_load.append(got)
    loaded = iter(await _infos_by_loading(store, project, to_load, path) if to_load else [])
    out: list[SDKSessionInfo] = []
    for _, _, got in chosen:
        info = got if isinstance(got, SDKSessionInfo) else next(loaded)
        if info is not None:
            out.append(info)
    return out


async def get_session_info_from_store(
    session_store: SessionStore, session_id: str, directory: str | os.PathLike[str] | None = None
) -> SDKSessionInfo | None:
    """Metadata of one session held by the store, or ``None``."""
    if not is_uuid(session_id):
        return None
    entries = await session_store.load(_key(session_id, directory))
    if not entries:
        return None
    mtime = 0
    if implements(session_store, "list_sessions"):
        listing = await session_store.list_sessions(project_key_for_directory(directory))
        mtime = next((int(s["mtime"]) for s in listing if s["session_id"] == session_id), 0)
    path = canonical_path(directory if directory is not None else ".")
    return session_info(session_id, entries, last_modified=mtime, file_size=_jsonl_size(entries), project_path=path)


async def get_session_messages_from_store(
    session_store: SessionStore,
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[SessionMessage]:
    """The main-chain messages of a session held by the store."""
    if not is_uuid(session_id):
        return []
    entries = await session_store.load(_key(session_id, directory))
    return page(to_messages(entries or []), limit, offset)


async def list_subagents_from_store(
    session_store: SessionStore, session_id: str, directory: str | os.PathLike[str] | None = None
) -> list[str]:
    """Ids of the subagents of a session held by the store. Needs ``list_subkeys()``."""
    _need(session_store, "list_subkeys", "list_subagents_from_store")
    if not is_uuid(session_id):
        return []
    subs = await session_store.list_subkeys({"project_key": project_key_for_directory(directory), "session_id": session_id})
    names = [s.rsplit("/", 1)[-1] for s in subs if s.startswith("subagents/")]
    return [n[len("agent-") :] for n in names if n.startswith("agent-")]


async def get_subagent_messages_from_store(
    session_store: SessionStore,
    session_id: str,
    agent_id: str,
    directory: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[SessionMessage]:
    """A subagent's messages from the store."""
    if not is_uuid(session_id) or not agent_id:
        return []
    subpath = f"subagents/agent-{agent_id}"
    if implements(session_store, "list_subkeys"):
        subs = await session_store.list_subkeys({"project_key": project_key_for_directory(directory), "session_id": session_id})
        subpath = next((s for s in subs if s.rsplit("/", 1)[-1] == f"agent-{agent_id}"), subpath)
    entries = await session_store.load(_key(session_id, directory, subpath)) or []
    meta = next((e for e in reversed(entries) if e.get("type") == "agent_metadata"), None)
    tool, parent = parent_ids(meta)
    rest = [e for e in entries if e.get("type") != "agent_metadata"]
    return page(to_messages(rest, sidechain=True, parent_tool_use_id=tool, parent_agent_id=parent), limit, offset)


async def _require(session_store: SessionStore, session_id: str, directory: Any) -> list[dict[str, Any]]:
    if not is_uuid(session_id):
        raise ValueError(f"not a session id (UUID): {session_id!r}")
    entries = await session_store.load(_key(session_id, directory))
    if not entries:
        raise FileNotFoundError(f"session {session_id} not found in the store")
    return entries


async def rename_session_via_store(
    session_store: SessionStore, session_id: str, title: str, directory: str | os.PathLike[str] | None = None
) -> None:
    """Give a stored session a custom title."""
    entry = {**title_entry(session_id, title), "uuid": _uuid(), "timestamp": now_iso()}
    await _require(session_store, session_id, directory)
    await session_store.append(_key(session_id, directory), [entry])


async def tag_session_via_store(
    session_store: SessionStore, session_id: str, tag: str | None, directory: str | os.PathLike[str] | None = None
) -> None:
    """Tag a stored session (``None`` clears the tag)."""
    entry = {**tag_entry(session_id, tag), "uuid": _uuid(), "timestamp": now_iso()}
    await _require(session_store, session_id, directory)
    await session_store.append(_key(session_id, directory), [entry])


async def delete_session_via_store(
    session_store: SessionStore, session_id: str, directory: str | os.PathLike[str] | None = None
) -> None:
    """Delete a stored session and its subkeys (nothing if the store cannot delete)."""
    if implements(session_store, "delete"):
        await session_store.delete(_key(session_id, directory))


async def fork_session_via_store(
    session_store: SessionStore,
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    up_to_message_id: str | None = None,
    title: str | None = None,
) -> ForkSessionResult:
    """Copy a stored session into a new one in the same store."""
    entries = await _require(session_store, session_id, directory)
    new_id, forked = fork_entries(session_id, entries, up_to_message_id=up_to_message_id, title=title)
    await session_store.append(_key(new_id, directory), forked)
    return ForkSessionResult(session_id=new_id)


async def import_session_to_store(
    session_id: str,
    session_store: SessionStore,
    *,
    directory: str | os.PathLike[str] | None = None,
    include_subagents: bool = True,
    batch_size: int = 500,
    config_dir: str | os.PathLike[str] | None = None,
) -> None:
    """Copy a local session (and its subagents) into a store, in batches."""
    found = _find_file(session_id, directory, config_dir)
    if found is None:
        raise FileNotFoundError(f"session {session_id} not found")
    path = found[0]
    project = path.parent.name
    files: list[tuple[str | None, Path]] = [(None, path)]
    if include_subagents:
        base = path.with_suffix("")
        files += [(f.relative_to(base).with_suffix("").as_posix(), f) for f in sorted(base.glob("subagents/**/agent-*.jsonl"))]
    for subpath, file in files:
        key: SessionKey = {"project_key": project, "session_id": session_id}
        if subpath:
            key["subpath"] = subpath
        entries = parse_jsonl(await anyio.Path(file).read_bytes())
        meta_file = file.with_name(file.name[: -len(".jsonl")] + ".meta.json")
        if subpath and meta_file.is_file():
            try:
                meta = json.loads(meta_file.read_text(encoding="utf-8"))
                if isinstance(meta, dict):
                    entries.append({"type": "agent_metadata", **meta})
            except ValueError:
                pass
        for start in range(0, len(entries), max(1, batch_size)):
            await session_store.append(key, entries[start : start + batch_size])


def _uuid() -> str:
    import uuid

    return str(uuid.uuid4())
