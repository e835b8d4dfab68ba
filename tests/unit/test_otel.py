"""Trace context in the child's environment (pure: no binary, no process)."""

from __future__ import annotations

import pytest
from opentelemetry.sdk.trace import TracerProvider

from claude_wrap import ClaudeAgentOptions
from claude_wrap._launch.argv import _child_env

pytestmark = pytest.mark.otel

TRACER = TracerProvider().get_tracer("test")
INHERITED = "00-11111111111111111111111111111111-2222222222222222-01"


def test_current_span_sets_traceparent_and_drops_a_stale_tracestate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACEPARENT", INHERITED)
    monkeypatch.setenv("TRACESTATE", "vendor=old")
    with TRACER.start_as_current_span("app") as span:
        env, changes = _child_env(ClaudeAgentOptions(), None)
    context = span.get_span_context()
    assert env["TRACEPARENT"] == f"00-{context.trace_id:032x}-{context.span_id:016x}-{int(context.trace_flags):02x}"
    assert "TRACESTATE" not in env and changes["TRACESTATE"] is None


def test_user_env_wins_as_a_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRACEPARENT", raising=False)
    with TRACER.start_as_current_span("app"):
        env, _ = _child_env(ClaudeAgentOptions(env={"TRACESTATE": "mine=1"}), None)
    assert env["TRACESTATE"] == "mine=1"
    assert "TRACEPARENT" not in env  # half of ours next to half of theirs would be a wrong pair


def test_no_current_span_leaves_the_inherited_context(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACEPARENT", INHERITED)
    env, changes = _child_env(ClaudeAgentOptions(), None)
    assert env["TRACEPARENT"] == INHERITED and "TRACEPARENT" not in changes
