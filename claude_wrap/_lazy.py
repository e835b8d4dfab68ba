"""Lazy package exports: each public name is imported on first use.

Keeps ``import claude_wrap`` (and ``claude_wrap.testing``, which pytest
loads at start-up) cheap: anyio, msgspec and pydantic load only when a name
that needs them is first touched.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # not typing's: importing typing would be most of ``import claude_wrap``
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["lazy_exports"]


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
    ``base`` (default: ``package`` itself)."""
    home = package if base is None else base

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{home}.{module}"), name)
        namespace[name] = value  # later lookups skip this function
        return value

    def __dir__() -> list[str]:
        return public

    return __getattr__, __dir__
