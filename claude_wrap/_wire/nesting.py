"""How deep a stdout line nests, and the line with what is too deep cut out.

The model writes tool inputs, so a prompt injection can ask for one nested
thousands of levels deep; the binary passes it on in its frames (the
assistant message, the ``can_use_tool`` or ``hook_callback`` request, the
MCP ``tools/call``). msgspec, like ``json``, gives up at Python's recursion
limit less the caller's own stack, so without a limit of our own whether
such a line decodes would depend on who is reading it.

``MAX_NESTING`` is that limit, the same for every line: a line whose JSON
nests arrays and objects deeper than this (the frame itself is level one)
is not decoded as it stands. The codec decodes ``pruned(line)`` instead,
where each value below the limit is replaced by ``TOO_DEEP_TEXT``: a
message arrives with that text in place of what was cut (and a warning is
logged), a control request is refused without calling any callback.

Most lines cannot nest that deep: that takes more opening brackets than
they have. So the check costs a length test for a short line, a byte
count for a longer one, and, only for a line with that many brackets, a
plain decode and a walk of its containers (strings are skipped, not
scanned) before the typed decode.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MAX_NESTING", "TOO_DEEP", "TOO_DEEP_TEXT", "may_nest_too_deep", "nests_too_deep", "pruned"]

MAX_NESTING = 200
"""How many arrays and objects one line may nest, counting the frame
itself. Far below Python's recursion limit (1,000), so decoding never
reaches it, whatever the caller's stack; far above what a tool input needs."""

TOO_DEEP_TEXT = f"<nested deeper than {MAX_NESTING} levels>"
"""What stands in ``pruned()``'s output for each value nested too deep."""

TOO_DEEP = f'"{TOO_DEEP_TEXT}"'.encode()

_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[{")

# A JSON string (its escapes consumed whole) or one bracket.
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)


def may_nest_too_deep(line: bytes) -> bool:
    """False when ``line`` cannot nest deeper than ``MAX_NESTING``: it has
    too few opening brackets. True means: look at the decoded values."""
    if len(line) <= 2 * MAX_NESTING:
        return False
    # translate() with a delete table runs at memory speed and keeps only
    # the opening brackets: their count, without a pass per character kind.
    return len(line.translate(None, _NOT_BRACKETS)) > MAX_NESTING


def nests_too_deep(value: Any, *, levels: int = MAX_NESTING) -> bool:
    """True when ``value`` (decoded JSON) nests more than ``levels`` arrays
    and objects, ``value`` itself being the first.

    One level at a time, so the walk itself never recurses; strings and
    numbers are never looked into.
    """
    if type(value) is not dict and type(value) is not list:
        return False
    level = [value]
    for _ in range(levels):
        below: list[Any] = []
        for container in level:
            items = container.values() if type(container) is dict else container
            below += [item for item in items if type(item) is dict or type(item) is list]
        if not below:
            return False
        level = below
    return True


def pruned(line: bytes) -> bytes:
    """``line`` with every array or object that opens below ``MAX_NESTING``
    replaced by ``TOO_DEEP``, so it decodes at any stack depth.

    Slow (a regular-expression pass in Python), and only for lines already
    known to nest too deep. A line cut off inside a deep value keeps its
    tail, and fails to decode as it would have.
    """
    parts: list[bytes] = []
    depth = 0
    cut_at = -1  # where the value being cut out began
    kept_to = 0
    for match in _TOKEN.finditer(line):
        char = line[match.start()]
        if char == 0x22:  # a string: its brackets are text
            continue
        if char in b"[{":
            depth += 1
            if depth == MAX_NESTING + 1:
                cut_at = match.start()
        else:
            if depth == MAX_NESTING + 1 and cut_at >= 0:
                parts += (line[kept_to:cut_at], TOO_DEEP)
                kept_to = match.end()
                cut_at = -1
            depth -= 1
    parts.append(line[kept_to:])
    return b"".join(parts)
