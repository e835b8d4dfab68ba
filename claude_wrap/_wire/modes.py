"""``PermissionMode``: a literal the options, ``init`` frames and control requests share.

Its own module so that ``ClaudeAgentOptions`` can name it without loading
the message shapes.
"""

from typing import Literal

__all__ = ["PermissionMode"]

PermissionMode = Literal["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto"]
"""How the binary asks before running tools: an option, reported back in ``init`` frames."""
