"""Shared fixtures: both anyio backends, the pinned binary, scripted options."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _servers import postgres_server, redis_server, s3_server  # noqa: F401 - session fixtures (real servers)


@pytest.fixture(autouse=True)
def _tracing_off_unless_marked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    # The otel tests load OpenTelemetry into this process, which would turn
    # tracing on for every test after them; the rest of the suite checks the
    # default path of an application that does not trace.
    if request.node.get_closest_marker("otel") is None:
        import claude_wrap._launch.argv

        monkeypatch.setattr(claude_wrap._launch.argv, "tracing", lambda: False)


def pytest_configure(config: pytest.Config) -> None:
    # A suite started from a background job of a non-interactive shell (a
    # CI script, `cmd &`, nohup) inherits SIGINT ignored, and so would every
    # program it starts: the tests that press Ctrl-C on one would see it do
    # nothing. A handler of our own is reset to the default at exec, so each
    # child starts with Ctrl-C working, as at a terminal.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


# What a test needs decides its lane: `make check` runs the tests that start
# no binary, server or cluster (`-m "not e2e and not stores and not compat
# and not ray"`); `make test` runs everything.
_NEEDS_BINARY = frozenset({"cli_path", "make_options"})
_NEEDS_SERVER = frozenset({"postgres_server", "redis_server", "s3_server"})
_NEEDS_OFFICIAL = frozenset({"official_python", "official_examples", "twins", "official"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & _NEEDS_BINARY:
            item.add_marker(pytest.mark.e2e)
        if fixtures & _NEEDS_SERVER:
            item.add_marker(pytest.mark.stores)
        if fixtures & _NEEDS_OFFICIAL:
            item.add_marker(pytest.mark.compat)  # the official package's venv (make official)


@pytest.fixture(autouse=True)
def _private_spool(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    # What a store did not take is spooled under the user cache: never the
    # real one, and never one another test reads.
    monkeypatch.setenv("CLAUDE_WRAP_SPOOL_DIR", str(tmp_path_factory.mktemp("spool")))


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def cli_path() -> str:
    """The verified binary (`make test` fetches it first)."""
    from claude_wrap import CLINotFoundError, find_binary

    try:
        return str(find_binary())
    except CLINotFoundError as exc:  # pragma: no cover - set-up problem, not a test result
        pytest.fail(f"end-to-end tests need the pinned binary: {exc}")


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "work dir ü"  # spaces and non-ASCII on purpose
    path.mkdir()
    return path


@pytest.fixture
def make_options(scripted_model: Any, tmp_path: Path, workdir: Path, cli_path: str) -> Callable[..., Any]:
    """Build ClaudeAgentOptions that point the real binary at the scripted model."""
    from claude_wrap import ClaudeAgentOptions

    def make(**overrides: Any) -> Any:
        fields: dict[str, Any] = {
            "env": scripted_model.env(tmp_path / "home"),
            "cwd": workdir,
            "setting_sources": [],
        }
        fields.update(overrides)
        return ClaudeAgentOptions(**fields)

    return make
