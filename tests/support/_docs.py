"""The Python in README.md and docs/: its code blocks, their markers, and
how a user's script is run against the scripted model.

A ```python block runs as it is written, as a script of its own (top-level
``await`` / ``async for`` / ``async with`` allowed: such fragments show code
that runs inside an ``async def``), in a working directory with a few files,
with the binary pointed at a ``ScriptedModel`` through the environment, as a
user's program would be. HTML comments right above the fence change that:

``<!-- docs-test: model [...] -->``
    the scripted model's replies, as a JSON script (``load_script``'s format);
    every one must be used up by the block;
``<!-- docs-test: prints TEXT -->``
    what the block must print (a line of its output contains TEXT);
``<!-- docs-test: compile-only REASON -->``
    the block cannot run offline (REASON says why): it is compiled and its
    imports resolved, never run.

A block whose whole body is a snippet include (``--8<-- "examples/x.py"``)
shows a file of ``examples/``, which the example tests run.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
EXAMPLES = ROOT / "examples"

_MARK = re.compile(r"<!-- docs-test: (model|prints|compile-only)\b\s*(.*?)\s*-->")

FRAGMENT = "# A fragment: it runs inside an `async def` (see Getting started for a whole program)."
"""The first line of a block that awaits at its top level: pasted into a
file as it is, it would not run (a SyntaxError), so it says so."""
_SNIPPET = re.compile(r'--8<-- "([^"]+)"')

# Calls that start the binary: a block that makes one must reach the model.
SPAWNING = frozenset({"query", "ClaudeSDKClient", "ClaudePool", "prewarm"})

# What the working directory of a run block holds.
PROJECT_FILES = {
    "setup.py": "from setuptools import setup\n\nsetup(name='demo', version='0.1')\n",
    "app.py": "def main() -> None:\n    print('hello')\n",
    "README.md": "# Demo\n\nA small project.\n",
    "notes.txt": "Shopping list\n- coffee\n- bagels\n",
}


def pages() -> list[Path]:
    """README.md and every page of the docs site."""
    return [README, *sorted(DOCS.rglob("*.md"))]


@dataclasses.dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the first line of code
    source: str
    replies: Any = None  # the parsed JSON script, or None
    prints: tuple[str, ...] = ()
    compile_only: str | None = None  # the reason
    snippet: Path | None = None  # the file a snippet-only block shows

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT).as_posix()}:{self.line}"

    @property
    def runs(self) -> bool:
        return self.compile_only is None and self.snippet is None

    def tree(self) -> ast.Module:
        flags = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
        code = compile(self.source, str(self), "exec", flags=flags, dont_inherit=True)
        assert isinstance(code, ast.Module)
        return code

    def called_names(self) -> set[str]:
        names = set()
        for node in ast.walk(self.tree()):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name):
                    names.add(func.id)
                elif isinstance(func, ast.Attribute):
                    names.add(func.attr)
        return names


def claude_wrap_imports(tree: ast.AST) -> list[str]:
    """What of claude_wrap the code imports, as dotted names (``claude_wrap.sync.query``)."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "claude_wrap":
            names += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names if alias.name.split(".")[0] == "claude_wrap"]
    return names


def private(name: str) -> bool:
    return any(part.startswith("_") for part in name.split("."))


def _block(page: Path, lines: list[str], fence: int, end: int) -> Block:
    body = lines[fence + 1 : end]
    fields: dict[str, Any] = {}
    i = fence - 1
    while i >= 0 and lines[i].startswith("<!--"):
        mark = _MARK.fullmatch(lines[i].strip())
        assert mark is not None, f"{page.name}:{i + 1}: unknown marker {lines[i]!r}"
        kind, arg = mark.groups()
        if kind == "model":
            fields["replies"] = json.loads(arg)
        elif kind == "prints":
            fields["prints"] = (arg, *fields.get("prints", ()))
        else:
            assert arg, f"{page.name}:{i + 1}: compile-only needs a reason"
            fields["compile_only"] = arg
        i -= 1
    snippet = _SNIPPET.fullmatch(body[0].strip()) if len(body) == 1 else None
    if snippet is not None:
        fields["snippet"] = ROOT / snippet[1]
        source = fields["snippet"].read_text(encoding="utf-8")
    else:
        source = "\n".join(body) + "\n"
    return Block(page, fence + 2, source, **fields)


def blocks(page: Path) -> list[Block]:
    """The ```python blocks of ``page``, in order."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            assert lines[i] == "```python", f"{page.name}:{i + 1}: an indented python block would go untested"
            end = lines.index("```", i + 1)
            found.append(_block(page, lines, i, end))
            i = end
        i += 1
    return found


def all_blocks() -> list[Block]:
    return [block for page in pages() for block in blocks(page)]


# Runs a block as a script: top-level await allowed, its coroutine run by asyncio.
_RUNNER = """\
import ast, asyncio, inspect, sys
path, name = sys.argv[1], sys.argv[2]
code = compile(open(path, encoding="utf-8").read(), name, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
result = eval(code, {"__name__": "__main__"})
if inspect.iscoroutine(result):
    asyncio.run(result)
"""


def outer_env() -> dict[str, str]:
    """This process's environment without what pytest sets or reads
    (PYTEST_ADDOPTS, the xdist worker's name): a pytest run inside a test
    sees the options of its own project, not the ones this suite was given."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}


def user_env(model_env: dict[str, str], cli_path: str, **extra: str) -> dict[str, str]:
    """The environment of a user's script pointed at the scripted model:
    nothing of this machine's own Claude set-up, this checkout's claude_wrap,
    and the binary named (the cache is under the real HOME)."""
    env = {k: v for k, v in outer_env().items() if not k.startswith(("ANTHROPIC_", "CLAUDE_"))}
    path = env.get("PYTHONPATH")
    env.update(model_env)
    env.update(PYTHONPATH=str(ROOT) if not path else f"{ROOT}{os.pathsep}{path}", CLAUDE_WRAP_CLI=cli_path)
    env.update(extra)
    return env


def run_python(*args: str, cwd: Path, env: dict[str, str], timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` as a user runs it, output captured (``timeout``: a hang guard)."""
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def run_block(block: Block, workdir: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``block`` as a script in ``workdir``."""
    script = workdir.parent / "block.py"
    script.write_text(block.source, encoding="utf-8")
    return run_python("-c", _RUNNER, str(script), str(block), cwd=workdir, env=env)


def make_project(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for name, text in PROJECT_FILES.items():
        (path / name).write_text(text, encoding="utf-8")
    return path
