"""Each ``system_prompt`` form gives the model the system prompt the official
package gives it (tests/unit/test_official_options.py proves the command
lines and ``initialize`` requests equal; here the binary turns them into
the ``system`` the model receives).

Without ``system_prompt`` the model gets a minimal prompt, not the binary's
full Claude Code prompt: that one is the preset.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _e2e import Options, run

from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

PRESET = {"type": "preset", "preset": "claude_code"}
# Words of the full Claude Code prompt that a minimal one never has.
CLAUDE_CODE_PROMPT_MARK = "You are an agent working with the user"
# A minimal prompt is one identity line and a billing header; the full one is thousands of characters.
MINIMAL = 400
FULL = 4000


async def _system(scripted_model: ScriptedModel, options: Any) -> str:
    scripted_model.add(Reply.text("ok"))
    messages = await run("hi", options)
    assert messages[-1].result == "ok"
    return scripted_model.main_requests[-1].system_text


async def test_no_system_prompt_is_a_minimal_one(scripted_model: ScriptedModel, make_options: Options) -> None:
    default = await _system(scripted_model, make_options())
    assert len(default) < MINIMAL
    assert CLAUDE_CODE_PROMPT_MARK not in default
    assert "Claude Agent SDK" in default  # the binary's identity line for SDK hosts
    # The same as an explicit None, and as an empty prompt.
    assert await _system(scripted_model, make_options(system_prompt=None)) == default
    assert await _system(scripted_model, make_options(system_prompt="")) == default


# A dynamic (per-user) section of the Claude Code prompt: the memory directory.
DYNAMIC_SECTION = "\n# Memory\n"


async def test_the_preset_is_the_full_claude_code_prompt(scripted_model: ScriptedModel, make_options: Options) -> None:
    full = await _system(scripted_model, make_options(system_prompt=dict(PRESET)))
    assert len(full) > FULL
    assert CLAUDE_CODE_PROMPT_MARK in full
    assert DYNAMIC_SECTION in full

    appended = await _system(scripted_model, make_options(system_prompt={**PRESET, "append": "APPENDED-RULE-1"}))
    assert len(appended) > FULL and appended.rstrip().endswith("APPENDED-RULE-1")

    # exclude_dynamic_sections (an initialize field): the per-user sections
    # move out of the system prompt, into the first user message.
    static = await _system(scripted_model, make_options(system_prompt={**PRESET, "exclude_dynamic_sections": True}))
    assert CLAUDE_CODE_PROMPT_MARK in static and len(static) > FULL
    assert DYNAMIC_SECTION not in static
    assert DYNAMIC_SECTION.strip() in str(scripted_model.main_requests[-1].messages[0]["content"])


@pytest.mark.parametrize(
    "form",
    ["string", "custom", "custom_snapshot", "file"],
)
async def test_a_prompt_of_ones_own_replaces_the_default(
    form: str, scripted_model: ScriptedModel, make_options: Options, tmp_path: Path
) -> None:
    prompt_file = tmp_path / "prompt.md"
    prompt_file.write_text("You are FROM-A-FILE.", encoding="utf-8")
    system_prompt: Any = {
        "string": "You are STRING-PROMPT.",
        "custom": {"type": "custom", "prompt": "You are CUSTOM-PROMPT."},
        "custom_snapshot": {"type": "custom", "prompt": "You are CUSTOM-PROMPT.", "snapshot": False},
        "file": {"type": "file", "path": str(prompt_file)},
    }[form]
    system = await _system(scripted_model, make_options(system_prompt=system_prompt))
    expected = {
        "string": "STRING-PROMPT",
        "custom": "CUSTOM-PROMPT",
        "custom_snapshot": "CUSTOM-PROMPT",
        "file": "FROM-A-FILE",
    }
    assert f"You are {expected[form]}." in system
    assert len(system) < MINIMAL
    assert CLAUDE_CODE_PROMPT_MARK not in system


async def test_append_system_prompt_extends_whichever_prompt_is_set(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    minimal = await _system(scripted_model, make_options(append_system_prompt="EXTRA-RULE-2"))
    assert minimal.rstrip().endswith("EXTRA-RULE-2") and len(minimal) < MINIMAL
    full = await _system(scripted_model, make_options(system_prompt=dict(PRESET), append_system_prompt="EXTRA-RULE-2"))
    assert full.rstrip().endswith("EXTRA-RULE-2") and CLAUDE_CODE_PROMPT_MARK in full
