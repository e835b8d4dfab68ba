"""What the binary may ask of us: the handlers for its control requests and
the ``initialize`` fields that announce them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._options import ClaudeAgentOptions
from ._session import ControlHandler

__all__ = ["ControlPlane", "control_plane"]


@dataclass
class ControlPlane:
    """Handlers by request subtype, plus fields for ``initialize``."""

    handlers: dict[str, ControlHandler] = field(default_factory=dict)
    initialize: dict[str, Any] = field(default_factory=dict)


def control_plane(options: ClaudeAgentOptions) -> ControlPlane:
    """Build the control plane for ``options``."""
    return ControlPlane()
