"""pytest fixtures for the scripted-model test kit (registered as a pytest11 plugin).

pytest imports this module at startup in every project that has claude_wrap
installed, so it imports only stdlib and pytest at the top; the kit itself
is imported when a fixture is first used.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from claude_wrap.testing._server import ScriptedModel

__all__ = ["claude_env", "claude_environ", "scripted_model"]

STRICT_MARKER = "scripted_strict"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{STRICT_MARKER}: fail the test at its end if a scripted reply was never used, or the model was "
        "asked something the script had no reply for (ScriptedModel.check_script)",
    )


@pytest.fixture
def scripted_model(request: pytest.FixtureRequest) -> Iterator[ScriptedModel]:
    """A started `ScriptedModel` with an empty script, closed after the test.

    The test fails at teardown if the server itself hit an error (for
    example a `Reply.match_if` predicate raised), since the binary would
    only have seen a dropped connection; and, for a test marked
    ``@pytest.mark.scripted_strict``, if the script and the run did not
    meet (`ScriptedModel.check_script`).
    """
    from claude_wrap.testing._server import ScriptedModel

    with ScriptedModel() as model:
        yield model
    if model.errors:
        pytest.fail("ScriptedModel server errors:\n" + "\n".join(model.errors))
    if request.node.get_closest_marker(STRICT_MARKER) is not None:
        try:
            model.check_script()
        except AssertionError as exc:
            pytest.fail(f"the script and the run did not meet: {exc}")


@pytest.fixture
def claude_env(scripted_model: ScriptedModel, tmp_path: Path) -> dict[str, str]:
    """The binary's environment for `scripted_model`, with HOME at ``tmp_path / "home"``."""
    return scripted_model.env(tmp_path / "home")


@pytest.fixture
def claude_environ(claude_env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """`claude_env` set in ``os.environ`` for the test's duration, for an
    application that builds its own ``ClaudeAgentOptions`` (without
    ``env=``): every binary it starts meanwhile talks to `scripted_model`.

    HOME moves to the test's folder, so the binary cache is pinned where it
    was (``CLAUDE_WRAP_CACHE_DIR``), and session stores spool into the test's
    folder (``CLAUDE_WRAP_SPOOL_DIR``). Undone after the test; returns the
    variables it set."""
    from claude_wrap._cache import ENV_CACHE_DIR, cache_root
    from claude_wrap._sessions.spool import SPOOL_ENV

    changes = {**claude_env, ENV_CACHE_DIR: str(cache_root()), SPOOL_ENV: str(tmp_path / "spool")}
    for name, value in changes.items():
        monkeypatch.setenv(name, value)
    return changes
