"""Differences from the official package that are on purpose, each with its reason.

A difference the harness finds that no entry here explains fails its test.
Only claude_wrap's additions and safety improvements belong here: nothing
that changes what the model sees, and nothing that breaks a program written
for the official package. ``programs`` and ``path`` are patterns where ``*``
matches any text (``[`` and ``]`` are literal), e.g. ``spawns[*].env.X``;
where the path alone says too little, ``ours`` is one for claude_wrap's
side of the difference (its JSON, keys sorted).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any


@dataclass(frozen=True)
class Intentional:
    programs: str
    path: str
    reason: str
    ours: str = "*"

    @cached_property
    def _patterns(self) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
        def pattern(text: str) -> re.Pattern[str]:
            return re.compile(".*".join(re.escape(part) for part in text.split("*")) + r"\Z", re.DOTALL)

        return pattern(self.programs), pattern(self.path), pattern(self.ours)

    def explains(self, program: str, path: str, ours: Any = None) -> bool:
        programs, paths, values = self._patterns
        if not (programs.match(program) and paths.match(path)):
            return False
        return self.ours == "*" or bool(values.match(json.dumps(ours, sort_keys=True)))


_LEFT_MID_TURN = (
    "a run left mid-turn (break, cancellation, disconnect) is interrupted at once, so its tools stop with it, "
    "where the official package lets the turn go on (its tool finishing, the model asked again) after the "
    "caller left: the resumed session then starts from the interrupted turn, not from the finished one"
)

INTENTIONAL: tuple[Intentional, ...] = (
    Intentional(
        "*", "spawns[*].stdin.control_request[+*]", _LEFT_MID_TURN, ours='*"request": {"subtype": "interrupt"}*'
    ),
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
    Intentional("own-leave_mid_turn_transcript", "model.*", _LEFT_MID_TURN),
    Intentional("own-leave_mid_turn_transcript", "notes[*].value", _LEFT_MID_TURN),
    Intentional("own-leave_mid_turn_transcript", "spawns[*].stdin.control_request[*].request_id", _LEFT_MID_TURN),
    Intentional("own-leave_mid_turn_transcript", "messages[*].fields.model_usage.*", _LEFT_MID_TURN),
    Intentional(
        "*",
        "*attrs.result_message",
        "ResultError also carries the ResultMessage it stands for (result_message), an addition",
    ),
    Intentional(
        "*",
        "*attrs",
        "CLINotFoundError keeps the path it looked at as cli_path, an addition",
        ours='{"cli_path": *}',
    ),
    Intentional(
        "*",
        "*attrs.stderr",
        "ProcessError.stderr holds the tail of the binary's real stderr, where the official package "
        'puts a placeholder ("Check stderr output for details")',
    ),
    Intentional(
        "own-error_binary_exits_at_once",
        "notes[*].value.str",
        'str(ProcessError) ends with the binary\'s real stderr tail after "Error output: ", where the '
        "official package puts a placeholder",
        ours='*Error output: error: unknown option --bogus"',
    ),
    Intentional(
        "own-error_binary_exits_at_once",
        "stderr",
        'the official package also logs the error it raises ("Fatal error in message reader"); '
        "claude_wrap raises it without logging it a second time",
    ),
    Intentional(
        "own-options_accepts",
        "stderr",
        "options the official package accepts without a word, but which the binary ignores or refuses, "
        "raise an OptionsWarning here (still accepted)",
    ),
    Intentional(
        "own-options_accepts",
        "warnings[*]",
        "the same OptionsWarnings, as warnings (a class of our own: no official filter matches it)",
        ours='*"warning": "OptionsWarning"*',
    ),
    Intentional(
        "own-hook_matcher_shapes",
        "stderr",
        "a hook event name this version does not know raises an OptionsWarning (the hook is still sent, as "
        "the official package sends it)",
    ),
    Intentional(
        "own-hook_matcher_shapes",
        "warnings[*]",
        "the same OptionsWarning, as a warning",
        ours='*"warning": "OptionsWarning"*',
    ),
    Intentional(
        "own-session_resume",
        "stderr",
        "the official package prints an error when asyncio.run() closes a query() generator the program "
        "returned from inside of; claude_wrap closes it (and stops its binary) without one",
    ),
)
