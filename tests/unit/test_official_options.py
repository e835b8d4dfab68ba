"""``ClaudeAgentOptions`` is the official package's, field for field, and
starts the binary the same way, option by option.

``tests/fixtures/official_options.json`` is recorded from the official
package by ``scripts/official_options.py``: its dataclass fields (order,
kinds, defaults), and for each case of ``tests/support/option_cases.py`` the command
line, environment changes and ``initialize`` request it gave the binary.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import option_cases
import pytest

import claude_wrap
from claude_wrap import ClaudeAgentOptions, OptionsWarning
from claude_wrap._launch.argv import AGENT_SDK_VERSION, build_launch
from claude_wrap._launch.plan import plan_run

ROOT = Path(__file__).resolve().parents[2]
OFFICIAL = json.loads((ROOT / "tests" / "fixtures" / "official_options.json").read_text())
SURFACE = json.loads((ROOT / "tests" / "fixtures" / "official_surface.json").read_text())


def test_recorded_from_the_version_we_follow() -> None:
    assert OFFICIAL["version"] == SURFACE["version"] == AGENT_SDK_VERSION
    assert sorted(OFFICIAL["launches"]) == sorted(option_cases.cases(claude_wrap))


# -- the dataclass -----------------------------------------------------------------------


def test_official_fields_come_first_in_order_with_their_kinds_and_defaults() -> None:
    ours = option_cases.describe_fields(ClaudeAgentOptions)
    official = OFFICIAL["fields"]
    assert ours[: len(official)] == official
    assert [f["name"] for f in official] == SURFACE["options"]
    # Ours follow, all with defaults, so positional calls written for the
    # official class mean the same here.
    assert all("default" in f or "factory" in f or "default_is" in f for f in ours[len(official) :])


def test_a_plain_mutable_dataclass_like_the_official_one() -> None:
    params = ClaudeAgentOptions.__dataclass_params__  # type: ignore[attr-defined]
    assert {"frozen": params.frozen, "eq": params.eq, "order": params.order} == OFFICIAL["dataclass"]
    assert not any(name.startswith("__pydantic") for name in vars(ClaudeAgentOptions))
    options = ClaudeAgentOptions()
    options.max_turns = 0  # assignment is plain: no check, no warning (as in the official package)
    options.model = "sonnet"
    assert (options.max_turns, options.model) == (0, "sonnet")
    assert ClaudeAgentOptions(model="m") == ClaudeAgentOptions(model="m") != ClaudeAgentOptions()


def test_replace_fields_and_asdict_work() -> None:
    base = ClaudeAgentOptions(model="sonnet", allowed_tools=["Read"])
    changed = dataclasses.replace(base, max_turns=4)
    assert (changed.model, changed.max_turns, changed.allowed_tools) == ("sonnet", 4, ["Read"])
    assert base.max_turns is None
    assert changed == dataclasses.replace(base, max_turns=4)
    assert changed != base
    names = [f.name for f in dataclasses.fields(ClaudeAgentOptions)]
    assert names[: len(SURFACE["options"])] == SURFACE["options"]
    assert dataclasses.asdict(ClaudeAgentOptions(debug_stderr=None))["allowed_tools"] == []
    # Every field is documented or self-explanatory; help() shows the fields.
    assert "max_turns" in (ClaudeAgentOptions.__doc__ or "") + str(inspect.signature(ClaudeAgentOptions))


def test_signature_and_help_in_a_fresh_interpreter() -> None:
    # Before any instance exists, without pydantic, and with nothing of it in help().
    script = (
        "import inspect, pydoc, sys\n"
        "from claude_wrap import ClaudeAgentOptions\n"
        "names = list(inspect.signature(ClaudeAgentOptions).parameters)\n"
        "text = pydoc.render_doc(ClaudeAgentOptions, renderer=pydoc.plaintext)\n"
        "ClaudeAgentOptions(max_turns=3)\n"
        "print(names[:3], 'pydantic' in sys.modules, 'pydantic' in text.lower(), 'max_turns' in text)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "['tools', 'allowed_tools', 'system_prompt'] False False True"


def test_type_hints_resolve() -> None:
    import typing

    hints = typing.get_type_hints(ClaudeAgentOptions)
    assert set(hints) >= {f["name"] for f in OFFICIAL["fields"]}


# -- launches ---------------------------------------------------------------------------------


def _ours(kwargs: dict[str, Any], workdir: Path) -> dict[str, Any]:
    options = ClaudeAgentOptions(**kwargs)
    plan = plan_run(options, "claude")
    launch = plan.launch
    text = json.dumps(
        {
            # MCP and settings JSON go through private files (never the
            # command line): compared by what the binary reads from them.
            "argv": launch.inlined()[1:],
            "env_changes": launch.env_changes,
            "initialize": {"subtype": "initialize", **plan.initialize},
        }
    )
    return dict(json.loads(text.replace(str(workdir), "<cwd>")))


@pytest.mark.parametrize("name", sorted(OFFICIAL["launches"]))
def test_launch_matches_the_official_package(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "settings.json").write_text('{"permissions": {"allow": ["Read"]}}', encoding="utf-8")
    (tmp_path / "plugin").mkdir()
    for key, value in option_cases.PARENT_ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(tmp_path)
    kwargs = option_cases.cases(claude_wrap)[name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = _ours(kwargs, tmp_path)
    assert [w.category for w in caught] == ([OptionsWarning] if name in option_cases.WARNS else [])

    theirs = OFFICIAL["launches"][name]
    assert ours["argv"] == theirs["argv"]
    # The one difference on purpose: where the official package passes JSON
    # inline, ours passes a private file holding the same text.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OptionsWarning)  # counted above
        launch = build_launch(ClaudeAgentOptions(**kwargs), "claude")
    for flag in ("--mcp-config", "--settings"):
        if flag in theirs["argv"]:
            official = theirs["argv"][theirs["argv"].index(flag) + 1]
            passed = launch.argv[launch.argv.index(flag) + 1]
            assert (passed in launch.files) == official.lstrip().startswith("{"), (flag, official, passed)
    assert ours["env_changes"] == theirs["env_changes"]
    assert ours["initialize"] == theirs["initialize"]
