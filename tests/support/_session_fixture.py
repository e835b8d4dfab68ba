"""Synthetic transcripts that reach the edges of the session helpers, and
how to compare results from two runs (tests/support/_official.py).

Dead branches, parallel tool calls, corrupt and half-written lines, titles
outside the first and last 64 KiB, a session in two projects, subagents
nested in workflow directories, progress entries, metadata-only files.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from pathlib import Path
from typing import Any

from claude_wrap import project_key_for_directory

SID = "11111111-2222-4333-8444-555555555555"
PARALLEL = "22222222-2222-4333-8444-555555555555"
TITLED = "33333333-2222-4333-8444-555555555555"
BIG = "44444444-2222-4333-8444-555555555555"
SIDE = "55555555-2222-4333-8444-555555555555"
META_ONLY = "66666666-2222-4333-8444-555555555555"
TWICE = "77777777-2222-4333-8444-555555555555"
EMPTY = "88888888-2222-4333-8444-555555555555"
COMMANDS = "99999999-2222-4333-8444-555555555555"
PROGRESS = "aaaaaaaa-2222-4333-8444-555555555555"
# Entry uuids of the PROGRESS session (forks up to a message need real ones).
PROGRESS_UUIDS = [f"aaaaaaaa-0000-4000-8000-{i:012d}" for i in range(7)]
IDS = [SID, PARALLEL, TITLED, BIG, SIDE, META_ONLY, TWICE, EMPTY, COMMANDS, PROGRESS]


def user(uid: str, parent: str | None, content: Any, sid: str = SID, second: int = 0, **extra: Any) -> dict[str, Any]:
    return {"parentUuid": parent, "isSidechain": False, "type": "user", "message": {"role": "user", "content": content},
            "uuid": uid, "timestamp": f"2026-01-02T03:04:{second:02d}.000Z", "cwd": "/proj", "sessionId": sid, **extra}  # fmt: skip


def assistant(
    uid: str, parent: str | None, content: Any, sid: str = SID, second: int = 0, mid: str | None = None, **extra: Any
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if mid is not None:
        message["id"] = mid
    return {"parentUuid": parent, "isSidechain": False, "type": "assistant", "message": message, "uuid": uid,
            "timestamp": f"2026-01-02T03:04:{second:02d}.000Z", "sessionId": sid, **extra}  # fmt: skip


def write(path: Path, entries: list[Any], tail: str = "", mtime: float | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [e if isinstance(e, str) else json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in entries]
    path.write_text("".join(line + "\n" for line in lines) + tail, encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime, mtime))


def _parallel(sid: str) -> list[Any]:
    """One response with three tool calls (three entries, one message id);
    each result hangs off its own call, the next turn off the last result."""
    calls = [
        {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": f"echo {i}", "tag": "v1"}}
        for i in range(3)
    ]
    out: list[Any] = [user("p-u1", None, "run three things", sid, 1)]
    parent = "p-u1"
    for i, call in enumerate(calls):
        out.append(assistant(f"p-a{i}", parent, [call], sid, 2 + i, mid="msg_1"))
        parent = f"p-a{i}"
    for i in range(3):
        out.append(user(f"p-r{i}", f"p-a{i}", [{"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": str(i)}], sid, 5 + i,
                      sourceToolAssistantUUID=f"p-a{i}"))  # fmt: skip
    out.append(assistant("p-a9", "p-r1", [{"type": "text", "text": "all done"}], sid, 9, mid="msg_2"))
    return out


def build(config: Path, project: Path, other: Path) -> None:
    """A config dir with sessions for ``project`` (and one also under ``other``)."""
    pdir = config / "projects" / project_key_for_directory(project)
    odir = config / "projects" / project_key_for_directory(other)
    write(pdir / f"{SID}.jsonl", [
        {"type": "queue-operation", "operation": "enqueue", "sessionId": SID},
        user("u1", None, "first question\nwith a second line", second=1),
        "{not json at all",
        assistant("a1", "u1", [{"type": "text", "text": "first answer"}], second=2),
        assistant("dead", "u1", "abandoned branch", second=3),
        {"type": "attachment", "uuid": "att", "parentUuid": "a1", "sessionId": SID},
        user("u2", "att", "second question ü", second=4),
        assistant("a2", "u2", "second answer", second=5, gitBranch="main"),
        {"type": "last-prompt", "lastPrompt": "second question ü", "sessionId": SID},
        {"type": "content-replacement", "sessionId": SID, "replacements": [{"kind": "tool-result", "toolUseId": "t", "replacement": "r"}]},
    ], tail='{"type": "user", "uuid": "half', mtime=1_700_000_100)  # fmt: skip
    write(pdir / f"{PARALLEL}.jsonl", _parallel(PARALLEL), mtime=1_700_000_200)
    write(pdir / f"{TITLED}.jsonl", [
        {"type": "summary", "summary": "an old summary", "leafUuid": "x"},
        user("t1", None, "<command-name>/review</command-name>", TITLED, 1),
        user("t2", "t1", [{"type": "text", "text": "x" * 300}], TITLED, 2),
        assistant("t3", "t2", [{"type": "tool_use", "id": "toolu_t", "name": "Bash", "input": {"summary": "nested", "customTitle": "nested title"}}], TITLED, 3),
        {"type": "ai-title", "aiTitle": "An AI title", "sessionId": TITLED},
        {"type": "tag", "tag": "first-tag", "sessionId": TITLED},
        {"type": "custom-title", "customTitle": "", "sessionId": TITLED},
    ], mtime=1_700_000_300)  # fmt: skip
    filler = [assistant(f"b{i}", f"b{i - 1}" if i else "b-u", "y" * 900, BIG, i % 60) for i in range(160)]
    middle = [{"type": "custom-title", "customTitle": "lost in the middle", "sessionId": BIG}]
    write(
        pdir / f"{BIG}.jsonl",
        [user("b-u", None, "a big one", BIG), *filler[:80], *middle, *filler[80:]],
        mtime=1_700_000_400,
    )
    write(pdir / f"{SIDE}.jsonl", [{**user("s1", None, "sidechain", SIDE), "isSidechain": True}], mtime=1_700_000_500)
    write(
        pdir / f"{META_ONLY}.jsonl",
        [{"type": "permission-mode", "permissionMode": "default", "sessionId": META_ONLY}],
        mtime=1_700_000_600,
    )
    write(pdir / f"{EMPTY}.jsonl", [], mtime=1_700_000_700)
    write(pdir / "not-a-uuid.jsonl", [user("n1", None, "ignored")], mtime=1_700_000_800)
    write(pdir / f"{COMMANDS}.jsonl", [
        {"type": "permission-mode", "permissionMode": "default", "sessionId": COMMANDS},
        user("c0", None, "meta", COMMANDS, isMeta=True),
        user("c1", "c0", "<command-name>/init</command-name>", COMMANDS, 1),
        user("c2", "c1", "<ide_opened_file>a.py</ide_opened_file>", COMMANDS, 2),
        user("c3", "c2", "[Request interrupted by user for tool use]", COMMANDS, 3),
        assistant("c4", "c3", "ok", COMMANDS, 4, gitBranch="feature"),
    ], mtime=1_700_000_050)  # fmt: skip
    g = PROGRESS_UUIDS
    write(pdir / f"{PROGRESS}.jsonl", [
        user(g[1], None, "with progress", PROGRESS, 1),
        {"type": "progress", "uuid": g[2], "parentUuid": g[1], "sessionId": PROGRESS},
        {"type": "progress", "uuid": g[3], "parentUuid": g[2], "sessionId": PROGRESS},
        assistant(g[4], g[3], "after progress", PROGRESS, 4, logicalParentUuid=g[1], teamName="team", slug="s"),
        {**user(g[5], g[4], "a side note", PROGRESS, 5), "isSidechain": True},
        user(g[6], g[4], "last one", PROGRESS, 6),
        {"type": "content-replacement", "sessionId": PROGRESS, "replacements": [{"kind": "tool-result", "toolUseId": "t"}]},
        {"type": "content-replacement", "sessionId": SID, "replacements": [{"kind": "not ours"}]},
    ], mtime=1_700_000_060)  # fmt: skip
    # One session in two projects: the copy in `other` is newer.
    write(pdir / f"{TWICE}.jsonl", [user("w1", None, "old copy", TWICE)], mtime=1_700_000_010)
    write(odir / f"{TWICE}.jsonl", [user("w1", None, "new copy", TWICE)], mtime=1_700_000_900)
    # Subagents, one nested in a workflow directory, one without metadata.
    subs = pdir / SID / "subagents"
    write(subs / "agent-abc.jsonl", [{**user("s1", None, "sub task", SID, 1), "isSidechain": True, "isMeta": True},
                                      {**assistant("s2", "s1", "sub done", SID, 2), "isSidechain": True}, "garbage"])  # fmt: skip
    (subs / "agent-abc.meta.json").write_text(
        json.dumps({"toolUseId": "toolu_1", "parentAgentId": "p", "agentType": "x"})
    )
    write(
        subs / "workflows" / "run1" / "agent-def.jsonl",
        [{**user("d1", None, "deep task", SID, 1), "isSidechain": True}],
    )
    (subs / "workflows" / "run1" / "agent-def.meta.json").write_text("not json")
    write(subs / "aa" / "agent-zzz.jsonl", [{**user("z1", None, "z", SID, 1), "isSidechain": True}])


def _as_official(ours: Any, official: Any) -> Any:
    """``ours``, with an exception of a subclass of the official one's class
    (same message) shown as the official one: a subclass is a drop-in."""
    if isinstance(ours, dict) and isinstance(official, dict):
        if "raised" in ours and "raised" in official and official["raised"] in ours["mro"]:
            return official if ours["message"] == official["message"] else ours
        return {k: _as_official(v, official.get(k)) for k, v in ours.items()}
    if isinstance(ours, list) and isinstance(official, list) and len(ours) == len(official):
        return [_as_official(o, t) for o, t in zip(ours, official)]
    return ours


def _diff(official: Any, ours: Any) -> str:
    a = json.dumps(official, indent=1, ensure_ascii=False, sort_keys=True).replace("\\n", "\\n\n").splitlines()
    b = json.dumps(ours, indent=1, ensure_ascii=False, sort_keys=True).replace("\\n", "\\n\n").splitlines()
    return "\n".join(difflib.unified_diff(a, b, "official", "ours", n=2, lineterm=""))


def compare(official: dict[str, Any], ours: dict[str, Any]) -> None:
    """Every result equal (exceptions: ours may be a subclass)."""
    assert official.keys() == ours.keys()
    ours = _as_official(ours, official)
    different = [k for k in official if official[k] != ours[k]]
    assert not different, "\n".join(f"== {k}\n{_diff(official[k], ours[k])}" for k in different)[:8000]


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
_NOW = re.compile(r"20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")


class Placeholders:
    """New uuids (numbered in order of appearance) and fresh timestamps
    as placeholders, so two runs compare."""

    def __init__(self, known: set[str]) -> None:
        self.known = known
        self.names: dict[str, str] = {}

    def text(self, text: str) -> str:
        def rename(match: re.Match[str]) -> str:
            found = match.group(0)
            return found if found in self.known else self.names.setdefault(found, f"<new {len(self.names)}>")

        return _NOW.sub("<now>", _UUID.sub(rename, text))

    def result(self, result: dict[str, Any]) -> dict[str, Any]:
        """A run's results, in the order the program produced them (so new
        ids are numbered alike), then its ``files`` by their renamed names."""
        out: dict[str, Any] = {}
        for key, value in result.items():
            if key != "files":
                out[self.text(key)] = json.loads(self.text(json.dumps(value, sort_keys=True, ensure_ascii=False)))
        files = {self.text(name): content for name, content in result.get("files", {}).items()}
        out["files"] = {name: self.text(files[name]) for name in sorted(files)}
        return out


# Times after this are the runs' own (store write times, entries written
# now); the fixture's are older.
_RECENT = 1_770_000_000_000


def ranked(result: dict[str, Any]) -> dict[str, Any]:
    """Each result with the times its run made replaced by their rank
    within that result: runs write at their own moments."""
    out: dict[str, Any] = {}
    for key, value in result.items():
        text = json.dumps(value, sort_keys=True)
        for field in ("last_modified", "created_at"):
            stamps = sorted({int(m) for m in re.findall(rf'"{field}": (\d{{13}})', text) if int(m) > _RECENT})
            for rank, stamp in enumerate(stamps):
                text = re.sub(rf'("{field}": ){stamp}\b', rf'\g<1>"<t{rank}>"', text)
        out[key] = json.loads(text)
    return out
