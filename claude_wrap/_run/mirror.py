"""Wiring a ``SessionStore`` into a run: mirroring out, materializing in.

Out: with ``--session-mirror`` the binary writes ``transcript_mirror``
frames (``{"filePath", "entries"}``) next to its messages. ``MirrorBatcher``,
an ``Extension`` of the connection, takes them out of the stream (its
``taps``), groups them per file and appends them to the store before each
``ResultMessage`` is handed out (``before_result``), at close
(``before_close``), and, in ``"eager"`` mode or once a batch is large,
before the next stdout line is read (``before_read``). No background task
is involved, in keeping with the pull-based connection.

Failures: the local transcript on disk is the source of truth, and the turn
always completes. Each flush is bounded as a whole by ``flush_timeout``
(``session_store_flush_timeout``, a few seconds), retries included, and is
never shielded: a caller's cancellation cuts it short at once. Each append
is tried three times with backoff. Whatever was not appended, because the
store failed, did not answer in time or the flush was cancelled, stays
queued in order, so the next flush sends it again; the failure is reported
in the stream as a ``MirrorErrorMessage`` just before the result, saying how
many entries are not mirrored yet. An append cut off half way may still
land: that batch is sent again only if the store's tail does not already
hold it. While the store keeps failing, the flushes between results pause
for ``RETRY_AFTER`` seconds.

Nothing is dropped (``_sessions.spool``): what is still queued when the
run closes, and the oldest of what is kept past ``MAX_RETAINED_BYTES``,
goes to this machine's spool for the store, with a warning naming the
session and the count; the first flush of every later mirror to the same
store writes the spool out first (skipping what the store already holds),
and a resume from the store reads what the spool holds for its session.

In: resuming from a store on a host that never saw the session writes the
transcript into a private temporary config dir (0700, files 0600), runs the
binary with ``CLAUDE_CONFIG_DIR`` pointing there, and removes it at close.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import ntpath
import os
import re
import shutil
import stat
import tempfile
import uuid
import weakref
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import anyio
import msgspec

from claude_wrap._exceptions import SessionStoreError, StoreTimeoutError
from claude_wrap._launch.options import copy_with
from claude_wrap._run.extension import Extension
from claude_wrap._sessions.chain import split_agent_metadata
from claude_wrap._sessions.spool import Spool, not_held
from claude_wrap._sessions.store import SessionKey, SessionStore, file_path_to_session_key, implements
from claude_wrap._sessions.transcripts import config_dir, is_uuid, project_key_for_directory
from claude_wrap._wire.messages import Message, MirrorErrorMessage, ResultMessage, UnknownMessage

if TYPE_CHECKING:
    from claude_wrap._launch.options import ClaudeAgentOptions

__all__ = ["Materialized", "MirrorBatcher", "StoredToolCalls", "materialize_resume", "mirror_for"]

log = logging.getLogger("claude_wrap")

MAX_PENDING_ENTRIES = 500
MAX_PENDING_BYTES = 1 << 20
# While the store is down, failed batches are kept for the next flush up to
# this size; beyond it the oldest are dropped (and that is reported).
MAX_RETAINED_BYTES = 64 << 20
APPEND_BACKOFF = (0.2, 0.8)
FLUSH_TIMEOUT = 5.0
# After a failed flush, the flushes between results wait this long before
# trying again (those at a result or at close always try).
RETRY_AFTER = 30.0

Entries = list[dict[str, Any]]


@dataclasses.dataclass
class _Batch:
    """Entries of one transcript file, in order."""

    path: str
    entries: Entries
    size: int
    uncertain: bool = False
    """An append of exactly these entries was cut off: it may have landed."""


class _Unsent(Exception):
    """A batch the store refused (after the retries)."""


class StoredToolCalls:
    """The tool calls whose ``tool_use`` entry a mirror of this process has
    written to its store, for a gate that holds each tool's start until its
    call is durable (the fleet's: a node lost while the tool runs must
    leave the call in the store, or the retry asks the model again and the
    tool runs twice).

    Every mirror reports to the ledgers that are ``watching()``; none is,
    unless a gate runs, and then the cost is a look at each assistant entry
    it writes. Ids are kept for the last ``keep`` calls: a gate asks within
    moments of the call, and either order of the two is fine.
    """

    def __init__(self, keep: int = 4096) -> None:
        self._keep = keep
        self._known: dict[str, None] = {}  # oldest first
        self._waiting: dict[str, anyio.Event] = {}

    @contextmanager
    def watching(self) -> Iterator[StoredToolCalls]:
        """While inside, every mirror of this process reports what it wrote."""
        _LEDGERS.add(self)
        try:
            yield self
        finally:
            _LEDGERS.discard(self)

    def note(self, entries: Entries) -> None:
        """``entries`` are in the store."""
        for entry in entries:
            if entry.get("type") != "assistant":
                continue
            message = entry.get("message")
            content = message.get("content") if isinstance(message, dict) else None
            for block in content if isinstance(content, list) else ():
                if isinstance(block, dict) and block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                    self._add(block["id"])

    def _add(self, tool_use_id: str) -> None:
        if tool_use_id in self._known:
            return
        if len(self._known) == self._keep:
            del self._known[next(iter(self._known))]
        self._known[tool_use_id] = None
        event = self._waiting.pop(tool_use_id, None)
        if event is not None:
            event.set()

    async def wait(self, tool_use_id: str, limit: float) -> bool:
        """Wait, at most ``limit`` seconds, until the call ``tool_use_id``
        is in the store; returns whether it is."""
        if tool_use_id in self._known:
            return True
        event = self._waiting.setdefault(tool_use_id, anyio.Event())
        with anyio.move_on_after(limit):
            await event.wait()
        if self._waiting.get(tool_use_id) is event and not event.is_set():
            del self._waiting[tool_use_id]
        return tool_use_id in self._known


_LEDGERS: weakref.WeakSet[StoredToolCalls] = weakref.WeakSet()


class MirrorBatcher(Extension):
    """Queues ``transcript_mirror`` frames and appends them to a store."""

    def __init__(
        self,
        store: SessionStore,
        projects_dir: str | os.PathLike[str],
        *,
        eager: bool = False,
        flush_timeout: float = FLUSH_TIMEOUT,
        max_pending_entries: int = MAX_PENDING_ENTRIES,
        max_pending_bytes: int = MAX_PENDING_BYTES,
        max_retained_bytes: int = MAX_RETAINED_BYTES,
        backoff: tuple[float, ...] = APPEND_BACKOFF,
        retry_after: float = RETRY_AFTER,
    ) -> None:
        self.store = store
        self.projects_dir = os.fspath(projects_dir)
        self.eager = eager
        self.flush_timeout = flush_timeout
        self.max_pending_entries = max_pending_entries
        self.max_pending_bytes = max_pending_bytes
        self.max_retained_bytes = max_retained_bytes
        self.backoff = backoff
        self.retry_after = retry_after
        self._pending: list[_Batch] = []
        self._entries = 0
        self._bytes = 0
        self._errors: list[MirrorErrorMessage] = []
        self._lock: anyio.Lock | None = None
        self._paused_until = 0.0
        self.appended = 0
        """Entries written to the store so far (for tests and benchmarks)."""
        self.spool = Spool.of(store)
        """Where what the store does not take is kept (``None``: a store of
        this process alone, whose entries only wait in memory)."""
        self._spool_written = self.spool is None
        self.taps = {"transcript_mirror": self.enqueue}

    # -- in ----------------------------------------------------------------------

    def enqueue(self, frame: UnknownMessage) -> None:
        """The ``transcript_mirror`` tap: queue one frame; never blocks."""
        path, entries = frame.data.get("filePath"), frame.data.get("entries")
        if not isinstance(path, str) or not isinstance(entries, list) or not entries:
            return
        entries = [e for e in entries if isinstance(e, dict)]
        size = len(msgspec.json.encode(entries))
        self._pending.append(_Batch(path, entries, size))
        self._entries += len(entries)
        self._bytes += size

    @property
    def pending(self) -> int:
        """Entries queued and not yet in the store."""
        return self._entries

    @property
    def due(self) -> bool:
        """Whether a flush should happen now rather than at the next result."""
        if not self._pending or anyio.current_time() < self._paused_until:
            return False
        return self.eager or self._entries > self.max_pending_entries or self._bytes > self.max_pending_bytes

    # -- out ---------------------------------------------------------------------

    async def before_read(self) -> None:
        """Flush when ``due``."""
        if self.due:
            await self.flush()

    async def flush(self) -> None:
        """Append everything queued, within ``flush_timeout`` seconds.

        Never raises but for the caller's cancellation, which it does not
        hold up: failures and what was left unsent are kept for the next
        flush and reported through ``take_error()``."""
        if self._lock is None:
            self._lock = anyio.Lock()
        with anyio.move_on_after(self.flush_timeout) as deadline:
            async with self._lock:
                await self._flush_locked(deadline)

    async def _flush_locked(self, deadline: anyio.CancelScope) -> None:
        if not self._spool_written:
            await self._write_spool()
        batches, self._pending = _coalesced(self._pending), []
        self._entries = self._bytes = 0
        unsent: list[_Batch] = []
        failures: list[tuple[SessionKey | None, str]] = []
        done = 0
        try:
            for done, batch in enumerate(batches):
                key = file_path_to_session_key(batch.path, self.projects_dir)
                if key is None:
                    log.warning("claude_wrap: transcript %s is outside %s; not mirrored", batch.path, self.projects_dir)
                    continue
                if any(u.path == batch.path for u in unsent):
                    unsent.append(batch)  # behind a failed batch of its file: order first
                    continue
                try:
                    await self._send(key, batch)
                except _Unsent as exc:
                    unsent.append(batch)
                    failures.append((key, str(exc)))
            done = len(batches)
        except BaseException:
            # Cut off, by the deadline or by the caller's cancellation: the
            # batch under way and the rest wait for the next flush.
            rest = batches[done:]
            unsent.extend(rest)
            if deadline.cancel_called and rest:
                key = file_path_to_session_key(rest[0].path, self.projects_dir)
                failures.append((key, f"the session store did not finish within {self.flush_timeout:g} s"))
            raise
        finally:
            self._requeue(unsent, failures)

    async def _send(self, key: SessionKey, batch: _Batch) -> None:
        """Append ``batch`` (unless a cut-off append of it landed after all);
        ``_Unsent`` when the store refuses it every time."""
        last: Exception | None = None
        for attempt in range(len(self.backoff) + 1):
            if attempt:
                await anyio.sleep(self.backoff[attempt - 1])
            was_uncertain = batch.uncertain
            try:
                if was_uncertain and await _holds_tail(self.store, key, batch.entries):
                    break  # the cut-off append landed: sending it again would duplicate it
                batch.uncertain = True  # until the store answers: a cut here may still land
                await self.store.append(key, cast(Any, batch.entries))
            except Exception as exc:  # noqa: BLE001 - the store is user code
                batch.uncertain = was_uncertain
                last = exc
                continue
            break
        else:
            raise _Unsent(str(last) or type(last).__name__)
        self.appended += len(batch.entries)
        for ledger in list(_LEDGERS):
            ledger.note(batch.entries)

    async def _write_spool(self) -> None:
        """What earlier runs on this machine could not write to the store
        goes first (once per run, when the store takes it)."""
        assert self.spool is not None
        try:
            written = await self.spool.flush(self.store)
        except Exception as exc:  # noqa: BLE001 - the store is user code; tried again at the next flush
            log.info("claude_wrap: the session store did not take the spool yet: %s", exc)
            return
        self._spool_written = True
        if written:
            log.info("claude_wrap: wrote %d spooled transcript entries to the session store", written)

    def _requeue(self, unsent: list[_Batch], failures: list[tuple[SessionKey | None, str]]) -> None:
        """Put back what was not sent, before anything queued meanwhile (the
        store keeps file order), and report the failures with what they left."""
        self._pending[:0] = unsent
        self._entries = sum(len(b.entries) for b in self._pending)
        self._bytes = sum(b.size for b in self._pending)
        if not failures:
            self._paused_until = 0.0
            return
        self._paused_until = anyio.current_time() + self.retry_after
        why = "; ".join(dict.fromkeys(reason for _, reason in failures))
        message = (
            f"{why} ({self._entries} transcript entries are not mirrored yet; they stay queued for the next flush)"
        )
        log.warning("claude_wrap: mirroring to the session store failed: %s", message)
        self._report(failures[0][0], message)
        self._trim()

    def _trim(self) -> None:
        """Past ``max_retained_bytes``, the oldest batches go to the spool."""
        spilled: list[_Batch] = []
        while self._bytes > self.max_retained_bytes and len(self._pending) > 1:
            batch = self._pending.pop(0)
            spilled.append(batch)
            self._bytes -= batch.size
            self._entries -= len(batch.entries)
        if spilled:
            self._spool(spilled, why="the session store is unreachable and the queue is full")

    def _spool(self, batches: list[_Batch], *, why: str) -> None:
        """Keep ``batches`` on disk for a later flush (the spool), saying so;
        what the disk refuses too stays queued in memory, the last resort."""
        kept: list[_Batch] = []
        for batch in _coalesced(batches):
            key = file_path_to_session_key(batch.path, self.projects_dir)
            if key is None:
                continue  # outside the config dir: never mirrored
            if self.spool is None:
                # A store of this process alone: nothing after it could take them.
                message = f"{why}: dropped {len(batch.entries)} transcript entries of session {key['session_id']}"
                log.error("claude_wrap: %s", message)
                self._report(key, message)
                continue
            try:
                where = self.spool.put(key, batch.entries)
            except OSError as exc:
                log.error("claude_wrap: could not spool %d transcript entries: %s", len(batch.entries), exc)
                kept.append(batch)
                continue
            message = (
                f"{why}: {len(batch.entries)} transcript entries of session {key['session_id']} were not "
                f"written to it; they are kept in {where.parent} and written by the next run that mirrors to "
                "this store (or flush_pending(store), or `claude-wrap flush-spool`)"
            )
            log.warning("claude_wrap: %s", message)
            self._report(key, message)
        self._pending[:0] = kept
        self._entries = sum(len(b.entries) for b in self._pending)
        self._bytes = sum(b.size for b in self._pending)

    def _report(self, key: SessionKey | None, error: str) -> None:
        data = {
            "type": "system",
            "subtype": "mirror_error",
            "error": error,
            "key": key,
            "uuid": str(uuid.uuid4()),
            "session_id": key.get("session_id", "") if key else "",
        }
        self._errors.append(MirrorErrorMessage(subtype="mirror_error", data=data, key=key, error=error))

    def take_error(self) -> MirrorErrorMessage | None:
        """The failures since the last call, as one message (or ``None``)."""
        if not self._errors:
            return None
        errors, self._errors = self._errors, []
        if len(errors) == 1:
            return errors[0]
        text = "; ".join(e.error for e in errors)
        data = {**errors[0].data, "error": text}
        return MirrorErrorMessage(subtype="mirror_error", data=data, key=errors[0].key, error=text)

    async def before_result(self, result: ResultMessage) -> Message | None:
        """The turn's entries reach the store before its result is handed
        out (or the result says why not)."""
        await self.flush()
        return self.take_error()

    async def before_close(self) -> None:
        """The final flush; what it could not write goes to the spool, even
        when the close cut it short."""
        try:
            await self.flush()
        finally:
            if self._pending:
                pending, self._pending = self._pending, []
                self._spool(pending, why="the session store did not take the run's last entries before it closed")
            if self._pending:
                log.error("claude_wrap: %d transcript entries were not mirrored at close", self._entries)


def _coalesced(batches: list[_Batch]) -> list[_Batch]:
    """One batch per file where the order allows: a cut-off batch stays as it
    was (its tail check needs exactly its entries), and so does order."""
    out: list[_Batch] = []
    open_for: dict[str, _Batch] = {}
    for batch in batches:
        into = open_for.get(batch.path)
        if batch.uncertain or into is None:
            copy = dataclasses.replace(batch, entries=list(batch.entries))
            out.append(copy)
            if not batch.uncertain:
                open_for[batch.path] = copy
            else:
                open_for.pop(batch.path, None)
            continue
        into.entries.extend(batch.entries)
        into.size += batch.size
    return out


async def _holds_tail(store: SessionStore, key: SessionKey, entries: Entries) -> bool:
    """Whether the store's transcript for ``key`` ends with ``entries``
    (compared by ``uuid`` where every entry has one, whole otherwise)."""
    stored = await store.load(key)
    if not stored or len(stored) < len(entries):
        return False
    tail = stored[-len(entries) :]
    ids = [e.get("uuid") for e in entries]
    if all(isinstance(i, str) for i in ids):
        return [t.get("uuid") if isinstance(t, dict) else None for t in tail] == ids
    return list(tail) == entries


def mirror_for(store: SessionStore, options: ClaudeAgentOptions, env: dict[str, str] | None) -> MirrorBatcher:
    """The extension that mirrors a run's transcript to ``store`` (the options' ``session_store``)."""
    return MirrorBatcher(
        store,
        config_dir(env) / "projects",
        eager=options.session_store_flush == "eager",
        flush_timeout=options.session_store_flush_timeout,
    )


# -- resume from a store ---------------------------------------------------------------


@dataclasses.dataclass
class Materialized:
    """A session copied out of a store into a private config dir."""

    options: ClaudeAgentOptions
    directory: str

    def cleanup(self) -> None:
        """Remove the private config dir."""
        shutil.rmtree(self.directory, ignore_errors=True)


def _write_private(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def _jsonl(entries: Entries) -> bytes:
    return b"".join(msgspec.json.encode(e) + b"\n" for e in entries)


async def _bounded(seconds: float, what: str, call: Awaitable[Any]) -> Any:
    """``call``'s result; a failure or a timeout of the store is reported
    (as the official package reports it) with what was asked."""
    try:
        with anyio.fail_after(seconds):
            return await call
    except TimeoutError:
        raise StoreTimeoutError(
            f"{what} timed out after {int(seconds * 1000)}ms during resume materialization"
        ) from None
    except Exception as exc:
        raise SessionStoreError(f"{what} failed during resume materialization: {exc}") from exc


def _safe_subpath(subpath: str) -> bool:
    """Whether a subpath from the store stays inside the session's directory
    (it becomes a path on this host)."""
    if not subpath or "\x00" in subpath or subpath.startswith(("/", "\\")) or ntpath.splitdrive(subpath)[0]:
        return False
    return not any(part in ("", ".", "..") for part in re.split(r"[\\/]", subpath))


async def _continue_candidate(store: SessionStore, project: str, limit: float) -> tuple[str, Entries] | None:
    """The newest session that is not a subagent's (those are mirrored as
    sessions too, and often written last)."""
    listing = await _bounded(limit, "SessionStore.list_sessions()", store.list_sessions(project))
    for item in sorted(listing or [], key=lambda s: s["mtime"], reverse=True):
        sid = item["session_id"]
        if not is_uuid(sid):
            continue
        got = await _bounded(
            limit, f"SessionStore.load() for session {sid}", store.load({"project_key": project, "session_id": sid})
        )
        if got and not (isinstance(got[0], dict) and got[0].get("isSidechain") is True):
            return sid, got
    return None


async def materialize_resume(options: ClaudeAgentOptions) -> Materialized | None:
    """If ``options`` resume (or continue) a session held by its store, copy
    it into a private config dir and return options that run there.

    Returns ``None`` when there is nothing to materialize (no store, a new
    session, a resume id that is not a UUID, or a session the store does not
    have: then the binary looks on the local disk as usual). A store call
    that fails or times out raises ``SessionStoreError`` (a ``RuntimeError``;
    ``StoreTimeoutError`` for a timeout).
    """
    store = options.session_store
    if store is None or not (options.resume or options.continue_conversation):
        return None
    limit = options.load_timeout_ms / 1000
    cwd = options.cwd if options.cwd is not None else os.getcwd()
    project = project_key_for_directory(cwd)
    if options.resume is not None:
        session_id = options.resume
        if not is_uuid(session_id):
            return None
        key: SessionKey = {"project_key": project, "session_id": session_id}
        entries = await _bounded(limit, f"SessionStore.load() for session {session_id}", store.load(key))
        found = (session_id, _with_spooled(store, key, entries)) if entries else None
    else:
        found = await _continue_candidate(store, project, limit)
    if found is None:
        return None
    session_id, entries = found
    directory = tempfile.mkdtemp(prefix="claude-resume-")  # mode 0700
    try:
        base = Path(directory) / "projects" / project
        _write_private(base / f"{session_id}.jsonl", _jsonl(entries))
        _copy_auth(options.env, Path(directory))
        if implements(store, "list_subkeys"):
            await _materialize_subkeys(store, base, project, session_id, limit)
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise
    env = {**options.env, "CLAUDE_CONFIG_DIR": directory}
    new = copy_with(options, env=env, resume=session_id, continue_conversation=False)
    return Materialized(options=new, directory=directory)


def _with_spooled(store: SessionStore, key: SessionKey, entries: Entries) -> Entries:
    """``entries`` from the store, followed by what this machine's spool
    holds for the same transcript and the store does not (a run here could
    not write its last turns)."""
    spool = Spool.of(store)
    if spool is None:
        return entries
    extra = not_held(entries, spool.entries_for(key))
    if extra:
        log.info("claude_wrap: resuming with %d spooled entries the session store does not hold yet", len(extra))
    return [*entries, *extra]


async def _materialize_subkeys(store: SessionStore, base: Path, project: str, session_id: str, limit: float) -> None:
    """Write the session's subagent transcripts and their ``.meta.json``."""
    subkeys = await _bounded(
        limit,
        f"SessionStore.list_subkeys() for session {session_id}",
        store.list_subkeys({"project_key": project, "session_id": session_id}),
    )
    for sub in subkeys:
        if not _safe_subpath(sub):
            log.warning("claude_wrap: skipped unsafe session store subpath %r", sub)
            continue
        key: SessionKey = {"project_key": project, "session_id": session_id, "subpath": sub}
        got = await _bounded(limit, f"SessionStore.load() for session {session_id} subpath {sub}", store.load(key))
        if not got:
            continue
        meta, rest = split_agent_metadata(got)
        target = base / session_id / Path(*sub.split("/"))
        if rest:
            _write_private(target.with_name(target.name + ".jsonl"), _jsonl(rest))
        if meta is not None:
            sidecar = {k: v for k, v in meta.items() if k != "type"}
            _write_private(target.with_name(target.name + ".meta.json"), json.dumps(sidecar).encode())


def _copy_auth(env: dict[str, str], target: Path) -> None:
    """Carry the user's login and settings into the private config dir."""
    source = config_dir(env)
    explicit = bool(env.get("CLAUDE_CONFIG_DIR") or os.environ.get("CLAUDE_CONFIG_DIR"))
    # Without CLAUDE_CONFIG_DIR the binary keeps .claude.json in $HOME, not in ~/.claude.
    state = source / ".claude.json" if explicit else source.parent / ".claude.json"
    for src, name, clean in (
        (state, ".claude.json", None),
        (source / ".credentials.json", ".credentials.json", _strip_refresh_token),
        (source / "settings.json", "settings.json", _strip_settings),
        (source / "cowork_settings.json", "cowork_settings.json", _strip_settings),
    ):
        try:
            if not stat.S_ISREG(src.stat().st_mode):
                continue  # a FIFO would hang the resume
            raw = src.read_bytes()
        except OSError:
            continue
        if clean is not None:
            try:
                data = json.loads(raw.decode("utf-8-sig"))
                if clean(data):
                    raw = json.dumps(data, separators=(",", ":"), allow_nan=False).encode()
            except (ValueError, TypeError):
                pass  # written as it is: the binary reads it as it would have
        _write_private(target / name, raw)


def _strip_refresh_token(data: Any) -> bool:
    # Two hosts refreshing one token would log each other out.
    oauth = data.get("claudeAiOauth") if isinstance(data, dict) else None
    if isinstance(oauth, dict) and "refreshToken" in oauth:
        del oauth["refreshToken"]
        return True
    return False


def _strip_settings(data: Any) -> bool:
    """Drop what misbehaves under another config dir: plugin declarations
    (they would install into the empty one) and ``env.CLAUDE_CONFIG_DIR``."""
    if not isinstance(data, dict):
        return False
    stripped = [data.pop(k) is not None or True for k in ("enabledPlugins", "extraKnownMarketplaces") if k in data]
    env = data.get("env")
    if isinstance(env, dict) and "CLAUDE_CONFIG_DIR" in env:
        del env["CLAUDE_CONFIG_DIR"]
        stripped.append(True)
    return any(stripped)
