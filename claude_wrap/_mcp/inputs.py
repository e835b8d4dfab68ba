"""What a tool takes: its schema, and the check that turns arguments into its input.

Shared by plain ``@tool`` schemas (``tools``) and pydantic model inputs
(``tool_models``), which is why it sits below both.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

__all__ = ["InputSpec", "ToolInputError"]


class ToolInputError(ValueError):
    """The arguments the model sent do not fit the tool's input schema.

    ``str()`` is the text the model is shown.
    """


@dataclasses.dataclass(frozen=True)
class InputSpec:
    """A tool's JSON Schema, and how arguments become the handler's input."""

    schema: dict[str, Any]
    parse: Callable[[dict[str, Any]], Any]
    """Checks the arguments; returns what the handler gets or raises ``ToolInputError``."""
