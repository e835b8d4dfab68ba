"""What the scripted model saw: one immutable record per HTTP request."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["RecordedRequest"]

# The binary prepends blocks like this to user turns; tests almost always
# care about the text the host sent, not these.
_REMINDER_PREFIX = "<system-reminder>"


def _text_of(content: object) -> list[str]:
    """Text pieces of a ``content`` value (a string or a list of blocks)."""
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [
            b["text"]
            for b in content
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        ]
    return []


@dataclass(frozen=True)
class RecordedRequest:
    """One request received by `ScriptedModel`, with helpers for assertions.

    ``body`` is the parsed JSON body (``{}`` when the body was empty or not
    JSON); ``headers`` has lower-cased names.
    """

    method: str
    path: str
    headers: Mapping[str, str]
    body: Mapping[str, Any]
    raw_body: bytes
    is_main: bool
    timestamp: float
    #: True when a main-loop request found no queued reply and got the fallback.
    unexpected: bool = False
    #: The HTTP status the model answered with (0 for a stalled request).
    status: int = 0

    @property
    def endpoint(self) -> str:
        """The path without its query string, e.g. ``/v1/messages``."""
        return self.path.split("?", 1)[0]

    @property
    def is_count_tokens(self) -> bool:
        """Whether this was a ``POST /v1/messages/count_tokens`` call."""
        return self.endpoint.rstrip("/").endswith("/count_tokens")

    @property
    def model(self) -> str | None:
        """The ``model`` field of the body."""
        value = self.body.get("model")
        return value if isinstance(value, str) else None

    @property
    def stream(self) -> bool:
        """Whether the client asked for an SSE stream."""
        return bool(self.body.get("stream"))

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The ``messages`` list of the body (empty if absent)."""
        value = self.body.get("messages")
        return [m for m in value if isinstance(m, dict)] if isinstance(value, list) else []

    @property
    def system_text(self) -> str:
        """The system prompt as one string (text blocks joined with newlines)."""
        return "\n".join(_text_of(self.body.get("system")))

    @property
    def tools(self) -> list[dict[str, Any]]:
        """The ``tools`` list of the body (empty if absent)."""
        value = self.body.get("tools")
        return [t for t in value if isinstance(t, dict)] if isinstance(value, list) else []

    @property
    def tool_names(self) -> list[str]:
        """Names of the tools offered to the model, in request order."""
        return [str(t.get("name")) for t in self.tools]

    def _last_user_content(self) -> object:
        for message in reversed(self.messages):
            if message.get("role") == "user":
                return message.get("content")
        return None

    @property
    def last_user_text(self) -> str:
        """Text of the last user message, leaving out ``<system-reminder>`` blocks.

        Text blocks are joined with newlines; tool results are not text and
        are reachable through `tool_results`.
        """
        pieces = _text_of(self._last_user_content())
        return "\n".join(p for p in pieces if not p.lstrip().startswith(_REMINDER_PREFIX))

    @property
    def tool_results(self) -> list[dict[str, Any]]:
        """The ``tool_result`` blocks of the last user message."""
        content = self._last_user_content()
        if not isinstance(content, list):
            return []
        return [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]

    @property
    def tool_result_texts(self) -> list[str]:
        """Each tool result's content flattened to one string (same order as `tool_results`)."""
        return ["\n".join(_text_of(b.get("content"))) for b in self.tool_results]
