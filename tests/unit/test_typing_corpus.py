"""User scripts written as the docs teach (``tests/typing/``) type-check
strictly with mypy and pyright, against this checkout; and ``help()`` and
``inspect.signature()`` show what a public class takes."""

from __future__ import annotations

import dataclasses
import inspect
import os
import pydoc
import subprocess
import sys
from pathlib import Path

import pytest

import claude_wrap

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "typing"
SCRIPTS = sorted(CORPUS.glob("*.py"))


def test_the_corpus_covers_what_the_readme_teaches() -> None:
    names = {path.stem for path in SCRIPTS}
    assert {"query_loop", "hooks", "tools", "client", "sync_script", "switched_import"} <= names
    hooks = (CORPUS / "hooks.py").read_text(encoding="utf-8")
    assert "input_data: PreToolUseHookInput" in hooks  # a hook typed for its own event
    assert "ToolAnnotations(readOnlyHint=True)" in (CORPUS / "tools.py").read_text(encoding="utf-8")


def test_mypy_strict_accepts_the_corpus() -> None:
    env = {**os.environ, "MYPYPATH": str(ROOT)}  # this checkout's claude_wrap, not an installed copy
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-version", "3.10", *map(str, SCRIPTS)],
        capture_output=True,
        text=True,
        cwd=CORPUS,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_pyright_strict_accepts_the_corpus() -> None:
    # pyright (dev extra) runs its npm package with the node on PATH,
    # fetched through npm on first use.
    proc = subprocess.run(
        [sys.executable, "-m", "pyright", "--pythonpath", sys.executable, "-p", str(CORPUS / "pyrightconfig.json")],
        capture_output=True,
        text=True,
        cwd=CORPUS,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 errors" in proc.stdout


def _public_dataclasses() -> list[str]:
    return [name for name in claude_wrap.__all__ if dataclasses.is_dataclass(getattr(claude_wrap, name))]


@pytest.mark.parametrize("name", _public_dataclasses())
def test_signature_and_help_show_the_fields(name: str) -> None:
    cls = getattr(claude_wrap, name)
    fields = [f.name for f in dataclasses.fields(cls) if f.init]
    params = list(inspect.signature(cls).parameters)
    assert params[: len(fields)] == fields
    page = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    assert f"in module {cls.__module__}" in page.splitlines()[0] and not cls.__module__.startswith("claude_wrap._")
    assert all(field in page for field in fields)


def test_tool_annotations_signature_shows_both_spellings_hints() -> None:
    params = inspect.signature(claude_wrap.ToolAnnotations).parameters
    assert {"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} <= set(params)


def test_pyright_knows_the_type_of_every_public_symbol() -> None:
    # What a user's editor and type checker see of the installed package:
    # every exported name with a known type, none left to inference.
    import json

    env = {
        **os.environ,
        "VIRTUAL_ENV": sys.prefix,
        "PATH": f"{Path(sys.prefix) / 'bin'}{os.pathsep}{os.environ['PATH']}",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "pyright", "--verifytypes", "claude_wrap", "--ignoreexternal", "--outputjson"],
        capture_output=True,
        text=True,
        cwd=CORPUS,
        env=env,
        timeout=600,
    )
    report = json.loads(proc.stdout)["typeCompleteness"]
    assert report["packageRootDirectory"] == str(ROOT / "claude_wrap"), "pyright found another claude_wrap"
    unknown = [
        f"{s['name']}: {' / '.join(d['message'] for d in s['diagnostics'])}"
        for s in report["symbols"]
        if s["isExported"] and not s["isTypeKnown"]
    ]
    assert unknown == []
    assert report["completenessScore"] == 1
