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
5. the public surfaces, in tiers of their own, from the bottom up:
   ``_query`` and ``_client`` (side by side), ``_pool``, the package's
   names (``claude_wrap`` itself and ``types``), ``_fleet``, ``fleet``,
   ``sync``, the command line (``_cli``, ``cli``, ``__main__``); a new
   top-level module must be given its tier here;
6. ``testing``.

A module may import its own group and anything on a lower level or tier. No module
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
# The surfaces' tiers: top-level module ("" is the package) → (tier, group).
SURFACE_TIERS = {
    "_query": (0, "query"),
    "_client": (0, "client"),
    "_pool": (1, "pool"),
    "": (2, "names"),
    "types": (2, "names"),
    "_fleet": (3, "fleet machinery"),
    "fleet": (4, "fleet"),
    "sync": (5, "sync"),
    "_cli": (6, "command line"),
    "cli": (6, "command line"),
    "__main__": (6, "command line"),
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = ["claude_wrap", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def group(module: str) -> tuple[float, str]:
    """The level of ``module`` (a surface's tier a fraction above
    `SURFACE`) and the group it belongs to."""
    parts = module.split(".")
    first = parts[1] if len(parts) > 1 else ""
    if first in SUBPACKAGES:
        return SUBPACKAGES[first], first
    if first in FOUNDATION:
        return 0, "foundation"
    tier, name = SURFACE_TIERS.get(first, (-1, "a surface without a tier"))
    return SURFACE + tier / 10, name


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


def test_every_surface_module_has_a_tier() -> None:
    untiered = [m for m in MODULES if group(m)[1] == "a surface without a tier"]
    assert not untiered, "give these a tier in SURFACE_TIERS:\n  " + "\n  ".join(untiered)


def test_subpackages_say_what_they_own_and_import_nothing() -> None:
    for name in [*SUBPACKAGES, "_fleet"]:
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
    assert group("claude_wrap") == group("claude_wrap.types")
    tiers = ["claude_wrap._query", "claude_wrap._pool", "claude_wrap", "claude_wrap._fleet.batch"]
    tiers += ["claude_wrap.fleet", "claude_wrap.sync", "claude_wrap.cli"]
    assert [group(m)[0] for m in tiers] == sorted({group(m)[0] for m in tiers})
    assert group("claude_wrap._query")[0] == group("claude_wrap._client")[0] < group("claude_wrap._pool")[0]
