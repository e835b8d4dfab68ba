"""Local transcripts: list, read, rename, tag, delete and fork sessions on disk.

Plain synchronous functions (file I/O), with the official package's names,
signatures and results. They read the binary's layout under its config dir
(``$CLAUDE_CONFIG_DIR`` or ``~/.claude``)::

    projects/<sanitized cwd>/<session id>.jsonl
    projects/<sanitized cwd>/<session id>/subagents/**/agent-<id>.jsonl (+ .meta.json)

A session is looked for in the project of ``directory``, then in the
projects of the other git worktrees of its repository; without
``directory``, in every project. Each function also takes ``config_dir=``
(an addition to the official signatures) to read another config dir, e.g.
the ``CLAUDE_CONFIG_DIR`` you pass in ``ClaudeAgentOptions.env``. Corrupt or
half-written lines are skipped.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from claude_wrap._sessions.archive import is_archived, write_mark
from claude_wrap._sessions.chain import parent_ids, parse_entries, parse_jsonl, session_messages, subagent_messages
from claude_wrap._sessions.edits import (
    check_session_id,
    fork_entries,
    fork_source,
    fork_title_from_jsonl,
    json_line,
    tag_entry,
    title_entry,
)
from claude_wrap._sessions.transcripts import (
    LITE_BUF,
    ForkSessionResult,
    Lite,
    SDKSessionInfo,
    SessionMessage,
    canonical_path,
    config_dir as default_config_dir,
    info_from_lite,
    is_programmatic,
    is_uuid,
    long_prefix,
    page_sessions,
    sanitize_path,
)

__all__ = [
    "archive_session",
    "delete_session",
    "fork_session",
    "get_session_info",
    "get_session_messages",
    "get_subagent_messages",
    "list_sessions",
    "list_subagents",
    "rename_session",
    "tag_session",
    "unarchive_session",
]

# -- where sessions are ----------------------------------------------------------------


def _projects(config_dir: str | os.PathLike[str] | None) -> Path:
    base = Path(config_dir) if config_dir is not None else default_config_dir()
    return base / "projects"


def _project_dir(projects: Path, project_path: str) -> Path | None:
    """The project directory of a path. An over-long name ends in a hash
    another runtime may compute differently: then any name with its prefix."""
    sanitized = sanitize_path(project_path)
    exact = projects / sanitized
    if exact.is_dir():
        return exact
    prefix = long_prefix(sanitized)
    if prefix is None:
        return None
    try:
        return next((p for p in projects.iterdir() if p.is_dir() and p.name.startswith(prefix + "-")), None)
    except OSError:
        return None


def _worktree_paths(cwd: str) -> list[str]:
    """The git worktrees of the repository at ``cwd`` (none outside one)."""
    try:
        done = subprocess.run(
            ["git", "worktree", "list", "--porcelain"], cwd=cwd, capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError, ValueError):
        return []
    if done.returncode != 0:
        return []
    return [unicodedata.normalize("NFC", line[9:]) for line in done.stdout.split("\n") if line.startswith("worktree ")]


def _candidate_dirs(directory: str | os.PathLike[str] | None, config_dir: Any) -> Iterator[tuple[Path, str | None]]:
    """Where a session may be, in search order, with the project path each
    stands for. Worktrees are asked for only when the first place fails."""
    projects = _projects(config_dir)
    if directory:
        canonical = canonical_path(directory)
        found = _project_dir(projects, canonical)
        if found is not None:
            yield found, canonical
        for tree in _worktree_paths(canonical):
            if tree != canonical and (found := _project_dir(projects, tree)) is not None:
                yield found, tree
        return
    try:
        entries = list(projects.iterdir())
    except OSError:
        return
    for entry in entries:
        yield entry, None


def find_session(session_id: str, directory: Any, config_dir: Any) -> tuple[Path, str | None] | None:
    """The session's transcript (the first non-empty one) and its project path."""
    name = f"{session_id}.jsonl"
    for project, path in _candidate_dirs(directory, config_dir):
        try:
            if (project / name).stat().st_size > 0:
                return project / name, path
        except OSError:
            continue
    return None


def _not_found(session_id: str, directory: Any) -> FileNotFoundError:
    return FileNotFoundError(
        f"Session {session_id} not found" + (f" in project directory for {directory}" if directory else "")
    )


def _read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return ""


def _read_lite(path: Path) -> Lite | None:
    """A transcript's size, mtime, head and tail, in two reads."""
    try:
        with path.open("rb") as fh:
            st = os.fstat(fh.fileno())
            head = fh.read(LITE_BUF)
            if not head:
                return None
            text = head.decode("utf-8", errors="replace")
            tail = text
            if st.st_size > LITE_BUF:
                fh.seek(st.st_size - LITE_BUF)
                tail = fh.read(LITE_BUF).decode("utf-8", errors="replace")
    except OSError:
        return None
    return Lite(mtime=int(st.st_mtime * 1000), size=st.st_size, head=text, tail=tail)


# -- reading -----------------------------------------------------------------------------


def _info(path: Path, session_id: str, lite: Lite, project_path: str | None) -> SDKSessionInfo | None:
    info = info_from_lite(session_id, lite, project_path)
    if info is not None:
        setattr(info, "_archived", is_archived(path, session_id, lite))  # a slot, not a field (see SDKSessionInfo)
    return info


def _sessions_in(project: Path, project_path: str | None, include_programmatic: bool = True) -> list[SDKSessionInfo]:
    try:
        files = list(project.iterdir())
    except OSError:
        return []
    infos: list[SDKSessionInfo] = []
    for file in files:
        if not file.name.endswith(".jsonl") or not is_uuid(file.name[: -len(".jsonl")]):
            continue
        lite = _read_lite(file)
        if lite is None or (not include_programmatic and is_programmatic(lite)):
            continue
        info = _info(file, file.name[: -len(".jsonl")], lite, project_path)
        if info is not None:
            infos.append(info)
    return infos


def _newest_first(infos: list[SDKSessionInfo], limit: int | None, offset: int) -> list[SDKSessionInfo]:
    # A session found in two projects (worktrees) is listed by its newer copy.
    by_id: dict[str, SDKSessionInfo] = {}
    for info in infos:
        known = by_id.get(info.session_id)
        if known is None or info.last_modified > known.last_modified:
            by_id[info.session_id] = info
    unique = list(by_id.values())
    unique.sort(key=lambda i: i.last_modified, reverse=True)
    return page_sessions(unique, limit, offset)


def _project_sessions(
    projects: Path, directory: str | os.PathLike[str], include_worktrees: bool, include_programmatic: bool
) -> list[SDKSessionInfo]:
    """The sessions of ``directory``'s project, and of its other worktrees'."""
    canonical = canonical_path(directory)
    trees = _worktree_paths(canonical) if include_worktrees else []
    own = _project_dir(projects, canonical)
    if len(trees) > 1:
        try:
            dirs = [p for p in projects.iterdir() if p.is_dir()]
        except OSError:
            pass
        else:
            infos = _sessions_in(own, canonical, include_programmatic) if own is not None else []
            done = {own.name} if own is not None else set()
            # The longest (most specific) worktree path first.
            keyed = sorted(((tree, sanitize_path(tree)) for tree in trees), key=lambda t: len(t[1]), reverse=True)
            for project in dirs:
                if project.name in done:
                    continue
                for tree, name in keyed:
                    if project.name == name or (len(name) >= 200 and project.name.startswith(name + "-")):
                        done.add(project.name)
                        infos += _sessions_in(project, tree, include_programmatic)
                        break
            return infos
    return _sessions_in(own, canonical, include_programmatic) if own is not None else []


def list_sessions(
    directory: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    offset: int = 0,
    include_worktrees: bool = True,
    *,
    include_programmatic: bool = True,
    config_dir: str | os.PathLike[str] | None = None,
) -> list[SDKSessionInfo]:
    """Sessions of the project at ``directory`` (and of its repository's
    other git worktrees, unless ``include_worktrees=False``), or of every
    project when ``directory`` is not given; newest first, then paged with
    ``offset`` and ``limit``.

    Subagent transcripts and metadata-only files are left out; a session
    found in two projects is listed once, by its newer copy. Archived
    sessions stay, with ``archived=True``. ``include_programmatic=False``
    leaves out the sessions an SDK (this package included) or ``claude -p``
    ran, and daemons' sessions, as the binary's ``/resume`` does.
    """
    projects = _projects(config_dir)
    if directory:
        found = _project_sessions(projects, directory, include_worktrees, include_programmatic)
        return _newest_first(found, limit, offset)
    try:
        dirs = [p for p in projects.iterdir() if p.is_dir()]
    except OSError:
        return []
    return _newest_first([i for p in dirs for i in _sessions_in(p, None, include_programmatic)], limit, offset)


def get_session_info(
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> SDKSessionInfo | None:
    """Metadata of one session, or ``None`` if it is not found, is a
    subagent transcript or has nothing to call it by."""
    if not is_uuid(session_id):
        return None
    found = find_session(session_id, directory, config_dir)
    if found is None:
        return None
    lite = _read_lite(found[0])
    return None if lite is None else _info(found[0], session_id, lite, found[1])


def get_session_messages(
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    offset: int = 0,
    *,
    include_system_messages: bool = False,
    config_dir: str | os.PathLike[str] | None = None,
) -> list[SessionMessage]:
    """The user and assistant messages of a session's conversation, oldest
    first, from ``offset`` and at most ``limit`` of them. Each tool call of
    a turn that ran tools in parallel is there, with its result.

    ``include_system_messages=True`` adds the binary's system entries of the
    conversation (compaction boundaries, notices) as ``type="system"``
    messages; their ``message`` holds the entry's ``subtype``, ``content``
    and ``level``."""
    if not is_uuid(session_id):
        return []
    found = find_session(session_id, directory, config_dir)
    if found is None:
        return []
    return session_messages(parse_entries(_read_text(found[0])), limit, offset, system=include_system_messages)


def _agent_files(base: Path) -> list[tuple[str, Path]]:
    """``(agent id, transcript)`` under ``base``, depth first, by name."""
    out: list[tuple[str, Path]] = []
    try:
        children = sorted(base.iterdir(), key=lambda p: p.name)
    except OSError:
        return out
    for child in children:
        if child.is_file() and child.name.startswith("agent-") and child.name.endswith(".jsonl"):
            out.append((child.name[len("agent-") : -len(".jsonl")], child))
        elif child.is_dir():
            out += _agent_files(child)
    return out


def _subagents(session_id: str, directory: Any, config_dir: Any) -> list[tuple[str, Path]]:
    if not is_uuid(session_id):
        return []
    found = find_session(session_id, directory, config_dir)
    return [] if found is None else _agent_files(found[0].with_suffix("") / "subagents")


def list_subagents(
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> list[str]:
    """Ids of the subagents that ran in a session."""
    return [agent for agent, _ in _subagents(session_id, directory, config_dir)]


def read_agent_meta(transcript: Path) -> dict[str, Any] | None:
    """The ``agent-<id>.meta.json`` beside a subagent transcript, or ``None``
    if it is missing or unusable."""
    try:
        meta = json.loads(transcript.with_name(transcript.name[: -len(".jsonl")] + ".meta.json").read_bytes())
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) else None


def get_subagent_messages(
    session_id: str,
    agent_id: str,
    directory: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    offset: int = 0,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> list[SessionMessage]:
    """A subagent's messages. ``parent_tool_use_id`` (the Agent tool call
    that started it) and ``parent_agent_id`` come from its ``.meta.json``."""
    if not agent_id:
        return []
    path = next((p for agent, p in _subagents(session_id, directory, config_dir) if agent == agent_id), None)
    if path is None:
        return []
    text = _read_text(path)
    if not text:
        return []
    tool, parent = parent_ids(read_agent_meta(path))
    return subagent_messages(parse_entries(text), limit, offset, tool, parent)


# -- writing -----------------------------------------------------------------------------


def _try_append(path: Path, data: bytes) -> bool:
    """Append to an existing, non-empty transcript; ``False`` if there is none."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return False
        raise
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            return False
        # A half-written last line must not swallow ours: start a new line.
        if os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        os.write(fd, data)
        return True
    finally:
        os.close(fd)


def _append(session_id: str, entry: dict[str, Any], directory: Any, config_dir: Any) -> None:
    data = (json_line(entry) + "\n").encode()
    name = f"{session_id}.jsonl"
    if not directory and not _projects(config_dir).is_dir():
        raise FileNotFoundError(f"Session {session_id} not found (no projects directory)")
    for project, _ in _candidate_dirs(directory, config_dir):
        if _try_append(project / name, data):
            return
    where = f"in project directory for {directory}" if directory else "in any project directory"
    raise FileNotFoundError(f"Session {session_id} not found {where}")


def rename_session(
    session_id: str,
    title: str,
    directory: str | os.PathLike[str] | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> None:
    """Give a session a custom title (appends a ``custom-title`` entry; the
    last one counts). The title is stripped and must not be empty."""
    check_session_id(session_id)
    _append(session_id, title_entry(session_id, title), directory, config_dir)


def tag_session(
    session_id: str,
    tag: str | None,
    directory: str | os.PathLike[str] | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> None:
    """Tag a session; ``None`` clears the tag (appends a ``tag`` entry).
    Invisible and private-use characters are removed from the tag."""
    check_session_id(session_id)
    _append(session_id, tag_entry(session_id, tag), directory, config_dir)


def _mark(session_id: str, archived: bool, directory: Any, config_dir: Any) -> None:
    check_session_id(session_id)
    found = find_session(session_id, directory, config_dir)
    if found is None:
        raise _not_found(session_id, directory)
    write_mark(found[0], session_id, archived)


def archive_session(
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> None:
    """Archive a session: ``list_sessions`` keeps returning it, with
    ``archived=True``, until `unarchive_session` or a prompt sent in it.

    The mark is a record beside the transcript (``<session id>/archived.json``);
    the transcript is not changed, and a process running the session goes
    on. A session store holds no such record: archive the local copy.
    """
    _mark(session_id, True, directory, config_dir)


def unarchive_session(
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> None:
    """Undo `archive_session`: ``list_sessions`` returns it with ``archived=False``."""
    _mark(session_id, False, directory, config_dir)


def delete_session(
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> None:
    """Delete a session's transcript and its subagent transcripts."""
    check_session_id(session_id)
    found = find_session(session_id, directory, config_dir)
    if found is None:
        raise _not_found(session_id, directory)
    path = found[0]
    try:
        path.unlink()
    except FileNotFoundError as exc:
        raise FileNotFoundError(f"Session {session_id} not found") from exc
    shutil.rmtree(path.parent / session_id, ignore_errors=True)


def fork_session(
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    up_to_message_id: str | None = None,
    title: str | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> ForkSessionResult:
    """Copy a session (up to and including ``up_to_message_id``, if given)
    into a new session beside it, under new uuids, which ``resume=`` can
    then continue. Its title is ``title``, or the session's own plus
    ``" (fork)"``."""
    check_session_id(session_id)
    if up_to_message_id and not is_uuid(up_to_message_id):
        raise ValueError(f"Invalid up_to_message_id: {up_to_message_id}")
    found = find_session(session_id, directory, config_dir)
    if found is None:
        raise _not_found(session_id, directory)
    content = found[0].read_bytes()
    if not content:
        raise ValueError(f"Session {session_id} has no messages to fork")
    transcript, replacements = fork_source(parse_jsonl(content.decode("utf-8", errors="replace")), session_id)
    new_id, entries = fork_entries(
        transcript, replacements, session_id, up_to_message_id, title, lambda: fork_title_from_jsonl(content)
    )
    fd = os.open(found[0].with_name(f"{new_id}.jsonl"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.writelines(json_line(e) + "\n" for e in entries)
    return ForkSessionResult(session_id=new_id)
