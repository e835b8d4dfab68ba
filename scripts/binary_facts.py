#!/usr/bin/env python3
"""What the pinned Claude Code binary offers, compared with a committed record.

    python scripts/binary_facts.py            # print the facts of the binary claude_wrap finds
    python scripts/binary_facts.py --check    # list what differs from the record; exit 1 if anything does
    python scripts/binary_facts.py --write    # list what differs, then rewrite the record

The record is ``tests/fixtures/binary_facts.json``; ``make bump`` rewrites it
and ``tests/e2e/test_binary_facts.py`` fails, naming every added and removed
item, while the binary and the record disagree. So after a version bump the
suite says what the new binary changed, before any test that depends on it.

The facts, all cheap and offline:

* ``--version`` and the options and commands ``--help`` lists;
* the hook events and the control request subtypes the binary knows (the
  lists it carries, found in its bytes);
* one scripted run (the binary against ``claude_wrap.testing.ScriptedModel``,
  a Bash tool call then a text reply): the keys of the ``initialize``
  answer, the keys, tools, agents, commands and capabilities of
  ``system/init``, and the keys of the frames every such run has.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's claude_wrap, whatever else is installed
RECORD = ROOT / "tests" / "fixtures" / "binary_facts.json"

_HOOK_EVENTS = re.compile(rb'\["PreToolUse","PostToolUse"(?:,"[A-Za-z]+")+\]')
# The dispatcher's list of request subtypes starts with these three.
_CONTROL_SUBTYPES = re.compile(rb'\["interrupt","can_use_tool","initialize"(?:,"[a-z_]+")+\]')
# Frames every such run has; others (status, background task notices) come
# and go with timing, so they are no fact.
_FRAME_KINDS = ("system/init", "assistant", "user", "result", "control_response")
_RUN_TIMEOUT = 120.0
_OPTION = re.compile(r"^  (-\w, )?(--[\w-]+)((?:, --[\w-]+)*)")
_COMMAND = re.compile(r"^  ([\w|-]+)")


def help_facts(binary: str, env: dict[str, str]) -> dict[str, list[str]]:
    """Long option names (aliases included) and command names from ``--help``."""
    text = _run(binary, "--help", env=env)
    options: set[str] = set()
    commands: set[str] = set()
    section = ""
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line.rstrip(":")
            continue
        if section == "Options" and (m := _OPTION.match(line)):
            options.add(m.group(2))
            options.update(alias.strip() for alias in m.group(3).split(",") if alias.strip())
        elif section == "Commands" and (m := _COMMAND.match(line)):
            commands.update(m.group(1).split("|"))
    if not options or not commands:
        raise RuntimeError(f"`{binary} --help` lists no options or no commands:\n{text}")
    return {"options": sorted(options), "commands": sorted(commands)}


def embedded_lists(binary: str) -> dict[str, list[str]]:
    """The hook event and control subtype lists the binary carries."""
    found: dict[str, list[str]] = {}
    patterns = {"hook_events": (_HOOK_EVENTS, False), "control_subtypes": (_CONTROL_SUBTYPES, True)}
    data = Path(binary).read_bytes()
    for name, (pattern, sort) in patterns.items():
        # The longest match is the full list; shorter ones are per-feature subsets.
        matches = {m.group(0) for m in pattern.finditer(data)}
        if not matches:
            raise RuntimeError(f"no {name} list found in {binary}; the binary's layout changed")
        items: list[str] = json.loads(max(matches, key=len))
        found[name] = sorted(items) if sort else items
    return found


def run_facts(binary: str) -> dict[str, Any]:
    """Facts of one scripted run: initialize, one Bash tool call, one text reply."""
    from claude_wrap.testing import Reply, ScriptedModel

    replies = [Reply.tool_use("Bash", {"command": "echo facts", "description": "say facts"}), Reply.text("done")]
    with tempfile.TemporaryDirectory(prefix="claude-wrap-facts-") as tmp, ScriptedModel(*replies) as model:
        work = Path(tmp) / "work"
        work.mkdir()
        argv = [binary, "--output-format", "stream-json", "--verbose", "--input-format", "stream-json"]
        argv += ["--setting-sources", "", "--allowedTools", "Bash"]
        lines = [
            {"type": "control_request", "request_id": "facts_1", "request": {"subtype": "initialize", "hooks": None}},
            {"type": "user", "message": {"role": "user", "content": "Run it"}},
        ]
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=model.env(Path(tmp) / "home"),
            cwd=work,
            text=True,
        )
        watchdog = threading.Timer(_RUN_TIMEOUT, proc.kill)  # a binary that stops answering ends the run
        watchdog.start()
        try:
            frames = list(_frames_until_result(proc, lines))
        finally:
            watchdog.cancel()
            proc.kill()
            _, stderr = proc.communicate(timeout=30)
    if not any(f.get("type") == "result" for f in frames):
        raise RuntimeError(f"the scripted run ended without a result; stderr:\n{stderr[-2000:]}")

    facts: dict[str, Any] = {}
    answer = next(f for f in frames if f.get("type") == "control_response")
    facts["initialize_keys"] = sorted(answer["response"]["response"])
    facts["initialize_capabilities"] = sorted(answer["response"]["response"].get("capabilities", []))
    init = next(f for f in frames if f.get("type") == "system" and f.get("subtype") == "init")
    for key in ("tools", "agents", "slash_commands", "capabilities"):
        facts[f"init_{key}"] = sorted(init.get(key, []))
    facts["init_plugins"] = sorted(p.get("name", "?") for p in init.get("plugins", []))
    keys: dict[str, set[str]] = {kind: set() for kind in _FRAME_KINDS}
    for frame in frames:
        kind = frame.get("type", "?") + (f"/{frame['subtype']}" if frame.get("type") == "system" else "")
        if kind in keys:
            keys[kind].update(frame)
    facts["frame_keys"] = {kind: sorted(names) for kind, names in keys.items()}
    return facts


def _frames_until_result(proc: subprocess.Popen[str], lines: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    assert proc.stdin is not None and proc.stdout is not None
    for line in lines:
        proc.stdin.write(json.dumps(line) + "\n")
        proc.stdin.flush()
        if line["type"] != "control_request":
            continue
        for raw in proc.stdout:  # the answer comes before the next line is sent
            frame = json.loads(raw)
            yield frame
            if frame.get("type") == "control_response":
                break
    for raw in proc.stdout:
        frame = json.loads(raw)
        yield frame
        if frame.get("type") == "result":
            return


def _run(binary: str, *args: str, env: dict[str, str]) -> str:
    proc = subprocess.run([binary, *args], capture_output=True, text=True, env=env, timeout=60, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"`{binary} {' '.join(args)}` exited {proc.returncode}: {proc.stderr[-1000:]}")
    return proc.stdout


def collect(binary: str | None = None) -> dict[str, Any]:
    """All facts of ``binary`` (default: the one ``claude_wrap.find_binary()`` finds)."""
    from claude_wrap import find_binary

    path = str(binary or find_binary())
    with tempfile.TemporaryDirectory(prefix="claude-wrap-facts-home-") as home:
        env = {"HOME": home, "PATH": os.environ.get("PATH", os.defpath), "LANG": "C.UTF-8"}
        facts: dict[str, Any] = {"version": _run(path, "--version", env=env).split()[0]}
        facts.update(help_facts(path, env))
    facts.update(embedded_lists(path))
    facts.update(run_facts(path))
    return facts


def changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """One readable line per difference: what was added, removed or changed, fact by fact."""
    lines: list[str] = []
    for key in sorted(old.keys() | new.keys()):
        lines += _describe(key, old.get(key), new.get(key))
    return lines


def _describe(key: str, old: Any, new: Any) -> list[str]:
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        return [
            line
            for sub in sorted(old.keys() | new.keys())
            for line in _describe(f"{key}[{sub}]", old.get(sub), new.get(sub))
        ]
    if isinstance(old, list) and isinstance(new, list):
        added = [x for x in new if x not in old]
        removed = [x for x in old if x not in new]
        out = [f"{key}: added {', '.join(map(str, added))}"] if added else []
        out += [f"{key}: removed {', '.join(map(str, removed))}"] if removed else []
        return out or [f"{key}: same items, new order {new}"]
    if old is None:
        return [f"{key}: new fact {new!r}"]
    if new is None:
        return [f"{key}: no longer reported (was {old!r})"]
    return [f"{key}: {old!r} -> {new!r}"]


def load_record(path: Path = RECORD) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare with the record; exit 1 on any difference")
    mode.add_argument("--write", action="store_true", help="rewrite the record (printing what changed)")
    parser.add_argument("--binary", help="the binary to describe (default: the one claude_wrap finds)")
    args = parser.parse_args(argv)

    facts = collect(args.binary)
    if not (args.check or args.write):
        print(json.dumps(facts, indent=1))
        return 0
    old = load_record() if RECORD.exists() else {}
    diff = changes(old, facts)
    out = sys.stderr if args.check else sys.stdout
    for line in diff:
        print(line, file=out)
    if args.write:
        RECORD.write_text(json.dumps(facts, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {RECORD.relative_to(ROOT)} for Claude Code {facts['version']} ({len(diff)} changes)")
        return 0
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
