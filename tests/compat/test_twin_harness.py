"""The harness's own parts: the runner's shim, normalisation, alignment, patterns.

Fast checks without the binary, so a harness bug shows as itself and not as
a difference between the packages.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import _twin_cache
import pytest
from _twin import RUNNER, Program, SideResult, Spawn
from _twin_diff import ABSENT, Difference, compare, render
from _twin_observe import observe
from _twin_programs import ROOT
from intentional import Intentional

PROGRAM = """
import dataclasses
import claude_agent_sdk
from claude_agent_sdk import TextBlock
from claude_agent_sdk.types import ResultMessage
from twin import note

note("module", claude_agent_sdk.__name__)
note("same class through types", ResultMessage is claude_agent_sdk.ResultMessage)
note("block", TextBlock(text="hi"))
raise claude_agent_sdk.CLINotFoundError("no binary here")
"""


def _run_runner(side: str, python: Path, tmp_path: Path) -> tuple[dict[str, Any], subprocess.CompletedProcess[str]]:
    program = tmp_path / "program.py"
    program.write_text(PROGRAM)
    record = tmp_path / f"{side}.json"
    command = [
        str(python),
        str(RUNNER),
        "--side",
        side,
        "--record",
        str(record),
        "--ours-root",
        str(ROOT),
        str(program),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    return json.loads(record.read_text()), done


@pytest.mark.parametrize("side", ["official", "ours"])
def test_runner_shims_the_import_and_records_notes_and_the_exception(
    side: str, official_python: Path, tmp_path: Path
) -> None:
    python = official_python if side == "official" else Path(sys.executable)
    record, done = _run_runner(side, python, tmp_path)

    notes = {e["note"]: e["value"] for e in record["events"]}
    assert notes["module"] == ("claude_agent_sdk" if side == "official" else "claude_wrap")
    assert notes["same class through types"] is True
    assert notes["block"]["class"] == "TextBlock"
    assert notes["block"]["fields"]["text"] == "hi"
    assert record["exception"]["class"] == "CLINotFoundError"
    assert "ClaudeSDKError" in record["exception"]["mro"]
    assert done.returncode == 1
    # Only the traceback's last line is compared: its frames name each package's files.
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .startswith("claude_agent_sdk._errors.CLINotFoundError" if side == "official" else "claude_wrap")
    )
    assert "Traceback" not in done.stderr


def _side(tmp_path: Path, **overrides: Any) -> SideResult:
    fields: dict[str, Any] = {
        "side": "official",
        "run_dir": tmp_path / "off",
        "exit_code": 0,
        "timed_out": False,
        "stdout": "",
        "stderr": "",
        "record": {"events": [], "exception": None},
        "traceback": "",
        "spawns": [],
        "requests": [],
        "unused_replies": 0,
        "seconds": 1.0,
    }
    fields.update(overrides)
    return SideResult(**fields)


def test_observe_numbers_ids_by_first_appearance_and_hides_the_run_dir(tmp_path: Path) -> None:
    session, other = "0b7ad0e5-8a57-4bfa-9b4f-2f5a7a3c1d11", "9c0a8d1e-1111-4c2b-8f00-aaaaaaaaaaaa"
    events = [
        {
            "message": {
                "class": "X",
                "fields": {"session_id": session, "duration_ms": 1234, "cwd": f"{tmp_path}/off/work"},
            }
        },
        {"message": {"class": "X", "fields": {"session_id": other}}},
        {"message": {"class": "X", "fields": {"session_id": session}}},
    ]
    spawn = Spawn(
        start=0,
        pid=42,
        argv=["--model", "m", "--verbose"],
        env={"HOME": f"{tmp_path}/off/home"},
        stdin=['{"request_id": "req_1_ab"}'],
        stdout=[],
    )
    document = observe(_side(tmp_path, record={"events": events, "exception": None}, spawns=[spawn]))

    fields = [m["fields"] for m in document["messages"]]
    assert [f["session_id"] for f in fields] == ["<uuid:1>", "<uuid:2>", "<uuid:1>"]
    assert fields[0]["duration_ms"] == "<duration_ms>"
    assert fields[0]["cwd"] == "<run>/work"
    assert document["spawns"][0]["argv"]["options"] == {"--model": ["m"], "--verbose": [True]}
    assert document["spawns"][0]["env"] == {"HOME": "<run>/home"}
    assert document["spawns"][0]["stdin"] == {"other": [{"request_id": "<request_id:1>"}]}


def test_observe_keeps_warnings_and_exceptions_but_not_where_each_package_raised_them(tmp_path: Path) -> None:
    stderr = (
        "/venv/site-packages/claude_agent_sdk/types.py:2405: CanUseToolShadowedWarning: can_use_tool is shadowed\n"
        "  _warn_if_can_use_tool_shadowed(options)\n"
        "claude_agent_sdk._errors.ProcessError: Command failed\n"
    )
    document = observe(_side(tmp_path, stderr=stderr))
    assert (
        document["stderr"]
        == "<warning> CanUseToolShadowedWarning: can_use_tool is shadowed\n<package>.ProcessError: Command failed\n"
    )


def test_observe_drops_asyncio_loop_closed_noise_only(tmp_path: Path) -> None:
    noise = (
        "Exception ignored in: <function BaseSubprocessTransport.__del__ at 0x7f7195d91800>\n"
        "Traceback (most recent call last):\n"
        '  File "base_subprocess.py", line 126, in __del__\n'
        "    self.close()\n"
        "RuntimeError: Event loop is closed\n"
    )
    document = observe(_side(tmp_path, stderr=f"before\n{noise}after\n"))
    assert document["stderr"] == "before\nafter\n"


def test_compare_aligns_an_extra_item_instead_of_shifting_every_later_one() -> None:
    official = {"messages": [{"class": "A"}, {"class": "B", "x": 1}, {"class": "C"}]}
    ours = {"messages": [{"class": "A"}, {"class": "Extra"}, {"class": "B", "x": 2}, {"class": "C"}]}
    assert compare(official, ours) == [
        Difference("messages[+1]", ABSENT, {"class": "Extra"}),
        Difference("messages[1].x", 1, 2),
    ]


def test_compare_reports_lists_of_scalars_whole_and_types_strictly() -> None:
    assert compare({"mro": ["A", "B"]}, {"mro": ["A", "Struct"]}) == [Difference("mro", ["A", "B"], ["A", "Struct"])]
    assert compare({"n": 6}, {"n": 6.0}) == [Difference("n", 6, 6.0)]
    assert compare({"n": 6}, {"n": 6}) == []


def test_render_shows_long_texts_as_a_unified_diff() -> None:
    text = render("p", [Difference("model.main[0].body.system[0].text", "line\n" * 3, "line\nother\nline\n")])
    assert "-line" in text and "+other" in text and "official: 15 chars, claude_wrap: 16 chars" in text


def test_intentional_patterns_take_brackets_literally() -> None:
    entry = Intentional("own-*", "spawns[*].env.X", "why")
    assert entry.explains("own-a", "spawns[0].env.X")
    assert not entry.explains("example-a", "spawns[0].env.X")
    assert not entry.explains("own-a", "spawns0.env.X")
    assert not entry.explains("own-a", "spawns[0].env.XY")


def test_intentional_entries_may_also_match_our_value() -> None:
    entry = Intentional("*", "spawns[*].stdin.control_request[+*]", "why", ours='*"subtype": "interrupt"*')
    interrupt = {"type": "control_request", "request": {"subtype": "interrupt"}}
    assert entry.explains("own-a", "spawns[0].stdin.control_request[+1]", interrupt)
    assert not entry.explains("own-a", "spawns[0].stdin.control_request[+1]", {"request": {"subtype": "set_model"}})


def test_the_cache_keeps_fitting_official_runs_under_a_key_of_what_they_depend_on(
    tmp_path: Path, official_python: Path
) -> None:
    source = tmp_path / "p.py"
    source.write_text("print('hi')\n")
    binary = tmp_path / "claude"
    binary.write_text("")
    program = Program.from_spec("own-p", source, "programs", {"replies": ["Hi."]})
    changed = Program.from_spec("own-p", source, "programs", {"replies": ["Hello."]})
    root = tmp_path / "runs"
    key = _twin_cache.key(program, official_python=official_python, binary=binary, root=root)
    assert key == _twin_cache.key(program, official_python=official_python, binary=binary, root=tmp_path / "else")
    assert key != _twin_cache.key(changed, official_python=official_python, binary=binary, root=root)
    assert key != _twin_cache.key(program, official_python=official_python, binary=binary, root=tmp_path / "other")

    cache = tmp_path / "cache"
    assert _twin_cache.load(cache, program, key) is None
    _twin_cache.store(cache, program, key, _side(tmp_path, exit_code=3))  # does not fit: not kept
    assert _twin_cache.load(cache, program, key) is None
    _twin_cache.store(cache, program, key, _side(tmp_path, stdout="hi\n"))
    kept = _twin_cache.load(cache, program, key)
    assert kept is not None and kept.problems(0) == []
    assert observe(kept)["stdout"] == "hi\n"
    source.write_text("print('changed')\n")
    assert key != _twin_cache.key(program, official_python=official_python, binary=binary, root=root)
