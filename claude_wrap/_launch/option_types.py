"""Shapes of the structured option values (plain dicts at runtime, as in the
official package), and the checks made on them before a run starts."""

# No ``from __future__ import annotations``: TypedDict must see ``NotRequired``
# itself, not a string, to know which keys are optional.
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal, Union

from typing_extensions import NotRequired, TypedDict

__all__ = [
    "BUILTIN_TOOL_NAMES",
    "LEGACY_TOOL_NAME_ALIASES",
    "SYSTEM_PROMPT_DYNAMIC_BOUNDARY",
    "AskUserQuestionConfig",
    "SandboxIgnoreViolations",
    "SandboxNetworkConfig",
    "SandboxSettings",
    "SdkBeta",
    "SdkPluginConfig",
    "SystemPromptCustom",
    "SystemPromptFile",
    "SystemPromptPreset",
    "TaskBudget",
    "ThinkingConfig",
    "ThinkingConfigAdaptive",
    "ThinkingConfigDisabled",
    "ThinkingConfigEnabled",
    "ThinkingDisplay",
    "ToolConfig",
    "ToolsPreset",
    "check_skills",
    "question_preview_format",
]

SYSTEM_PROMPT_DYNAMIC_BOUNDARY = "__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__"
"""An element of a ``system_prompt`` list that marks where the part every
session shares (before it: eligible for prompt caching across sessions)
ends and the session's own part begins (the TypeScript SDK's constant)."""


class AskUserQuestionConfig(TypedDict):
    """How the model's multiple-choice questions are described to it."""

    preview_format: NotRequired[Literal["markdown", "html"]]
    """What an option's ``preview`` holds: Markdown or ASCII (the default,
    for a terminal) or self-contained HTML fragments (for a web UI)."""


class ToolConfig(TypedDict):
    """Settings of built-in tools (``ClaudeAgentOptions.tool_config``; the
    TypeScript SDK's ``toolConfig``)."""

    ask_user_question: NotRequired[AskUserQuestionConfig]


def question_preview_format(tool_config: ToolConfig | None) -> object:
    """``tool_config['ask_user_question']['preview_format']``, or ``None`` where unset."""
    return ((tool_config or {}).get("ask_user_question") or {}).get("preview_format")


SdkBeta = Literal["context-1m-2025-08-07"]
"""A beta the binary can ask the API for (``ClaudeAgentOptions.betas``)."""

ThinkingDisplay = Literal["summarized", "omitted", "highlights"]


class ThinkingConfigAdaptive(TypedDict):
    """The model decides how much to think (``--thinking adaptive``)."""

    type: Literal["adaptive"]
    display: NotRequired[ThinkingDisplay]


class ThinkingConfigEnabled(TypedDict):
    """Thinking with a token budget (``--max-thinking-tokens``)."""

    type: Literal["enabled"]
    budget_tokens: int
    display: NotRequired[ThinkingDisplay]


class ThinkingConfigDisabled(TypedDict):
    """No thinking (``--thinking disabled``)."""

    type: Literal["disabled"]


ThinkingConfig = Union[ThinkingConfigAdaptive, ThinkingConfigEnabled, ThinkingConfigDisabled]
"""How the model thinks."""


class TaskBudget(TypedDict):
    """An API-side token budget for the whole task (``--task-budget``)."""

    total: int


class SdkPluginConfig(TypedDict):
    """A plugin loaded from a local directory or .zip (``--plugin-dir``).

    ``skipMcpDiscovery=True`` (not an official key; the TypeScript SDK's)
    loads it without the MCP servers it declares."""

    type: Literal["local"]
    path: str
    skipMcpDiscovery: NotRequired[bool]


class SandboxNetworkConfig(TypedDict, total=False):
    """Network rules for sandboxed commands."""

    allowedDomains: list[str]
    deniedDomains: list[str]
    allowManagedDomainsOnly: bool
    allowUnixSockets: list[str]
    allowAllUnixSockets: bool
    allowLocalBinding: bool
    allowMachLookup: list[str]
    httpProxyPort: int
    socksProxyPort: int


class SandboxIgnoreViolations(TypedDict, total=False):
    """Violations the sandbox reports but does not block."""

    file: list[str]
    network: list[str]


class SandboxSettings(TypedDict, total=False):
    """The bash sandbox, sent as the ``sandbox`` key of ``--settings``."""

    enabled: bool
    autoAllowBashIfSandboxed: bool
    excludedCommands: list[str]
    allowUnsandboxedCommands: bool
    network: SandboxNetworkConfig
    ignoreViolations: SandboxIgnoreViolations
    enableWeakerNestedSandbox: bool


# A skill name becomes part of the --allowedTools value as "Skill(<name>)".
# The binary splits that value on commas and spaces outside parentheses and
# knows no escapes there, so a name holding a delimiter cannot be passed
# through; control characters and a BOM never name a skill directory.
_SKILL_DELIMITERS = re.compile(r"[(),\x00-\x1f\x7f-\x9f\ufeff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _skill_name_problem(name: str) -> str | None:
    """Why ``name`` cannot become a working ``Skill(name)`` rule, or ``None``."""
    if _SURROGATE.search(name):
        return "it holds a surrogate code point, which no skill the binary finds can have"
    if name != name.strip():
        return "the Skill tool trims the name it is called with, so surrounding whitespace never matches"
    if _SKILL_DELIMITERS.search(name):
        return (
            "parentheses, commas, control characters and byte-order marks cannot be passed in a rule; "
            "a name is the skill's directory name, or 'plugin:skill'"
        )
    if name == "*":
        return 'use skills="all" for every skill'
    if name.endswith((":*", " *")):
        return "wildcards are not names; list each skill by its exact name"
    if name.startswith("/"):
        return "give the skill's name, not its slash command"
    if "\\\\" in name:
        return "the binary reads a doubled backslash as one, so the rule would name another skill"
    if name.endswith("\\"):
        return "a trailing backslash escapes the rule's closing parenthesis"
    return None


def check_skills(skills: Any) -> None:
    """Raise if ``ClaudeAgentOptions.skills`` cannot become permission rules:
    ``TypeError`` for a value that is neither a list nor ``"all"`` or a name
    that is not a string, ``ValueError`` for a name no rule can carry (the
    official package's classes, raised where it raises them: as the run starts)."""
    if skills == "all":
        return
    if not isinstance(skills, list):
        hint = f" Did you mean [{skills!r}]?" if isinstance(skills, str) else ""
        raise TypeError(f'ClaudeAgentOptions.skills must be a list of skill names or "all", got {skills!r}.{hint}')
    for name in skills:
        if not isinstance(name, str):
            raise TypeError(f"Skill names must be strings, got {type(name).__name__}: {name!r}")
        if not name.strip():
            raise ValueError("Skill names must be non-empty strings")
        problem = _skill_name_problem(name)
        if problem is not None:
            raise ValueError(f"Invalid skill name {name!r}: {problem}")


class SystemPromptPreset(TypedDict):
    """The binary's own Claude Code system prompt, optionally extended."""

    type: Literal["preset"]
    preset: Literal["claude_code"]
    append: NotRequired[str]
    exclude_dynamic_sections: NotRequired[bool]
    """Leave per-user parts (working directory, git status, memory) out of
    the system prompt, so one cached prompt serves every user; the binary
    moves them into the first user message instead."""
    snapshot: NotRequired[bool]
    """Whether a session keeps the system prompt of its first request. The
    binary's default (``True`` here, unset) records it: every later request,
    resumed runs included, sends the recorded prompt, so a changed ``append``
    has no effect on a resumed session. ``False`` rebuilds the prompt on every
    request."""


class SystemPromptCustom(TypedDict):
    """A system prompt of your own, in the form that can also set ``snapshot``
    (a plain string is the same prompt with the binary's default)."""

    type: Literal["custom"]
    prompt: str
    snapshot: NotRequired[bool]
    """As ``SystemPromptPreset.snapshot``, for ``prompt``."""


class SystemPromptFile(TypedDict):
    """A system prompt read from a file by the binary."""

    type: Literal["file"]
    path: str


BUILTIN_TOOL_NAMES: tuple[str, ...] = (
    "Agent", "Artifact", "AskUserQuestion", "Bash", "ClaudeDesign", "CronCreate", "CronDelete", "CronList",
    "Edit", "EndConversation", "EnterPlanMode", "EnterWorktree", "ExitPlanMode", "ExitWorktree", "Glob", "Grep",
    "ListAgents", "ListMcpResourcesTool", "LSP", "Monitor", "NotebookEdit", "OfferChromeSetup", "PowerShell",
    "Projects", "propose_skills", "PushNotification", "Read", "ReadMcpResourceDirTool", "ReadMcpResourceTool",
    "ReadNotifications", "RefreshMcpTools", "RemoteTrigger", "ReportFindings", "ScheduleWakeup", "SendFeedback", "SendMessage",
    "SendUserFile", "SendUserMessage", "SetGoal", "ShareOnboardingGuide", "ShowOnboardingRolePicker", "Skill",
    "SubagentHandback", "TaskCreate", "TaskGet", "TaskList", "TaskStop", "TaskUpdate", "TodoWrite", "ToolSearch",
    "WaitForMcpServers", "WebFetch", "WebSearch", "Workflow", "Write",
)  # fmt: skip
"""The names of the binary's built-in tools, as the model, hooks,
``allowed_tools`` and ``can_use_tool`` see them (a run offers some of them,
depending on its settings and platform). The ``init`` message lists
``Agent`` under its older name, ``Task``."""


LEGACY_TOOL_NAME_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "Task": "Agent",
        "KillShell": "TaskStop",
        "KillBash": "TaskStop",
        "ListPeers": "ListAgents",
        "Brief": "SendUserMessage",
        "ListMcpResources": "ListMcpResourcesTool",
        "ReadMcpResource": "ReadMcpResourceTool",
        "ReadMcpResourceDir": "ReadMcpResourceDirTool",
        "ProposeGoal": "SetGoal",
    }
)
"""Former tool names the binary still accepts in permission rules, hook
matchers, ``tools``, ``allowed_tools`` and ``disallowed_tools``, each
mapped to the tool's current name (the TypeScript SDK's table)."""


class ToolsPreset(TypedDict):
    """The binary's default tool set."""

    type: Literal["preset"]
    preset: Literal["claude_code"]
