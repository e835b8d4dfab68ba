"""OpenTelemetry tracing, used only when the application has loaded OpenTelemetry.

Callers decide with ``"opentelemetry.trace" in sys.modules`` and import this
module only then, so a program that does not trace never imports it (nor
opentelemetry). ``TracedConnection`` is a ``Connection`` that opens one span per
turn (from the ``user`` frame to the turn's ``ResultMessage``) and one child
span per Python callback it runs (hooks, ``can_use_tool``, in-process MCP
tools), with that callback span current while the callback runs. The trace
context handed to the child process is ``claude_wrap._launch.trace_context``'s.

Spans are started with explicit parent contexts. Context is attached only
inside a handler's own task, around one ``await``, never across a ``yield``
of an async generator, which is what makes this safe under asyncio and trio.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Mapping
from typing import Any

import anyio
from opentelemetry import context as otel_context, trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode

from claude_wrap._run.protocol import Connection
from claude_wrap._wire.messages import AssistantMessage, Message, ResultMessage, SystemMessage
from claude_wrap._wire.serving import Answer

__all__ = ["TracedConnection"]

_provider: trace.TracerProvider | None = None
"""A provider to use instead of the global one (tests keep theirs private)."""

_AGENT = "claude-code"


def _tracer() -> trace.Tracer:
    from claude_wrap._version import __version__

    return trace.get_tracer("claude_wrap", __version__, tracer_provider=_provider)


def _is_cancel(exc: BaseException) -> bool:
    return isinstance(exc, anyio.get_cancelled_exc_class())


def _fail(span: Span, exc: BaseException | None, reason: str | None = None) -> None:
    """Mark ``span`` as failed: by ``exc``, or by ``reason`` (an ``error.type``)."""
    if exc is not None and _is_cancel(exc):
        reason = "cancelled"
    elif exc is not None:
        reason = type(exc).__qualname__
        span.record_exception(exc)
    kind = reason or "error"
    span.set_attribute("error.type", kind)
    span.set_status(Status(StatusCode.ERROR, kind if exc is None or _is_cancel(exc) else str(exc)))


def _usage_attributes(usage: Mapping[str, Any]) -> dict[str, int]:
    """GenAI usage attributes; ``input_tokens`` counts cached input too, as
    the conventions ask, while the binary reports the three parts apart."""

    def count(key: str) -> int:
        value = usage.get(key)
        return value if isinstance(value, int) else 0

    cache_read = count("cache_read_input_tokens")
    cache_write = count("cache_creation_input_tokens")
    out = {
        "gen_ai.usage.input_tokens": count("input_tokens") + cache_read + cache_write,
        "gen_ai.usage.output_tokens": count("output_tokens"),
    }
    if cache_read:
        out["gen_ai.usage.cache_read.input_tokens"] = cache_read
    if cache_write:
        out["gen_ai.usage.cache_creation.input_tokens"] = cache_write
    return out


class TracedConnection(Connection):
    """A ``Connection`` that records turns and callbacks as spans.

    Turn spans end when their ``ResultMessage`` is received (or with an
    error when the stream fails, or as cancelled when the session closes
    first), so a span never outlives the session.
    """

    def __init__(self, *args: Any, request_model: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._tracer = _tracer()
        self._request_model = request_model
        self._response_model: str | None = None
        self._conversation: str | None = None
        self._turns: deque[Span] = deque()
        # Callbacks outside any turn (SessionEnd at close, MCP set-up) hang
        # under whatever was current when the session opened.
        self._origin = otel_context.get_current()
        self.responder.handlers = {
            name: dataclasses.replace(handler, answer=self._traced(name, handler.answer))
            for name, handler in self.responder.handlers.items()
        }
        self._after_close.append(self._end_all)  # the spans end with the connection

    # -- turns ---------------------------------------------------------------------

    async def send_user(self, message: dict[str, Any], *, part_of: tuple[str, float] | None = None) -> None:
        if message.get("type") != "user":
            await super().send_user(message, part_of=part_of)
            return
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.provider.name": "anthropic",
            "gen_ai.agent.name": _AGENT,
        }
        if self._request_model:
            attributes["gen_ai.request.model"] = self._request_model
        if self._conversation:
            attributes["gen_ai.conversation.id"] = self._conversation
        span = self._tracer.start_span(
            f"invoke_agent {_AGENT}", context=otel_context.get_current(), kind=SpanKind.CLIENT, attributes=attributes
        )
        self._turns.append(span)
        try:
            await super().send_user(message, part_of=part_of)
        except BaseException as exc:
            self._turns.remove(span)
            _fail(span, exc)
            span.end()
            raise

    async def receive(self) -> Message | None:
        try:
            message = await super().receive()
        except BaseException as exc:
            if not _is_cancel(exc):
                # The stream (or the turn's result) failed: the oldest turn is the one it ends.
                self._end_turn(exc=exc)
            raise
        if isinstance(message, ResultMessage):
            self._end_turn(result=message)
        elif isinstance(message, AssistantMessage):
            self._saw_model(message.model)
        elif isinstance(message, SystemMessage) and message.subtype == "init":
            model = message.data.get("model")
            if isinstance(model, str):
                self._saw_model(model)
            sid = message.data.get("session_id")
            if isinstance(sid, str) and sid:
                self._conversation = sid
                for span in self._turns:
                    span.set_attribute("gen_ai.conversation.id", sid)
        return message

    def _saw_model(self, model: str) -> None:
        if not model or model == self._response_model or model.startswith("<"):
            return  # "<synthetic>" marks messages the binary wrote itself
        self._response_model = model
        for span in self._turns:
            span.set_attribute("gen_ai.response.model", model)

    def _end_turn(self, *, result: ResultMessage | None = None, exc: BaseException | None = None) -> None:
        if not self._turns:
            return
        span = self._turns.popleft()
        if result is not None:
            if result.session_id:
                self._conversation = result.session_id
                span.set_attribute("gen_ai.conversation.id", result.session_id)
            if self._response_model:
                span.set_attribute("gen_ai.response.model", self._response_model)
            if result.usage:
                span.set_attributes(_usage_attributes(result.usage))
            if result.total_cost_usd is not None:
                span.set_attribute("claude_wrap.cost_usd", result.total_cost_usd)
            span.set_attribute("claude_wrap.num_turns", result.num_turns)
            span.set_attribute("claude_wrap.result.subtype", result.subtype)
            if result.stop_reason:
                span.set_attribute("gen_ai.response.finish_reasons", [result.stop_reason])
            if result.is_error:
                _fail(span, None, result.subtype)
        else:
            _fail(span, exc)
        span.end()

    def _end_all(self) -> None:
        while self._turns:
            span = self._turns.popleft()
            _fail(span, None, "cancelled")
            span.end()

    def _active_turn(self) -> Span | None:
        """The turn the binary is working on: results already read from its
        output (but not yet received) belong to the turns in front of it."""
        ahead = len(self._turns) - self._turns_open
        if self._turns_open <= 0 or ahead < 0 or ahead >= len(self._turns):
            return self._turns[-1] if self._turns else None
        return self._turns[ahead]

    # -- callbacks -----------------------------------------------------------------

    def _traced(self, subtype: str, handler: Answer) -> Answer:
        async def run(request: dict[str, Any]) -> dict[str, Any] | None:
            turn = self._active_turn()
            parent = trace.set_span_in_context(turn) if turn is not None else self._origin
            name, attributes = _callback_span(subtype, request)
            if name is None:
                token = otel_context.attach(parent)
                try:
                    return await handler(request)
                finally:
                    otel_context.detach(token)
            span = self._tracer.start_span(name, context=parent, attributes=attributes)
            token = otel_context.attach(trace.set_span_in_context(span, parent))
            try:
                reply = await handler(request)
            except BaseException as exc:
                _fail(span, exc)
                raise
            else:
                _reply_attributes(span, subtype, reply)
            finally:
                otel_context.detach(token)
                span.end()
            return reply

        return run


def _callback_span(subtype: str, request: Mapping[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """The span name and attributes for one request from the binary (no name: no span)."""
    if subtype == "hook_callback":
        hook_input = request.get("input")
        event = hook_input.get("hook_event_name") if isinstance(hook_input, dict) else None
        attributes: dict[str, Any] = {"claude_wrap.hook.event": str(event or "")}
        if isinstance(hook_input, dict) and isinstance(hook_input.get("tool_name"), str):
            attributes["gen_ai.tool.name"] = hook_input["tool_name"]
        if isinstance(request.get("tool_use_id"), str):
            attributes["gen_ai.tool.call.id"] = request["tool_use_id"]
        return f"claude_wrap.hook {event or 'unknown'}", attributes
    if subtype == "can_use_tool":
        tool = str(request.get("tool_name", ""))
        attributes = {"gen_ai.tool.name": tool}
        if isinstance(request.get("tool_use_id"), str):
            attributes["gen_ai.tool.call.id"] = request["tool_use_id"]
        return f"claude_wrap.can_use_tool {tool}", attributes
    if subtype == "mcp_message":
        message = request.get("message")
        if not isinstance(message, dict) or message.get("method") != "tools/call":
            return None, {}  # listing tools, notifications: plumbing, not work
        params = message.get("params")
        tool = str(params.get("name", "")) if isinstance(params, dict) else ""
        return f"execute_tool {tool}", {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": tool,
            "gen_ai.tool.type": "function",
            "claude_wrap.mcp.server": str(request.get("server_name", "")),
        }
    return None, {}


def _reply_attributes(span: Span, subtype: str, reply: Mapping[str, Any] | None) -> None:
    """What the callback decided, where that is cheap to read."""
    if not reply:
        return
    if subtype == "can_use_tool" and isinstance(reply.get("behavior"), str):
        span.set_attribute("claude_wrap.permission.behavior", reply["behavior"])
    elif subtype == "mcp_message":
        body = reply.get("mcp_response")
        result = body.get("result") if isinstance(body, dict) else None
        if isinstance(body, dict) and body.get("error") is not None:
            _fail(span, None, "mcp_error")
        elif isinstance(result, dict) and result.get("isError"):
            _fail(span, None, "tool_error")
