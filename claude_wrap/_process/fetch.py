"""Fetching the pinned binary: ``npm pack``, both hashes, an atomic install.

:func:`fetch_binary` runs ``npm pack @anthropic-ai/claude-code-<platform>@<version>``
through the user's own npm configuration (registry, proxy, auth, cache all
come from it), or takes a tarball already on disk. It checks the tarball's
sha512 against the pinned integrity, streams the binary out of it into a
temporary file next to the final path while hashing it with sha256, checks
hash and size, then ``chmod 0o755``, ``fsync`` and ``os.replace`` it into
place, and finally writes the marker. A failed or interrupted fetch never
leaves a partial binary at the final path. From a checkout,
``python scripts/fetch_binary.py`` does all this.

"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal

from claude_wrap._process.binary import (
    PLATFORMS,
    READ_CHUNK,
    BinaryFetchError,
    BinaryVerificationError,
    Manifest,
    PlatformEntry,
    UnsupportedPlatformError,
    binary_name,
    cache_root,
    current_platform,
    load_manifest,
    marker_matches,
    marker_path,
)

if TYPE_CHECKING:
    import tarfile

__all__ = [
    "FetchResult",
    "ensure_binary",
    "fetch_binary",
]

logger = logging.getLogger("claude_wrap._process.binary")


# --------------------------------------------------------------------------- fetch


@dataclass(frozen=True)
class FetchResult:
    """What :func:`ensure_binary` did."""

    path: Path
    action: Literal["cached", "reverified", "fetched"]
    """``cached``: a verified copy was already there (marker + size);
    ``reverified``: an existing copy was re-hashed and matched;
    ``fetched``: a tarball was fetched (or read) and installed."""
    platform: str
    version: str
    seconds: float
    tarball: Path | None = None
    """The local tarball used, if one was given."""


def _parse_sri(integrity: str) -> tuple[str, str]:
    """Pick the strongest ``algo-base64`` of an SRI string we can compute."""
    best: tuple[str, str] | None = None
    rank = {"sha1": 0, "sha256": 1, "sha384": 2, "sha512": 3}
    for part in integrity.split():
        algo, _, digest = part.partition("-")
        algo = algo.lower()
        if algo in rank and digest and (best is None or rank[algo] > rank[best[0]]):
            best = (algo, digest.split("?", 1)[0])
    if best is None:
        raise BinaryVerificationError("integrity string", "a sha512-<base64> SRI value", repr(integrity))
    return best


def _hash_file(path: Path, algo: str) -> Any:
    import hashlib

    h = hashlib.new(algo)
    with open(path, "rb") as f:
        while chunk := f.read(READ_CHUNK):
            h.update(chunk)
    return h


def _verify_tarball(tarball: Path, integrity: str) -> None:
    import base64

    algo, expected = _parse_sri(integrity)
    actual = base64.b64encode(_hash_file(tarball, algo).digest()).decode("ascii")
    if actual != expected:
        raise BinaryVerificationError(
            f"tarball {algo} integrity", f"{algo}-{expected}", f"{algo}-{actual}", path=tarball
        )


def _verify_file(path: Path, sha256: str, size: int) -> None:
    actual_size = path.stat().st_size
    if actual_size != size:
        raise BinaryVerificationError("binary size", f"{size} bytes", f"{actual_size} bytes", path=path)
    actual = _hash_file(path, "sha256").hexdigest()
    if actual != sha256.lower():
        raise BinaryVerificationError("binary sha256", sha256.lower(), actual, path=path)


def _find_member(tar: tarfile.TarFile, binary: str) -> tarfile.TarInfo:
    for member in tar:
        parts = member.name.replace("\\", "/").lstrip("./").split("/")
        if len(parts) == 2 and parts[1] == binary:
            if not member.isfile():
                raise BinaryFetchError(f"{member.name} in the tarball is not a regular file")
            return member
    raise BinaryFetchError(f"the tarball has no package/{binary}")


def _fsync_dir(path: Path) -> None:
    if sys.platform == "win32":
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_atomic(dest: Path, data: bytes) -> None:
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if sys.platform != "win32":
                os.fchmod(f.fileno(), 0o644)
            os.fsync(f.fileno())
        os.replace(tmp, dest)
    except BaseException:
        _unlink(Path(tmp))
        raise


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def _write_marker(dest: Path, *, version: str, platform: str, sha256: str, size: int, pinned: bool) -> None:
    marker = {
        "version": version,
        "platform": platform,
        "sha256": sha256,
        "size": size,
        "pinned": pinned,
        "verified_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    _write_atomic(marker_path(dest), (json.dumps(marker, indent=2) + "\n").encode())


Progress = Callable[[int, float], None]
"""A fetch's progress report: bytes downloaded so far, seconds since the start."""


@contextlib.contextmanager
def _fetch_lock() -> Iterator[None]:
    """One fetch at a time per cache, across processes. The lock dies with
    its holder, so whatever a fetch finds in the cache under it that is not
    a finished binary was left by a fetch that did not finish."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    if sys.platform == "win32":  # no flock; files still in use refuse deletion there
        yield
        return
    import fcntl

    fd = os.open(root / ".fetch.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _sweep_leftovers(directory: Path, binary: str) -> None:
    """Remove what an interrupted fetch left in ``directory``: a half-written
    binary and npm's unpacked tarball folder (call under :func:`_fetch_lock`)."""
    if not directory.is_dir():
        return
    for leftover in directory.iterdir():
        name = leftover.name
        if name.startswith(".npm-pack-") and leftover.is_dir():
            logger.info("removing %s, left by an interrupted fetch", leftover)
            shutil.rmtree(leftover, ignore_errors=True)
        elif name.startswith(f".{binary}.") and name.endswith(".partial"):
            logger.info("removing %s, left by an interrupted fetch", leftover)
            _unlink(leftover)


def _install_from_tarball(
    tarball: Path, dest: Path, binary: str, sha256: str | None, size: int | None
) -> tuple[str, int]:
    """Extract ``package/<binary>`` to ``dest`` atomically; returns (sha256, size).

    With ``sha256``/``size`` given, a mismatch raises before anything reaches ``dest``.
    """
    import gzip
    import hashlib
    import tarfile
    import tempfile
    import zlib

    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".partial", dir=dest.parent)
    tmp = Path(tmp_name)
    try:
        h = hashlib.sha256()
        written = 0
        with os.fdopen(fd, "wb") as out:
            try:
                with tarfile.open(tarball, "r:*") as tar:
                    member = _find_member(tar, binary)
                    src: IO[bytes] | None = tar.extractfile(member)
                    if src is None:
                        raise BinaryFetchError(f"cannot read {member.name} from {tarball}")
                    with src:
                        while chunk := src.read(READ_CHUNK):
                            h.update(chunk)
                            out.write(chunk)
                            written += len(chunk)
            except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile) as exc:
                raise BinaryFetchError(f"cannot read the tarball {tarball}: {exc}") from exc
            actual = h.hexdigest()
            if size is not None and written != size:
                raise BinaryVerificationError("binary size", f"{size} bytes", f"{written} bytes", path=tarball)
            if sha256 is not None and actual != sha256.lower():
                raise BinaryVerificationError("binary sha256", sha256.lower(), actual, path=tarball)
            out.flush()
            if sys.platform != "win32":
                os.fchmod(out.fileno(), 0o755)
            os.fsync(out.fileno())
        _unlink(marker_path(dest))  # a stale marker must never vouch for the new file
        os.replace(tmp, dest)
        _fsync_dir(dest.parent)
        return actual, written
    except BaseException:
        _unlink(tmp)
        raise


def _npm_cache_tmp(npm: str) -> Path | None:
    """Where npm writes a download while it arrives (``<cache>/_cacache/tmp``)."""
    cache = os.environ.get("npm_config_cache") or os.environ.get("NPM_CONFIG_CACHE")
    if not cache:
        try:
            done = subprocess.run(
                [npm, "config", "get", "cache"], stdin=subprocess.DEVNULL, capture_output=True, timeout=30, check=False
            )
        except (OSError, subprocess.SubprocessError):
            return None
        cache = done.stdout.decode("utf-8", "replace").strip()
    return Path(cache) / "_cacache" / "tmp" if cache else None


def _bytes_under(*directories: Path | None) -> int:
    total = 0
    for directory in directories:
        if directory is None:
            continue
        try:
            for root, _, files in os.walk(directory):
                for file in files:
                    with contextlib.suppress(OSError):
                        total += os.stat(os.path.join(root, file)).st_size
        except OSError:
            continue
    return total


def _npm_pack(spec: str, dest_dir: Path, progress: Progress | None = None) -> tuple[Path, str | None]:
    """``npm pack <spec>`` into ``dest_dir`` with the user's npm config; returns (tarball, integrity).

    With ``progress``, the bytes npm has written so far (its download folder
    and ``dest_dir``) are reported about four times a second, and once at the end.
    """
    npm = shutil.which("npm")
    if npm is None:
        raise BinaryFetchError(
            "npm was not found on PATH; install Node.js (which provides npm), or get the tarball "
            "some other way and pass it with --from-tarball / tarball="
        )
    argv = [npm, "pack", spec, "--json", "--ignore-scripts", "--pack-destination", str(dest_dir)]
    logger.info("running %s", " ".join(argv))
    started = time.monotonic()
    watching = _npm_cache_tmp(npm) if progress is not None else None
    before = _bytes_under(watching)  # other downloads npm has in flight are not ours
    done = threading.Event()

    def report() -> None:
        assert progress is not None
        while not done.wait(0.25):
            progress(max(0, _bytes_under(watching, dest_dir) - before), time.monotonic() - started)

    reporter = threading.Thread(target=report, name="claude-wrap-fetch-progress", daemon=True)
    if progress is not None:
        reporter.start()
    try:
        with subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
            try:
                out, err = proc.communicate()
            except BaseException:
                # Interrupted: npm goes with us, reaped here rather than left to init.
                proc.kill()
                proc.wait()
                raise
    except OSError as exc:
        raise BinaryFetchError(f"could not run npm ({npm}): {exc}") from exc
    finally:
        done.set()
        if progress is not None:
            reporter.join()
    if progress is not None:
        progress(_bytes_under(dest_dir), time.monotonic() - started)
    stdout = out.decode("utf-8", "replace")
    stderr = err.decode("utf-8", "replace")
    if proc.returncode != 0:
        raise BinaryFetchError(
            f"`npm pack {spec}` failed with exit code {proc.returncode}", stderr=stderr, returncode=proc.returncode
        )
    info = _parse_pack_json(stdout)
    filename = info.get("filename") if info else None
    candidates = [dest_dir / str(filename)] if filename else []
    candidates += sorted(dest_dir.glob("*.tgz"))
    for candidate in candidates:
        if candidate.is_file():
            integrity = info.get("integrity") if info else None
            return candidate, str(integrity) if integrity else None
    raise BinaryFetchError(f"`npm pack {spec}` succeeded but wrote no tarball to {dest_dir}", stderr=stderr)


def _parse_pack_json(stdout: str) -> dict[str, Any] | None:
    text = stdout.strip()
    start = text.find("[")
    while start != -1:
        try:
            data = json.loads(text[start:])
        except ValueError:
            start = text.find("[", start + 1)
            continue
        if isinstance(data, list) and data and isinstance(data[0], dict):
            return data[0]
        return None
    return None


def ensure_binary(
    platform: str | None = None,
    *,
    version: str | None = None,
    force: bool = False,
    verify: bool = False,
    tarball: str | os.PathLike[str] | None = None,
    manifest: Manifest | None = None,
    progress: Progress | None = None,
) -> FetchResult:
    """Make sure a verified binary is in the cache; report what was done.

    * a copy whose marker and size match the pin: nothing to do (``cached``),
      unless ``verify`` (re-hash it) or ``force`` (fetch again);
    * an existing copy without a valid marker is re-hashed first and kept if it
      matches (``reverified``), so an interrupted marker write costs no download;
    * otherwise the tarball (``tarball`` or ``npm pack``) is verified and the
      binary installed atomically (``fetched``).

    ``version`` other than the pinned one is fetched through npm and checked
    against the integrity npm reports only (there are no pinned hashes for it);
    a local ``tarball`` requires the pinned version. ``manifest`` replaces the
    pinned manifest (for tests). ``progress(bytes, seconds)`` is called
    while npm downloads, about four times a second.

    One fetch runs at a time per cache (a lock that dies with its holder);
    under it, whatever an interrupted fetch left (a ``.partial`` binary,
    npm's unpacked folder) is removed before anything else is written.
    """
    started = time.monotonic()
    manifest = manifest or load_manifest()
    platform = platform or current_platform()
    if platform not in PLATFORMS and platform not in manifest.platforms:
        raise UnsupportedPlatformError(f"unknown platform {platform!r}; known: {', '.join(PLATFORMS)}")
    version = version or manifest.version
    pinned = version == manifest.version
    entry = manifest.entry(platform) if pinned else None
    name = entry.binary if entry else binary_name(platform)
    dest = cache_root() / "claude-code" / version / platform / name
    local = Path(tarball).expanduser().absolute() if tarball is not None else None

    def result(action: Literal["cached", "reverified", "fetched"]) -> FetchResult:
        return FetchResult(dest, action, platform, version, time.monotonic() - started, local)

    if entry is not None and not force and dest.is_file():
        if not verify and marker_matches(dest, entry.sha256, entry.size):
            return result("cached")
        try:
            _verify_file(dest, entry.sha256, entry.size)
        except BinaryVerificationError as exc:
            logger.warning("cached Claude Code binary failed verification, fetching again: %s", exc)
        else:
            _write_marker(dest, version=version, platform=platform, sha256=entry.sha256, size=entry.size, pinned=True)
            return result("reverified")
    elif entry is None and not force and marker_matches(dest, None, None) and not verify:
        return result("cached")

    try:
        with _fetch_lock():
            if entry is not None and not force and not verify and marker_matches(dest, entry.sha256, entry.size):
                return result("cached")  # another process fetched it while we waited
            _sweep_leftovers(dest.parent, name)
            sha, size = _acquire(manifest, platform, version, entry, name, dest, local, progress)
    except BaseException:
        _prune_empty_dirs(dest.parent, stop=cache_root())
        raise
    _write_marker(dest, version=version, platform=platform, sha256=sha, size=size, pinned=pinned)
    return result("fetched")


def _prune_empty_dirs(directory: Path, *, stop: Path) -> None:
    """Remove ``directory`` and its parents up to (excluding) ``stop`` while empty."""
    while directory != stop and stop in directory.parents:
        try:
            directory.rmdir()
        except OSError:
            return
        directory = directory.parent


def _acquire(
    manifest: Manifest,
    platform: str,
    version: str,
    entry: PlatformEntry | None,
    name: str,
    dest: Path,
    local: Path | None,
    progress: Progress | None,
) -> tuple[str, int]:
    """Get the tarball (local or ``npm pack``), verify it, install the binary; (sha256, size)."""
    import tempfile

    if local is not None:
        if entry is None:
            raise BinaryVerificationError(
                f"local tarball for unpinned version {version}",
                f"pinned hashes for {version} (this claude_wrap pins {manifest.version})",
                "none",
                path=local,
            )
        if not local.is_file():
            raise BinaryFetchError(f"tarball not found: {local}")
        _verify_tarball(local, entry.integrity)
        return _install_from_tarball(local, dest, name, entry.sha256, entry.size)
    else:
        dest.parent.mkdir(parents=True, exist_ok=True)
        spec = f"{manifest.package}-{platform}@{version}"
        with tempfile.TemporaryDirectory(prefix=".npm-pack-", dir=dest.parent) as tmp:
            packed, reported = _npm_pack(spec, Path(tmp), progress)
            if entry is not None:
                _verify_tarball(packed, entry.integrity)
            elif reported:
                logger.warning(
                    "Claude Code %s is not the pinned version (%s); checking it only against the integrity npm reports",
                    version,
                    manifest.version,
                )
                _verify_tarball(packed, reported)
            else:
                raise BinaryVerificationError(
                    f"tarball for unpinned version {version}", "an integrity value from npm", "none", path=packed
                )
            return _install_from_tarball(
                packed, dest, name, entry.sha256 if entry else None, entry.size if entry else None
            )


def fetch_binary(
    platform: str | None = None,
    *,
    version: str | None = None,
    force: bool = False,
    tarball: str | os.PathLike[str] | None = None,
    verify: bool = False,
    manifest: Manifest | None = None,
    progress: Progress | None = None,
) -> Path:
    """Fetch, verify and cache the Claude Code binary; return its cached path.

    A no-op (marker + size check) when a verified copy is already cached.
    See :func:`ensure_binary` for the details and the meaning of each argument.
    Raises :class:`BinaryVerificationError` on a hash or size mismatch and
    :class:`BinaryFetchError` when npm fails (with npm's stderr).
    """
    return ensure_binary(
        platform, version=version, force=force, verify=verify, tarball=tarball, manifest=manifest, progress=progress
    ).path
