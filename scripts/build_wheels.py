#!/usr/bin/env python3
"""Build the release artifacts: platform wheels with the binary inside, a pure wheel, an sdist.

    python scripts/build_wheels.py                          # all 8 platforms + pure wheel + sdist
    python scripts/build_wheels.py --platform linux-x64     # a subset (repeatable)
    python scripts/build_wheels.py --platform linux-x64 --no-sdist --compresslevel 1 --out build/wheels

Steps:

1. hatchling builds the pure-Python wheel (``py3-none-any``, no binary: at
   run time it falls back to the cache or ``PATH``) and the sdist, from this
   checkout, without build isolation (hatchling is in the ``dev`` extra).
2. For each platform, the pinned binary is made available in the cache with
   ``claude_wrap._process.fetch.fetch_binary(platform)`` (a verified cached copy is
   reused; otherwise ``npm pack`` through your own npm configuration).
3. Each platform wheel is the pure wheel plus ``claude_wrap/_bundled/claude``
   (``claude.exe`` on Windows) stored with mode 0755, retagged
   (``Tag: py3-none-<platform tag>``, ``Root-Is-Purelib: false``) and with a
   fresh ``RECORD``. The binary is hashed again while it is written into the
   wheel and checked against the sha256 and size in ``vendor/claude-code.json``;
   on a mismatch the wheel is not written.

Wheels are written atomically (temporary file, then rename) into ``--out``
(default ``dist/``). Nothing here talks to a package index except
``npm pack`` when a binary is not cached yet.
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent

PLATFORM_TAGS: dict[str, str] = {
    "linux-x64": "manylinux_2_17_x86_64",
    "linux-arm64": "manylinux_2_17_aarch64",
    "linux-x64-musl": "musllinux_1_2_x86_64",
    "linux-arm64-musl": "musllinux_1_2_aarch64",
    "darwin-x64": "macosx_11_0_x86_64",
    "darwin-arm64": "macosx_11_0_arm64",
    "win32-x64": "win_amd64",
    "win32-arm64": "win_arm64",
}
"""Claude Code platform package → wheel platform tag."""

BUNDLED_DIR = "claude_wrap/_bundled"
_CHUNK = 1024 * 1024
_GENERATOR = "claude-wrap-sdk build_wheels.py"
# Entries we add get a fixed timestamp, so the same inputs give the same wheel.
_EPOCH = time.gmtime(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")))[:6]


class BuildError(Exception):
    """A build step failed; the message says which and why."""


def _import_fetch_module() -> ModuleType:
    try:
        from claude_wrap._process import fetch as _fetch
    except ImportError:  # a checkout without the package installed
        sys.path.insert(0, str(ROOT))
        from claude_wrap._process import fetch as _fetch
    return _fetch


# --------------------------------------------------------------------------- hatchling


def build_with_hatchling(kind: str, out_dir: Path, root: Path = ROOT) -> Path:
    """Build the ``wheel`` or ``sdist`` of ``root`` with hatchling's PEP 517 hooks."""
    out_dir.mkdir(parents=True, exist_ok=True)
    code = f"import sys, hatchling.build as b; print(b.build_{kind}(sys.argv[1]))"
    proc = subprocess.run(
        [sys.executable, "-c", code, str(out_dir)], cwd=root, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        hint = (
            "\n(hatchling is in the dev group: run `make wheels`, which installs it into .venv)"
            if "No module named" in proc.stderr
            else ""
        )
        raise BuildError(f"hatchling could not build the {kind}:\n{proc.stderr.strip()}{hint}")
    return out_dir / proc.stdout.strip().splitlines()[-1]


# --------------------------------------------------------------------------- wheels


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _dist_info(names: Iterable[str]) -> str:
    dirs = {name.split("/", 1)[0] for name in names if name.split("/", 1)[0].endswith(".dist-info")}
    if len(dirs) != 1:
        raise BuildError(f"expected one .dist-info directory in the wheel, found {sorted(dirs)}")
    return dirs.pop()


def wheel_metadata(tag: str, *, purelib: bool) -> bytes:
    """The ``WHEEL`` file for a ``py3-none-<tag>`` wheel."""
    return (
        "Wheel-Version: 1.0\n"
        f"Generator: {_GENERATOR}\n"
        f"Root-Is-Purelib: {'true' if purelib else 'false'}\n"
        f"Tag: py3-none-{tag}\n"
    ).encode()


def check_pure_wheel(wheel: Path) -> None:
    """The pure wheel must carry the manifest and no binary."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    bundled = [n for n in names if n.startswith(BUNDLED_DIR + "/")]
    if bundled:
        raise BuildError(f"the pure wheel contains {bundled}: claude_wrap/_bundled/ must not be packaged")
    if "claude_wrap/_vendor/claude-code.json" not in names:
        raise BuildError("the pure wheel lacks claude_wrap/_vendor/claude-code.json")


@dataclass(frozen=True)
class BinarySpec:
    """The binary to bundle and what it must hash to."""

    path: Path
    name: str  # claude / claude.exe
    sha256: str
    size: int


def build_platform_wheel(
    pure_wheel: Path, platform: str, binary: BinarySpec, out_dir: Path, *, compresslevel: int = 6
) -> Path:
    """The pure wheel plus the binary, retagged for ``platform``; returns its path.

    The binary is hashed while it is written and checked against
    ``binary.sha256`` / ``binary.size``; on a mismatch nothing is left in ``out_dir``.
    """
    tag = PLATFORM_TAGS[platform]
    parts = pure_wheel.name[: -len(".whl")].split("-")
    if len(parts) != 5:
        raise BuildError(f"unexpected wheel file name: {pure_wheel.name}")
    dist, version = parts[0], parts[1]
    target = out_dir / f"{dist}-{version}-py3-none-{tag}.whl"
    out_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=out_dir)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        with zipfile.ZipFile(pure_wheel) as src, zipfile.ZipFile(tmp, "w") as dst:
            info_dir = _dist_info(src.namelist())
            record_name = f"{info_dir}/RECORD"
            wheel_name = f"{info_dir}/WHEEL"
            records: list[tuple[str, str, str]] = []
            for item in src.infolist():
                if item.filename in (record_name, wheel_name) or item.filename.startswith(BUNDLED_DIR + "/"):
                    continue
                data = src.read(item)
                dst.writestr(item, data)  # keeps the entry's mode, date and compression
                records.append((item.filename, _record_hash(data), str(len(data))))
            records.append(_add_binary(dst, binary, compresslevel))
            wheel_data = wheel_metadata(tag, purelib=False)
            _write_entry(dst, wheel_name, wheel_data, 0o644)
            records.append((wheel_name, _record_hash(wheel_data), str(len(wheel_data))))
            buf = io.StringIO()
            writer = csv.writer(buf, lineterminator="\n")
            writer.writerows(records)
            writer.writerow((record_name, "", ""))
            _write_entry(dst, record_name, buf.getvalue().encode(), 0o644)
        tmp.chmod(0o644)  # mkstemp made it private; a release artifact is not
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return target


def _write_entry(zf: zipfile.ZipFile, name: str, data: bytes, mode: int) -> None:
    info = zipfile.ZipInfo(name, date_time=_EPOCH)
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)


def _add_binary(zf: zipfile.ZipFile, binary: BinarySpec, compresslevel: int) -> tuple[str, str, str]:
    """Stream the binary into the wheel as 0755, hashing it; checks hash and size."""
    name = f"{BUNDLED_DIR}/{binary.name}"
    info = zipfile.ZipInfo(name, date_time=_EPOCH)
    info.external_attr = (stat.S_IFREG | 0o755) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    info._compresslevel = compresslevel  # type: ignore[attr-defined]  # zipfile has no public per-entry level
    h = hashlib.sha256()
    size = 0
    with open(binary.path, "rb") as f, zf.open(info, "w", force_zip64=True) as out:
        while chunk := f.read(_CHUNK):
            h.update(chunk)
            out.write(chunk)
            size += len(chunk)
    if size != binary.size:
        raise BuildError(f"{binary.path}: size {size} bytes, the manifest pins {binary.size}")
    if h.hexdigest() != binary.sha256.lower():
        raise BuildError(f"{binary.path}: sha256 {h.hexdigest()}, the manifest pins {binary.sha256.lower()}")
    digest = "sha256=" + base64.urlsafe_b64encode(h.digest()).rstrip(b"=").decode()
    return name, digest, str(size)


def binary_for(platform: str) -> BinarySpec:
    """The pinned, verified binary for ``platform`` (fetched into the cache if needed)."""
    _fetch = _import_fetch_module()
    manifest = _fetch.load_manifest()
    entry = manifest.entry(platform)
    path = _fetch.fetch_binary(platform)
    return BinarySpec(Path(path), entry.binary, entry.sha256, entry.size)


def wheel_listing(wheel: Path) -> list[str]:
    """``mode size name`` per entry, like ``unzip -Z``; for checks and logs."""
    with zipfile.ZipFile(wheel) as zf:
        return [f"{stat.filemode(i.external_attr >> 16)} {i.file_size:>10} {i.filename}" for i in zf.infolist()]


# --------------------------------------------------------------------------- main


def build(
    platforms: Sequence[str],
    out_dir: Path,
    *,
    sdist: bool = True,
    compresslevel: int = 6,
    log: bool = True,
) -> list[Path]:
    """Build the pure wheel, the sdist (optional) and one wheel per platform; returns their paths."""

    def say(msg: str) -> None:
        if log:
            print(msg, file=sys.stderr, flush=True)

    built: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="claude-wrap-build-") as tmp:
        say("building the pure wheel with hatchling")
        staged = build_with_hatchling("wheel", Path(tmp))
        check_pure_wheel(staged)
        out_dir.mkdir(parents=True, exist_ok=True)
        pure = out_dir / staged.name
        shutil.copyfile(staged, pure)
        built.append(pure)
        say(f"  {pure}")
        if sdist:
            say("building the sdist with hatchling")
            sd = build_with_hatchling("sdist", out_dir)
            built.append(sd)
            say(f"  {sd}")
        for platform in platforms:
            started = time.monotonic()
            say(f"{platform}: fetching/verifying the pinned binary")
            spec = binary_for(platform)
            wheel = build_platform_wheel(pure, platform, spec, out_dir, compresslevel=compresslevel)
            built.append(wheel)
            say(f"  {wheel} ({wheel.stat().st_size / 1e6:.0f} MB, {time.monotonic() - started:.1f} s)")
    return built


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--platform",
        action="append",
        choices=list(PLATFORM_TAGS),
        help="build only this platform's wheel (repeatable; default: all 8)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output directory (default: dist/)")
    parser.add_argument("--no-sdist", action="store_true", help="skip the sdist")
    parser.add_argument(
        "--compresslevel",
        type=int,
        default=6,
        choices=range(10),
        metavar="0-9",
        help="deflate level for the binary (default 6; 1 is 3× faster and only ~5%% larger)",
    )
    args = parser.parse_args(argv)
    platforms = args.platform or list(PLATFORM_TAGS)
    try:
        built = build(platforms, args.out, sdist=not args.no_sdist, compresslevel=args.compresslevel)
    except KeyboardInterrupt:
        print("build_wheels: interrupted", file=sys.stderr)
        return 130
    except (BuildError, OSError) as exc:
        print(f"build_wheels: error: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - claude_wrap errors (fetch/verify) carry their own message
        print(f"build_wheels: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    for path in built:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
