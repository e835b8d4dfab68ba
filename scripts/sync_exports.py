"""Rewrite the generated parts of the lazy export modules from their ``_EXPORTS``.

``claude_wrap/__init__.py`` maps each public name to the private module that
defines it (``_EXPORTS``); ``claude_wrap/types.py`` lists a subset of those
names in its ``__all__``. Type checkers and ``from claude_wrap import *``
need more spellings of the same lists: the package's literal ``__all__`` and,
in both files, imports under ``TYPE_CHECKING``. This script writes them
between the ``# BEGIN generated`` / ``# END generated`` markers, so adding a
name means one line in ``_EXPORTS`` (and in ``types.py``'s ``__all__`` for a
type) and a run of::

    python scripts/sync_exports.py          # rewrite
    python scripts/sync_exports.py --check  # exit 1 if out of date (the tests do this)
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = {"claude_wrap": ROOT / "claude_wrap" / "__init__.py", "claude_wrap.types": ROOT / "claude_wrap" / "types.py"}
# The package's __all__ is written from _EXPORTS; types.py writes its own.
_BLOCKS = {"claude_wrap": ("all", "imports"), "claude_wrap.types": ("imports",)}
_BLOCK = re.compile(r"(?P<indent>[ ]*)# BEGIN generated: (?P<what>\w+)\n.*?# END generated\n", re.S)


def _all_block(names: list[str], extra: list[str], indent: str) -> str:
    lines = [f"{indent}__all__ = ["]
    lines += [f'{indent}    "{name}",' for name in sorted([*names, *extra])]
    lines.append(f"{indent}]")
    return "\n".join(lines) + "\n"


def _imports_block(exports: dict[str, str], indent: str) -> str:
    by_module: dict[str, list[str]] = defaultdict(list)
    for name, module in exports.items():
        by_module[module].append(name)
    lines = []
    for module in sorted(by_module):
        names = sorted(by_module[module])
        lines.append(f"{indent}from claude_wrap.{module} import (")
        lines += [f"{indent}    {name} as {name}," for name in names]
        lines.append(f"{indent})")
    return "\n".join(lines) + "\n"


def _literal(text: str, name: str) -> object:
    for node in ast.parse(text).body:
        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(target, ast.Name) and target.id == name and node.value is not None:
            try:
                return ast.literal_eval(node.value)
            except ValueError:
                return None
    return None


def exports_of(path: Path) -> dict[str, str]:
    """``_EXPORTS`` as written in ``path`` (read, not imported: the file may
    be half-edited); ``types.py`` lists its names in ``__all__`` and borrows
    the modules from the package's map."""
    text = path.read_text(encoding="utf-8")
    exports = _literal(text, "_EXPORTS")
    if isinstance(exports, dict):
        return exports
    package = exports_of(MODULES["claude_wrap"])
    names = _literal(text, "__all__")
    if not isinstance(names, list):
        raise SystemExit(f"{path}: needs a literal _EXPORTS dict or __all__ list")
    missing = [n for n in names if n not in package]
    if missing:
        raise SystemExit(f"{path}: names not exported by claude_wrap: {', '.join(missing)}")
    return {n: package[n] for n in names}


def render(module_name: str, path: Path) -> str:
    exports = exports_of(path)
    extra = ["__version__"] if module_name == "claude_wrap" else []
    text = path.read_text(encoding="utf-8")

    def block(match: re.Match[str]) -> str:
        indent, what = match["indent"], match["what"]
        body = _all_block(list(exports), extra, indent) if what == "all" else _imports_block(exports, indent)
        return f"{indent}# BEGIN generated: {what}\n{body}{indent}# END generated\n"

    new, count = _BLOCK.subn(block, text)
    if count != len(_BLOCKS[module_name]):
        raise SystemExit(f"{path}: expected the generated blocks {_BLOCKS[module_name]}, found {count}")
    return new


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report files that are out of date")
    args = parser.parse_args()
    stale = []
    for name, path in MODULES.items():
        new = render(name, path)
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
