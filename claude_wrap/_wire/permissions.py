"""Permission types: the ``can_use_tool`` callback, its context and its answer.

With a ``can_use_tool`` callback set, the binary runs with
``--permission-prompt-tool stdio`` and, whenever a tool call needs approval,
sends a ``can_use_tool`` control request. The callback gets the tool name, its
input and a ``ToolPermissionContext``; it returns ``PermissionResultAllow`` or
``PermissionResultDeny``, which ``permission_result_to_wire`` turns into the
answer. Names and fields match the official ``claude-agent-sdk`` package.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

__all__ = [
    "ANSWER_LATER",
    "ASK_USER_QUESTION",
    "AnswerLater",
    "CanUseTool",
    "OnUserQuestion",
    "PermissionBehavior",
    "PermissionDecisionClassification",
    "PermissionResult",
    "PermissionResultAllow",
    "PermissionResultDeny",
    "PermissionRuleValue",
    "PermissionUpdate",
    "PermissionUpdateDestination",
    "ToolPermissionContext",
    "UserAnswers",
    "UserQuestion",
    "UserQuestionOption",
    "answer_user_questions",
    "permission_result_to_wire",
    "user_questions",
]

PermissionBehavior = Literal["allow", "deny", "ask"]
"""What a permission rule does with a matching tool call."""

PermissionDecisionClassification = Literal["user_temporary", "user_permanent", "user_reject"]
"""What a person decided, as a host that prompts one reports it: allowed
once, allowed always (the click and each later match of the rule it made),
or refused. Unset, the binary infers it (temporary for an allow, reject for
a deny); it feeds the binary's ``tool_decision`` telemetry."""

PermissionUpdateDestination = Literal["userSettings", "projectSettings", "localSettings", "session", "cliArg"]
"""Where the binary stores a permission update.

``"session"`` lasts for this process only; ``"localSettings"`` is written to
``<cwd>/.claude/settings.local.json`` (a persistent side effect), and
``"projectSettings"`` / ``"userSettings"`` to the project and user
``settings.json``. The binary suggests ``"localSettings"`` and ``"session"``.
"""

_PermissionUpdateType = Literal[
    "addRules",
    "replaceRules",
    "removeRules",
    "setMode",
    "addDirectories",
    "removeDirectories",
]
_RULE_TYPES = frozenset({"addRules", "replaceRules", "removeRules"})
_DIRECTORY_TYPES = frozenset({"addDirectories", "removeDirectories"})


@dataclass
class PermissionRuleValue:
    """One permission rule: a tool name and an optional pattern.

    ``PermissionRuleValue("Bash", "touch b.txt")`` is the settings rule
    ``Bash(touch b.txt)``; wire form ``{"toolName": ..., "ruleContent": ...}``.
    """

    tool_name: str
    rule_content: str | None = None


@dataclass
class PermissionUpdate:
    """A change to the session's permissions, as suggested by or sent to the binary.

    The binary offers these as ``ToolPermissionContext.suggestions``; returning
    some of them in ``PermissionResultAllow.updated_permissions`` applies them
    right away (a rule stops future prompts, ``setMode`` switches the
    permission mode, ``addDirectories`` widens the working directories).

    * ``addRules`` / ``replaceRules`` / ``removeRules`` use ``rules`` and ``behavior``;
    * ``setMode`` uses ``mode`` (a permission mode such as ``"acceptEdits"``);
    * ``addDirectories`` / ``removeDirectories`` use ``directories``;
    * every kind may carry a ``destination``.
    """

    type: _PermissionUpdateType
    rules: list[PermissionRuleValue] | None = None
    behavior: PermissionBehavior | None = None
    mode: str | None = None
    directories: list[str] | None = None
    destination: PermissionUpdateDestination | None = None

    def to_dict(self) -> dict[str, Any]:
        """The wire shape the binary expects, with camelCase rule keys.

        Only the fields that belong to ``type`` are included (all set fields
        for a ``type`` this library does not know); unset fields are omitted.
        """
        known = self.type in _RULE_TYPES or self.type in _DIRECTORY_TYPES or self.type == "setMode"
        wire: dict[str, Any] = {"type": self.type}
        if self.type in _RULE_TYPES or not known:
            if self.rules is not None:
                wire["rules"] = [_rule_to_wire(rule) for rule in self.rules]
            if self.behavior is not None:
                wire["behavior"] = self.behavior
        if (self.type == "setMode" or not known) and self.mode is not None:
            wire["mode"] = self.mode
        if (self.type in _DIRECTORY_TYPES or not known) and self.directories is not None:
            wire["directories"] = list(self.directories)
        if self.destination is not None:
            wire["destination"] = self.destination
        return wire

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PermissionUpdate:
        """Parse one wire entry, e.g. an item of ``permission_suggestions``.

        Unknown keys are ignored and an unknown ``type`` is kept as is.

        Raises:
            TypeError: ``data`` is not a mapping.
        """
        if not isinstance(data, Mapping):
            raise TypeError(f"a permission update must be a dict, got {type(data).__name__}")
        raw_rules = data.get("rules")
        rules: list[PermissionRuleValue] | None = None
        if isinstance(raw_rules, list):
            rules = [
                PermissionRuleValue(
                    tool_name=str(rule.get("toolName", "")),
                    rule_content=rule.get("ruleContent"),
                )
                for rule in raw_rules
                if isinstance(rule, Mapping)
            ]
        raw_directories = data.get("directories")
        return cls(
            type=cast(_PermissionUpdateType, data.get("type")),
            rules=rules,
            behavior=data.get("behavior"),
            mode=data.get("mode"),
            directories=list(raw_directories) if isinstance(raw_directories, list) else None,
            destination=data.get("destination"),
        )


def _rule_to_wire(rule: PermissionRuleValue) -> dict[str, Any]:
    wire: dict[str, Any] = {"toolName": rule.tool_name}
    if rule.rule_content is not None:
        wire["ruleContent"] = rule.rule_content
    return wire


@dataclass
class ToolPermissionContext:
    """What the binary says about a tool call it wants approved.

    Field order matches the official package. What the binary sends beyond
    the official fields is read through properties (`mcp_server`,
    `default_to_no`, `matched_ask_rule`, `suppress_always_allow_rule`,
    `decision_reason_type`, and `raw`: the whole request), kept in a slot
    outside ``vars()``, ``asdict()`` and ``repr()``.
    """

    # The dataclass keeps its fields in __dict__; the extra slot holds the
    # binary's request as it came.
    __slots__ = ("__dict__", "__weakref__", "_raw", "_request_id")

    signal: Any | None = None
    """Always ``None``: when the binary withdraws the request (e.g. after an
    interrupt), the callback's task is cancelled instead."""

    suggestions: list[PermissionUpdate] = field(default_factory=list)
    """Permission updates the binary proposes (``permission_suggestions``);
    return chosen ones as ``PermissionResultAllow.updated_permissions``."""

    tool_use_id: str | None = None
    """The id of the ``tool_use`` block being approved (always sent)."""

    agent_id: str | None = None
    """The sub-agent making the call, if not the main thread."""

    blocked_path: str | None = None
    """The file path that triggered the request, if any."""

    decision_reason: str | None = None
    """Why the binary asks; e.g. a PreToolUse hook's ``"ask"`` reason."""

    title: str | None = None
    """A full prompt sentence for the user, when the binary provides one."""

    display_name: str | None = None
    """A short name for the tool action, suitable for a button label."""

    description: str | None = None
    """A human-readable subtitle (e.g. the Bash command's description)."""

    @classmethod
    def from_request(cls, request: Mapping[str, Any], request_id: str | int | None = None) -> ToolPermissionContext:
        """Build the context from a ``can_use_tool`` request body.

        ``request`` is the ``"request"`` object of the control request (the
        one with ``"subtype": "can_use_tool"``), ``request_id`` the id of
        the control request around it. Missing keys become ``None``;
        malformed suggestions are skipped.
        """
        raw_suggestions = request.get("permission_suggestions")
        suggestions = (
            [PermissionUpdate.from_dict(s) for s in raw_suggestions if isinstance(s, Mapping)]
            if isinstance(raw_suggestions, list)
            else []
        )
        context = cls(
            signal=None,
            suggestions=suggestions,
            tool_use_id=_opt_str(request, "tool_use_id"),
            agent_id=_opt_str(request, "agent_id"),
            blocked_path=_opt_str(request, "blocked_path"),
            decision_reason=_opt_str(request, "decision_reason"),
            title=_opt_str(request, "title"),
            display_name=_opt_str(request, "display_name"),
            description=_opt_str(request, "description"),
        )
        setattr(context, "_raw", dict(request))  # slots, not fields
        setattr(context, "_request_id", request_id)
        return context

    @property
    def raw(self) -> dict[str, Any]:
        """The binary's ``can_use_tool`` request as it came (``{}`` for a
        context built by hand); not an official field."""
        value: dict[str, Any] = getattr(self, "_raw", None) or {}
        return value

    @property
    def request_id(self) -> str | None:
        """The id of the binary's control request this context came with
        (TypeScript's ``requestId``; ``None`` for a context built by hand)."""
        value = getattr(self, "_request_id", None)
        return None if value is None else str(value)

    @property
    def mcp_server(self) -> dict[str, str] | None:
        """For an MCP tool: ``{"name": ..., "source": ...}`` of its server."""
        value = self.raw.get("mcp_server")
        return dict(value) if isinstance(value, Mapping) else None

    @property
    def default_to_no(self) -> bool | None:
        """The binary's advice that a prompt should default to "no"."""
        value = self.raw.get("default_to_no")
        return value if isinstance(value, bool) else None

    @property
    def suppress_always_allow_rule(self) -> bool | None:
        """The binary's advice not to offer "always allow" for this call."""
        value = self.raw.get("suppress_always_allow_rule")
        return value if isinstance(value, bool) else None

    @property
    def matched_ask_rule(self) -> dict[str, Any] | None:
        """The ``ask`` permission rule that made the binary ask, if one did:
        ``{"source", "tool_name", "rule_content"?}``."""
        value = self.raw.get("matched_ask_rule")
        return dict(value) if isinstance(value, Mapping) else None

    @property
    def decision_reason_type(self) -> str | None:
        """What kind of thing made the binary ask (``"hook"``, ``"rule"`` ...)."""
        return _opt_str(self.raw, "decision_reason_type")


def _opt_str(request: Mapping[str, Any], key: str) -> str | None:
    value = request.get(key)
    return value if isinstance(value, str) else None


@dataclass
class PermissionResultAllow:
    """Let the tool call run.

    ``updated_input`` replaces the tool's input (``None`` keeps the original);
    ``updated_permissions`` are applied immediately (see ``PermissionUpdate``).
    """

    behavior: Literal["allow"] = "allow"
    updated_input: dict[str, Any] | None = None
    updated_permissions: list[PermissionUpdate] | None = None
    tool_use_id: str | None = None
    """The ``tool_use`` block this answers (TypeScript's ``toolUseID``); sent only when set."""
    decision_classification: PermissionDecisionClassification | None = None
    """What the user did, for the binary's telemetry; sent only when set."""


@dataclass
class PermissionResultDeny:
    """Refuse the tool call.

    The model receives ``message`` as the error tool result and the turn goes
    on. With ``interrupt=True`` the binary aborts the turn instead (the model
    sees a generic refusal, not ``message``; the result is an error).
    """

    behavior: Literal["deny"] = "deny"
    message: str = ""
    interrupt: bool = False
    tool_use_id: str | None = None
    """The ``tool_use`` block this answers (TypeScript's ``toolUseID``); sent only when set."""
    decision_classification: PermissionDecisionClassification | None = None
    """What the user did, for the binary's telemetry; sent only when set."""


PermissionResult = PermissionResultAllow | PermissionResultDeny
"""What a ``can_use_tool`` callback returns."""


class AnswerLater:
    """The type of ``ANSWER_LATER``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ANSWER_LATER"


ANSWER_LATER = AnswerLater()
"""What a ``can_use_tool`` callback returns to answer later, from anywhere:
``await client.answer_permission(context.request_id, result)``. The tool
waits until then (within ``callback_timeout``, if set; a request still
unanswered when the session closes is denied). TypeScript's ``null``; a
``None`` stays an error, as on the official package."""

CanUseTool = Callable[[str, dict[str, Any], ToolPermissionContext], Awaitable["PermissionResult | AnswerLater"]]
"""A permission callback: ``async (tool_name, tool_input, context) -> PermissionResult``
(or ``ANSWER_LATER``)."""


def permission_result_to_wire(result: object, original_input: dict[str, Any]) -> dict[str, Any]:
    """Turn a ``can_use_tool`` callback's return value into the answer the binary expects.

    * allow → ``{"behavior": "allow", "updatedInput": ..., "updatedPermissions"?: [...]}``;
      ``updatedInput`` is ``original_input`` when ``updated_input`` is ``None``
      (the binary would use the original anyway; it is always sent, as the
      official package does).
    * deny → ``{"behavior": "deny", "message": ..., "interrupt"?: true}``.

    Raises:
        TypeError: ``result`` is neither ``PermissionResultAllow`` nor
            ``PermissionResultDeny`` (e.g. the callback returned ``None`` or a
            bool), or its fields have the wrong types.
    """
    if isinstance(result, PermissionResultAllow):
        updated_input = result.updated_input
        if updated_input is not None and not isinstance(updated_input, Mapping):
            raise TypeError(
                f"PermissionResultAllow.updated_input must be a dict or None, got {type(updated_input).__name__}"
            )
        wire: dict[str, Any] = {
            "behavior": "allow",
            "updatedInput": dict(updated_input) if updated_input is not None else original_input,
        }
        if result.updated_permissions:
            wire["updatedPermissions"] = [_update_to_wire(update) for update in result.updated_permissions]
        return _with_extras(wire, result)
    if isinstance(result, PermissionResultDeny):
        wire = {"behavior": "deny", "message": result.message}
        if result.interrupt:
            wire["interrupt"] = True
        return _with_extras(wire, result)
    raise TypeError(
        "a can_use_tool callback must return PermissionResultAllow or PermissionResultDeny, "
        f"got {type(result).__name__}: {result!r:.200}"
    )


_CLASSIFICATIONS = frozenset(("user_temporary", "user_permanent", "user_reject"))


def _with_extras(wire: dict[str, Any], result: PermissionResultAllow | PermissionResultDeny) -> dict[str, Any]:
    """The TypeScript SDK's fields of an answer, where the callback set them."""
    if result.tool_use_id is not None:
        if not isinstance(result.tool_use_id, str):
            raise TypeError(f"tool_use_id must be a str, got {type(result.tool_use_id).__name__}")
        wire["toolUseID"] = result.tool_use_id
    if result.decision_classification is not None:
        if result.decision_classification not in _CLASSIFICATIONS:
            raise TypeError(
                f"decision_classification must be one of {sorted(_CLASSIFICATIONS)}, "
                f"got {result.decision_classification!r}"
            )
        wire["decisionClassification"] = result.decision_classification
    return wire


def _update_to_wire(update: object) -> dict[str, Any]:
    if isinstance(update, PermissionUpdate):
        return update.to_dict()
    if isinstance(update, Mapping):
        return dict(update)  # already in wire form
    raise TypeError(
        f"PermissionResultAllow.updated_permissions must hold PermissionUpdate objects, got {type(update).__name__}"
    )


# -- AskUserQuestion -----------------------------------------------------------
#
# Measured against the 2.1.328 binary: the model's multiple-choice tool exists
# only when permission prompts go to the host (``--permission-prompt-tool
# stdio``), and every call arrives as a ``can_use_tool`` request for
# ``AskUserQuestion`` (``requires_user_interaction: true``), whatever
# ``allowed_tools`` or the permission mode say. The answers travel back inside
# ``updatedInput["answers"]`` of an allow; a plain allow reaches the model as
# "The user did not answer the questions."

ASK_USER_QUESTION = "AskUserQuestion"
"""The name of the model's tool for asking the user multiple-choice questions."""


@dataclass(frozen=True)
class UserQuestionOption:
    """One choice offered by a question."""

    label: str
    """The text to show, and the value to answer with."""
    description: str = ""
    """What picking it means, in a sentence (may be empty)."""
    preview: str | None = None
    """Markdown the model attached for side-by-side comparison, if any."""


@dataclass(frozen=True)
class UserQuestion:
    """One question the model asks the user through ``AskUserQuestion``."""

    question: str
    """The full question; answers are keyed by this text."""
    header: str = ""
    """A very short label for the question (a chip or tab title)."""
    options: tuple[UserQuestionOption, ...] = ()
    """The choices; the user may also answer in free text instead."""
    multi_select: bool = False
    """Whether several options may be chosen together."""
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The question exactly as the model sent it, for fields not modelled here."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> UserQuestion:
        """Parse one entry of the tool input's ``questions`` list.

        Raises:
            TypeError: ``data`` is not a mapping, or it has no question text.
        """
        if not isinstance(data, Mapping) or not isinstance(data.get("question"), str):
            raise TypeError(f"an AskUserQuestion question must be a dict with a 'question' string, got {data!r:.200}")
        raw_options = data.get("options")
        options = tuple(
            UserQuestionOption(
                label=str(option.get("label", "")),
                description=str(option.get("description") or ""),
                preview=option.get("preview") if isinstance(option.get("preview"), str) else None,
            )
            for option in (raw_options if isinstance(raw_options, list) else [])
            if isinstance(option, Mapping)
        )
        return cls(
            question=data["question"],
            header=str(data.get("header") or ""),
            options=options,
            multi_select=data.get("multiSelect") is True,
            raw=dict(data),
        )


UserAnswers = Mapping[str, str | Sequence[str]]
"""Answers keyed by question text: an option label, several labels for a
multi-select question, or free text. A question left out counts as skipped."""

OnUserQuestion = Callable[[list[UserQuestion], ToolPermissionContext], Awaitable[UserAnswers]]
"""``async (questions, context) -> answers``: answers the model's ``AskUserQuestion`` calls."""


def user_questions(tool_input: Mapping[str, Any]) -> list[UserQuestion]:
    """The typed questions of an ``AskUserQuestion`` tool input.

    Raises:
        TypeError: the input has no ``questions`` list, or an entry is malformed.
    """
    raw = tool_input.get("questions") if isinstance(tool_input, Mapping) else None
    if not isinstance(raw, list):
        raise TypeError(f"AskUserQuestion input has no 'questions' list: {tool_input!r:.200}")
    return [UserQuestion.from_dict(entry) for entry in raw]


def answer_user_questions(tool_input: Mapping[str, Any], answers: object) -> PermissionResultAllow:
    """The ``can_use_tool`` answer that hands ``answers`` to the model.

    For a ``can_use_tool`` callback that handles ``AskUserQuestion`` itself:
    ``return answer_user_questions(tool_input, {"Which color?": "Blue"})``.
    Several labels are joined with ``", "``, the form the binary's own
    interface sends. Empty answers are left out, so the question reads as
    unanswered.

    Raises:
        TypeError: ``answers`` is not a mapping of question text to a string
            or a list of strings.
        ValueError: a key is not one of the questions asked, or a question
            that is not multi-select got several answers. The binary would
            otherwise tell the model, silently, that nothing was answered.
    """
    if not isinstance(answers, Mapping):
        raise TypeError(f"answers must be a mapping of question text to answer, got {type(answers).__name__}")
    questions = {q.question: q for q in user_questions(tool_input)}
    wire: dict[str, str] = {}
    for key, value in answers.items():
        question = questions.get(key) if isinstance(key, str) else None
        if question is None:
            raise ValueError(f"answer for {key!r}, which was not asked; the questions are {list(questions)!r}")
        if isinstance(value, str):
            chosen = [value]
        elif isinstance(value, Sequence) and all(isinstance(item, str) for item in value):
            chosen = list(value)
        else:
            raise TypeError(f"the answer to {key!r} must be a string or a list of strings, got {value!r:.200}")
        chosen = [item for item in chosen if item]
        if len(chosen) > 1 and not question.multi_select:
            raise ValueError(f"{key!r} is not multi-select but got {len(chosen)} answers: {chosen!r}")
        if chosen:
            wire[key] = ", ".join(chosen)
    return PermissionResultAllow(updated_input={**tool_input, "answers": wire})
