"""scripts/build_wheels.py and scripts/bump_version.py, with small stand-in binaries."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest
from _scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


bw = load_script("build_wheels")
bv = load_script("bump_version")


def _pure_wheel(tmp: Path) -> Path:
    wheel = tmp / "claude_wrap_sdk-1.2.3-py3-none-any.whl"
    files = {
        "claude_wrap/__init__.py": b"x = 1\n",
        "claude_wrap/_vendor/claude-code.json": b"{}\n",
        "claude_wrap_sdk-1.2.3.dist-info/METADATA": b"Name: claude-wrap-sdk\nVersion: 1.2.3\n",
        "claude_wrap_sdk-1.2.3.dist-info/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        "claude_wrap_sdk-1.2.3.dist-info/RECORD": b"",
    }
    with zipfile.ZipFile(wheel, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return wheel


def _spec(tmp: Path, content: bytes, *, name: str = "claude", sha: str | None = None) -> object:
    path = tmp / "bin" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(content)
    return bw.BinarySpec(path, name, sha or hashlib.sha256(content).hexdigest(), len(content))


def test_every_platform_has_its_tag() -> None:
    from claude_wrap._process.binary import PLATFORMS

    assert set(bw.PLATFORM_TAGS) == set(PLATFORMS)
    assert bw.PLATFORM_TAGS["linux-x64-musl"] == "musllinux_1_2_x86_64"
    assert bw.PLATFORM_TAGS["win32-arm64"] == "win_arm64"


@pytest.mark.parametrize(("platform", "name"), [("linux-arm64", "claude"), ("win32-x64", "claude.exe")])
def test_platform_wheel_is_retagged_with_an_executable_binary_and_a_true_record(
    tmp_path: Path, platform: str, name: str
) -> None:
    content = b"\x7fELF fake binary" * 1000
    wheel = bw.build_platform_wheel(
        _pure_wheel(tmp_path), platform, _spec(tmp_path, content, name=name), tmp_path / "out"
    )

    assert wheel.name == f"claude_wrap_sdk-1.2.3-py3-none-{bw.PLATFORM_TAGS[platform]}.whl"
    with zipfile.ZipFile(wheel) as zf:
        info = zf.getinfo(f"claude_wrap/_bundled/{name}")
        assert stat.S_IMODE(info.external_attr >> 16) == 0o755 and stat.S_ISREG(info.external_attr >> 16)
        assert zf.read(info) == content
        meta = zf.read("claude_wrap_sdk-1.2.3.dist-info/WHEEL").decode()
        assert "Root-Is-Purelib: false\n" in meta and f"Tag: py3-none-{bw.PLATFORM_TAGS[platform]}\n" in meta
        rows = list(csv.reader(io.StringIO(zf.read("claude_wrap_sdk-1.2.3.dist-info/RECORD").decode())))
        assert {r[0] for r in rows} == set(zf.namelist())
        for path, digest, size in rows:
            if path.endswith("RECORD"):
                assert (digest, size) == ("", "")
                continue
            data = zf.read(path)
            expected = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, int(size)) == (expected, len(data))
    assert stat.S_IMODE(wheel.stat().st_mode) == 0o644


def test_hash_mismatch_at_build_time_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    spec = _spec(tmp_path, b"tampered", sha="0" * 64)
    with pytest.raises(bw.BuildError, match="sha256"):
        bw.build_platform_wheel(_pure_wheel(tmp_path), "linux-x64", spec, out)
    assert list(out.iterdir()) == []


def test_pure_wheel_check_rejects_a_bundled_binary(tmp_path: Path) -> None:
    wheel = _pure_wheel(tmp_path)
    bw.check_pure_wheel(wheel)
    with zipfile.ZipFile(wheel, "a") as zf:
        zf.writestr("claude_wrap/_bundled/claude", b"x")
    with pytest.raises(bw.BuildError, match="_bundled"):
        bw.check_pure_wheel(wheel)


def _tarball(path: Path, name: str, content: bytes) -> str:
    with tarfile.open(path, "w:gz") as tar:
        info = tarfile.TarInfo(f"package/{name}")
        info.size = len(content)
        tar.addfile(info, io.BytesIO(content))
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def everywhere(package: str) -> list[str]:
    """``npm view <platform package> versions`` of a release every platform has."""
    return ["9.8.6", "9.8.7"]


def test_bump_version_refuses_a_release_not_every_platform_has(tmp_path: Path) -> None:
    # Two platforms are at 9.8.8 already, the other six not yet.
    manifest = tmp_path / "claude-code.json"
    manifest.write_text((ROOT / "vendor" / "claude-code.json").read_text())
    before = manifest.read_text()
    early = ("linux-x64", "linux-arm64")

    def versions(package: str) -> list[str]:
        return ["9.8.6", "9.8.7", "9.8.8"] if package.endswith(early) else ["9.8.6", "9.8.7"]

    logged: list[str] = []
    with pytest.raises(RuntimeError, match="newest version all 8 have is 9.8.7"):
        bv.bump("9.8.8", manifest_path=manifest, view=lambda s: "", pack=lambda s, d: d, versions=versions,
                log=logged.append)  # fmt: skip
    assert manifest.read_text() == before
    assert logged == ["9.8.8 is only partly published: 2 of 8 platforms (linux-arm64, linux-x64)"]
    package = json.loads(before)["package"]
    assert bv.published(package, [*json.loads(before)["platforms"]], versions) == ("9.8.7", {"9.8.8": sorted(early)})


def test_bump_version_pins_every_platform(tmp_path: Path) -> None:
    manifest = tmp_path / "claude-code.json"
    old = json.loads((ROOT / "vendor" / "claude-code.json").read_text())
    manifest.write_text(json.dumps(old))
    tarballs: dict[str, tuple[Path, str]] = {}
    for platform, entry in old["platforms"].items():
        tgz = tmp_path / f"{platform}.tgz"
        tarballs[f"{old['package']}-{platform}@9.8.7"] = (tgz, _tarball(tgz, entry["binary"], platform.encode() * 10))
    viewed: list[str] = []

    def view(spec: str) -> str:
        viewed.append(spec)
        return tarballs[spec][1]

    def pack(spec: str, dest: Path) -> Path:
        return tarballs[spec][0]

    dry = bv.bump(
        "9.8.7", manifest_path=manifest, dry_run=True, view=view, pack=pack, versions=everywhere, log=lambda m: None
    )
    assert json.loads(manifest.read_text()) == old  # untouched
    assert dry["platforms"]["linux-x64"]["sha256"] is None

    new = bv.bump("9.8.7", manifest_path=manifest, view=view, pack=pack, versions=everywhere, log=lambda m: None)
    assert json.loads(manifest.read_text()) == new
    assert new["version"] == "9.8.7" and set(new["platforms"]) == set(old["platforms"])
    entry = new["platforms"]["win32-x64"]
    assert entry["sha256"] == hashlib.sha256(b"win32-x64" * 10).hexdigest() and entry["size"] == 90
    assert entry["binary"] == "claude.exe"
    assert len(viewed) == 16

    # The pinned version again: nothing fetched, nothing written, unless forced.
    stamp = manifest.stat().st_mtime_ns
    assert (
        bv.bump("9.8.7", manifest_path=manifest, view=view, pack=pack, versions=everywhere, log=lambda m: None) == new
    )
    assert len(viewed) == 16 and manifest.stat().st_mtime_ns == stamp
    assert (
        bv.bump(
            "9.8.7", manifest_path=manifest, force=True, view=view, pack=pack, versions=everywhere, log=lambda m: None
        )
        == new
    )
    assert len(viewed) == 24


def test_bump_version_refuses_a_tarball_that_does_not_match(tmp_path: Path) -> None:
    from claude_wrap._process.binary import BinaryVerificationError

    manifest = tmp_path / "claude-code.json"
    manifest.write_text((ROOT / "vendor" / "claude-code.json").read_text())
    before = manifest.read_text()
    tgz = tmp_path / "x.tgz"
    _tarball(tgz, "claude", b"x")
    with pytest.raises(BinaryVerificationError):
        bv.bump(
            "9.8.7",
            manifest_path=manifest,
            view=lambda s: "sha512-AAAA",
            pack=lambda s, d: tgz,
            versions=everywhere,
            log=lambda m: None,
        )
    assert manifest.read_text() == before
