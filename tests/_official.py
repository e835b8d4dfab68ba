"""The official package, for tests that compare against it.

It lives in a virtualenv of its own (never next to claude_wrap):
``$CLAUDE_WRAP_OFFICIAL_PYTHON`` names its interpreter, else
``build/official-venv/bin/python`` in the repository.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def official_python() -> Path:
    """The interpreter that has ``claude_agent_sdk`` installed."""
    configured = os.environ.get("CLAUDE_WRAP_OFFICIAL_PYTHON")
    path = Path(configured) if configured else ROOT / "build" / "official-venv" / "bin" / "python"
    if not path.is_file():
        pytest.fail(
            f"the official package's interpreter is missing ({path}); install claude-agent-sdk into "
            "build/official-venv or set CLAUDE_WRAP_OFFICIAL_PYTHON"
        )
    return path


def run_official(script: str, *args: str, env: dict[str, str] | None = None, timeout: float = 120) -> Any:
    """Run ``script`` under the official package; it prints one JSON value."""
    proc = subprocess.run(
        [str(official_python()), "-c", script, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])
