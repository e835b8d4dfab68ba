"""Local transcripts: list, read, rename, tag, delete and fork sessions on disk.

Plain synchronous functions (file I/O), with the official package's names and
signatures. They read the binary's layout under its config dir
(``$CLAUDE_CONFIG_DIR`` or ``~/.claude``)::

    projects/<sanitized cwd>/<session id>.jsonl
    projects/<sanitized cwd>/<session id>/subagents/**/agent-<id>.jsonl (+ .meta.json)

Each function also takes ``config_dir=`` (an addition to the official
signatures) to read another config dir, e.g. the ``CLAUDE_CONFIG_DIR`` you
pass in ``ClaudeAgentOptions.env``. Corrupt or half-written lines are skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ._transcripts import (
    ForkSessionResult,
    SDKSessionInfo,
    SessionMessage,
    canonical_path,
    config_dir as default_config_dir,
    dumps_line,
    fork_entries,
    is_uuid,
    page,
    parse_jsonl,
    sanitize_path,
    session_info,
    tag_entry,
    title_entry,
    to_messages,
)

__all__ = [
    "delete_session",
    "fork_session",
    "get_session_info",
    "get_session_messages",
    "get_subagent_messages",
    "list_sessions",
    "list_subagents",
    "rename_session",
    "tag_session",
]



def _projects(config_dir: str | os.PathLike[str] | None) -> Path:
    base = Path(config_dir) if config_dir is not None else default_config_dir()
    return base / "projects"


def _project_dirs(
    directory: str | os.PathLike[str] | None, config_dir: Any, worktrees: bool
) -> Iterator[tuple[Path, str | None]]:
    """Candidate project dirs (with the project path they stand for)."""
    projects = _projects(config_dir)
    if directory is None:
        try:
            dirs = sorted(p for p in projects.iterdir() if p.is_dir())
        except OSError:
            return
        for p in dirs:
            yield p, None
        return
    paths = [canonical_path(directory)]
    if worktrees:
        paths += [p for p in _worktree_paths(paths[0]) if p != paths[0]]
    for path in paths:
        exact = projects / sanitize_path(path)
        if exact.is_dir():
            yield exact, path
        elif len(exact.name) > 200:
            # Over-long names end in a hash the binary may compute differently.
            prefix = exact.name[:200] + "-"
            for p in projects.glob(prefix.replace("[", "[[]") + "*"):
                if p.is_dir():
                    yield p, path


def _worktree_paths(cwd: str) -> list[str]:
    try:
        done = subprocess.run(
            ["git", "worktree", "list", "--porcelain"], cwd=cwd, capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return []
    if done.returncode != 0:
        return []
    return [canonical_path(line[9:]) for line in done.stdout.splitlines() if line.startswith("worktree ")]


def _find_file(session_id: str, directory: Any, config_dir: Any) -> tuple[Path, str | None] | None:
    if not is_uuid(session_id):
        return None
    for project, path in _project_dirs(directory, config_dir, worktrees=True):
        candidate = project / f"{session_id}.jsonl"
        try:
            if candidate.stat().st_size > 0:
                return candidate, path
        except OSError:
            continue
    return None


def _read(path: Path) -> list[dict[str, Any]]:
    try:
        return parse_jsonl(path.read_bytes())
    except OSError:
        return []


def _info_for(path: Path, project_path: str | None) -> SDKSessionInfo | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return session_info(
        path.stem, _read(path), last_modified=int(st.st_mtime * 1000), file_size=st.st_size, project_path=project_path
    )


def list_sessions(
    directory: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    offset: int = 0,
    include_worktrees: bool = True,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> list[SDKSessionInfo]:
    """Sessions of the project at ``directory`` (and its git worktrees), or
    of every project when ``directory`` is ``None``; newest first.

    Subagent transcripts and metadata-only files are left out.
    """
    seen: set[str] = set()
    infos: list[SDKSessionInfo] = []
    for project, path in _project_dirs(directory, config_dir, include_worktrees):
        for file in project.glob("*.jsonl"):
            if not is_uuid(file.stem) or file.stem in seen:
                continue
            info = _info_for(file, path)
            if info is not None:
                seen.add(file.stem)
                infos.append(info)
    infos.sort(key=lambda i: i.last_modified, reverse=True)
    return page(infos, limit, offset)


def get_session_info(
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> SDKSessionInfo | None:
    """Metadata of one session, or ``None`` if it is not found (or is a
    subagent transcript). Without ``directory`` every project is searched."""
    found = _find_file(session_id, directory, config_dir)
    return None if found is None else _info_for(*found)


def get_session_messages(
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    offset: int = 0,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> list[SessionMessage]:
    """The user and assistant messages of a session's main chain, oldest
    first, from ``offset`` and at most ``limit`` of them."""
    found = _find_file(session_id, directory, config_dir)
    if found is None:
        return []
    return page(to_messages(_read(found[0])), limit, offset)


def _agent_files(session_id: str, directory: Any, config_dir: Any) -> list[tuple[str, Path]]:
    found = _find_file(session_id, directory, config_dir)
    if found is None:
        return []
    base = found[0].with_suffix("") / "subagents"
    files = sorted(base.rglob("agent-*.jsonl"), key=lambda p: p.relative_to(base).as_posix())
    return [(f.name[len("agent-") : -len(".jsonl")], f) for f in files if f.is_file()]


def list_subagents(
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> list[str]:
    """Ids of the subagents that ran in a session."""
    return [agent for agent, _ in _agent_files(session_id, directory, config_dir)]


def parent_ids(meta: Any) -> tuple[str | None, str | None]:
    """``(toolUseId, parentAgentId)`` of an agent metadata object."""
    if not isinstance(meta, dict):
        return None, None
    tool, agent = meta.get("toolUseId"), meta.get("parentAgentId")
    return (tool if isinstance(tool, str) else None, agent if isinstance(agent, str) else None)


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
    for agent, path in _agent_files(session_id, directory, config_dir):
        if agent != agent_id:
            continue
        try:
            meta = json.loads(path.with_name(f"agent-{agent}.meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            meta = None
        tool, parent = parent_ids(meta)
        messages = to_messages(_read(path), sidechain=True, parent_tool_use_id=tool, parent_agent_id=parent)
        return page(messages, limit, offset)
    return []


def _require(session_id: str, directory: Any, config_dir: Any) -> Path:
    if not is_uuid(session_id):
        raise ValueError(f"not a session id (UUID): {session_id!r}")
    found = _find_file(session_id, directory, config_dir)
    if found is None:
        raise FileNotFoundError(f"session {session_id} not found")
    return found[0]


def _append(path: Path, entry: dict[str, Any]) -> None:
    with open(path, "ab+") as fh:
        # A half-written last line must not swallow ours: start a new line.
        fh.seek(0, os.SEEK_END)
        if fh.tell() > 0:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                fh.write(b"\n")
        fh.write(dumps_line(entry).encode("utf-8"))


def rename_session(
    session_id: str,
    title: str,
    directory: str | os.PathLike[str] | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> None:
    """Give a session a custom title (appends a ``custom-title`` entry)."""
    entry = title_entry(session_id, title)
    _append(_require(session_id, directory, config_dir), entry)


def tag_session(
    session_id: str,
    tag: str | None,
    directory: str | os.PathLike[str] | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> None:
    """Tag a session; ``None`` clears the tag (appends a ``tag`` entry)."""
    entry = tag_entry(session_id, tag)
    _append(_require(session_id, directory, config_dir), entry)


def delete_session(
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> None:
    """Delete a session's transcript and its subagent transcripts."""
    path = _require(session_id, directory, config_dir)
    path.unlink(missing_ok=True)
    shutil.rmtree(path.with_suffix(""), ignore_errors=True)


def fork_session(
    session_id: str,
    directory: str | os.PathLike[str] | None = None,
    up_to_message_id: str | None = None,
    title: str | None = None,
    *,
    config_dir: str | os.PathLike[str] | None = None,
) -> ForkSessionResult:
    """Copy a session (up to and including ``up_to_message_id``, if given)
    into a new session beside it, which ``resume=`` can then continue."""
    path = _require(session_id, directory, config_dir)
    new_id, entries = fork_entries(session_id, _read(path), up_to_message_id=up_to_message_id, title=title)
    target = path.with_name(f"{new_id}.jsonl")
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.writelines(dumps_line(e) for e in entries)
    return ForkSessionResult(session_id=new_id)
