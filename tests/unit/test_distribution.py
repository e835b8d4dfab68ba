"""The package is installed as ``claude-wrap-sdk`` (``claude-wrap`` on the index
is another project), imported as ``claude_wrap``, and run as ``claude-wrap``;
every install line the package prints or documents names the distribution."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import tomllib
from _scripts import load_script

from claude_wrap._distribution import COMMAND, DISTRIBUTION, import_extra, install_line

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
INSTALL = re.compile(r"pip install '?([A-Za-z0-9_./-]+)(?:\[([a-z]+)\])?'?")


def test_pyproject_names_the_distribution_and_the_command() -> None:
    project = PYPROJECT["project"]
    assert project["name"] == DISTRIBUTION == "claude-wrap-sdk"
    assert project["scripts"] == {COMMAND: "claude_wrap._cli:main"}


def _install_lines() -> list[tuple[str, str, str]]:
    """(where, distribution, extra) of every ``pip install NAME`` in the docs and the package."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "claude_wrap").rglob("*.py"))]
    found = []
    for path in files:
        for match in INSTALL.finditer(path.read_text(encoding="utf-8")):
            name, extra = match.groups()
            if name in (".", "-e") or name.endswith((".whl", ".tar.gz")):
                continue  # a checkout or a built file, not the index
            found.append((path.relative_to(ROOT).as_posix(), name, extra or ""))
    return found


def test_every_install_line_names_the_distribution_and_a_real_extra() -> None:
    lines = _install_lines()
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    assert {extra for _, _, extra in lines} >= {"mcp", "postgres", "redis", "otel"}
    for where, name, extra in lines:
        assert name == DISTRIBUTION, (where, name)
        assert not extra or extra in extras, (where, extra)


def test_a_missing_extra_says_which_install_line_brings_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    with pytest.raises(ImportError) as info:
        import_extra("psycopg", "postgres", "PostgresSessionStore with a conninfo string")
    assert str(info.value) == (
        "PostgresSessionStore with a conninfo string needs the 'psycopg' package "
        "(pip install 'claude-wrap-sdk[postgres]')"
    )
    assert info.value.name == "psycopg"
    assert install_line() == "pip install claude-wrap-sdk"


def test_a_store_without_its_driver_raises_the_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    from claude_wrap import RedisSessionStore

    monkeypatch.setitem(sys.modules, "redis", None)
    with pytest.raises(ImportError, match=re.escape("pip install 'claude-wrap-sdk[redis]'")):
        RedisSessionStore("redis://127.0.0.1:1/0")._get()


def test_the_built_wheel_carries_the_distribution_name(tmp_path: Path) -> None:
    wheel = load_script("build_wheels").build_with_hatchling("wheel", tmp_path)
    assert wheel.name.startswith("claude_wrap_sdk-")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        info = next(n for n in names if n.endswith(".dist-info/METADATA")).rsplit("/", 1)[0]
        metadata = zf.read(f"{info}/METADATA").decode()
        entry_points = zf.read(f"{info}/entry_points.txt").decode()
    assert "\nName: claude-wrap-sdk\n" in metadata
    assert f"{COMMAND} = claude_wrap._cli:main" in entry_points
    assert any(n.startswith("claude_wrap/") for n in names)  # the import name is unchanged
    assert f"{info}/licenses/LICENSE" in names and "\nLicense-Expression: MIT\n" in metadata


def test_license_and_changelog_ship_with_the_sources() -> None:
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert PYPROJECT["project"]["license"] == "MIT"
    assert (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").startswith("# Changelog\n")
    assert {"LICENSE", "CHANGELOG.md"} <= set(PYPROJECT["tool"]["hatch"]["build"]["targets"]["sdist"]["include"])


def test_readme_install_section_covers_checkout_wheel_and_every_extra() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Install\n", 1)[1].split("\n## ", 1)[0]
    assert "pip install .  " in section and "claude-wrap fetch-binary" in section
    wheel = re.search(r"pip install dist/(\S+\.whl)", section)
    assert wheel is not None
    assert wheel[1].startswith(f"{DISTRIBUTION.replace('-', '_')}-{PYPROJECT['project']['version']}-py3-none-")
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    assert all(extra in section for extra in extras), extras


def test_the_development_tools_are_no_extra_users_are_offered() -> None:
    # `pip install claude-wrap-sdk[dev]` must not exist: the tools are a
    # dependency group of the checkout (make installs them).
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    assert not extras & {"dev", "docs", "test"}
    groups = PYPROJECT["dependency-groups"]
    assert any(r.startswith("pytest") for r in groups["dev"]) and any(r.startswith("mkdocs") for r in groups["docs"])
    assert "--group dev --group docs" in (ROOT / "Makefile").read_text(encoding="utf-8")


def test_the_package_index_page_says_what_it_is() -> None:
    project = PYPROJECT["project"]
    classifiers = set(project["classifiers"])
    assert {
        "Typing :: Typed",
        "Programming Language :: Python :: 3.10",
        "Programming Language :: Python :: 3.11",
    } <= classifiers
    assert any(c.startswith("Development Status ::") for c in classifiers)
    assert any(c.startswith("Operating System ::") for c in classifiers)
    assert project["keywords"] and project["authors"]


def test_make_wheels_builds_with_the_checkouts_tools() -> None:
    # A fresh clone has no hatchling on the system python: the README's
    # command is the make target, which sets up .venv first.
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "`make wheels`" in readme and "python scripts/build_wheels.py" not in readme
    plan = subprocess.run(
        ["make", "--no-print-directory", "-n", "-W", "pyproject.toml", "wheels", "PLATFORM=linux-x64"],
        cwd=Path(__file__).resolve().parents[2],
        env={k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.splitlines()
    assert "-m pip install --quiet -e . --group dev --group docs" in "\n".join(plan)
    assert plan[-1] == ".venv/bin/python scripts/build_wheels.py --platform linux-x64"
