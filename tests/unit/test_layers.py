"""The package's layers, read from the source: no import points up, none loops.

Every ``import`` of a ``claude_wrap`` module counts, wherever it stands: at
module level, inside a function (a lazy import is still a dependency) and
under ``TYPE_CHECKING`` (an annotation is one too). From the bottom up:

0. the foundation: ``_exceptions``, ``_lazy``, ``_distribution``,
   ``_callbacks``, ``_cache``, ``_version``;
1. three subsystems that know nothing of each other: ``_process`` (the
   binary as a process), ``_mcp`` (in-process MCP servers) and ``_sessions``
   (transcripts on disk and in stores);
2. ``_wire``: what travels on the pipes, as data;
3. ``_launch``: options into a command line, an environment and the
   ``initialize`` request;
4. ``_run``: one live binary;
5. the public surfaces: the package itself, ``types``, ``query``, the
   client, the pool, ``sync``, the command line (any other top-level module
   lands here too);
6. ``testing``.

A module may import its own group and anything on a lower level. No module
may load, directly or through others, a module that loads it back; an
import under ``TYPE_CHECKING`` loads nothing, so it may name a type from
its own group whose module imports this one (``argv`` takes the
``ClaudeAgentOptions`` whose ``explain()`` calls into it). The
subpackages' ``__init__`` files import nothing, so loading one costs nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "claude_wrap"

FOUNDATION = frozenset({"_exceptions", "_lazy", "_distribution", "_callbacks", "_cache", "_version"})
SUBPACKAGES = {"_process": 1, "_mcp": 1, "_sessions": 1, "_wire": 2, "_launch": 3, "_run": 4, "testing": 6}
SURFACE = 5


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = ["claude_wrap", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def group(module: str) -> tuple[int, str]:
    """The level of ``module`` and the group it belongs to."""
    parts = module.split(".")
    first = parts[1] if len(parts) > 1 else ""
    if first in SUBPACKAGES:
        return SUBPACKAGES[first], first
    if first in FOUNDATION:
        return 0, "foundation"
    return SURFACE, "surface"


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not MODULES[module].name == "__init__.py":
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _type_only(tree: ast.Module) -> set[ast.AST]:
    """The import statements under ``if TYPE_CHECKING:``."""
    found: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            found.update(n for stmt in node.body for n in ast.walk(stmt))
    return found


def imports_of(module: str, *, types: bool = True) -> Iterator[str]:
    """Every ``claude_wrap`` module ``module`` imports, anywhere in its source
    (without ``types``: only the imports that run)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    skipped = set() if types else _type_only(tree)
    for node in ast.walk(tree):
        if node in skipped:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node)
            # ``from claude_wrap._wire import messages`` imports a module;
            # ``from claude_wrap._wire.messages import X`` a name from one.
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name.startswith("claude_wrap") and name != module:
                yield name


GRAPH = {module: sorted(set(imports_of(module))) for module in MODULES}
LOADS = {module: sorted(set(imports_of(module, types=False))) for module in MODULES}


def test_no_import_points_up_or_across() -> None:
    wrong = []
    for module, targets in GRAPH.items():
        level, own = group(module)
        for target in targets:
            their_level, theirs = group(target)
            if their_level > level or (their_level == level and theirs != own):
                wrong.append(f"{module} -> {target}")
    assert not wrong, "imports against the layer order:\n  " + "\n  ".join(wrong)


def _cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in LOADS[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in GRAPH:
        if node not in index:
            visit(node)
    return found


def test_no_import_loops() -> None:
    loops = _cycles()
    assert not loops, "import loops:\n  " + "\n  ".join(" <-> ".join(c) for c in loops)


def test_subpackages_say_what_they_own_and_import_nothing() -> None:
    for name in SUBPACKAGES:
        if name == "testing":
            continue  # public: it exports the scripted model
        tree = ast.parse((ROOT / name / "__init__.py").read_text(encoding="utf-8"))
        doc = ast.get_docstring(tree)
        assert doc and "Owns:" in doc and "May import:" in doc, name
        assert len(tree.body) == 1, f"{name}/__init__.py holds more than its docstring"


def test_every_import_names_a_module_that_exists() -> None:
    missing = []
    for module in MODULES:
        for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [_resolve(module, node)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            missing += [f"{module}: {n}" for n in names if n.startswith("claude_wrap") and n not in MODULES]
    assert not missing, "imports of modules that do not exist:\n  " + "\n  ".join(missing)


def test_every_module_is_read_by_this_test() -> None:
    # A sanity check on the parser above: the package's known edges appear,
    # lazy and type-only ones included.
    assert "claude_wrap._wire.messages" in LOADS["claude_wrap._wire.codec"]
    assert "claude_wrap._launch.explain" in LOADS["claude_wrap._launch.options"]  # inside explain()
    assert "claude_wrap._launch.options" in GRAPH["claude_wrap._launch.argv"]
    assert "claude_wrap._launch.options" not in LOADS["claude_wrap._launch.argv"]
    assert "claude_wrap._launch.options" in GRAPH["claude_wrap._run.connect"]
    assert all(
        group(m)[1] == "surface" for m in ("claude_wrap", "claude_wrap._query", "claude_wrap.sync", "claude_wrap.cli")
    )
