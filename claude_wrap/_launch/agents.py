"""``AgentDefinition``: a subagent the model can hand work to."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

__all__ = ["AgentDefinition", "agents_to_wire"]


@dataclass
class AgentDefinition:
    """A programmatic subagent, sent to the binary in ``initialize``.

    Field names are the binary's (camelCase where it uses camelCase), as in
    the official package. The model starts it through the ``Task`` tool;
    its messages carry ``parent_tool_use_id``.
    """

    description: str
    prompt: str
    tools: list[str] | None = None
    disallowedTools: list[str] | None = None  # noqa: N815 - wire name
    model: str | None = None
    """``"sonnet"``, ``"opus"``, ``"haiku"``, ``"inherit"`` or a full model id."""
    skills: list[str] | None = None
    memory: Literal["user", "project", "local"] | None = None
    mcpServers: list[Any] | None = None  # noqa: N815 - wire name
    initialPrompt: str | None = None  # noqa: N815 - wire name
    maxTurns: int | None = None  # noqa: N815 - wire name
    background: bool | None = None
    effort: str | int | None = None
    permissionMode: str | None = None  # noqa: N815 - wire name
    # Beyond the official fields (the TypeScript SDK's), wire names too:
    autoCompactWindow: int | None = None  # noqa: N815 - wire name
    """The context size (tokens) at which the subagent's conversation is compacted."""
    omitClaudeMd: bool | None = None  # noqa: N815 - wire name
    """``True``: the subagent does not get the CLAUDE.md files the main agent reads."""
    criticalSystemReminder_EXPERIMENTAL: str | None = None  # noqa: N815 - wire name
    """A reminder the binary adds to the subagent's context on every turn (experimental)."""
    observer: str | None = None
    """The name of an agent that watches this one's work (the binary's observer agents)."""
    observerMessage: str | None = None  # noqa: N815 - wire name
    """What the observer is told when it starts."""


def agents_to_wire(agents: dict[str, AgentDefinition]) -> dict[str, dict[str, Any]]:
    """The ``initialize.agents`` value: each definition without unset fields."""
    wire: dict[str, dict[str, Any]] = {}
    for name, agent in agents.items():
        if not isinstance(agent, AgentDefinition):
            raise TypeError(f"agents[{name!r}] must be an AgentDefinition, got {type(agent).__name__}")
        wire[name] = {k: v for k, v in asdict(agent).items() if v is not None}
    return wire
