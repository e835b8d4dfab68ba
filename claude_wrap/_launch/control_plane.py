"""What the binary may ask of us: hook callbacks and permission prompts.

``control_plane(options)`` turns the user's Python callbacks into handlers
for the binary's control requests, plus the ``initialize`` fields that
register them.

A callback that raises is answered as the official package answers it:
with an error reply whose text is ``str()`` of the exception. What that
means is the binary's decision:

* ``can_use_tool``: the tool is denied; the model reads "Tool permission
  request failed: Error: <text>".
* A hook, on any event: the answer counts as empty ("no opinion"; the
  binary reports a ``hook_callback_failed`` warning as a ``SystemMessage``),
  unless its matcher says ``HookMatcher(on_failure="block")``: then the
  failure blocks (a PreToolUse hook denies the tool, a UserPromptSubmit
  hook refuses the prompt ...). The model never sees the exception text.

``callback_timeout`` is ours, and so is what it means: a callback that
decides something and runs out of time refuses. ``can_use_tool`` denies
the tool (its error reply does, as when it raises); a ``PreToolUse`` or
``PermissionRequest`` hook denies it, a
``UserPromptSubmit`` hook blocks the prompt, a ``PreSkillShellCommand``
hook keeps the skill's shell command from running, each with a reason naming the
limit, unless the matcher says ``on_failure="continue"`` (then: no
opinion). A hook of any other event that runs out of time counts as no
opinion. The same refusals answer a request the connection could not serve
(see ``_run.responder``).

Our own callbacks keep their documented answers: a failing
``on_user_question`` becomes an error tool result naming the failure (the
turn goes on); a failing ``on_elicitation`` / ``on_user_dialog`` declines /
cancels. Without those callbacks, elicitations and dialogs get the official
package's answer: the "Unsupported control request subtype" error.

Each failure is logged on the ``claude_wrap`` logger at INFO, with its
traceback (the official package logs nothing; INFO stays off stderr unless
the application configures logging).

The plane is built before the binary is spawned, so the hook and permission
types load only when a run uses them (a program that passes hooks or answers
permission prompts has imported them already): a run without callbacks
spawns sooner.
"""

from __future__ import annotations

import logging
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from claude_wrap._callbacks import CallbackTimeoutError, call_user
from claude_wrap._exceptions import CLIConnectionError
from claude_wrap._launch.agents import agents_to_wire
from claude_wrap._launch.checks import OptionsWarning
from claude_wrap._wire.serving import ControlHandler, UnreadableRequest, answering

if TYPE_CHECKING:
    from claude_wrap._launch.options import ClaudeAgentOptions

    # Types only: the permission types load when a run answers prompts.
    from claude_wrap._wire.permissions import ToolPermissionContext

__all__ = [
    "CanUseToolShadowedWarning",
    "ControlPlane",
    "PermissionHandler",
    "check_hooks_registered",
    "control_plane",
    "mcp_handler",
]

log = logging.getLogger("claude_wrap")


class CanUseToolShadowedWarning(UserWarning):
    """``can_use_tool`` is set but other options approve tools before it is asked."""


@dataclass
class ControlPlane:
    """Handlers by request subtype, plus fields for ``initialize``."""

    handlers: dict[str, ControlHandler] = field(default_factory=dict)
    initialize: dict[str, Any] = field(default_factory=dict)
    needs_stdin: bool = False
    """The user's callbacks answer the binary over stdin (hooks, permission
    prompts, in-process MCP servers, dialogs), so a run keeps stdin open
    until the binary says it is over."""


def _name(callback: Any) -> str:
    return str(getattr(callback, "__qualname__", None) or repr(callback))


def _failed(what: str, exc: BaseException) -> None:
    log.info("claude_wrap: %s failed: %s", what, exc, exc_info=exc)


def _failure_text(what: str, exc: BaseException) -> str:
    """What failed, for our own callbacks' answers (the official ones send ``str(exc)``)."""
    if isinstance(exc, CallbackTimeoutError):
        return str(exc)
    return f"{what} raised {type(exc).__name__}: {exc}"


@dataclass
class _Registered:
    callback: Any
    event: str
    on_failure: str | None

    def refusal(self, reason: str) -> dict[str, Any] | None:
        """What a callback we could not let finish answers: a refusal where
        its event decides something, unless its matcher opted out."""
        from claude_wrap._wire.hooks import refusal_output

        return None if self.on_failure == "continue" else refusal_output(self.event, reason)


def _hook_handler(registry: dict[str, _Registered], *, timeout: float | None) -> ControlHandler:
    from claude_wrap._wire.hooks import hook_output_to_wire

    async def answer(request: dict[str, Any]) -> dict[str, Any]:
        callback_id = request.get("callback_id")
        entry = registry.get(callback_id) if isinstance(callback_id, str) else None
        if entry is None:
            raise LookupError(f"No hook callback found for ID: {callback_id}")
        hook_input = request.get("input")
        if not isinstance(hook_input, dict):
            raise UnreadableRequest(f"the {entry.event} hook's input is not an object")
        what = f"{entry.event} hook {_name(entry.callback)}"
        try:
            output = await call_user(
                entry.callback, hook_input, request.get("tool_use_id"), {"signal": None}, timeout=timeout, what=what
            )
            return hook_output_to_wire(output)
        except CallbackTimeoutError as exc:
            _failed(what, exc)
            refusal = entry.refusal(str(exc))
            if refusal is None:
                raise  # an error reply: no opinion, or the matcher's onFailure
            return refusal
        except Exception as exc:
            _failed(what, exc)
            raise  # an error reply: the binary applies the matcher's onFailure

    def refuse(request: dict[str, Any], reason: str) -> dict[str, Any] | None:
        callback_id = request.get("callback_id")
        entry = registry.get(callback_id) if isinstance(callback_id, str) else None
        return None if entry is None else entry.refusal(reason)

    return ControlHandler(answer, refuse)


def _deny(request: dict[str, Any], reason: str) -> dict[str, Any]:
    return {"behavior": "deny", "message": reason}


class _Waiting:
    __slots__ = ("answered", "result")

    def __init__(self) -> None:
        import anyio

        self.answered = anyio.Event()
        self.result: Any = None


class PendingAnswers:
    """The ``can_use_tool`` requests whose callback returned ``ANSWER_LATER``,
    by control request id, until ``answer`` settles each."""

    def __init__(self) -> None:
        self._waiting: dict[str, _Waiting] = {}

    def answer(self, request_id: str, result: Any) -> None:
        from claude_wrap._wire.permissions import PermissionResultAllow, PermissionResultDeny

        if not isinstance(result, (PermissionResultAllow, PermissionResultDeny)):
            raise TypeError(f"the answer must be PermissionResultAllow or PermissionResultDeny, got {result!r:.200}")
        waiting = self._waiting.pop(str(request_id), None)
        if waiting is None:
            raise LookupError(
                f"no can_use_tool request {request_id!r} waits for an answer "
                "(answered already, withdrawn by the binary, or its callback did not return ANSWER_LATER)"
            )
        waiting.result = result
        waiting.answered.set()

    async def wait(self, request_id: str | None, *, timeout: float | None) -> Any:
        if request_id is None:
            raise TypeError("ANSWER_LATER needs the request's id, and this request came without one")
        waiting = self._waiting[request_id] = _Waiting()
        try:
            await call_user(waiting.answered.wait, timeout=timeout, what="can_use_tool (answered later)")
        finally:
            self._waiting.pop(request_id, None)
        return waiting.result


@dataclass(frozen=True)
class PermissionHandler(ControlHandler):
    """The ``can_use_tool`` handler, with the answers it waits for."""

    pending: PendingAnswers = field(default_factory=PendingAnswers)


def _permission_handler(callback: Any, on_question: Any, *, timeout: float | None) -> PermissionHandler:
    """``can_use_tool`` requests: ``AskUserQuestion`` to ``on_question`` when
    set, every other tool to ``callback``."""
    pending = PendingAnswers()

    async def answer(request: dict[str, Any]) -> dict[str, Any]:
        from claude_wrap._wire.permissions import (
            ANSWER_LATER,
            ASK_USER_QUESTION,
            PermissionResultAllow,
            PermissionResultDeny,
            ToolPermissionContext,
            permission_result_to_wire,
        )

        tool_name = request.get("tool_name")
        tool_input = request.get("input", {})
        if not isinstance(tool_name, str) or not isinstance(tool_input, dict):
            raise UnreadableRequest("the permission request has no tool name or no input object")
        context = ToolPermissionContext.from_request(request, answering.get())
        if on_question is not None and tool_name == ASK_USER_QUESTION:
            return await _answer_questions(on_question, tool_input, context, timeout=timeout)
        if callback is None:
            if on_question is None:
                # Prompts sent here although nothing answers them
                # (permission_prompt_tool_name="stdio"): the official text.
                raise LookupError("canUseTool callback is not provided")
            # Only on_user_question asked for host prompts; every other tool is
            # refused, as when nobody can be prompted at all.
            reason = context.decision_reason or f"{tool_name} needs approval, and no can_use_tool callback is set"
            return {"behavior": "deny", "message": reason}
        try:
            result = await call_user(callback, tool_name, tool_input, context, timeout=timeout, what="can_use_tool")
            if result is ANSWER_LATER:
                result = await pending.wait(context.request_id, timeout=timeout)
            if not isinstance(result, (PermissionResultAllow, PermissionResultDeny)):
                raise TypeError(
                    "Tool permission callback must return PermissionResult "
                    f"(PermissionResultAllow or PermissionResultDeny), got {type(result)}"
                )
            wire = permission_result_to_wire(result, tool_input)
        except Exception as exc:
            _failed(f"can_use_tool for {tool_name}", exc)
            # An error reply, timed out or not: the binary denies the tool and
            # tells the model why ("Tool permission request failed: Error: ...").
            raise
        unanswered = isinstance(result, PermissionResultAllow) and not wire["updatedInput"].get("answers")
        if tool_name == ASK_USER_QUESTION and unanswered:
            log.warning(
                "claude_wrap: can_use_tool allowed AskUserQuestion without answers; the model is told "
                "the user did not answer (use on_user_question, or answer_user_questions())"
            )
        return wire

    return PermissionHandler(answer, _deny, pending)


async def _answer_questions(
    callback: Any, tool_input: dict[str, Any], context: ToolPermissionContext, *, timeout: float | None
) -> dict[str, Any]:
    """Ask ``on_user_question`` and carry its answers to the model. Any failure
    is a denial whose message the model reads, so the turn goes on."""
    from claude_wrap._wire.permissions import answer_user_questions, permission_result_to_wire, user_questions

    try:
        questions = user_questions(tool_input)
        answers = await call_user(callback, questions, context, timeout=timeout, what="on_user_question")
        return permission_result_to_wire(answer_user_questions(tool_input, answers), tool_input)
    except Exception as exc:  # noqa: BLE001 - a failing callback is answered, never raised into the run
        _failed("on_user_question", exc)
        return {"behavior": "deny", "message": f"The user could not be asked: {_failure_text('on_user_question', exc)}"}


def _dialog_handler(callback: Any, *, what: str, fallback: dict[str, Any], timeout: float | None) -> ControlHandler:
    """Elicitations and user dialogs: the user's answer, or a safe refusal
    when the callback fails or answers something that is not a dict."""

    async def answer(request: dict[str, Any]) -> dict[str, Any]:
        try:
            reply = await call_user(callback, request, timeout=timeout, what=what)
        except Exception as exc:  # noqa: BLE001 - a failing callback is answered, never raised into the run
            _failed(what, exc)
            return dict(fallback)
        if not isinstance(reply, dict):
            log.info("claude_wrap: %s returned %r, not a dict; refusing", what, type(reply).__name__)
            return dict(fallback)
        return reply

    return ControlHandler(answer, lambda request, reason: dict(fallback))


def _whole_tool(rule: str) -> str | None:
    """The tool an ``allowed_tools`` rule approves outright (``"Read"``,
    ``"Read()"``, ``"Read(*)"``), or ``None`` for a narrower or malformed rule."""
    if not rule.strip():
        return None
    open_at = rule.find("(")
    if open_at == -1:
        return rule
    if open_at == 0 or not rule.endswith(")"):
        return None
    return rule[:open_at] if rule[open_at + 1 : -1] in ("", "*") else None


def _warn_if_shadowed(options: ClaudeAgentOptions) -> None:
    """The official package's one warning when rules approve tools before
    ``can_use_tool`` is asked (``skills="all"`` adds a ``Skill`` rule), in
    its exact words: programs filter warnings by their text."""
    if options.permission_mode == "bypassPermissions":
        message = (
            "can_use_tool will not be invoked: permission_mode 'bypassPermissions' auto-approves every tool "
            "call (except explicit deny rules) before the callback is consulted. To gate every tool call, "
            "use a PreToolUse hook instead."
        )
    else:
        rules = [*options.allowed_tools, *(["Skill"] if options.skills == "all" else [])]
        tools = list(dict.fromkeys(t for t in map(_whole_tool, rules) if t is not None))
        if not tools:
            return
        message = (
            f"can_use_tool will not be invoked for: {', '.join(tools)}. An allowed_tools entry that allows a "
            "whole tool auto-approves it before the callback is consulted. To gate every tool call, use a "
            "PreToolUse hook; or narrow the entry so calls fall through to can_use_tool. Allow rules from "
            "settings files can also shadow the callback but are not visible here."
        )
    warnings.warn(message, CanUseToolShadowedWarning, stacklevel=5)


def check_hooks_registered(options: ClaudeAgentOptions, response: dict[str, Any] | None) -> None:
    """Raise ``CLIConnectionError`` (the official package's errors) when a hook
    set to ``on_failure="block"`` could fail open: the process that answered
    ``initialize`` does not honor ``onFailure`` (a callback it times out
    itself would not block), or did not register the hooks at all."""
    if not options.hooks:
        return
    blocking = any(
        getattr(matcher, "on_failure", None) not in (None, "continue")
        for matchers in options.hooks.values()
        for matcher in matchers
    )
    if not blocking:
        return
    response = response or {}
    if not response.get("hook_on_failure_supported"):
        raise CLIConnectionError(
            "The process answering initialize does not honor on_failure on hook matchers, so a hook that "
            'fails would not block. Update Claude Code if it is old, or remove on_failure="block" from your hooks.'
        )
    if response.get("hooks_applied") is False:
        raise CLIConnectionError(
            "This session was already running and did not register your hooks, so a hook set to "
            'on_failure="block" would never run. Start a new session, or remove on_failure="block" from your hooks.'
        )


def mcp_handler(instances: dict[str, Any], *, timeout: float | None) -> ControlHandler:
    """The ``mcp_message`` handler serving the in-process servers
    ``instances`` (its answer, an ``McpRouter``, takes more while the
    session runs: ``ClaudeSDKClient.set_mcp_servers``)."""
    from claude_wrap._mcp.server import mcp_message_handler, mcp_refusal

    return ControlHandler(mcp_message_handler(instances, timeout=timeout), mcp_refusal)


def control_plane(options: ClaudeAgentOptions) -> ControlPlane:
    """Build the handlers and ``initialize`` fields for ``options``."""
    plane = ControlPlane()
    if options.agents:
        plane.initialize["agents"] = agents_to_wire(options.agents)
    if options.hooks:
        from claude_wrap._wire.hooks import KNOWN_HOOK_EVENTS

        registry: dict[str, _Registered] = {}
        wire: dict[str, list[dict[str, Any]]] = {}
        for event, matchers in options.hooks.items():
            if event not in KNOWN_HOOK_EVENTS:
                # Sent all the same, as the official package sends it: a newer
                # binary may know the event.
                warnings.warn(
                    f"hooks: {event!r} is not a hook event this version knows; the binary may ignore it",
                    OptionsWarning,
                    stacklevel=5,
                )
            entries = []
            for matcher in matchers:
                # Read by attribute, as the official package reads it, so any
                # object shaped like a HookMatcher serves.
                ids = []
                for callback in getattr(matcher, "hooks", None) or []:
                    callback_id = f"hook_{len(registry)}"
                    registry[callback_id] = _Registered(callback, event, getattr(matcher, "on_failure", None))
                    ids.append(callback_id)
                entry: dict[str, Any] = {"matcher": getattr(matcher, "matcher", None), "hookCallbackIds": ids}
                if getattr(matcher, "timeout", None) is not None:
                    entry["timeout"] = matcher.timeout
                if getattr(matcher, "on_failure", None) is not None:
                    entry["onFailure"] = matcher.on_failure  # the binary applies it to a failed callback
                entries.append(entry)
            if entries:
                wire[event] = entries
        plane.initialize["hooks"] = wire or None
        plane.handlers["hook_callback"] = _hook_handler(registry, timeout=options.callback_timeout)
    sdk_servers = (
        {
            name: config["instance"]  # type: ignore[typeddict-item]
            for name, config in options.mcp_servers.items()
            if isinstance(config, dict) and config.get("type") == "sdk"
        }
        if isinstance(options.mcp_servers, dict)
        else {}
    )
    if sdk_servers:
        # One handler per session: JSON-RPC ids and in-flight calls are per connection.
        plane.handlers["mcp_message"] = mcp_handler(sdk_servers, timeout=options.callback_timeout)
    # Without a callback the subtype stays unhandled: the binary gets the
    # official package's "Unsupported control request subtype" error.
    if options.on_elicitation is not None:
        plane.handlers["elicitation"] = _dialog_handler(
            options.on_elicitation,
            what="on_elicitation",
            fallback={"action": "decline"},
            timeout=options.callback_timeout,
        )
    if options.on_user_dialog is not None:
        plane.handlers["request_user_dialog"] = _dialog_handler(
            options.on_user_dialog,
            what="on_user_dialog",
            fallback={"behavior": "cancelled"},
            timeout=options.callback_timeout,
        )
    if options.supported_dialog_kinds:
        plane.initialize["supportedDialogKinds"] = list(options.supported_dialog_kinds)
    if options.can_use_tool is not None:
        _warn_if_shadowed(options)
    plane.handlers["can_use_tool"] = _permission_handler(
        options.can_use_tool, options.on_user_question, timeout=options.callback_timeout
    )
    plane.needs_stdin = bool(
        options.hooks
        or sdk_servers
        or options._prompts_come_to_python
        or options.on_elicitation is not None
        or options.on_user_dialog is not None
    )
    return plane
