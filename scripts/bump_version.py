#!/usr/bin/env python3
"""Pin a new Claude Code version for all platforms at once.

    python scripts/bump_version.py 2.2.0 --dry-run   # integrity values only; writes nothing
    python scripts/bump_version.py 2.2.0             # + sha256/size of every binary; rewrites the manifest

For each of the eight platform packages ``<package>-<platform>@<version>``:

1. ``npm view <spec> dist.integrity`` (your own npm configuration: registry,
   proxy and auth all come from it) gives the tarball's integrity;
2. ``npm pack <spec>`` fetches the tarball, which is checked against that
   integrity, and the binary inside it is hashed (sha256) and measured
   while it is streamed (nothing is extracted to disk).

Only when every platform succeeded is ``vendor/claude-code.json`` rewritten
(atomically). ``--dry-run`` stops after step 1 and prints what would change.
Then run ``make binary`` to fetch and verify the new pin locally.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "vendor" / "claude-code.json"
_VERSION = re.compile(r"^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$")

ViewFn = Callable[[str], str]
PackFn = Callable[[str, Path], Path]
VersionsFn = Callable[[str], list[str]]


def _fetch_module() -> ModuleType:
    try:
        from claude_wrap._process import fetch as _fetch
    except ImportError:  # a checkout without the package installed
        sys.path.insert(0, str(ROOT))
        from claude_wrap._process import fetch as _fetch
    return _fetch


def npm_view_integrity(spec: str) -> str:
    """``npm view <spec> dist.integrity`` through the user's npm configuration."""
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("bump_version: npm was not found on PATH")
    proc = subprocess.run(
        [npm, "view", spec, "dist.integrity", "--json"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"`npm view {spec} dist.integrity` failed:\n{proc.stderr.strip()}")
    text = proc.stdout.strip()
    value: Any = json.loads(text) if text.startswith(('"', "[")) else text
    if isinstance(value, list):
        value = value[-1] if value else ""
    if not isinstance(value, str) or not value.startswith("sha"):
        raise RuntimeError(f"`npm view {spec} dist.integrity` gave no integrity value: {text!r}")
    return value


def npm_view_versions(package: str) -> list[str]:
    """``npm view <package> versions`` through the user's npm configuration."""
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("bump_version: npm was not found on PATH")
    proc = subprocess.run(
        [npm, "view", package, "versions", "--json"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
        check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(f"`npm view {package} versions` failed:\n{proc.stderr.strip()}")
    value: Any = json.loads(proc.stdout or "[]")
    return [value] if isinstance(value, str) else [str(v) for v in value]


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version.split("-")[0]))


def published(package: str, platforms: list[str], versions: VersionsFn) -> tuple[str | None, dict[str, list[str]]]:
    """The newest version every platform package has, and each newer version
    that only some have (a release still being published), with the
    platforms that have it."""
    held = {platform: set(versions(f"{package}-{platform}")) for platform in platforms}
    everywhere = set.intersection(*held.values()) if held else set()
    newest = max(everywhere, key=_key) if everywhere else None
    partial: dict[str, list[str]] = {}
    for version in set.union(*held.values()) - everywhere if held else set():
        if newest is None or _key(version) > _key(newest):
            partial[version] = sorted(p for p, have in held.items() if version in have)
    return newest, dict(sorted(partial.items(), key=lambda item: _key(item[0])))


def npm_pack(spec: str, dest: Path) -> Path:
    """``npm pack <spec>`` into ``dest`` through the user's npm configuration."""
    tarball, _ = _fetch_module()._npm_pack(spec, dest)
    return Path(tarball)


def hash_binary(tarball: Path, name: str) -> tuple[str, int]:
    """sha256 and size of ``package/<name>`` inside ``tarball``, streamed."""
    _fetch = _fetch_module()
    h = hashlib.sha256()
    size = 0
    with tarfile.open(tarball, "r:*") as tar:
        member = _fetch._find_member(tar, name)
        src = tar.extractfile(member)
        if src is None:
            raise RuntimeError(f"cannot read {member.name} from {tarball}")
        with src:
            while chunk := src.read(1 << 20):
                h.update(chunk)
                size += len(chunk)
    return h.hexdigest(), size


def bump(
    version: str,
    *,
    manifest_path: Path = MANIFEST,
    dry_run: bool = False,
    force: bool = False,
    view: ViewFn = npm_view_integrity,
    pack: PackFn = npm_pack,
    versions: VersionsFn | None = npm_view_versions,
    log: Callable[[str], None] = lambda msg: print(msg, file=sys.stderr, flush=True),
) -> dict[str, Any]:
    """Compute the manifest for ``version``; write it unless ``dry_run``. Returns it.

    The version already pinned is left alone (eight downloads for nothing)
    unless ``force``. With ``versions`` (``npm view ... versions``), a version
    not every platform package has yet is refused, naming the newest one they
    all have, and newer versions that only some have are named as waiting.
    """
    if not _VERSION.match(version):
        raise ValueError(f"not a version: {version!r}")
    _fetch = _fetch_module()
    old = json.loads(manifest_path.read_text(encoding="utf-8"))
    if old["version"] == version and not force:
        log(f"Claude Code {version} is already pinned in {manifest_path}; --force hashes it again")
        return dict(old)
    package = old["package"]
    if versions is not None:
        newest, partial = published(package, list(old["platforms"]), versions)
        for waiting, have in partial.items():
            log(
                f"{waiting} is only partly published: {len(have)} of {len(old['platforms'])} platforms ({', '.join(have)})"
            )
        if version in partial or (newest is not None and version not in partial and _key(version) > _key(newest)):
            raise RuntimeError(
                f"Claude Code {version} is not published for every platform; "
                f"the newest version all {len(old['platforms'])} have is {newest}"
            )
    platforms: dict[str, Any] = {}
    for platform, entry in old["platforms"].items():
        spec = f"{package}-{platform}@{version}"
        integrity = view(spec)
        log(f"{platform}: integrity {integrity[:27]}…")
        new_entry = {"integrity": integrity, "binary": entry["binary"], "sha256": None, "size": None}
        if not dry_run:
            with tempfile.TemporaryDirectory(prefix="claude-wrap-bump-") as tmp:
                tarball = pack(spec, Path(tmp))
                _fetch._verify_tarball(tarball, integrity)
                sha, size = hash_binary(tarball, entry["binary"])
            new_entry.update(sha256=sha, size=size)
            log(f"{platform}: {entry['binary']} sha256 {sha[:16]}… {size} bytes")
        platforms[platform] = new_entry
    new = {**old, "version": version, "platforms": platforms}
    if dry_run:
        log(f"dry run: {old['version']} → {version}; sha256/size come from `npm pack` in a real run")
        return new
    data = json.dumps(new, indent=2) + "\n"
    fd, tmp_name = tempfile.mkstemp(prefix=".claude-code.", suffix=".json", dir=manifest_path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
        os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, manifest_path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    log(f"pinned Claude Code {version} in {manifest_path} (was {old['version']}); run `make binary` next")
    return new


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("version", help="the Claude Code version to pin, e.g. 2.2.0")
    parser.add_argument("--dry-run", action="store_true", help="read the integrity values only; write nothing")
    parser.add_argument("--force", action="store_true", help="fetch and hash even if this version is already pinned")
    parser.add_argument(
        "--manifest", type=Path, default=MANIFEST, help="manifest to update (default: vendor/claude-code.json)"
    )
    args = parser.parse_args(argv)
    try:
        new = bump(args.version, manifest_path=args.manifest, dry_run=args.dry_run, force=args.force)
    except KeyboardInterrupt:
        print("bump_version: interrupted; the manifest is unchanged", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - npm, verification and I/O errors all end the same way
        print(f"bump_version: error: {exc}\nthe manifest is unchanged", file=sys.stderr)
        return 1
    if args.dry_run:
        print(json.dumps(new, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
