"""The batch's progress display: one line of done / running / failed / cost.

In a terminal the line is rewritten in place on stderr; in a Jupyter
notebook it is one output cell, updated; elsewhere (a log file) a line is
written at most every few seconds, and at the end. ``run_many(progress=fn)``
calls ``fn(stats)`` on every change instead.
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable
from typing import Any

from claude_wrap._fleet.types import FleetStats

__all__ = ["Progress", "make_progress", "render"]

_LOG_EVERY = 5.0  # seconds between lines when stderr is not a terminal


def render(stats: FleetStats) -> str:
    total = f"/{stats.total}" if stats.total is not None else ""
    line = (
        f"fleet: {stats.finished}{total} done · {stats.running} running · {stats.failed} failed · "
        f"${stats.cost_usd:.4f} · {stats.elapsed_s:.0f} s"
    )
    if stats.nodes != 1:
        line += f" · {stats.nodes} nodes"
    if stats.retried:
        line += f" · {stats.retried} retried"
    return line


class Progress:
    """Receives every change of a batch's stats; shows them or hands them on."""

    def __init__(self, sink: Callable[[FleetStats], None] | None) -> None:
        self._sink = sink
        self._handle: Any = None
        self._last = 0.0
        self._shown: FleetStats | None = None

    def update(self, stats: FleetStats) -> None:
        if self._sink is not None:
            self._sink(stats)
            return
        self._shown = stats
        if _in_notebook():
            self._notebook(render(stats))
        elif sys.stderr.isatty():
            sys.stderr.write("\r\x1b[2K" + render(stats))
            sys.stderr.flush()
        elif time.monotonic() - self._last >= _LOG_EVERY:
            self._last = time.monotonic()
            print(render(stats), file=sys.stderr, flush=True)

    def close(self) -> None:
        """The final state (a terminal's line is ended)."""
        if self._sink is not None or self._shown is None:
            return
        if _in_notebook():
            self._notebook(render(self._shown))
        elif sys.stderr.isatty():
            sys.stderr.write("\n")
            sys.stderr.flush()
        else:
            print(render(self._shown), file=sys.stderr, flush=True)

    def _notebook(self, text: str) -> None:
        if self._handle is None:
            display = importlib.import_module("IPython.display").display  # loaded: the kernel runs
            self._handle = display(text, display_id=True)
        else:
            self._handle.update(text)


def _in_notebook() -> bool:
    # A kernel is running this process (IPython itself is loaded then).
    return "ipykernel" in sys.modules and "IPython" in sys.modules


def make_progress(progress: bool | Callable[[FleetStats], None] | None) -> Progress | None:
    """``progress`` as ``run_many`` takes it: off, the display, or a callback."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return Progress(None)
    if callable(progress):
        return Progress(progress)
    raise TypeError(f"progress must be True, False or a function taking FleetStats, got {progress!r}")
