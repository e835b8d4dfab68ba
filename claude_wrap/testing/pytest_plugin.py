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

__all__ = ["claude_env", "scripted_model"]


@pytest.fixture
def scripted_model() -> Iterator[ScriptedModel]:
    """A started `ScriptedModel` with an empty script, closed after the test.

    The test fails at teardown if the server itself hit an error (for
    example a `Reply.match_if` predicate raised), since the binary would
    only have seen a dropped connection.
    """
    from claude_wrap.testing._server import ScriptedModel

    with ScriptedModel() as model:
        yield model
    if model.errors:
        pytest.fail("ScriptedModel server errors:\n" + "\n".join(model.errors))


@pytest.fixture
def claude_env(scripted_model: ScriptedModel, tmp_path: Path) -> dict[str, str]:
    """The binary's environment for `scripted_model`, with HOME at ``tmp_path / "home"``."""
    return scripted_model.env(tmp_path / "home")
