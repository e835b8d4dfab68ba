"""What a run could not write to its session store, kept on this machine
until the store takes it.

A store that is down when a run ends (or down for longer than a run keeps
entries in memory) must not cost the run its turns: a resume on another
host would silently lack them. So what the mirror could not append is
written to a spool file instead, under the user cache
(``<cache root>/spool/<store>/``, or ``$CLAUDE_WRAP_SPOOL_DIR``; folders
0700, files 0600, since transcripts hold what the user and the model
wrote). Each file holds one transcript's entries, after a header line
naming the transcript's key; a file is written whole and renamed into
place, so a reader never sees half of one.

The spool is written to the store by the next mirror to the same store
(any later run on this machine, a ``resume=``), by ``flush_pending(store)``
or by ``claude-wrap flush-spool``. A file is removed only once the store
took all of it, and an entry is never written twice: before appending,
the store's transcript is read and what it already holds (by ``uuid``,
whole entries where one has none) is skipped. A flush in another process
holds a lock on the file it is writing, so two never send the same file.

"The same store" is ``store.spool_key`` where the store has one (the
built-in stores name their database, without credentials), else the
store's class.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import anyio

from claude_wrap._cache import cache_root
from claude_wrap._sessions.store import SessionKey, SessionStore

__all__ = [
    "SPOOL_ENV",
    "Spool",
    "SpoolFile",
    "SpooledStore",
    "every_spool",
    "flush_pending",
    "not_held",
    "spool_name",
    "without_secrets",
]

log = logging.getLogger("claude_wrap")

SPOOL_ENV = "CLAUDE_WRAP_SPOOL_DIR"
"""Overrides where spools are kept (default: ``spool`` in the cache root)."""

FLUSH_TIMEOUT = 30.0
"""How long ``flush_pending()`` gives the store, unless told otherwise."""

Entries = list[dict[str, Any]]


def spool_name(store: Any) -> str | None:
    """What names ``store`` among spools: its ``spool_key``, else its class;
    ``None`` for a store that is not spooled (``spool_key = False``: one that
    lives only in this process)."""
    key = getattr(store, "spool_key", None)
    if key is False:
        return None
    if isinstance(key, str) and key:
        return key
    kind = type(store)
    return f"{kind.__module__}.{kind.__qualname__}"


def without_secrets(location: str) -> str:
    """A store's address fit to name its spool on disk: a URL without its
    user info' password, a libpq ``key=value`` string without ``password=``."""
    if "://" in location:
        from urllib.parse import urlsplit, urlunsplit

        parts = urlsplit(location)
        if parts.password is not None:
            user = parts.username or ""
            host = parts.hostname or ""
            netloc = f"{user}@{host}" if user else host
            if parts.port is not None:
                netloc += f":{parts.port}"
            parts = parts._replace(netloc=netloc)
        query = "&".join(p for p in parts.query.split("&") if not p.lower().startswith("password="))
        return urlunsplit(parts._replace(query=query))
    return re.sub(r"(?i)\bpassword\s*=\s*('(?:[^'\\]|\\.)*'|\S+)", "", location).strip()


def _digest(text: str, size: int) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:size]


def _key_text(key: SessionKey) -> str:
    return json.dumps(
        [key["project_key"], key["session_id"], key.get("subpath", "")], ensure_ascii=False, separators=(",", ":")
    )


@dataclass(frozen=True)
class SpoolFile:
    """One spooled batch: whose transcript, its entries, where it is."""

    path: Path
    key: SessionKey
    entries: Entries
    store: str
    """The name of the store it is for."""


class Spool:
    """The spool of one store on this machine."""

    def __init__(self, name: str, root: Path | None = None, *, folder: Path | None = None) -> None:
        self.name = name
        self.root = root if root is not None else spool_root()
        self.dir = folder if folder is not None else self.root / _digest(name, 24)

    @classmethod
    def of(cls, store: Any) -> Spool | None:
        """The spool of ``store``, or ``None`` if it is not spooled."""
        name = spool_name(store)
        return None if name is None else cls(name)

    # -- writing -----------------------------------------------------------------

    def put(self, key: SessionKey, entries: Entries) -> Path:
        """Keep ``entries`` of ``key``'s transcript for a later flush (after
        any spooled before them). Raises ``OSError`` if the disk refuses."""
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.dir.mkdir(exist_ok=True, mode=0o700)
        header = {"store": self.name, "key": dict(key)}
        lines = [json.dumps(header, ensure_ascii=False)]
        lines += [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in entries]
        data = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
        # Named so that sorting the names sorts the batches by time, per key.
        stem = f"{_digest(_key_text(key), 32)}.{time.time_ns():020d}.{os.getpid()}"
        fd, temp = tempfile.mkstemp(dir=self.dir, prefix=".", suffix=".part")  # mode 0600
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            target = self.dir / f"{stem}.jsonl"
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        return target

    # -- reading -----------------------------------------------------------------

    def files(self) -> list[SpoolFile]:
        """Every spooled batch, oldest first per transcript."""
        try:
            paths = list(self.dir.iterdir())
        except OSError:
            return []
        names = sorted(p for p in paths if p.suffix == ".jsonl")
        for part in (p for p in paths if p.suffix == ".part"):
            _remove_if_stale(part)  # a write cut off by a crash
        found = []
        for path in names:
            read = _read(path)
            if read is not None:
                found.append(read)
        return found

    def entries_for(self, key: SessionKey) -> Entries:
        """The spooled entries of ``key``'s transcript, in order."""
        wanted = _key_text(key)
        return [e for f in self.files() if _key_text(f.key) == wanted for e in f.entries]

    def count(self) -> int:
        return sum(len(f.entries) for f in self.files())

    # -- flushing ----------------------------------------------------------------

    async def flush(self, store: SessionStore) -> int:
        """Write every spooled batch to ``store``, transcript by transcript,
        skipping what it already holds; returns how many entries it took.
        A batch is removed once the store took it; one another process is
        flushing is left to it. Raises what the store raises, with what it
        did not take still spooled."""
        written = 0
        by_key: dict[str, list[SpoolFile]] = {}
        for spooled in self.files():
            by_key.setdefault(_key_text(spooled.key), []).append(spooled)
        for batch in by_key.values():
            with _locked([f.path for f in batch]) as mine:
                if not mine:
                    continue  # another process is writing these
                files = [f for f in batch if f.path in mine]
                key = files[0].key
                held = await store.load(key) or []
                new = not_held(held, [e for f in files for e in f.entries])
                if new:
                    await store.append(key, cast(Any, new))
                    written += len(new)
                for f in files:
                    f.path.unlink(missing_ok=True)
        return written


def every_spool(root: Path | None = None) -> list[tuple[Spool, list[SpoolFile]]]:
    """Every store's spool on this machine that holds something, with its batches."""
    root = root if root is not None else spool_root()
    found = []
    for folder in sorted(p for p in root.glob("*") if p.is_dir()):
        spool = Spool("", root, folder=folder)
        files = spool.files()
        if files:
            spool.name = files[0].store
            found.append((spool, files))
    return found


def spool_root() -> Path:
    """Where every store's spool lives."""
    override = os.environ.get(SPOOL_ENV, "").strip()
    if override:
        return Path(override).expanduser().absolute()
    return cache_root() / "spool"


def _read(path: Path) -> SpoolFile | None:
    try:
        lines = path.read_bytes().decode("utf-8", "surrogatepass").splitlines()
        header = json.loads(lines[0])
        key = header["key"]
        entries = [json.loads(line) for line in lines[1:] if line]
    except (OSError, ValueError, IndexError, KeyError, TypeError):
        log.warning("claude_wrap: skipped an unreadable spool file %s", path)
        return None
    if not isinstance(key, dict) or not all(isinstance(key.get(k), str) for k in ("project_key", "session_id")):
        return None
    store = header.get("store") if isinstance(header, dict) else None
    entries = [e for e in entries if isinstance(e, dict)]
    return SpoolFile(path, cast(SessionKey, key), entries, store if isinstance(store, str) else "")


_STALE_PART = 3600.0


def _remove_if_stale(path: Path) -> None:
    try:
        if time.time() - path.stat().st_mtime > _STALE_PART:
            path.unlink()
    except OSError:
        pass


def not_held(held: list[Any], entries: Entries) -> Entries:
    """``entries`` without those ``held`` already has, and without repeats."""
    ids = {e.get("uuid") for e in held if isinstance(e, dict) and isinstance(e.get("uuid"), str)}
    whole = [e for e in held if isinstance(e, dict) and not isinstance(e.get("uuid"), str)]
    new: Entries = []
    for entry in entries:
        uid = entry.get("uuid")
        if isinstance(uid, str):
            if uid in ids:
                continue
            ids.add(uid)
        elif entry in whole:
            continue
        else:
            whole.append(entry)
        new.append(entry)
    return new


@contextmanager
def _locked(paths: list[Path]) -> Iterator[set[Path]]:
    """The paths of ``paths`` this process could lock (``flock``, where the
    system has it), held until the block ends."""
    try:
        import fcntl
    except ImportError:  # Windows: one flusher at a time is the user's to keep
        yield set(paths)
        return
    held: list[tuple[Path, int]] = []
    try:
        for path in paths:
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue  # flushed meanwhile
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            if not path.exists():  # flushed and removed between the open and the lock
                os.close(fd)
                continue
            held.append((path, fd))
        yield {path for path, _ in held}
    finally:
        for _, fd in held:
            os.close(fd)


async def flush_pending(store: SessionStore, *, timeout: float = FLUSH_TIMEOUT) -> int:
    """Write to ``store`` what runs on this machine could not write to it
    (its spool), within ``timeout`` seconds; returns how many entries it took.

    Runs that mirror to the store do this by themselves; call it to catch
    up without a run (a maintenance job, once the store is back). What the
    store holds already is skipped, so nothing is written twice. Raises
    ``TimeoutError`` or what the store raises; what it did not take stays
    spooled for the next try.
    """
    spool = Spool.of(store)
    if spool is None:
        return 0
    with anyio.fail_after(timeout):
        return await spool.flush(store)


class SpooledStore:
    """Gives a store ``flush_pending()``; the built-in stores have it."""

    async def flush_pending(self, *, timeout: float = FLUSH_TIMEOUT) -> int:
        """Write to this store what runs on this machine could not write to it;
        see ``claude_wrap.flush_pending``."""
        return await flush_pending(cast(SessionStore, self), timeout=timeout)
