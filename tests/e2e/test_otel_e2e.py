"""OpenTelemetry tracing against the real binary: turn spans, callback spans,
trace context in the child's environment.

Spans go to a private TracerProvider per test (``claude_wrap._run.tracing._provider``),
never to the global one, which OpenTelemetry lets a process set only once.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import aclosing
from typing import Any

import anyio
import pytest
from _e2e import Options, bash, run, tool_results
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from claude_wrap import (
    ClaudeSDKClient,
    HookMatcher,
    PermissionResultAllow,
    ResultError,
    ResultMessage,
    create_sdk_mcp_server,
    query,
    tool,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e, pytest.mark.otel]

TURN = "invoke_agent claude-code"


class Spans:
    def __init__(self) -> None:
        self.exporter = InMemorySpanExporter()
        self.provider = TracerProvider()
        self.provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        self.tracer = self.provider.get_tracer("app")

    def finished(self) -> list[ReadableSpan]:
        return list(self.exporter.get_finished_spans())

    def named(self, name: str) -> list[ReadableSpan]:
        return [s for s in self.finished() if s.name == name]

    def one(self, name: str) -> ReadableSpan:
        found = self.named(name)
        assert len(found) == 1, [s.name for s in self.finished()]
        return found[0]


@pytest.fixture
def spans(monkeypatch: pytest.MonkeyPatch) -> Iterator[Spans]:
    import claude_wrap._run.tracing as otel

    recorder = Spans()
    monkeypatch.setattr(otel, "_provider", recorder.provider)
    yield recorder
    recorder.provider.shutdown()


def parent_id(span: ReadableSpan) -> int | None:
    return span.parent.span_id if span.parent is not None else None


def span_id(span: ReadableSpan) -> int:
    context = span.context
    assert context is not None
    return context.span_id


async def test_one_turn_span_with_usage_for_a_bash_loop(
    scripted_model: ScriptedModel, make_options: Options, spans: Spans
) -> None:
    scripted_model.add(bash("echo one"), bash("echo two"), Reply.text("done"))
    with spans.tracer.start_as_current_span("app") as app:
        messages = await run("go", make_options(allowed_tools=["Bash"], model="claude-sonnet-4-5"))
    result = messages[-1]
    assert isinstance(result, ResultMessage) and not result.is_error

    turn = spans.one(TURN)
    assert parent_id(turn) == app.get_span_context().span_id
    attrs = dict(turn.attributes or {})
    assert attrs["gen_ai.operation.name"] == "invoke_agent"
    assert attrs["gen_ai.provider.name"] == "anthropic"
    assert attrs["gen_ai.request.model"] == "claude-sonnet-4-5"
    assert attrs["gen_ai.response.model"] == next(m.model for m in messages if hasattr(m, "model"))
    assert attrs["gen_ai.conversation.id"] == result.session_id
    usage = result.usage or {}
    cached = usage.get("cache_read_input_tokens", 0) + usage.get("cache_creation_input_tokens", 0)
    assert attrs["gen_ai.usage.input_tokens"] == usage["input_tokens"] + cached > 0
    assert attrs["gen_ai.usage.output_tokens"] == usage["output_tokens"] > 0
    assert attrs["claude_wrap.cost_usd"] == result.total_cost_usd
    assert attrs["claude_wrap.num_turns"] == result.num_turns == 3
    assert attrs["claude_wrap.result.subtype"] == "success"
    assert turn.status.status_code is not StatusCode.ERROR
    assert turn.kind is trace.SpanKind.CLIENT


async def test_callbacks_are_children_of_the_turn_and_user_spans_nest(
    scripted_model: ScriptedModel, make_options: Options, spans: Spans
) -> None:
    inner: list[trace.Span] = []

    async def pre_tool(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        await anyio.sleep(0)  # context must survive a checkpoint, under both backends
        with spans.tracer.start_as_current_span("inside-hook") as mine:
            inner.append(mine)
        return {}

    async def allow(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        return PermissionResultAllow()

    @tool("add", "Add two numbers", {"a": float, "b": float})
    async def add(args: dict[str, Any]) -> str:
        with spans.tracer.start_as_current_span("inside-tool"):
            return str(args["a"] + args["b"])

    server = create_sdk_mcp_server("calc", tools=[add])
    scripted_model.add(bash("echo hi"), Reply.tool_use("mcp__calc__add", {"a": 2, "b": 3}), Reply.text("done"))
    options = make_options(
        hooks={"PreToolUse": [HookMatcher("Bash", [pre_tool])]},
        can_use_tool=allow,
        mcp_servers={"calc": server},
    )
    await run("go", options)

    turn = spans.one(TURN)
    hook = spans.one("claude_wrap.hook PreToolUse")
    permission = spans.one("claude_wrap.can_use_tool mcp__calc__add")  # "echo" needs no permission
    executed = spans.one("execute_tool add")
    for child in (hook, permission, executed):
        assert parent_id(child) == span_id(turn), child.name
        assert child.context is not None and turn.context is not None
        assert child.context.trace_id == turn.context.trace_id
    assert parent_id(spans.one("inside-hook")) == span_id(hook)
    assert parent_id(spans.one("inside-tool")) == span_id(executed)
    assert (hook.attributes or {})["gen_ai.tool.name"] == "Bash"
    assert (permission.attributes or {})["claude_wrap.permission.behavior"] == "allow"
    assert dict(executed.attributes or {})["gen_ai.tool.name"] == "add"
    assert dict(executed.attributes or {})["gen_ai.operation.name"] == "execute_tool"
    assert inner and all(s.status.status_code is not StatusCode.ERROR for s in (hook, permission, executed))


async def test_traceparent_reaches_the_bash_tool_and_user_env_wins(
    scripted_model: ScriptedModel, make_options: Options, spans: Spans
) -> None:
    show = bash('echo "TP=$TRACEPARENT TS=${TRACESTATE:-none}"')
    scripted_model.add(show, Reply.text("done"), show, Reply.text("done"))
    with spans.tracer.start_as_current_span("app") as app:
        ours = await run("go", make_options(allowed_tools=["Bash"]))
    context = app.get_span_context()
    expected = f"00-{context.trace_id:032x}-{context.span_id:016x}-{int(context.trace_flags):02x}"
    assert f"TP={expected} TS=none" in str(tool_results(ours)[0].content)
    # The binary forwards it unchanged but does not send it to the API by default.
    assert all("traceparent" not in r.headers for r in scripted_model.main_requests)

    theirs = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    with spans.tracer.start_as_current_span("app"):
        options = make_options(allowed_tools=["Bash"])
        options.env["TRACEPARENT"] = theirs
        user = await run("go", options)
    assert f"TP={theirs} TS=none" in str(tool_results(user)[0].content)


async def test_error_result_marks_the_turn_span(
    scripted_model: ScriptedModel, make_options: Options, spans: Spans
) -> None:
    scripted_model.add(bash("echo hi"), Reply.text("never"))
    with pytest.raises(ResultError):
        await run("loop", make_options(max_turns=1, allowed_tools=["Bash"]))
    turn = spans.one(TURN)
    assert turn.status.status_code is StatusCode.ERROR
    assert dict(turn.attributes or {})["error.type"] == "error_max_turns"


async def test_leaving_early_ends_the_span_as_cancelled(
    scripted_model: ScriptedModel, make_options: Options, spans: Spans
) -> None:
    scripted_model.add(bash("sleep 30"), Reply.text("never"))
    with anyio.fail_after(60):
        async with aclosing(query(prompt="go", options=make_options(allowed_tools=["Bash"]))) as messages:
            async for _ in messages:
                break
    turn = spans.one(TURN)
    assert turn.status.status_code is StatusCode.ERROR
    assert dict(turn.attributes or {})["error.type"] == "cancelled"
    assert turn.end_time is not None


async def test_client_turns_hang_under_the_span_current_at_each_query(
    scripted_model: ScriptedModel, make_options: Options, spans: Spans
) -> None:
    scripted_model.add(Reply.text("one"), Reply.text("two"))
    async with ClaudeSDKClient(make_options()) as client:
        ids = []
        for name in ("first", "second"):
            with spans.tracer.start_as_current_span(name) as outer:
                await client.query(name)
                async for _ in client.receive_response():
                    pass
            ids.append(outer.get_span_context().span_id)
    turns = spans.named(TURN)
    assert [parent_id(t) for t in turns] == ids
    assert len({dict(t.attributes or {})["gen_ai.conversation.id"] for t in turns}) == 1


def test_no_opentelemetry_import_when_the_app_does_not_trace(cli_path: str) -> None:
    script = textwrap.dedent(
        """
        import json, sys, tempfile, pathlib
        import anyio
        from claude_wrap import ClaudeAgentOptions, query
        from claude_wrap.testing import Reply, ScriptedModel

        async def main():
            with ScriptedModel() as model:
                model.add(Reply.text("hi"))
                home = pathlib.Path(tempfile.mkdtemp())
                options = ClaudeAgentOptions(env=model.env(home), cwd=home, setting_sources=[])
                async for _ in query(prompt="go", options=options):
                    pass

        anyio.run(main)
        print(json.dumps(sorted(m for m in sys.modules if m.startswith(("opentelemetry", "claude_wrap._run.tracing")))))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
