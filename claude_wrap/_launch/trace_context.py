"""The trace context handed to the child process, when the application traces.

Imported only when ``"opentelemetry.trace" in sys.modules`` (see
``argv.tracing``), so a program that does not trace never loads
OpenTelemetry through us. The spans of a run are ``claude_wrap._run.tracing``'s.
"""

from __future__ import annotations

from opentelemetry import trace
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

__all__ = ["trace_env"]

_W3C = TraceContextTextMapPropagator()


def trace_env() -> dict[str, str]:
    """W3C trace-context variables for the span current now (empty if none)."""
    if not trace.get_current_span().get_span_context().is_valid:
        return {}
    carrier: dict[str, str] = {}
    # The W3C propagator itself, not the global one: the child reads only
    # TRACEPARENT / TRACESTATE, whatever the app configured for HTTP.
    _W3C.inject(carrier)
    env = {"TRACEPARENT": carrier["traceparent"]}
    if carrier.get("tracestate"):
        env["TRACESTATE"] = carrier["tracestate"]
    return env
