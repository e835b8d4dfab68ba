"""Run one program on the official ``claude-agent-sdk`` and on claude_wrap.

The official package (a dev-time tool, never a dependency) lives in its own
virtualenv, ``build/official-venv`` (``make official`` makes it). ``run_official`` runs a script with that venv's own
interpreter. ``run``/``run_both`` run a program in a child process of our interpreter with
that venv's site-packages appended to ``sys.path``: the official package
comes from there, everything else from ours, so the same program can also
use our stores. ``sdk`` in the program is the package under test; ``emit``
prints a value as normalized JSON (dataclasses with their class name,
exceptions as their class, MRO names and ``str()``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("claude_agent_sdk", "claude_wrap")

_PRELUDE = r'''
import dataclasses, importlib, json, sys
sys.path.append(sys.argv[1])
sdk = importlib.import_module(sys.argv[2])
args = json.loads(sys.stdin.read())

def norm(value):
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {"__class__": type(value).__name__}
        for field in dataclasses.fields(value):
            out[field.name] = norm(getattr(value, field.name))
        return out
    if isinstance(value, BaseException):
        return {"raised": type(value).__name__, "mro": [c.__name__ for c in type(value).__mro__], "message": str(value)}
    if isinstance(value, dict):
        return {str(k): norm(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [norm(v) for v in value]
    return value

def attempt(fn, *a, **kw):
    """fn's result, or the exception it raised (either normalized)."""
    try:
        return norm(fn(*a, **kw))
    except Exception as exc:
        return norm(exc)

async def attempt_async(fn, *a, **kw):
    try:
        return norm(await fn(*a, **kw))
    except Exception as exc:
        return norm(exc)

def emit(value):
    print("\n@@RESULT@@" + json.dumps(norm(value), default=repr))
'''


def official_venv() -> Path:
    """The official package's virtualenv (``make official`` creates it)."""
    return ROOT / "build" / "official-venv"


def official_python() -> Path:
    """The interpreter that has ``claude_agent_sdk`` installed.

    Fails, never skips: a comparison that silently does not run proves nothing.
    """
    path = official_venv() / "bin" / "python"
    if not path.is_file():
        pytest.fail(f"the official package's interpreter is missing ({path}); run `make official`")
    return path


def official_site_packages() -> Path:
    """The official package's site-packages (for programs run by our interpreter)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = official_venv() / "lib" / version / "site-packages"
    if not (site / "claude_agent_sdk").is_dir():
        pytest.fail(
            f"the official claude-agent-sdk is not installed in {official_venv()} for {version}; run `make official`"
        )
    return site


def run_official(script: str, *args: str, env: dict[str, str] | None = None, timeout: float = 120) -> Any:
    """Run ``script`` with the official package's own interpreter; it prints one JSON value."""
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


def run(
    package: str, program: str, args: Any = None, env: Mapping[str, str] | None = None, timeout: float = 120
) -> Any:
    """Run ``program`` with ``sdk`` = ``package``; what it ``emit``-ted."""
    done = subprocess.run(
        [sys.executable, "-c", _PRELUDE + program, str(official_site_packages()), package],
        input=json.dumps(args),
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    marker = "\n@@RESULT@@"
    if done.returncode != 0 or marker not in done.stdout:
        raise AssertionError(f"{package} run failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.rsplit(marker, 1)[1])


def run_both(program: str, args: Any = None, env: Mapping[str, str] | None = None, **kw: Any) -> tuple[Any, Any]:
    """``(official result, ours)`` of one program."""
    return run(PACKAGES[0], program, args, env, **kw), run(PACKAGES[1], program, args, env, **kw)


# A store written to the official protocol with only its required methods,
# for programs to use.
MINIMAL_STORE = r'''
class Minimal:
    """Only what the protocol requires."""
    def __init__(self):
        self.data = {}
    async def append(self, key, entries):
        if entries:
            self.data.setdefault((key["project_key"], key["session_id"], key.get("subpath")), []).extend(entries)
    async def load(self, key):
        got = self.data.get((key["project_key"], key["session_id"], key.get("subpath")))
        return None if not got else list(got)
'''
