"""Lazy package exports: each public name is imported on first use, and
presented as a member of the package that exports it.

Keeps ``import claude_wrap`` (and ``claude_wrap.testing``, which pytest
loads at start-up) cheap: anyio, msgspec and pydantic load only when a name
that needs them is first touched.

Public classes and functions are defined in private modules; ``publish``
sets their ``__module__`` to the package, so tracebacks, ``repr()`` and
``help()`` show ``claude_wrap.CLINotFoundError`` rather than the private
module. A class whose annotations are strings (``from __future__ import
annotations``) has them evaluated first, in its own module, because
``typing.get_type_hints``, dataclass consumers such as pydantic, and
msgspec look such strings up in the namespace of ``__module__``, which the
lazy package would not provide.
"""

from __future__ import annotations

import sys
from importlib import import_module

TYPE_CHECKING = False  # not typing's: importing typing would be most of ``import claude_wrap``
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from types import ModuleType
    from typing import Any

__all__ = ["TYPES_TAG", "lazy_exports", "publish", "surface_names"]

#: In a surface table entry, the names after this word are types: the
#: package exports them and ``claude_wrap.types`` offers them too.
TYPES_TAG = "types:"


def surface_names(surface: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """Read a surface table (module → its public names, space-separated):
    name → module for every name, and the names written after `TYPES_TAG`
    in their module's entry, sorted."""
    exports: dict[str, str] = {}
    types: list[str] = []
    for module, names in surface.items():
        is_type = False
        for name in names.split():
            if name == TYPES_TAG:
                is_type = True
                continue
            if name in exports:
                raise ValueError(f"{name} is listed under {exports[name]} and {module}")
            exports[name] = module
            if is_type:
                types.append(name)
    return exports, sorted(types)


def lazy_exports(
    package: str,
    exports: dict[str, str],
    namespace: dict[str, Any],
    public: list[str],
    *,
    base: str | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Module ``__getattr__`` and ``__dir__`` for the module ``package``,
    whose public name ``n`` lives in the module ``exports[n]`` of the package
    ``base`` (default: ``package`` itself), which the names are published as."""
    home = package if base is None else base
    unpublished = set(exports.values())

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{home}.{module}"), name)
        # Every module loaded by now, not only this one: the annotations
        # help() shows for this name often come from a module it imported.
        for short in list(unpublished):
            loaded = sys.modules.get(f"{home}.{short}")
            if loaded is not None and not getattr(loaded.__spec__, "_initializing", False):
                unpublished.discard(short)
                publish(loaded, [n for n, m in exports.items() if m == short], home)
        namespace[name] = value  # later lookups skip this function
        return value

    def __dir__() -> list[str]:
        return public

    return __getattr__, __dir__


def publish(module: ModuleType, names: Iterable[str], home: str) -> None:
    """Give the classes and functions ``names`` of ``module`` that it defines
    the ``__module__`` ``home``. Aliases, re-exported objects and a class
    whose annotations cannot be evaluated keep theirs."""
    for name in names:
        obj = module.__dict__.get(name)
        if getattr(obj, "__module__", None) != module.__name__:
            continue
        if isinstance(obj, type):
            if not _evaluate_annotations(obj, module):
                continue
        elif type(obj).__name__ != "function":
            continue
        obj.__module__ = home


def _evaluate_annotations(cls: type, module: ModuleType) -> bool:
    """Replace the string annotations of ``cls`` (and of its dataclass
    fields) by the objects they name in ``module``; False if one does not
    evaluate, and then nothing is changed."""
    own = cls.__dict__.get("__annotations__")
    if not own:
        return True
    strings = {key: value for key, value in own.items() if isinstance(value, str)}
    if not strings:
        return True
    scope = dict(vars(cls))
    try:
        resolved = {key: eval(value, module.__dict__, scope) for key, value in strings.items()}  # noqa: S307 - the module's own annotation text
    except Exception:  # noqa: BLE001 - a name only imported for type checkers: keep the module
        return False
    own.update(resolved)
    for key, field in (cls.__dict__.get("__dataclass_fields__") or {}).items():
        if key in resolved and isinstance(field.type, str):
            field.type = resolved[key]
    return True
