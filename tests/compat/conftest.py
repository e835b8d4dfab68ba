"""Fixtures of the twin harness: the official package, its examples, and a pool of runs.

Every selected twin test's program starts as soon as the first one asks
(see `TwinPool`), and each test then waits for its own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from _twin_pool import TwinPool
from _twin_programs import ROOT, Entry, official_venv, runs_root
from _twin_report import UNSTEADY


@pytest.fixture(scope="session")
def official_python() -> Path:
    """The official package's interpreter (`make official` makes it; this does too, once)."""
    return Path(official_venv().ensure_venv())


@pytest.fixture(scope="session")
def official_examples() -> Path:
    """The pinned sdist's examples/, unpacked under build/."""
    return Path(official_venv().ensure_examples())


@pytest.fixture(scope="session")
def twins(
    request: pytest.FixtureRequest,
    official_python: Path,
    official_examples: Path,
    cli_path: str,
) -> Iterator[TwinPool]:
    selected = [
        item.callspec.params["entry"]
        for item in request.session.items
        if hasattr(item, "callspec") and isinstance(item.callspec.params.get("entry"), Entry)
    ]
    pool = TwinPool(
        selected,
        official_python=official_python,
        examples=official_examples,
        binary=Path(cli_path),
        # One directory per checkout: test runs in other worktrees at the
        # same time must not remove this one's runs.
        root=runs_root(f"tests-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]}"),
    )
    yield pool
    pool.close()


# A twin test that passed only when run again records the first run's
# differences as the UNSTEADY property; the reports carry it to the process
# that prints the summary (also from pytest-xdist's workers).
_unsteady: list[tuple[str, str]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call":
        _unsteady.extend((report.nodeid, str(text)) for name, text in report.user_properties if name == UNSTEADY)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _unsteady:
        return
    terminalreporter.section("twins that differed once, then agreed when run again")
    for nodeid, differences in _unsteady:
        terminalreporter.write_line(f"{nodeid}:")
        for line in differences.splitlines()[:40]:
            terminalreporter.write_line(f"    {line}")
