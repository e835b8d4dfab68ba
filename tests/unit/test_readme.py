"""README.md stays honest: its Python examples compile, the names they import
exist, the examples marked safe run, and the options table lists every option.

A ```python block preceded by the line ``<!-- readme-test: exec -->`` is
self-contained and starts nothing, so it is executed. Every other block is
compiled (top-level ``await``/``async for``/``async with`` allowed: the
fragments show code that runs inside an ``async def``) and its
``from claude_wrap... import X`` names are resolved, but it is never run:
those examples spawn the binary.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import importlib
import io
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
EXEC_MARK = "<!-- readme-test: exec -->"

# Calls that would start the binary (or fetch it): an executed block must make none.
_SPAWNING = {"query", "ClaudeSDKClient", "ClaudePool", "prewarm", "fetch_binary", "binary_info", "run", "open_session"}


@dataclasses.dataclass(frozen=True)
class Block:
    line: int
    source: str
    execute: bool

    def __str__(self) -> str:
        return f"README.md:{self.line}"


def _blocks() -> list[Block]:
    lines = README.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            start = i + 1
            end = start
            while lines[end].strip() != "```":
                end += 1
            marked = i > 0 and lines[i - 1].strip() == EXEC_MARK
            blocks.append(Block(start + 1, "\n".join(lines[start:end]) + "\n", marked))
            i = end
        i += 1
    return blocks


BLOCKS = _blocks()


def _compile(block: Block) -> ast.Module:
    code = compile(
        block.source, str(block), "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True
    )
    assert isinstance(code, ast.Module)
    return code


def test_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 10
    assert sum(b.execute for b in BLOCKS) >= 4


@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_example_compiles(block: Block) -> None:
    tree = _compile(block)
    compile(tree, str(block), "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)


@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_claude_wrap_imports_resolve(block: Block) -> None:
    for node in ast.walk(_compile(block)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "claude_wrap":
            assert node.module is not None
            module = importlib.import_module(node.module)
            for alias in node.names:
                if hasattr(module, alias.name):
                    continue
                # ``from claude_wrap import testing`` names a submodule.
                importlib.import_module(f"{node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "claude_wrap":
                    importlib.import_module(alias.name)


def _called_names(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                names.add(func.id)
            elif isinstance(func, ast.Attribute):
                names.add(func.attr)
    return names


EXECUTED = [b for b in BLOCKS if b.execute]


@pytest.mark.parametrize("block", EXECUTED, ids=str)
def test_marked_example_runs(block: Block) -> None:
    # Without the top-level-await flag: a block that awaits at module level fails here.
    tree = compile(block.source, str(block), "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    spawning = _called_names(tree) & _SPAWNING
    assert not spawning, f"{block} is marked to run but calls {sorted(spawning)}"
    namespace: dict[str, object] = {"__name__": "readme_example"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(tree, str(block), "exec", dont_inherit=True), namespace)  # noqa: S102 - the README's own examples


def test_explain_example_matches_its_output() -> None:
    """The argv and ``initialize`` shown under the explain() example are what it prints."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## `explain()`") :]
    code = next(b for b in EXECUTED if "explain()" in b.source)
    shown = re.search(r"```text\n(.*?)```", section, re.DOTALL)
    assert shown is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.source, str(code), "exec", dont_inherit=True), {"__name__": "readme_example"})  # noqa: S102

    def parts(printed: str) -> tuple[list[str], str, str]:
        fields = dict(line.split(": ", 1) for line in printed.splitlines() if not line.startswith(" ") and ": " in line)
        return json.loads(fields["argv"])[1:], fields["cwd"], fields["initialize"]

    assert parts(out.getvalue()) == parts(shown.group(1))


def test_options_table_lists_every_option_once() -> None:
    from claude_wrap import ClaudeAgentOptions

    text = README.read_text(encoding="utf-8")
    start = text.index("## All options")
    table = text[start : text.index("\n## ", start + 1)]
    rows = re.findall(r"^\| `(\w+)`", table, re.MULTILINE)
    fields = [f.name for f in dataclasses.fields(ClaudeAgentOptions)]
    assert sorted(rows) == sorted(fields)


def test_scripts_and_make_targets_named_in_readme_exist() -> None:
    text = README.read_text(encoding="utf-8")
    for script in set(re.findall(r"scripts/(\w+\.(?:py|sh))", text)):
        assert (ROOT / "scripts" / script).is_file(), script
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([\w-]+):", makefile, re.MULTILINE))
    for target in set(re.findall(r"`make (\w+)", text)) | set(re.findall(r"^make (\w+)", text, re.MULTILINE)):
        assert target in targets, target
