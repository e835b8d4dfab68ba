"""The pinned Claude Code binary: the manifest, platforms, the cache, and discovery.

claude_wrap drives the native Claude Code binary. The exact version it was
built and tested against is pinned in ``vendor/claude-code.json`` (shipped
inside wheels as ``claude_wrap/_vendor/claude-code.json``), together with, for
each of the eight platform packages ``@anthropic-ai/claude-code-<platform>``,
the sha512 integrity of the npm tarball and the sha256 and size of the binary
inside it.

Discovery
---------
:func:`find_binary` (called by the transport before every spawn, so it never
hashes and never starts a process) picks the binary in this order:

1. an explicit ``cli_path`` argument (a path, or a bare command name found on
   ``PATH``);
2. the ``CLAUDE_WRAP_CLI`` environment variable;
3. a binary bundled inside the installed package, at
   ``claude_wrap/_bundled/claude`` (``claude.exe`` on Windows), as shipped by
   platform wheels;
4. the verified cache for the pinned version (see below);
5. ``claude`` on ``PATH`` (:func:`shutil.which`).

With ``prefer_path=True``, or ``CLAUDE_WRAP_PREFER_PATH=1`` in the environment
when ``prefer_path`` is left ``None``, step 5 moves ahead of steps 3 and 4: a
newer ``claude`` on ``PATH`` wins over a bundled or cached copy that lags.
An explicit ``cli_path`` or ``CLAUDE_WRAP_CLI`` that does not name an existing
executable file is an error (:class:`~claude_wrap._exceptions.CLINotFoundError`),
never a silent fallback. When nothing is found, ``CLINotFoundError`` says how
to get a binary.

:func:`binary_info` reports the chosen binary, where it came from, and its
version (it runs ``<binary> --version``).

Cache
-----
Verified binaries live at::

    <cache root>/claude-code/<version>/<platform>/claude[.exe]
    <cache root>/claude-code/<version>/<platform>/claude[.exe].verified

where ``<cache root>`` is ``platformdirs.user_cache_path("claude-wrap")``, or
``$CLAUDE_WRAP_CACHE_DIR`` when set. The ``.verified`` marker (JSON: version,
platform, sha256, size) is written only after both hashes matched; discovery
trusts a cached copy when its marker matches the pinned sha256 and size and
the file has that size, so nobody re-hashes ~370 MB on every run.

Fetching is in :mod:`claude_wrap._process.fetch` (``python scripts/fetch_binary.py``).

Platforms are ``linux``/``darwin``/``win32`` × ``x64``/``arm64``, with a
``-musl`` suffix on musl-based Linux; ``CLAUDE_WRAP_PLATFORM`` overrides the
detection (e.g. ``linux-x64-musl``).
"""

from __future__ import annotations

import functools
import json
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from claude_wrap._cache import ENV_CACHE_DIR, cache_root
from claude_wrap._exceptions import ClaudeSDKError, CLINotFoundError

# Only cheap stdlib modules are imported here: find_binary() runs on every
# spawn and `import claude_wrap` should stay fast. Fetching (hashing, tar,
# tempfile) lives in claude_wrap._process.fetch.

__all__ = [
    "ENV_CACHE_DIR",
    "ENV_CLI",
    "ENV_PLATFORM",
    "ENV_PREFER_PATH",
    "PLATFORMS",
    "READ_CHUNK",
    "BinaryFetchError",
    "BinaryInfo",
    "BinarySource",
    "BinaryVerificationError",
    "Manifest",
    "PlatformEntry",
    "UnsupportedPlatformError",
    "binary_info",
    "binary_name",
    "binary_version",
    "cache_path",
    "cache_root",
    "current_platform",
    "detect_platform",
    "find_binary",
    "is_verified",
    "load_manifest",
    "marker_matches",
    "marker_path",
    "pinned_version",
]

logger = logging.getLogger(__name__)

ENV_CLI = "CLAUDE_WRAP_CLI"
"""Environment variable naming the binary to use (step 2 of discovery)."""
ENV_PREFER_PATH = "CLAUDE_WRAP_PREFER_PATH"
"""Set to ``1`` to prefer ``claude`` on ``PATH`` over the bundled/cached binary."""
ENV_PLATFORM = "CLAUDE_WRAP_PLATFORM"
"""Overrides platform detection (one of :data:`PLATFORMS`)."""

PLATFORMS: tuple[str, ...] = (
    "linux-x64",
    "linux-arm64",
    "linux-x64-musl",
    "linux-arm64-musl",
    "darwin-x64",
    "darwin-arm64",
    "win32-x64",
    "win32-arm64",
)
"""Every platform Claude Code ships a native package for."""

BinarySource = Literal["cli_path", "env", "bundled", "cache", "path"]
"""Where :func:`find_binary` found the binary."""

_PACKAGE_DIR = Path(__file__).resolve().parent.parent
_BUNDLED_DIR = _PACKAGE_DIR / "_bundled"
_MANIFEST_CANDIDATES: tuple[Path, ...] = (
    _PACKAGE_DIR / "_vendor" / "claude-code.json",  # inside a wheel
    _PACKAGE_DIR.parent / "vendor" / "claude-code.json",  # source / editable checkout
)
_MARKER_SUFFIX = ".verified"
READ_CHUNK = 1024 * 1024
_TRUE = frozenset({"1", "true", "yes", "on"})
_MACHINES: Mapping[str, str] = {
    "x86_64": "x64",
    "amd64": "x64",
    "x64": "x64",
    "aarch64": "arm64",
    "arm64": "arm64",
}
_MUSL_LOADER_GLOBS: tuple[str, ...] = ("/lib/ld-musl-*.so.1", "/usr/lib/ld-musl-*.so.1")


# --------------------------------------------------------------------------- errors


class BinaryFetchError(ClaudeSDKError):
    """Getting the Claude Code binary failed (npm error, bad tarball, no manifest...).

    When npm failed, ``stderr`` holds its error output (also in the message)
    and ``returncode`` its exit status.
    """

    def __init__(self, message: str, *, stderr: str | None = None, returncode: int | None = None) -> None:
        self.stderr = stderr
        self.returncode = returncode
        if stderr and stderr.strip():
            message = f"{message}\n--- npm stderr ---\n{stderr.rstrip()}"
        super().__init__(message)


class UnsupportedPlatformError(BinaryFetchError):
    """This OS / CPU combination has no Claude Code package (or the name is unknown)."""


class BinaryVerificationError(ClaudeSDKError):
    """A tarball or binary did not match the pinned hash or size.

    ``what`` names the checked artifact; ``expected`` and ``actual`` are the
    values compared (both also in the message).
    """

    def __init__(self, what: str, expected: str, actual: str, *, path: Path | None = None) -> None:
        self.what = what
        self.expected = expected
        self.actual = actual
        self.path = path
        where = f" ({path})" if path is not None else ""
        super().__init__(
            f"{what} failed verification{where}:\n  expected {expected}\n  actual   {actual}\n"
            "the download may be corrupt or tampered with; nothing was installed"
        )


# --------------------------------------------------------------------------- manifest


@dataclass(frozen=True)
class PlatformEntry:
    """One platform package of the pinned release."""

    integrity: str
    """SRI string of the npm tarball (``sha512-<base64>``)."""
    binary: str
    """File name of the binary at the package root (``claude`` / ``claude.exe``)."""
    sha256: str
    """Hex sha256 of the extracted binary."""
    size: int
    """Size in bytes of the extracted binary."""


@dataclass(frozen=True)
class Manifest:
    """The pinned Claude Code release (``vendor/claude-code.json``)."""

    package: str
    """npm package base name; platform packages are ``<package>-<platform>``."""
    version: str
    platforms: Mapping[str, PlatformEntry]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Manifest:
        """Build a manifest from its parsed JSON form (raises ``ValueError`` if malformed)."""
        try:
            platforms = {
                str(name): PlatformEntry(
                    integrity=str(entry["integrity"]),
                    binary=str(entry["binary"]),
                    sha256=str(entry["sha256"]).lower(),
                    size=int(entry["size"]),
                )
                for name, entry in dict(data["platforms"]).items()
            }
            return cls(package=str(data["package"]), version=str(data["version"]), platforms=platforms)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"malformed Claude Code manifest: {exc!r}") from exc

    def entry(self, platform: str) -> PlatformEntry:
        """The entry for ``platform``; :class:`UnsupportedPlatformError` if absent."""
        try:
            return self.platforms[platform]
        except KeyError:
            raise UnsupportedPlatformError(
                f"no Claude Code {self.version} package for platform {platform!r}; "
                f"known platforms: {', '.join(sorted(self.platforms))}"
            ) from None


@functools.cache
def _load_default_manifest() -> Manifest:
    for candidate in _MANIFEST_CANDIDATES:
        if candidate.is_file():
            return _read_manifest(candidate)
    raise BinaryFetchError(
        "the pinned Claude Code manifest was not found; looked at: " + ", ".join(str(c) for c in _MANIFEST_CANDIDATES)
    )


def _read_manifest(path: Path) -> Manifest:
    try:
        return Manifest.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise BinaryFetchError(f"cannot read the Claude Code manifest {path}: {exc}") from exc


def load_manifest(path: str | os.PathLike[str] | None = None) -> Manifest:
    """Load the pinned manifest.

    Without ``path``: ``claude_wrap/_vendor/claude-code.json`` (installed
    wheel) first, then ``<repo>/vendor/claude-code.json`` (checkout); the
    result is cached. Raises :class:`BinaryFetchError` if none is readable.
    """
    if path is not None:
        return _read_manifest(Path(path))
    return _load_default_manifest()


def pinned_version() -> str:
    """The Claude Code version this claude_wrap is pinned to (e.g. ``"2.1.328"``)."""
    return load_manifest().version


# --------------------------------------------------------------------------- platform


def _linux_is_musl(gnu_libc_version: str | None, musl_loaders: Iterable[str]) -> bool:
    """Decide musl vs glibc from injected facts.

    ``gnu_libc_version`` is ``os.confstr("CS_GNU_LIBC_VERSION")`` (``"glibc 2.36"``
    on glibc, unavailable on musl); ``musl_loaders`` are the musl dynamic
    loaders present (``/lib/ld-musl-<arch>.so.1``). A running glibc wins even if
    a musl loader is also installed; otherwise a musl loader means musl; with
    neither, glibc is assumed.
    """
    if gnu_libc_version and gnu_libc_version.lower().startswith("glibc"):
        return False
    return any(True for _ in musl_loaders)


def detect_platform(sys_platform: str, machine: str, *, musl: bool = False) -> str:
    """Map ``sys.platform`` and ``platform.machine()`` to a package platform name.

    >>> detect_platform("linux", "aarch64", musl=True)
    'linux-arm64-musl'
    >>> detect_platform("win32", "AMD64")
    'win32-x64'

    Raises :class:`UnsupportedPlatformError` for anything Claude Code does not ship.
    """
    arch = _MACHINES.get(machine.strip().lower())
    if sys_platform.startswith("linux"):
        os_name = "linux"
    elif sys_platform == "darwin":
        os_name = "darwin"
    elif sys_platform == "win32":
        os_name = "win32"
    else:
        os_name = ""
    if not os_name or arch is None:
        raise UnsupportedPlatformError(
            f"Claude Code ships no native binary for {sys_platform!r} on {machine!r}; "
            f"supported: {', '.join(PLATFORMS)}. Install Claude Code another way and set "
            f"{ENV_CLI}=/path/to/claude"
        )
    name = f"{os_name}-{arch}"
    if os_name == "linux" and musl:
        name += "-musl"
    return name


def _gnu_libc_version() -> str | None:
    try:
        return os.confstr("CS_GNU_LIBC_VERSION")
    except (ValueError, OSError, AttributeError):
        return None


def _musl_loaders() -> list[str]:
    import glob

    found: list[str] = []
    for pattern in _MUSL_LOADER_GLOBS:
        found.extend(glob.glob(pattern))
    return found


@functools.cache
def _detected_platform() -> str:
    import platform as _platform

    musl = sys.platform.startswith("linux") and _linux_is_musl(_gnu_libc_version(), _musl_loaders())
    return detect_platform(sys.platform, _platform.machine(), musl=musl)


def current_platform() -> str:
    """This machine's platform name, e.g. ``linux-x64`` or ``darwin-arm64``.

    ``CLAUDE_WRAP_PLATFORM`` overrides the detection. Raises
    :class:`UnsupportedPlatformError` on an unsupported machine.
    """
    override = os.environ.get(ENV_PLATFORM, "").strip()
    if override:
        if override not in PLATFORMS:
            raise UnsupportedPlatformError(f"{ENV_PLATFORM}={override!r} is not one of: {', '.join(PLATFORMS)}")
        return override
    return _detected_platform()


def binary_name(platform: str | None = None) -> str:
    """File name of the binary on ``platform``: ``claude.exe`` on Windows, else ``claude``."""
    platform = platform or current_platform()
    return "claude.exe" if platform.startswith("win32") else "claude"


# --------------------------------------------------------------------------- cache


def cache_path(platform: str | None = None, version: str | None = None) -> Path:
    """Where the verified binary for ``platform`` / ``version`` lives (or would live).

    Defaults: :func:`current_platform` and :func:`pinned_version`.
    """
    platform = platform or current_platform()
    version = version or pinned_version()
    return cache_root() / "claude-code" / version / platform / binary_name(platform)


def marker_path(binary: Path) -> Path:
    return binary.with_name(binary.name + _MARKER_SUFFIX)


def _read_marker(binary: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(marker_path(binary).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def marker_matches(binary: Path, sha256: str | None, size: int | None) -> bool:
    """Cheap check: marker present, agrees with ``sha256``/``size``, file has that size."""
    marker = _read_marker(binary)
    if marker is None:
        return False
    want_sha = (sha256 or str(marker.get("sha256", ""))).lower()
    want_size = size if size is not None else marker.get("size")
    if not want_sha or str(marker.get("sha256", "")).lower() != want_sha:
        return False
    if not isinstance(want_size, int) or marker.get("size") != want_size:
        return False
    try:
        return binary.stat().st_size == want_size
    except OSError:
        return False


def is_verified(platform: str | None = None, version: str | None = None) -> bool:
    """Whether the cache holds a verified copy (marker + size check; no hashing)."""
    platform = platform or current_platform()
    version = version or pinned_version()
    manifest = load_manifest()
    path = cache_path(platform, version)
    if version == manifest.version:
        entry = manifest.platforms.get(platform)
        if entry is None:
            return False
        return marker_matches(path, entry.sha256, entry.size)
    return marker_matches(path, None, None)


# --------------------------------------------------------------------------- discovery


@dataclass(frozen=True)
class BinaryInfo:
    """Which binary :func:`find_binary` chose, where from, and its version."""

    path: Path
    source: BinarySource
    version: str | None
    """First token of ``<binary> --version`` (``None`` if that failed)."""


def _is_executable_file(path: Path) -> bool:
    try:
        if not path.is_file():
            return False
    except OSError:
        return False
    return sys.platform == "win32" or os.access(path, os.X_OK)


def _explicit(value: str | os.PathLike[str], what: str) -> Path:
    raw = os.fspath(value)
    path = Path(raw).expanduser()
    if _is_executable_file(path):
        return path.absolute()
    if raw and os.sep not in raw and (os.altsep is None or os.altsep not in raw):
        found = shutil.which(raw)
        if found:
            return Path(found).absolute()
    reason = "is not executable" if path.is_file() else "does not exist"
    if what == "cli_path" and reason == "does not exist":
        error = CLINotFoundError(f"Claude Code not found at: {raw}")  # the official package's words
    else:
        error = CLINotFoundError(
            f"Claude Code not found at: {raw} (the path from {what} {reason}; fix or remove it: "
            "an explicit path never falls back to another binary)"
        )
    error.cli_path = raw
    raise error


def _prefer_path(prefer_path: bool | None) -> bool:
    if prefer_path is not None:
        return prefer_path
    return os.environ.get(ENV_PREFER_PATH, "").strip().lower() in _TRUE


def _on_path() -> Path | None:
    found = shutil.which("claude")
    return Path(found).absolute() if found else None


def _bundled() -> Path | None:
    name = "claude.exe" if sys.platform == "win32" else "claude"
    path = _BUNDLED_DIR / name
    return path if _is_executable_file(path) else None


def _cached() -> Path | None:
    try:
        manifest = load_manifest()
        platform = current_platform()
        entry = manifest.platforms.get(platform)
        if entry is None:
            return None
        path = cache_path(platform, manifest.version)
    except ClaudeSDKError:
        return None
    return path if marker_matches(path, entry.sha256, entry.size) else None


def _locate(cli_path: str | os.PathLike[str] | None, prefer_path: bool | None) -> tuple[Path, BinarySource]:
    if cli_path is not None:
        return _explicit(cli_path, "cli_path"), "cli_path"
    env = os.environ.get(ENV_CLI, "").strip()
    if env:
        return _explicit(env, ENV_CLI), "env"
    prefer = _prefer_path(prefer_path)
    if prefer:
        found = _on_path()
        if found is not None:
            return found, "path"
    bundled = _bundled()
    if bundled is not None:
        return bundled, "bundled"
    cached = _cached()
    if cached is not None:
        return cached, "cache"
    if not prefer:
        found = _on_path()
        if found is not None:
            return found, "path"
    raise CLINotFoundError(_not_found_message())


def _not_found_message() -> str:
    try:
        version = pinned_version()
    except ClaudeSDKError:
        version = "pinned"
    try:
        where = str(cache_path())
        unverified = Path(where).exists()
    except ClaudeSDKError:
        where, unverified = "(unsupported platform)", False
    lines = [
        (
            "Claude Code not found. Looked for: cli_path (not given), "
            f"${ENV_CLI} (unset), a bundled binary ({_BUNDLED_DIR}), "
            f"the verified cache ({where}), and `claude` on PATH."
        ),
    ]
    if unverified:
        lines.append("A copy exists in the cache but is not verified; run `claude-wrap fetch-binary --verify`.")
    lines += [
        "To get one, do any of:",
        (
            "  - claude-wrap fetch-binary  (or python -m claude_wrap fetch-binary; fetches Claude Code "
            f"{version} through your npm configuration and verifies it)"
        ),
        f'  - point at an existing binary: set {ENV_CLI}=/path/to/claude, or pass cli_path="/path/to/claude"',
        "  - install Claude Code so that `claude` is on your PATH",
    ]
    return "\n".join(lines)


def find_binary(cli_path: str | os.PathLike[str] | None = None, *, prefer_path: bool | None = None) -> Path:
    """The Claude Code binary to spawn, as an absolute path.

    Cheap enough for every spawn: a few ``stat`` calls and a tiny marker read,
    no hashing, no subprocess. Order: ``cli_path`` > ``$CLAUDE_WRAP_CLI`` >
    bundled > verified cache > ``claude`` on PATH; ``prefer_path`` (default:
    ``$CLAUDE_WRAP_PREFER_PATH``) moves PATH ahead of bundled and cache.

    Raises :class:`~claude_wrap._exceptions.CLINotFoundError` when an explicit
    path is missing or when nothing is found (the message says how to get one).
    """
    return _locate(cli_path, prefer_path)[0]


def binary_version(path: str | os.PathLike[str], *, timeout: float = 15.0) -> str | None:
    """Run ``<path> --version`` and return its first token (``"2.1.328"``), or ``None``."""
    try:
        proc = subprocess.run(
            [os.fspath(path), "--version"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        tokens = line.split()
        if tokens:
            return tokens[0]
    return None


def binary_info(
    cli_path: str | os.PathLike[str] | None = None,
    *,
    prefer_path: bool | None = None,
    version: bool = True,
) -> BinaryInfo:
    """Like :func:`find_binary`, plus where the binary came from and its version.

    Runs ``<binary> --version`` (about 15 ms) unless ``version=False``.
    """
    path, source = _locate(cli_path, prefer_path)
    return BinaryInfo(path=path, source=source, version=binary_version(path) if version else None)
