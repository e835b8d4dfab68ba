#!/usr/bin/env python3
"""The TypeScript SDK's surface, recorded, so that the suite says what it added.

    python scripts/ts_surface.py                 # print the surface of the newest TypeScript SDK
    python scripts/ts_surface.py --write         # ... and rewrite the record
    python scripts/ts_surface.py --from DIR      # read an unpacked package instead of fetching one

The package (``@anthropic-ai/claude-agent-sdk``) is fetched with ``npm pack``
through the user's own npm configuration; its ``sdk.d.ts`` gives the names
of ``Options``, of the ``Query`` methods, the hook events and the message
types. The record is ``tests/fixtures/ts_surface.json``; ``make bump``
rewrites it, and ``tests/unit/test_ts_surface.py`` names every recorded
name that claude_wrap neither offers nor lists as left out, with a reason.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "fixtures" / "ts_surface.json"
PACKAGE = "@anthropic-ai/claude-agent-sdk"


def _body(source: str, opening: str) -> str:
    """What is between ``opening`` (which ends with ``{``) and its ``}``."""
    start = source.index(opening) + len(opening)
    depth, at = 1, start
    while depth:
        char = source[at]
        depth += {"{": 1, "}": -1}.get(char, 0)
        at += 1
    return source[start : at - 1]


def members(body: str) -> list[str]:
    """The names declared at the top level of a TypeScript type body, in order."""
    body = re.sub(r"/\*.*?\*/|//[^\n]*", "", body, flags=re.S).replace("=>", " to ")
    names: list[str] = []
    depth, line = 0, ""
    for char in body:
        if char in "{([<":
            depth += 1
        elif char in "})]>":
            depth -= 1
        if depth == 0 and char in ";\n":
            found = re.match(r"\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)\??\s*[:(]", line)
            if found and found.group(1) not in names:
                names.append(found.group(1))
            line = ""
        else:
            line += char
    return names


def surface(sdk_d_ts: str) -> dict[str, object]:
    """The recorded parts of a ``sdk.d.ts``."""
    hooks = re.search(r"export declare const HOOK_EVENTS: readonly \[([^\]]*)\]", sdk_d_ts)
    messages = sorted(set(re.findall(r"export declare type SDK\w*Message\w* = \{\s*type: '([a-z_]+)'", sdk_d_ts)))
    return {
        "options": members(_body(sdk_d_ts, "export declare type Options = {")),
        "query_methods": members(
            _body(sdk_d_ts, "export declare interface Query extends AsyncGenerator<SDKMessage, void> {")
        ),
        "hook_events": re.findall(r"'(\w+)'", hooks.group(1)) if hooks else [],
        "message_types": messages,
    }


def fetch(into: Path) -> Path:
    """``npm pack`` the newest package into ``into`` and unpack it; returns the package folder."""
    out = subprocess.run(
        ["npm", "pack", PACKAGE, "--json", "--ignore-scripts", "--pack-destination", str(into)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, check=True,
    )  # fmt: skip
    tarball = into / json.loads(out.stdout)[0]["filename"]
    with tarfile.open(tarball) as archive:
        archive.extractall(into, filter="data")
    return into / "package"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="rewrite tests/fixtures/ts_surface.json")
    parser.add_argument("--from", dest="source", type=Path, help="an unpacked package folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.source or fetch(Path(scratch))
        version = json.loads((folder / "package.json").read_text())["version"]
        found = {"version": version, **surface((folder / "sdk.d.ts").read_text())}
    old = json.loads(RECORD.read_text()) if RECORD.exists() else {}
    for key, value in found.items():
        if isinstance(value, list):
            added = [name for name in value if name not in old.get(key, [])]
            removed = [name for name in old.get(key, []) if name not in value]
            if added or removed:
                print(f"{key}: added {added}, removed {removed}")
    print(f"TypeScript SDK {version}: " + ", ".join(f"{len(v)} {k}" for k, v in found.items() if isinstance(v, list)))
    if args.write:
        RECORD.write_text(json.dumps(found, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
