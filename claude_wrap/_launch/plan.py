"""One run of the binary, decided before anything starts.

``plan_run(options, cli)`` is the single place where options become a run:
the command line, environment and working directory (``argv.build_launch``),
the handlers for the binary's control requests (``control_plane``) and the
whole ``initialize`` request, put together from both. It has no side effects
(files for long values are written only by ``Launch.materialize()``), so
``explain()`` shows exactly what a run would do and a run does exactly that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claude_wrap._launch.argv import Launch, build_launch
from claude_wrap._launch.control_plane import ControlPlane, control_plane

if TYPE_CHECKING:
    from claude_wrap._launch.options import ClaudeAgentOptions

__all__ = ["RunPlan", "plan_run"]


@dataclass
class RunPlan:
    """A run of the binary: how it starts and what it is told first."""

    launch: Launch
    """Command line, environment and working directory."""
    plane: ControlPlane
    """The handlers answering the binary's control requests."""
    initialize: dict[str, Any]
    """The ``initialize`` request's fields (without ``subtype``)."""


def plan_run(options: ClaudeAgentOptions, cli: str, *, check_cwd: bool = True) -> RunPlan:
    """The run ``options`` describe, with ``cli`` as the binary."""
    launch = build_launch(options, cli, check_cwd=check_cwd)
    plane = control_plane(options)
    fields = {k: v for k, v in launch.initialize.items() if k != "subtype"}
    fields.setdefault("hooks", None)
    fields.update(plane.initialize)
    return RunPlan(launch, plane, fields)
