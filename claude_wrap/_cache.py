"""Where the package keeps files of its own on this machine: the user cache.

The verified binary lives under it (``_process.fetch``), and so does the
spool of transcript entries a session store has not taken yet
(``_sessions.spool``).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ENV_CACHE_DIR", "cache_root"]

ENV_CACHE_DIR = "CLAUDE_WRAP_CACHE_DIR"


def cache_root() -> Path:
    """The cache root: ``$CLAUDE_WRAP_CACHE_DIR`` or ``platformdirs.user_cache_path("claude-wrap")``."""
    override = os.environ.get(ENV_CACHE_DIR, "").strip()
    if override:
        return Path(override).expanduser().absolute()
    import platformdirs  # lazy: keeps `import claude_wrap` cheap

    return platformdirs.user_cache_path("claude-wrap")
