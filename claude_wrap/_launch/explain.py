"""``explain()``: how a run with some options will start, with secrets redacted.

The argv, the environment changes, the working directory and the whole
``initialize`` request, built by the same code a run uses (``argv``,
``control_plane``), spawning nothing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claude_wrap._launch.plan import plan_run
from claude_wrap._launch.redact import redact_argv, redact_env, redact_json
from claude_wrap._process.binary import find_binary

if TYPE_CHECKING:
    from claude_wrap._launch.options import ClaudeAgentOptions

__all__ = ["Explanation", "explain"]


@dataclass(frozen=True)
class Explanation:
    """What a run with some options will do, with secrets redacted."""

    argv: list[str]
    env_changes: dict[str, str | None]
    cwd: str | None
    initialize: dict[str, Any]

    def __str__(self) -> str:
        env = "\n".join(f"  {k}={'<removed>' if v is None else v}" for k, v in sorted(self.env_changes.items()))
        return (
            f"argv: {json.dumps(self.argv)}\n"
            f"cwd: {self.cwd or '(caller cwd)'}\n"
            f"env changes:\n{env or '  (none)'}\n"
            f"initialize: {json.dumps(self.initialize, sort_keys=True)}"
        )


def _shown_file(content: str) -> str:
    """How ``explain()`` shows a value passed as a private file: JSON
    redacted, anything else by its size."""
    if content.lstrip().startswith("{"):
        try:
            return f"<temp file: {json.dumps(redact_json(json.loads(content)))}>"
        except ValueError:
            pass
    return f"<temp file, {len(content)} chars>"


def explain(options: ClaudeAgentOptions) -> Explanation:
    """The launch plan for ``options`` with secrets redacted; spawns nothing."""
    try:
        cli = os.fspath(find_binary(options.cli_path, prefer_path=options.prefer_path))
    except Exception:  # noqa: BLE001 - explain() must work without a binary too
        cli = os.fspath(options.cli_path) if options.cli_path else "claude"
    plan = plan_run(options, cli, check_cwd=False)
    launch = plan.launch
    shown = redact_argv(launch.argv)
    argv = [_shown_file(launch.files[a]) if a in launch.files else word for a, word in zip(launch.argv, shown)]
    # The whole request, as a run sends it (hooks, agents, MCP servers ...),
    # redacted by shape only: its keys are schema and field names.
    initialize = {"subtype": "initialize", **plan.initialize}
    return Explanation(
        argv=argv,
        env_changes={k: redact_env(k, v) for k, v in launch.env_changes.items()},
        cwd=launch.cwd,
        initialize=redact_json(initialize, by_name=False),
    )
