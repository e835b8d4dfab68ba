"""What a program observed, as one JSON document, with the incidental parts normalised.

`observe` turns one side's raw results into a document whose sections are
compared with the other side's:

``exit_code``, ``timed_out``, ``exception``
    how the program ended (exception: class, MRO names, ``str()``, attributes);
``messages``, ``notes``
    every message the program received, in order, and its ``twin.note``
    values, in order (apart: a note from a hook or a permission callback
    races the message the program is reading at the time);
``warnings``
    each warning it was shown: its class, the class's MRO names, its text
    (programs filter warnings by class and by text);
``stdout``, ``stderr``
    what it printed, line by line;
``spawns``
    each start of the binary: argv (as options, in any order), environment,
    every stdin line (parsed, by frame type),
    and whether it was still running after the program exited;
``model``
    the requests the scripted model received: main-loop requests in full
    (headers, system prompt, tools, messages, ...), the parent's and each
    subagent's apart, and a summary of the rest.

Normalised: the side's own directory, ids (UUIDs, request, message and tool
ids, hex tokens), timings and timestamps, costs, pids and the two packages'
own version numbers. Each distinct id becomes ``<kind:N>`` in order of first
appearance, so "the same session id twice" stays visible.
"""

from __future__ import annotations

import json
import re
from typing import Any

from _twin import SideResult, Spawn

from claude_wrap.testing import RecordedRequest

# Headers that only say how the bytes travelled.
_TRANSPORT_HEADERS = frozenset({"host", "content-length", "connection", "accept-encoding"})

# Numbers that differ from run to run: durations, instants, costs, pids.
_VOLATILE_KEYS = re.compile(
    r"(?i)^(duration_ms|duration_api_ms|total_cost_usd|cost_usd|costusd|timestamp|"
    r"created_at|updated_at|last_modified|lastmodified|mtime|started_at|ended_at|pid|"
    r"ttft_ms|ttftms|elapsed_ms|elapsed_time_seconds|uptime|time_ms|latency_ms|"
    r"resets_at|resetsat|file_size|start_time|end_time)$"
)
# Values that are ids whatever their shape (each package makes its own).
_ID_KEYS = frozenset({"request_id"})
# Values that are one random token per machine or run, or the package's own version.
_TOKEN_KEYS = frozenset({"device_id", "CLAUDE_WRAP_RUN", "CLAUDE_AGENT_SDK_VERSION"})

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("uuid", re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")),
    ("msg", re.compile(r"\bmsg_(?:scripted_\d+|[A-Za-z0-9]{20,})")),
    ("req", re.compile(r"\breq_(?:scripted_\d+|[A-Za-z0-9]{20,})")),
    ("toolu", re.compile(r"\b(?:srv)?toolu_(?:scripted_\d+|[A-Za-z0-9]{20,})")),
    ("hex", re.compile(r"\b[0-9a-f]{24,}\b")),
    # The binary's ids for background tasks (agents) and their runs.
    ("agent", re.compile(r"\ba[0-9a-f]{16}\b")),
    ("task_run", re.compile(r"\b[0-9a-z]{9}-[0-9a-f]{8}\b")),
]
_TIME_PATTERNS = [
    re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?"),
]
_SUBSTITUTIONS = [
    (re.compile(r"cc-socks/\d+"), "cc-socks/<pid>"),
    (re.compile(r"agent-sdk/[0-9][0-9A-Za-z.+-]*"), "agent-sdk/<version>"),
    (re.compile(r"\b\d+(?:\.\d+)?ms\b"), "<n>ms"),
    (re.compile(r"\b0x[0-9a-f]{6,}\b"), "0x<address>"),
    # A message's repr() or dict printed by the program.
    (re.compile(r"\b(duration_ms|duration_api_ms)(=|': |\": |>)\d+"), r"\1\2<n>"),
]
# A warning's location is a file of the package that issued it.
_WARNING_LOCATION = re.compile(r"^\S+\.py:\d+: (\w+): ", re.MULTILINE)
_WARNING_SOURCE = re.compile(r"^(<warning> \w+: .*\n)  \S.*\n", re.MULTILINE)
# The last line of a traceback names the exception's module, which differs by package name.
_EXCEPTION_MODULE = re.compile(r"^(?:claude_agent_sdk|claude_wrap)(?:\.\w+)*\.(\w+)(?=: |$)", re.MULTILINE)
# The binary prints an error's source excerpt ("  7 | ...") and JavaScript
# stack ("    at f (/$bunfs/...)"): which lines it shows depends on where
# its event loop was when the error surfaced, not on the package.
_BINARY_EXCERPT = re.compile(r"(?:^|(?<=: ))\s*\d+ \| ")
_BINARY_STACK = re.compile(r"^\s+at \S")
# asyncio complains at random, on either side, when a subprocess transport
# is collected after its event loop closed; it says nothing about the package.
_LOOP_CLOSED_NOISE = re.compile(
    r"Exception ignored in: <function BaseSubprocessTransport\.__del__ at [^>]+>\n"
    r"Traceback \(most recent call last\):\n(?:  .*\n)*?RuntimeError: Event loop is closed\n"
)


def _sanitized(path: str) -> str:
    # How the binary turns a directory into a project key.
    return re.sub(r"[^a-zA-Z0-9]", "-", path)


class _Normaliser:
    def __init__(self, side: SideResult) -> None:
        self._literals: list[tuple[str, str]] = []
        for raw in {str(side.run_dir), str(side.run_dir.resolve())}:
            self._literals += [(raw, "<run>"), (_sanitized(raw), "<run-key>")]
        self._literals += sorted(side.replacements.items(), key=lambda kv: -len(kv[0]))
        self._literals.sort(key=lambda kv: -len(kv[0]))
        self._ids: dict[tuple[str, str], str] = {}

    def _id(self, kind: str, value: str) -> str:
        key = (kind, value)
        if key not in self._ids:
            count = sum(1 for k in self._ids if k[0] == kind) + 1
            self._ids[key] = f"<{kind}:{count}>"
        return self._ids[key]

    def text(self, value: str) -> str:
        for raw, placeholder in self._literals:
            value = value.replace(raw, placeholder)
        for kind, pattern in _PATTERNS:
            value = pattern.sub(lambda m, kind=kind: self._id(kind, m.group(0)), value)
        for pattern in _TIME_PATTERNS:
            value = pattern.sub("<time>", value)
        for pattern, replacement in _SUBSTITUTIONS:
            value = pattern.sub(replacement, value)
        return value

    def value(self, value: Any, key: str | None = None) -> Any:
        if (
            key is not None
            and _VOLATILE_KEYS.match(key)
            and isinstance(value, (int, float))
            and not isinstance(value, bool)
        ):
            return f"<{key}>"
        if key in _TOKEN_KEYS and isinstance(value, str):
            return f"<{key}>"
        if key in _ID_KEYS and isinstance(value, str):
            return self._id("request_id", value)
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            return {self.text(k): self.value(v, k) for k, v in value.items()}
        return value


def _json_line(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return {"not-json": line}


def _embedded_json(value: Any) -> Any:
    """Decode JSON held in a string (metadata.user_id), so its ids normalise one by one."""
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return {"json": json.loads(value)}
        except ValueError:
            return value
    return value


def _options(argv: list[str]) -> dict[str, Any]:
    """argv as ``{flag: [values]}`` in flag order: the binary reads options in any order.

    A flag's value is the next word unless that is another flag; a flag with
    no value counts as ``true``. Words before the first flag are positional.
    """
    options: dict[str, list[Any]] = {}
    positional: list[str] = []
    flag: str | None = None
    for word in argv:
        if word.startswith("--"):
            name, eq, value = word.partition("=")
            options.setdefault(name, [])
            if eq:
                options[name].append(value)
                flag = None
            else:
                flag = name
                options[name].append(True)
        elif flag is not None:
            options[flag][-1] = word
            flag = None
        else:
            positional.append(word)
    return {"positional": positional, "options": dict(sorted(options.items()))}


def _stdin(lines: list[str]) -> dict[str, list[Any]]:
    """stdin lines by frame type, each kind in order.

    Answers to the binary's requests and the user's messages are written
    from different tasks, so their order relative to each other is timing;
    within one kind it is the package's.
    """
    kinds: dict[str, list[Any]] = {}
    for line in lines:
        frame = _json_line(line)
        kind = frame.get("type") if isinstance(frame, dict) and isinstance(frame.get("type"), str) else "other"
        kinds.setdefault(kind, []).append(frame)
    return kinds


def _spawn(spawn: Spawn) -> dict[str, Any]:
    return {
        "argv": _options(spawn.argv),
        "argv_files": spawn.files,
        "env": dict(sorted(spawn.env.items())),
        "stdin": _stdin(spawn.stdin),
        "alive_after_exit": spawn.alive_after_exit,
    }


def _without_binary_traces(text: str) -> str:
    kept = []
    for line in text.split("\n"):
        if _BINARY_STACK.match(line):
            continue
        excerpt = _BINARY_EXCERPT.search(line)
        if excerpt is None:
            kept.append(line)
        elif excerpt.start() > 0:  # "Error in hook callback hook_0:  6 | ..."
            kept.append(f"{line[: excerpt.start()].rstrip()} <source excerpt>")
    return "\n".join(kept)


def _stderr(text: str) -> str:
    text = _without_binary_traces(text)
    text = _LOOP_CLOSED_NOISE.sub("", text)
    text = _EXCEPTION_MODULE.sub(r"<package>.\1", text)
    text = _WARNING_LOCATION.sub(r"<warning> \1: ", text)
    return _WARNING_SOURCE.sub(r"\1", text)


def _main_request(request: RecordedRequest) -> dict[str, Any]:
    body = dict(request.body)
    metadata = body.get("metadata")
    if isinstance(metadata, dict):
        body["metadata"] = {k: _embedded_json(v) for k, v in metadata.items()}
    return {
        "path": request.path,
        "status": request.status,
        "unexpected": request.unexpected,
        "headers": {k: v for k, v in sorted(request.headers.items()) if k not in _TRANSPORT_HEADERS},
        "body": body,
    }


_AGENT_HEADER = "x-claude-code-agent-id"


def _agent_of(request: RecordedRequest) -> str:
    return request.headers.get(_AGENT_HEADER, "")


def _subagent_requests(requests: list[RecordedRequest]) -> list[list[dict[str, Any]]]:
    """Each subagent's requests in order; subagents by their first request's prompt.

    A subagent and its parent (or two subagents) ask at the same time, so only
    the order within one conversation is the binary's to keep.
    """
    conversations: dict[str, list[RecordedRequest]] = {}
    for request in requests:
        if request.is_main and _agent_of(request):
            conversations.setdefault(_agent_of(request), []).append(request)
    ordered = sorted(conversations.values(), key=lambda c: (c[0].system_text, c[0].last_user_text))
    return [[_main_request(r) for r in conversation] for conversation in ordered]


def _other_request(request: RecordedRequest) -> str:
    kind = "count_tokens" if request.is_count_tokens else request.endpoint
    return f"{request.method} {kind}: {request.last_user_text[:80]!r}"


def observe(side: SideResult) -> dict[str, Any]:
    """The normalised document of one side (see the module docstring)."""
    if side.document is not None:
        return side.document
    record = side.record
    document: dict[str, Any] = {
        "exit_code": side.exit_code,
        "timed_out": side.timed_out,
        "exception": record.get("exception"),
        "messages": [e["message"] for e in record.get("events", []) if "message" in e],
        "notes": [e for e in record.get("events", []) if "note" in e],
        "warnings": [e for e in record.get("events", []) if "warning" in e],
        "stdout": side.stdout,
        "stderr": _stderr(side.stderr),
        "spawns": [_spawn(s) for s in side.spawns],
        "model": {
            "main": [_main_request(r) for r in side.requests if r.is_main and not _agent_of(r)],
            "subagents": _subagent_requests(side.requests),
            "other": sorted(_other_request(r) for r in side.requests if not r.is_main),
        },
    }
    if record.get("missing"):
        document["record_missing"] = True
    return _Normaliser(side).value(document)


SECTIONS: tuple[str, ...] = (
    "exit_code",
    "timed_out",
    "exception",
    "messages",
    "notes",
    "warnings",
    "stdout",
    "stderr",
    "spawns",
    "model",
)


def section_of(path: str) -> str:
    """The top-level section a difference path belongs to."""
    return re.split(r"[.\[]", path, maxsplit=1)[0]
