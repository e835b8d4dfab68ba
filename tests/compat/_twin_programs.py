"""The programs the harness runs: the official examples and our own.

* ``programs/<name>.py`` with ``programs/<name>.json``: our programs, each
  with its spec beside it;
* ``examples/<file>.<unit>.json``: a spec for one unit of one of the
  official package's published examples (the code itself comes from the
  pinned sdist at test time, see scripts/official_venv.py).

A spec is JSON data (see README.md in this directory): the scripted model's
replies and how to start the program. `example_units` lists what each
example file offers, so an example added upstream fails the check in
test_twins.py until it has a spec.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from _twin import Program

HERE = Path(__file__).resolve().parent
OWN = HERE / "programs"
EXAMPLE_SPECS = HERE / "examples"
ROOT = HERE.parent.parent


_KEEP_RUNS = 3


def runs_root(name: str | None = None) -> Path:
    """A fresh directory for runs (``name``: replaces the last one of that name).

    In claude_wrap's user cache directory (``twins/``): outside any git
    checkout and any project the binary would read settings or CLAUDE.md
    from, and not under /tmp/, which one official example treats specially.
    Runs outlive the test session there, for a look after a failure.
    """
    from claude_wrap._process.binary import cache_root

    base = cache_root() / "twins"
    base.mkdir(parents=True, exist_ok=True)
    if name is None:
        # A full run keeps some 70 MB of transcripts: keep the last few only.
        for old in sorted(base.glob("run-*"), key=lambda p: p.stat().st_mtime)[:-_KEEP_RUNS]:
            shutil.rmtree(old, ignore_errors=True)
        return Path(tempfile.mkdtemp(dir=base, prefix="run-"))
    # One per checkout, so suites of two checkouts can run side by side.
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]
    root = base / f"{name}-{checkout}"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    return root


def official_venv() -> ModuleType:
    """scripts/official_venv.py, where the official package's version is pinned."""
    spec = importlib.util.spec_from_file_location("official_venv", ROOT / "scripts" / "official_venv.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class Entry:
    """A program known from its spec alone (collection needs nothing else).

    ``adapter``: the unit is a SessionStore adapter module for users to
    copy, not a program; this names its backend, and test_store_adapters.py
    runs it on both packages instead of the harness.
    """

    name: str
    spec_path: Path
    adapter: str | None = None


def _spec(path: Path) -> dict[str, Any]:
    spec = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(spec, dict):
        raise ValueError(f"{path.name}: a spec is a JSON object")
    return spec


def entries() -> list[Entry]:
    """Every program: the official examples' specs first, then our programs."""
    found = []
    for path in sorted(EXAMPLE_SPECS.glob("*.json")):
        spec = _spec(path)
        name = f"example-{_example_stem(spec)}"
        if path.stem != name.removeprefix("example-"):
            raise ValueError(f"{path.name} should be named {name.removeprefix('example-')}.json")
        if "adapter" in spec and set(spec) - _ADAPTER_KEYS:
            raise ValueError(f"{path.name}: an adapter's spec has only {sorted(_ADAPTER_KEYS)}")
        found.append(Entry(name, path, spec.get("adapter")))
    for source in sorted(OWN.glob("*.py")):
        path = source.with_suffix(".json")
        if not path.exists():
            raise FileNotFoundError(f"{source.name} has no spec {path.name}")
        _spec(path)
        found.append(Entry(f"own-{source.stem}", path))
    return found


_ADAPTER_KEYS = {"example", "unit", "adapter", "about"}


def _example_stem(spec: dict[str, Any]) -> str:
    return f"{Path(spec['example']).with_suffix('').as_posix().replace('/', '.')}.{spec['unit']}"


def load(entry: Entry, examples: Path) -> Program:
    """The runnable program of ``entry``; examples come from ``examples`` (the sdist's)."""
    if entry.adapter is not None:
        raise ValueError(f"{entry.name} is a store adapter, not a program (see test_store_adapters.py)")
    spec = _spec(entry.spec_path)
    if entry.spec_path.parent == OWN:
        return Program.from_spec(entry.name, entry.spec_path.with_suffix(".py"), "programs", spec)
    relative = Path(spec.pop("example"))
    spec.pop("unit")
    copy = tuple(examples / c for c in spec.pop("copy", []))
    return Program.from_spec(
        entry.name, examples / relative, (Path("examples") / relative.parent).as_posix(), spec, copy=copy
    )


def _top_level_await(source: str) -> bool:
    try:
        compile(source, "<example>", "exec")
    except SyntaxError:
        compile(source, "<example>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        return True
    return False


def _units(source: str) -> set[str]:
    """What one example file offers to run.

    The argument-less async functions its ``main`` runs (called or listed,
    as hooks.py lists them for its command line); ``main`` when
    it runs none; ``script`` without a ``main``; ``cellN`` for a file of
    IPython cells (top-level ``await``).
    """
    if _top_level_await(source):
        from twin_runner import _cells  # the runner splits cells the same way

        return {f"cell{i}" for i in range(len(_cells(source)))}
    tree = ast.parse(source)
    functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    main = functions.get("main")
    if main is None:
        return {"script"}

    def is_example(name: str) -> bool:
        function = functions.get(name)
        return isinstance(function, ast.AsyncFunctionDef) and name != "main" and not function.args.args

    called = {node.id for node in ast.walk(main) if isinstance(node, ast.Name) and is_example(node.id)}
    return called or {"main"}


def example_units(examples: Path) -> dict[str, set[str]]:
    """Every example file (relative path) and the units it offers."""
    return {
        path.relative_to(examples).as_posix(): _units(path.read_text(encoding="utf-8"))
        for path in sorted(examples.rglob("*.py"))
        if path.name != "__init__.py"
    }
