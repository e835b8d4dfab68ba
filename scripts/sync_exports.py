"""Write what type checkers need from the public surface listed in ``claude_wrap/__init__.py``.

The package lists its public names once, in ``_SURFACE`` (module → names;
the names after ``types:`` are the types ``claude_wrap.types`` offers too).
At run time each name is loaded on first use; type checkers need the names
as imports instead. This script writes them, with the literal ``__all__``,
between the ``# BEGIN generated`` / ``# END generated`` markers of the
``TYPE_CHECKING`` blocks of ``claude_wrap/__init__.py`` (every name) and
``claude_wrap/types.py`` (the types).

So adding a name means adding it to ``_SURFACE`` and a run of::

    python scripts/sync_exports.py          # rewrite
    python scripts/sync_exports.py --check  # exit 1 if out of date (the tests do this)
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import re
import sys
from collections import defaultdict
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "claude_wrap" / "__init__.py"
TYPES = ROOT / "claude_wrap" / "types.py"
LAZY = ROOT / "claude_wrap" / "_lazy.py"
_BLOCK = re.compile(r"(?P<indent>[ ]*)# BEGIN generated: (?P<what>\w+)\n.*?# END generated\n", re.S)


def _isort_key(name: str) -> tuple[int, str]:
    """Names in the order the import sorter (ruff's isort rules) keeps them:
    constants, then classes, then the rest, each ignoring case."""
    kind = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return kind, name.lower()


def _imports(exports: dict[str, str], indent: str) -> list[str]:
    by_module: dict[str, list[str]] = defaultdict(list)
    for name, module in exports.items():
        by_module[module].append(name)
    lines = []
    for module in sorted(by_module):
        names = sorted(by_module[module], key=_isort_key)
        lines.append(f"{indent}from claude_wrap.{module} import (")
        lines += [f"{indent}    {name} as {name}," for name in names]
        lines.append(f"{indent})")
    return lines


def _literal(text: str, name: str) -> object:
    for node in ast.parse(text).body:
        target = (
            node.target
            if isinstance(node, ast.AnnAssign)
            else node.targets[0]
            if isinstance(node, ast.Assign)
            else None
        )
        if isinstance(target, ast.Name) and target.id == name and node.value is not None:
            try:
                return ast.literal_eval(node.value)
            except ValueError:
                return None
    return None


def _surface_reader() -> ModuleType:
    """``claude_wrap/_lazy.py`` on its own: importing it through the package
    would run ``__init__.py``, which may be half-edited."""
    spec = importlib.util.spec_from_file_location("_surface_reader", LAZY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def package_surface() -> tuple[dict[str, str], list[str]]:
    """Public name → module, and the type names, from ``_SURFACE`` as
    written in the package (read, not imported)."""
    surface = _literal(PACKAGE.read_text(encoding="utf-8"), "_SURFACE")
    if not isinstance(surface, dict):
        raise SystemExit(f"{PACKAGE}: needs a literal _SURFACE dict")
    try:
        exports, types = _surface_reader().surface_names(surface)
    except ValueError as error:
        raise SystemExit(f"{PACKAGE}: {error}") from None
    return exports, types


def render(path: Path, exports: dict[str, str], public: list[str]) -> str:
    """``path`` with its generated block rewritten: the imports of ``exports``
    and the literal ``__all__`` (``public``, sorted)."""
    text = path.read_text(encoding="utf-8")

    def block(match: re.Match[str]) -> str:
        indent, what = match["indent"], match["what"]
        body = [
            *_imports(exports, indent),
            "",
            f"{indent}__all__ = [",
            *(f'{indent}    "{name}",' for name in sorted(public)),
            f"{indent}]",
        ]
        return f"{indent}# BEGIN generated: {what}\n" + "\n".join(body) + f"\n{indent}# END generated\n"

    new, count = _BLOCK.subn(block, text)
    if count != 1:
        raise SystemExit(f"{path}: expected one generated block, found {count}")
    return new


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report files that are out of date")
    args = parser.parse_args()
    exports, types = package_surface()
    outputs = {
        # __version__ is imported at the top of the package, not lazily.
        PACKAGE: render(PACKAGE, exports, [*exports, "__version__"]),
        TYPES: render(TYPES, {name: exports[name] for name in types}, types),
    }
    stale = []
    for path, new in outputs.items():
        if new != path.read_text(encoding="utf-8"):
            stale.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    if args.check and stale:
        print("out of date (run scripts/sync_exports.py):", *map(str, stale), sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
