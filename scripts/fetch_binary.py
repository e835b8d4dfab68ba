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
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import ModuleType


def _import_binary_module() -> ModuleType:
    try:
        from claude_wrap import _binary
    except ImportError:  # running from a checkout without the package installed
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from claude_wrap import _binary
    return _binary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="fetch_binary.py",
        description="Fetch, verify and cache the pinned Claude Code binary.",
    )
    parser.add_argument(
        "--platform",
        help="platform package to fetch, e.g. linux-x64, darwin-arm64, win32-x64 (default: this machine)",
    )
    parser.add_argument("--force", action="store_true", help="fetch and install again even if a verified copy exists")
    parser.add_argument("--verify", action="store_true", help="re-hash the cached copy instead of trusting its marker")
    parser.add_argument(
        "--from-tarball",
        metavar="PATH",
        type=Path,
        help="install from this npm tarball (as written by `npm pack`) instead of running npm",
    )
    parser.add_argument(
        "--print-path",
        action="store_true",
        help="print only the binary's path on stdout (status goes to stderr)",
    )
    args = parser.parse_args(argv)

    binary = _import_binary_module()
    status = sys.stderr if args.print_path else sys.stdout
    try:
        res = binary.ensure_binary(
            args.platform, force=args.force, verify=args.verify, tarball=args.from_tarball
        )
    except KeyboardInterrupt:
        print("fetch_binary: interrupted; nothing was installed", file=sys.stderr)
        return 130
    except (binary.ClaudeSDKError, OSError) as exc:
        print(f"fetch_binary: error: {exc}", file=sys.stderr)
        return 1

    what = f"Claude Code {res.version} ({res.platform})"
    if res.action == "cached":
        print(f"verified copy of {what} already at {res.path}", file=status)
    elif res.action == "reverified":
        print(f"re-hashed and verified {what} at {res.path} in {res.seconds:.1f} s", file=status)
    else:
        source = f"from {res.tarball}" if res.tarball else "with npm pack"
        print(f"fetched and verified {what} {source} in {res.seconds:.1f} s: {res.path}", file=status)
    if args.print_path:
        print(res.path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
