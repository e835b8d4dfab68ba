"""Differences from the official package that are on purpose, each with its reason.

A difference the harness finds that no entry here explains fails its test.
Only claude_wrap's additions and safety improvements belong here: nothing
that changes what the model sees, and nothing that breaks a program written
for the official package. ``programs`` and ``path`` are patterns where ``*``
matches any text (``[`` and ``]`` are literal), e.g. ``spawns[*].env.X``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Intentional:
    programs: str
    path: str
    reason: str

    @cached_property
    def _patterns(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        def pattern(text: str) -> re.Pattern[str]:
            return re.compile(".*".join(re.escape(part) for part in text.split("*")) + r"\Z")

        return pattern(self.programs), pattern(self.path)

    def explains(self, program: str, path: str) -> bool:
        programs, paths = self._patterns
        return bool(programs.match(program) and paths.match(path))


INTENTIONAL: tuple[Intentional, ...] = (
    Intentional(
        "*",
        "spawns[*].argv_files",
        "MCP and settings JSON go to the binary as private files (0600, removed after the run), "
        "never inline in the command line every local user can read; the harness compares "
        "the files' content as the argv value",
    ),
    Intentional(
        "*",
        "spawns[*].env.CLAUDE_WRAP_RUN",
        "a tag every process the binary starts inherits, so claude_wrap can stop Bash commands "
        "left running in their own sessions when the binary dies",
    ),
)
