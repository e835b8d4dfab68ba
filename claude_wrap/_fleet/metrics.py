"""A batch's counters as an OpenTelemetry meter, used only when the
application has loaded OpenTelemetry's metrics API.

The driver decides with ``"opentelemetry.metrics" in sys.modules`` and
imports this module only then (``meter()``), so a program that does not
export metrics never imports it. Every counter is the driver's view: one
process counts for the whole batch, whichever nodes ran its tasks.

Counters (attributes in brackets):

* ``claude_wrap.fleet.tasks.started``: attempts started (``attempt``: 1 for a
  task's first, 2 and up after a lost node or an API error);
* ``claude_wrap.fleet.tasks.finished``: outcomes (``outcome``: ``ok``,
  ``error``, ``stopped``, ``recorded``: taken from the batch's journal);
* ``claude_wrap.fleet.tasks.retried``: attempts to be started again
  (``reason``: ``node_lost``, ``api_error``);
* ``claude_wrap.fleet.tokens``: the tokens of each outcome's last result
  (``type``: ``input``, ``output``, ``cache_read``, ``cache_creation``);
* ``claude_wrap.fleet.cost``: US dollars, as the binary counts them.
"""

from __future__ import annotations

from typing import Any

from opentelemetry import metrics

from claude_wrap._fleet.types import BudgetExceededError, NodeLostError, Outcome

__all__ = ["FleetMeter"]

_provider: metrics.MeterProvider | None = None
"""A provider to use instead of the global one (tests keep theirs private)."""

_TOKENS = {
    "input": "input_tokens",
    "output": "output_tokens",
    "cache_read": "cache_read_input_tokens",
    "cache_creation": "cache_creation_input_tokens",
}


class FleetMeter:
    """The batch's counters (see the module docstring)."""

    def __init__(self) -> None:
        from claude_wrap._version import __version__

        meter = metrics.get_meter("claude_wrap.fleet", __version__, meter_provider=_provider)
        self._started = meter.create_counter("claude_wrap.fleet.tasks.started", unit="{attempt}")
        self._finished = meter.create_counter("claude_wrap.fleet.tasks.finished", unit="{task}")
        self._retried = meter.create_counter("claude_wrap.fleet.tasks.retried", unit="{attempt}")
        self._tokens = meter.create_counter("claude_wrap.fleet.tokens", unit="{token}")
        self._cost = meter.create_counter("claude_wrap.fleet.cost", unit="USD")

    def started(self, attempt: int) -> None:
        self._started.add(1, {"attempt": attempt})

    def retried(self, reason: str) -> None:
        self._retried.add(1, {"reason": reason})

    def finished(self, outcome: Outcome, cost_usd: float) -> None:
        """``outcome`` was reported; ``cost_usd`` of it was spent by this driver."""
        if outcome.recorded:
            kind = "recorded"
        elif isinstance(outcome.error, (BudgetExceededError, NodeLostError)):
            kind = "stopped"
        else:
            kind = "ok" if outcome.ok else "error"
        self._finished.add(1, {"outcome": kind})
        if outcome.recorded:
            return  # counted by the driver that ran it
        usage: Any = outcome.result.usage if outcome.result is not None else None
        if isinstance(usage, dict):
            for name, key in _TOKENS.items():
                value = usage.get(key)
                if isinstance(value, int) and value > 0:
                    self._tokens.add(value, {"type": name})
        if cost_usd > 0:
            self._cost.add(cost_usd)
