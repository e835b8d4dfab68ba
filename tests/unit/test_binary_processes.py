"""The binary layer's own child processes (``--version``, ``npm pack``), faked
with pytest-subprocess so every outcome can be forced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claude_wrap._process import fetch as _fetch
from claude_wrap._process.binary import BinaryFetchError, binary_version

NPM = "/opt/fake/npm"


def test_version_is_the_first_token(fp: Any) -> None:
    fp.register(["/x/claude", "--version"], stdout="2.1.328 (Claude Code)\n")
    assert binary_version("/x/claude") == "2.1.328"


def test_version_of_a_failing_binary_is_none(fp: Any) -> None:
    fp.register(["/x/claude", "--version"], stdout="", stderr="boom", returncode=3)
    assert binary_version("/x/claude") is None


def test_version_of_a_hanging_binary_is_none(fp: Any) -> None:
    fp.register(["/x/claude", "--version"], wait=5)
    assert binary_version("/x/claude", timeout=0.1) is None


def test_version_with_empty_output_is_none(fp: Any) -> None:
    fp.register(["/x/claude", "--version"], stdout="\n\n")
    assert binary_version("/x/claude") is None


@pytest.fixture
def npm_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fetch.shutil, "which", lambda name: NPM if name == "npm" else None)


def _pack_argv(spec: str, dest: Path) -> list[str]:
    return [NPM, "pack", spec, "--json", "--ignore-scripts", "--pack-destination", str(dest)]


@pytest.mark.usefixtures("npm_on_path")
def test_npm_failure_carries_npm_stderr(fp: Any, tmp_path: Path) -> None:
    fp.register(_pack_argv("pkg@1.0.0", tmp_path), stderr="npm ERR! code ETARGET\nnpm ERR! notarget", returncode=1)
    with pytest.raises(BinaryFetchError) as info:
        _fetch._npm_pack("pkg@1.0.0", tmp_path)
    assert "ETARGET" in str(info.value)
    assert info.value.returncode == 1


@pytest.mark.usefixtures("npm_on_path")
def test_npm_success_reads_filename_and_integrity_past_noise(fp: Any, tmp_path: Path) -> None:
    def write_tarball(process: Any) -> None:
        (tmp_path / "pkg-1.0.0.tgz").write_bytes(b"tarball")

    listing = [{"filename": "pkg-1.0.0.tgz", "integrity": "sha512-abc"}]
    fp.register(
        _pack_argv("pkg@1.0.0", tmp_path),
        stdout="> some lifecycle noise [not json]\n" + json.dumps(listing),
        callback=write_tarball,
    )
    tarball, integrity = _fetch._npm_pack("pkg@1.0.0", tmp_path)
    assert tarball == tmp_path / "pkg-1.0.0.tgz"
    assert integrity == "sha512-abc"


@pytest.mark.usefixtures("npm_on_path")
def test_npm_success_without_a_tarball_is_an_error(fp: Any, tmp_path: Path) -> None:
    fp.register(_pack_argv("pkg@1.0.0", tmp_path), stdout="[]")
    with pytest.raises(BinaryFetchError, match="wrote no tarball"):
        _fetch._npm_pack("pkg@1.0.0", tmp_path)


def test_missing_npm_says_how_to_proceed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(_fetch.shutil, "which", lambda name: None)
    with pytest.raises(BinaryFetchError, match="--from-tarball"):
        _fetch._npm_pack("pkg@1.0.0", tmp_path)


def test_no_shell_is_involved(fp: Any) -> None:
    # The command is an argv list: shell metacharacters in a path stay literal.
    odd = "/x/claude; rm -rf /"
    fp.register([odd, "--version"], stdout="9.9.9 (Claude Code)\n")
    assert binary_version(odd) == "9.9.9"
    assert fp.call_count([odd, "--version"]) == 1
