#!/usr/bin/env python3
"""Fetch, verify and cache the pinned Claude Code binary.

Runs ``npm pack`` through your own npm configuration (or reads a tarball you
already have), checks the tarball's sha512 and the binary's sha256 against
``vendor/claude-code.json``, and installs the binary atomically into the
claude_wrap cache (``$CLAUDE_WRAP_CACHE_DIR`` overrides its location).
Re-running with a verified copy in place is a fast no-op.

    python scripts/fetch_binary.py                      # this machine's platform
    python scripts/fetch_binary.py --verify             # re-hash the cached copy
    python scripts/fetch_binary.py --from-tarball X.tgz # offline install
    python scripts/fetch_binary.py --print-path         # only the path on stdout

The same command is ``claude-wrap fetch-binary``; both run
``claude_wrap._cli.fetch_main``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType


def _import_cli_module() -> ModuleType:
    try:
        from claude_wrap import _cli
    except ImportError:  # running from a checkout without the package installed
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from claude_wrap import _cli
    return _cli


def main(argv: list[str] | None = None) -> int:
    return int(_import_cli_module().fetch_main(argv, prog="fetch_binary.py"))


if __name__ == "__main__":
    sys.exit(main())
