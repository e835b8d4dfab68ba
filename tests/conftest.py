"""Shared fixtures: both anyio backends, the pinned binary, scripted options."""

from __future__ import annotations

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
