"""Typed views of a ``SystemMessage``'s ``data``.

System frames such as ``init`` arrive as a plain ``SystemMessage`` whose
``data`` is the whole frame, exactly as in the official package. These
views read the keys of one subtype into typed attributes, on demand::

    async for message in query(prompt="..."):
        if (init := InitSystemMessage.of(message)) is not None:
            print(init.model, init.tools)

``of`` returns ``None`` for any other message, and raises
``MessageParseError`` when the frame's keys do not have the types the view
declares. A key the frame lacks takes the attribute's default. Views are
frozen dataclasses and not messages: ``query()`` never yields one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

import msgspec

from claude_wrap._exceptions import MessageParseError
from claude_wrap._wire.messages import SystemMessage
from claude_wrap._wire.shapes import (
    WireFastModeDisabledReason,
    WireFastModeState,
    WireMcpServers,
    WirePluginErrors,
    WirePlugins,
)

__all__ = [
    "ApiRetryMessage",
    "CompactBoundaryMessage",
    "InformationalMessage",
    "InitSystemMessage",
    "StatusMessage",
]

_View = TypeVar("_View", bound="_SystemView")


def _key(name: str) -> Any:
    """Field metadata for an attribute read from a differently spelled key."""
    return {"key": name}


@dataclass(frozen=True)
class _SystemView:
    subtype: ClassVar[str]

    @classmethod
    def of(cls: type[_View], message: object) -> _View | None:
        """The view of ``message`` if it is a ``SystemMessage`` of this
        view's subtype, else ``None``."""
        if not isinstance(message, SystemMessage) or message.subtype != cls.subtype:
            return None
        data = message.data
        present = {}
        for f in dataclasses.fields(cls):
            key = f.metadata.get("key", f.name)
            if key in data:
                present[f.name] = data[key]
        try:
            return msgspec.convert(present, cls)
        except msgspec.ValidationError as exc:
            raise MessageParseError(f"system/{cls.subtype} frame does not fit {cls.__name__}: {exc}", data) from exc


@dataclass(frozen=True)
class InitSystemMessage(_SystemView):
    """``system/init``, sent at the start of every turn (see ``SystemInitData``
    for every key of the frame)."""

    subtype: ClassVar[str] = "init"

    session_id: str = ""
    model: str = ""
    cwd: str = ""
    tools: list[str] = field(default_factory=list)
    mcp_servers: WireMcpServers = field(default_factory=list)
    permission_mode: str = field(default="", metadata=_key("permissionMode"))
    slash_commands: list[str] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)
    skills: list[str] = field(default_factory=list)
    claude_code_version: str = ""
    api_key_source: str = field(default="", metadata=_key("apiKeySource"))
    output_style: str = ""
    uuid: str = ""
    plugins: WirePlugins = field(default_factory=list)
    plugin_errors: WirePluginErrors | None = None
    fast_mode_state: WireFastModeState | None = None
    fast_mode_disabled_reason: WireFastModeDisabledReason | None = None
    capabilities: list[str] | None = None
    terminal_slash_commands: list[str] | None = None
    betas: list[str] | None = None


@dataclass(frozen=True)
class ApiRetryMessage(_SystemView):
    """``system/api_retry``: the binary is retrying a failed API call."""

    subtype: ClassVar[str] = "api_retry"

    attempt: int = 0
    max_retries: int = 0
    retry_delay_ms: float = 0
    error_status: int | None = None
    error: str | None = None


@dataclass(frozen=True)
class CompactBoundaryMessage(_SystemView):
    """``system/compact_boundary``: the conversation was compacted here."""

    subtype: ClassVar[str] = "compact_boundary"

    compact_metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class StatusMessage(_SystemView):
    """``system/status``: what the binary is doing now (e.g. ``requesting``)."""

    subtype: ClassVar[str] = "status"

    status: str | None = None


@dataclass(frozen=True)
class InformationalMessage(_SystemView):
    """``system/informational``: a notice meant for the user."""

    subtype: ClassVar[str] = "informational"

    content: str | None = None
    level: str | None = None
