"""The session helpers give what the official package gives, on the same data.

Each test runs one program twice, on the official ``claude-agent-sdk`` and
on claude_wrap (tests/support/_official.py), over copies of the same config dir or
the same store contents, and compares every result: return values (class
and fields), exceptions (class and message) and, after the mutations, every
file they wrote. The transcripts are synthetic and built to hit the edges:
dead branches, parallel tool calls, corrupt and half-written lines, titles
outside the first and last 64 KiB, a session in two worktrees, subagents
nested in workflow directories.
"""

from __future__ import annotations

import dataclasses
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from _official import run, run_both
from _session_fixture import IDS, PARALLEL, PROGRESS_UUIDS, SID, TITLED, Placeholders, build, compare, user, write

from claude_wrap import project_key_for_directory

# Every test here runs the official package (make official): not the fast lane.
pytestmark = pytest.mark.compat


@pytest.fixture
def config(tmp_path: Path) -> tuple[Path, Path, Path]:
    project = tmp_path / "my project ü"
    other = tmp_path / "other"
    project.mkdir()
    other.mkdir()
    config = tmp_path / "config"
    build(config, project, other)
    return config, project, other


_READS = r"""
import os
directory, other = args["project"], args["other"]
out = {}
out["list all"] = attempt(sdk.list_sessions)
out["list project"] = attempt(sdk.list_sessions, directory)
for limit, offset in ((2, 0), (2, 2), (None, 3), (0, 1), (3, -1), (-1, 0)):
    out[f"list page {limit} {offset}"] = attempt(sdk.list_sessions, directory, limit=limit, offset=offset)
out["list other"] = attempt(sdk.list_sessions, other)
out["list nowhere"] = attempt(sdk.list_sessions, os.path.join(other, "missing"))
for sid in args["ids"] + ["not-a-uuid"]:
    out[f"info {sid}"] = attempt(sdk.get_session_info, sid, directory)
    out[f"info any {sid}"] = attempt(sdk.get_session_info, sid)
    out[f"messages {sid}"] = attempt(sdk.get_session_messages, sid, directory)
    out[f"messages any {sid}"] = attempt(sdk.get_session_messages, sid)
    out[f"subagents {sid}"] = attempt(sdk.list_subagents, sid, directory)
for limit, offset in ((2, 1), (None, 2), (0, 0), (2, -1), (None, -2), (1, 10)):
    out[f"messages page {limit} {offset}"] = attempt(sdk.get_session_messages, args["ids"][0], directory, limit, offset)
for agent in ("abc", "def", "zzz", "nope", ""):
    out[f"subagent {agent}"] = attempt(sdk.get_subagent_messages, args["ids"][0], agent, directory)
    out[f"subagent any {agent}"] = attempt(sdk.get_subagent_messages, args["ids"][0], agent)
out["subagent page"] = attempt(sdk.get_subagent_messages, args["ids"][0], "abc", directory, 1, 1)
emit(out)
"""


def _args(project: Path, other: Path) -> dict[str, Any]:
    return {"project": str(project), "other": str(other), "ids": IDS}


def test_reading_sessions_on_disk(config: tuple[Path, Path, Path]) -> None:
    cfg, project, other = config
    official, ours = run_both(_READS, _args(project, other), env={"CLAUDE_CONFIG_DIR": str(cfg)})
    compare(official, ours)
    # Not vacuous: the edges were reached.
    assert [m["uuid"] for m in ours[f"messages {PARALLEL}"]] == [
        "p-u1", "p-a0", "p-a1", "p-a2", "p-r0", "p-r2", "p-r1", "p-a9",
    ]  # fmt: skip
    assert {i["session_id"]: i["summary"] for i in ours["list project"]}[TITLED] == "An AI title"
    assert ours["subagents " + SID] == ["zzz", "abc", "def"]


_MUTATIONS = r"""
import os, json
directory, sid = args["project"], args["ids"][0]
out = {}
out["rename"] = attempt(sdk.rename_session, sid, "  New title é  ", directory)
out["rename any"] = attempt(sdk.rename_session, args["ids"][1], "Other")
out["rename blank"] = attempt(sdk.rename_session, sid, "   ", directory)
out["rename bad id"] = attempt(sdk.rename_session, "nope", "t", directory)
out["rename missing"] = attempt(sdk.rename_session, "00000000-0000-4000-8000-000000000000", "t", directory)
out["rename missing any"] = attempt(sdk.rename_session, "00000000-0000-4000-8000-000000000000", "t")
out["tag"] = attempt(sdk.tag_session, sid, "\u200bimportant\ufeff ", directory)
out["tag nfkc"] = attempt(sdk.tag_session, args["ids"][2], "\uff21\u2460", directory)
out["tag blank"] = attempt(sdk.tag_session, sid, "\u200b", directory)
out["tag clear"] = attempt(sdk.tag_session, args["ids"][1], None, directory)
out["fork"] = attempt(sdk.fork_session, sid, directory)
out["fork titled by caller"] = attempt(sdk.fork_session, sid, directory, None, "  Mine  ")
out["fork bad message"] = attempt(sdk.fork_session, sid, directory, "not-a-uuid")
out["fork missing message"] = attempt(sdk.fork_session, sid, directory, "00000000-0000-4000-8000-000000000000")
out["fork parallel"] = attempt(sdk.fork_session, args["ids"][1], directory)
out["fork titled"] = attempt(sdk.fork_session, args["ids"][2], directory)
out["fork progress"] = attempt(sdk.fork_session, args["ids"][9], directory)
out["fork up to"] = attempt(sdk.fork_session, args["ids"][9], directory, args["up_to"])
out["fork commands"] = attempt(sdk.fork_session, args["ids"][8])
out["fork side"] = attempt(sdk.fork_session, args["ids"][4], directory)
out["fork meta only"] = attempt(sdk.fork_session, args["ids"][5], directory)
out["fork missing"] = attempt(sdk.fork_session, "00000000-0000-4000-8000-000000000000", directory)
out["delete"] = attempt(sdk.delete_session, args["ids"][3], directory)
out["delete again"] = attempt(sdk.delete_session, args["ids"][3], directory)
out["delete any"] = attempt(sdk.delete_session, args["ids"][3])
out["delete bad"] = attempt(sdk.delete_session, "nope")
out["delete with subagents"] = attempt(sdk.delete_session, sid, directory)
# New files were written now: their order and times differ from run to run.
after = attempt(sdk.list_sessions, directory)
out["list after"] = sorted(({k: v for k, v in i.items() if k != "last_modified"} for i in after), key=lambda i: (i["summary"], i["file_size"]))
files = {}
for root, dirs, names in os.walk(args["config"]):
    for name in names:
        path = os.path.join(root, name)
        with open(path, "rb") as fh:
            files[os.path.relpath(path, args["config"])] = fh.read().decode("utf-8", "replace")
out["files"] = files
emit(out)
"""


def test_mutations_on_disk(config: tuple[Path, Path, Path], tmp_path: Path) -> None:
    cfg, project, other = config
    copies = []
    for name in ("official", "ours"):
        copy = tmp_path / f"config-{name}"
        shutil.copytree(cfg, copy)
        # The copies' files keep their times, so listings sort alike.
        copies.append(copy)
    results = []
    for package, copy in zip(("claude_agent_sdk", "claude_wrap"), copies):
        args = {**_args(project, other), "config": str(copy), "up_to": PROGRESS_UUIDS[4]}
        results.append(run(package, _MUTATIONS, args, env={"CLAUDE_CONFIG_DIR": str(copy)}))
    official, ours = (Placeholders(set(IDS)).result(r) for r in results)
    compare(official, ours)
    assert ours["rename blank"]["raised"] == "ValueError" and ours["fork"]["__class__"] == "ForkSessionResult"


def test_sessions_across_git_worktrees(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "x"], cwd=repo, check=True)
    tree = tmp_path / "tree"
    subprocess.run([*git, "worktree", "add", "-q", str(tree)], cwd=repo, check=True)
    (repo / "sub").mkdir()
    cfg = tmp_path / "config"
    for where, sid, mtime in (
        (repo, SID, 1_700_000_001),
        (tree, PARALLEL, 1_700_000_002),
        (repo / "sub", TITLED, 1_700_000_003),
        (tree, SID, 1_700_000_004),
    ):
        write(
            cfg / "projects" / project_key_for_directory(where) / f"{sid}.jsonl",
            [user("x1", None, f"in {where.name}", sid)],
            mtime=mtime,
        )
    program = r"""
out = {}
for d in args["dirs"]:
    out[d] = [attempt(sdk.list_sessions, d), attempt(sdk.list_sessions, d, include_worktrees=False)]
    for sid in args["ids"]:
        out[d + sid] = [attempt(sdk.get_session_info, sid, d), attempt(sdk.get_session_messages, sid, d)]
emit(out)
"""
    args = {"dirs": [str(repo), str(tree), str(repo / "sub")], "ids": [SID, PARALLEL, TITLED]}
    official, ours = run_both(program, args, env={"CLAUDE_CONFIG_DIR": str(cfg)})
    compare(official, ours)
    # One session in two worktrees: its newer copy (the tree's) is listed.
    assert [(i["session_id"], i["summary"]) for i in ours[str(repo)][0]] == [(SID, "in tree"), (PARALLEL, "in tree")]


# -- random transcripts ------------------------------------------------------------------

_FUZZ = r"""
from claude_agent_sdk._internal import sessions as S
from claude_agent_sdk._internal.session_summary import fold_session_summary, summary_entry_to_sdk_info
key = {"project_key": "p", "session_id": "s"}
out = []
for case in args:
    text, batches = case["text"], case["batches"]
    info = S._parse_session_info_from_lite("s", S._jsonl_to_lite(text, 5), "/proj")
    summary = None
    for batch in batches:
        summary = fold_session_summary(summary, key, batch)
    entries = S._parse_transcript_entries(text)
    out.append({
        "info": norm(info),
        "summary": summary,
        "summary info": norm(summary_entry_to_sdk_info(summary, "/proj")),
        "messages": norm(S._entries_to_session_messages(entries, None, 0)),
        "subagent": norm(S._entries_to_subagent_messages(entries, None, 0, "t", None)),
    })
emit(out)
"""


def _random_case(rnd: random.Random) -> dict[str, Any]:
    """A transcript of random entries (parallel calls, dead branches, odd
    titles and tags, nested keys that look like fields) as JSONL text with
    random spacing, broken lines and sizes around 64 KiB."""
    uuids = [f"e{i}" for i in range(rnd.randint(1, 14))]
    texts = [
        "hi",
        "",
        "  ",
        "x" * 250,
        "<command-name>/c</command-name>",
        "<tick>",
        "a\nb",
        "é ü",
        "\u2028",
        "[Request interrupted by user]",
    ]
    entries: list[Any] = []
    for i, uid in enumerate(uuids):
        kind = rnd.choice(
            ["user", "user", "assistant", "assistant", "progress", "system", "attachment", "tag", "custom-title", "x"]
        )
        parent = rnd.choice([None, *uuids[:i], "missing"]) if i else None
        entry: dict[str, Any] = {"type": kind, "uuid": uid, "parentUuid": parent}
        if kind == "user":
            content: Any = rnd.choice([rnd.choice(texts), [{"type": "text", "text": rnd.choice(texts)}],
                                       [{"type": "tool_result", "tool_use_id": f"c{rnd.randint(0, 3)}", "content": "r"}]])  # fmt: skip
            entry["message"] = {"role": "user", "content": content}
        if kind == "assistant":
            entry["message"] = {"role": "assistant", "id": rnd.choice(["m1", "m2", None]),
                                "content": [rnd.choice([{"type": "text", "text": "t"}, {"type": "tool_use", "id": f"c{rnd.randint(0, 3)}", "input": {"summary": "in", "tag": "x"}}])]}  # fmt: skip
        for field, values in (("customTitle", ["T", ""]), ("aiTitle", ["A"]), ("lastPrompt", ["L", ""]), ("summary", ["S"]),
                              ("gitBranch", ["b1", "b2"]), ("cwd", ["/c"]), ("tag", ["g", ""]), ("timestamp", ["2024-01-01T00:00:0%dZ" % (i % 10), "bad"]),
                              ("isSidechain", [True, False]), ("isMeta", [True]), ("teamName", ["tm"]), ("isCompactSummary", [True]),
                              ("sourceToolAssistantUUID", uuids), ("agentId", ["a1"])):  # fmt: skip
            if rnd.random() < 0.12:
                entry[field] = rnd.choice(values)
        entries.append(entry)
    lines = []
    for entry in entries:
        style = rnd.random()
        line = (
            json.dumps(entry, separators=(",", ":"))
            if style < 0.6
            else json.dumps(entry)
            if style < 0.8
            else json.dumps(entry, ensure_ascii=False)
        )
        lines.append(line[: rnd.randint(1, len(line))] if rnd.random() < 0.05 else line)
    if rnd.random() < 0.15:  # past the 64 KiB head: the tail is read apart
        lines.insert(rnd.randint(0, len(lines)), json.dumps({"type": "x", "pad": "p" * rnd.randint(60000, 70000)}))
    cut = sorted(rnd.sample(range(len(entries) + 1), k=min(2, len(entries) + 1)))
    batches = [entries[a:b] for a, b in zip([0, *cut], [*cut, len(entries)])]
    return {"text": "\n".join(lines) + rnd.choice(["\n", ""]), "batches": batches}


def test_random_transcripts_read_as_the_official_package_reads_them() -> None:
    from claude_wrap._sessions.chain import parse_entries, session_messages, subagent_messages
    from claude_wrap._sessions.summary import fold_session_summary, summary_to_info
    from claude_wrap._sessions.transcripts import info_from_lite, lite_from_bytes

    rnd = random.Random(20260211)
    cases = [_random_case(rnd) for _ in range(400)]
    official = run("claude_agent_sdk", _FUZZ, cases)
    key: Any = {"project_key": "p", "session_id": "s"}
    checked = 0
    for case, theirs in zip(cases, official):
        lite = lite_from_bytes(case["text"].encode(), 5)
        summary = None
        for batch in case["batches"]:
            summary = fold_session_summary(summary, key, batch)
        entries = parse_entries(case["text"])
        ours = {
            "info": None if lite is None else info_from_lite("s", lite, "/proj"),
            "summary": summary,
            "summary info": summary_to_info(summary, "/proj") if summary is not None else None,
            "messages": session_messages(entries, None, 0),
            "subagent": subagent_messages(entries, None, 0, "t", None),
        }
        mine = json.loads(json.dumps(_plain(ours)))
        assert mine == theirs, json.dumps({"case": case["text"][:3000], "official": theirs, "ours": mine}, indent=1)[
            :8000
        ]
        checked += bool(theirs["messages"]) + bool(theirs["info"])
    assert checked > 300  # the cases were not all empty


def _plain(value: Any) -> Any:
    """``value`` as the official run's ``norm`` renders it."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            "__class__": type(value).__name__,
            **{f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)},
        }
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def test_mirror_paths_map_to_the_same_keys() -> None:
    from claude_wrap._sessions.store import file_path_to_session_key

    base = "/cfg/projects"
    paths = [
        f"{base}/-p/{SID}.jsonl", f"{base}/-p/{SID}/subagents/agent-a.jsonl", f"{base}/-p/{SID}/subagents/workflows/r/agent-b.jsonl",
        f"{base}/-p/{SID}/subagents/agent-a.meta.json", f"{base}/-p/{SID}/x", f"{base}/-p", f"{base}/-p/{SID}.txt",
        f"{base}/..x/{SID}.jsonl", "/elsewhere/-p/s.jsonl", f"{base}/../projects/-p/{SID}.jsonl", base, f"{base}/-p/a/b.jsonl",
    ]  # fmt: skip
    program = r"""
from claude_agent_sdk._internal.session_store import file_path_to_session_key
emit([file_path_to_session_key(p, args["base"]) for p in args["paths"]])
"""
    official = run("claude_agent_sdk", program, {"base": base, "paths": paths})
    assert [file_path_to_session_key(p, base) for p in paths] == official
