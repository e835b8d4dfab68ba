"""Shapes of the structured option values (plain dicts at runtime, as in the
official package), and the checks made on them before a run starts."""

# No ``from __future__ import annotations``: TypedDict must see ``NotRequired``
# itself, not a string, to know which keys are optional.
import re
from typing import Any, Literal, Union

from typing_extensions import NotRequired, TypedDict

__all__ = [
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
    "ToolsPreset",
    "check_skill_name",
]

SdkBeta = Literal["context-1m-2025-08-07"]
"""A beta the binary can ask the API for (``ClaudeAgentOptions.betas``)."""

ThinkingDisplay = Literal["summarized", "omitted"]


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
    """A plugin loaded from a local directory or .zip (``--plugin-dir``)."""

    type: Literal["local"]
    path: str


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


# A skill name becomes part of a permission rule, "Skill(<name>)": anything
# that would end the rule early, widen it, or hide in a terminal is refused.
_BAD_SKILL = re.compile(r"[\s(),*\\\x00-\x1f\x7f\ufeff\ud800-\udfff]")


def check_skill_name(name: Any) -> str:
    """Return ``name`` if it is a usable skill name, else raise ``ValueError``."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"skill names are non-empty strings, got {name!r}")
    if name.startswith("/"):
        raise ValueError(f"skill name {name!r}: leave out the leading '/'")
    bad = _BAD_SKILL.search(name)
    if bad is not None:
        raise ValueError(f"skill name {name!r} contains {bad.group()!r}, which a permission rule cannot hold")
    return name


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


class ToolsPreset(TypedDict):
    """The binary's default tool set."""

    type: Literal["preset"]
    preset: Literal["claude_code"]
