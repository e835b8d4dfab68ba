"""The names this package is installed and run by, and the hint for a missing extra.

The distribution (what ``pip install`` takes) is ``claude-wrap-sdk``; the
import name is ``claude_wrap`` and the command it installs is ``claude-wrap``.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

__all__ = ["COMMAND", "DISTRIBUTION", "import_extra", "install_line"]

DISTRIBUTION = "claude-wrap-sdk"
COMMAND = "claude-wrap"


def install_line(extra: str | None = None) -> str:
    """``pip install 'claude-wrap-sdk[<extra>]'`` (without an extra: the bare name)."""
    return f"pip install '{DISTRIBUTION}[{extra}]'" if extra else f"pip install {DISTRIBUTION}"


def import_extra(module: str, extra: str, needed_for: str) -> ModuleType:
    """Import ``module``, which the optional ``extra`` installs; when it is
    missing, the ``ImportError`` says which install line brings it."""
    try:
        return import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{needed_for} needs the {module.split('.')[0]!r} package ({install_line(extra)})",
            name=exc.name,
        ) from exc
