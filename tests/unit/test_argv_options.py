"""How the less common options reach the binary: argv, initialize, env."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from claude_wrap import ClaudeAgentOptions, CLIConnectionError, OptionsWarning
from claude_wrap._launch.argv import build_launch


def launch(**fields: Any) -> Any:
    return build_launch(ClaudeAgentOptions(**fields), "claude")


def after(argv: list[str], flag: str) -> str:
    return argv[argv.index(flag) + 1]


@pytest.mark.parametrize(
    ("thinking", "expected"),
    [
        ({"type": "adaptive"}, ["--thinking", "adaptive"]),
        ({"type": "disabled"}, ["--thinking", "disabled"]),
        ({"type": "enabled", "budget_tokens": 2048}, ["--max-thinking-tokens", "2048"]),
        ({"type": "adaptive", "display": "omitted"}, ["--thinking", "adaptive", "--thinking-display", "omitted"]),
    ],
)
def test_thinking(thinking: Any, expected: list[str]) -> None:
    argv = launch(thinking=thinking).argv
    start = argv.index(expected[0])
    assert argv[start : start + len(expected)] == expected


def test_max_thinking_tokens_and_task_budget() -> None:
    argv = launch(max_thinking_tokens=0, task_budget={"total": 1000}).argv
    assert after(argv, "--max-thinking-tokens") == "0"
    assert after(argv, "--task-budget") == "1000"


def test_skills_become_rules_initialize_and_default_sources() -> None:
    named = launch(skills=["pdf", "plugin:review"])
    assert after(named.argv, "--allowedTools") == "Skill(pdf),Skill(plugin:review)"
    assert named.initialize["skills"] == ["pdf", "plugin:review"]
    assert "--setting-sources=user,project" in named.argv
    everything = launch(skills="all", allowed_tools=["Read"], setting_sources=[])
    assert after(everything.argv, "--allowedTools") == "Read,Skill"
    assert "--setting-sources=" in everything.argv
    assert "skills" not in everything.initialize  # "all" is no filter
    # An empty list hides every skill (an empty filter), and still loads the settings they live in.
    none = launch(skills=[])
    assert none.initialize["skills"] == [] and "--setting-sources=user,project" in none.argv
    assert "--allowedTools" not in none.argv
    # A rule already allowed is not repeated.
    assert after(launch(skills=["pdf"], allowed_tools=["Skill(pdf)"]).argv, "--allowedTools") == "Skill(pdf)"


@pytest.mark.parametrize(
    ("skills", "error"),
    [
        (["paren("], ValueError),
        (["a,b"], ValueError),
        (["*"], ValueError),
        (["plugin:*"], ValueError),
        (["/slash-first"], ValueError),
        (["back\\\\slash"], ValueError),
        (["trailing\\"], ValueError),
        (["\ufeffbom"], ValueError),
        ([" padded"], ValueError),
        ([""], ValueError),
        ([3], TypeError),
        ("pdf", TypeError),
        (("pdf",), TypeError),
    ],
)
def test_malformed_skills_are_accepted_until_the_run_starts(skills: Any, error: type[Exception]) -> None:
    options = ClaudeAgentOptions(skills=skills)  # as the official package: no check at construction
    with pytest.raises(error, match="[Ss]kill"):
        build_launch(options, "claude")


@pytest.mark.parametrize("name", ["my skill", "star*in-middle", "back\\slash", "plugin:review"])
def test_skill_names_the_official_package_accepts_pass(name: str) -> None:
    assert after(launch(skills=[name]).argv, "--allowedTools") == f"Skill({name})"


def test_plugins(tmp_path: Path) -> None:
    argv = launch(plugins=[{"type": "local", "path": str(tmp_path)}]).argv
    assert after(argv, "--plugin-dir") == str(tmp_path)
    with pytest.warns(OptionsWarning, match="does not exist"):
        missing = launch(plugins=[{"type": "local", "path": str(tmp_path / "missing")}])
    assert after(missing.argv, "--plugin-dir") == str(tmp_path / "missing")  # passed on, as by the official package
    remote = ClaudeAgentOptions(plugins=[{"type": "remote", "path": "x"}])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="Unsupported plugin type: remote"):
        build_launch(remote, "claude")


@pytest.mark.parametrize("kind", ["dict", "json", "file", "none"])
def test_sandbox_merges_into_settings(kind: str, tmp_path: Path) -> None:
    base = {"env": {"A": "1"}}
    settings: Any = {"dict": base, "json": json.dumps(base), "none": None}.get(kind)
    if kind == "file":
        (tmp_path / "settings.json").write_text("\ufeff" + json.dumps(base), encoding="utf-8")
        settings = "settings.json"  # read relative to cwd, with or without a BOM, as the binary reads it
    argv = launch(settings=settings, sandbox={"enabled": True, "excludedCommands": ["git"]}, cwd=tmp_path).inlined()
    merged = json.loads(after(argv, "--settings"))
    assert merged["sandbox"] == {"enabled": True, "excludedCommands": ["git"]}
    assert merged.get("env") == (None if kind == "none" else {"A": "1"})


@pytest.mark.parametrize("settings", ["missing.json", "{not json}", "[1, 2]"])
def test_settings_that_cannot_merge_with_sandbox_fail_to_connect(settings: str, tmp_path: Path) -> None:
    with pytest.raises(CLIConnectionError, match="^Failed to load settings: "):
        launch(settings=settings, sandbox={"enabled": True}, cwd=tmp_path)


def test_session_flags() -> None:
    argv = launch(resume="abc", resume_session_at="uuid-1", resume_drops_turn="uuid-2", persist_session=False).argv
    assert "--resume-session-at=uuid-1" in argv and "--resume-drops-turn=uuid-2" in argv
    assert "--no-session-persistence" in argv


def test_bare_mode_flag() -> None:
    assert "--bare" in launch(bare=True).argv
    assert "--bare" not in launch().argv


def test_initialize_fields() -> None:
    init = launch(
        title="T",
        forward_subagent_text=True,
        agent_progress_summaries=True,
        prompt_suggestions=True,
        plan_mode_instructions="plan carefully",
        tool_aliases={"Bash": "mcp__ws__bash"},
    ).initialize
    assert init["title"] == "T"
    assert init["forwardSubagentText"] is True and init["agentProgressSummaries"] is True
    assert init["promptSuggestions"] is True and init["planModeInstructions"] == "plan carefully"
    assert init["toolAliases"] == {"Bash": "mcp__ws__bash"}


def test_flags_for_agent_hooks_events_debug_and_bypass() -> None:
    argv = launch(
        agent="reviewer", include_hook_events=True, debug_file="/tmp/d.log", allow_dangerously_skip_permissions=True
    ).argv
    assert after(argv, "--agent") == "reviewer"
    assert after(argv, "--debug-file") == "/tmp/d.log"
    assert "--include-hook-events" in argv and "--allow-dangerously-skip-permissions" in argv


def test_the_typescript_sdks_options() -> None:
    result = launch(
        permission_prompts="none",
        project_config_root="/srv/checkout",
        managed_settings={"permissions": {"deny": ["Bash"]}},
        per_task_stop_affordance=True,
        debug=True,
        tool_config={"ask_user_question": {"preview_format": "html"}},
        system_prompt=["shared", "__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__", "own"],
    )
    argv, init = result.argv, result.initialize
    assert after(argv, "--permission-prompts") == "none"
    assert after(argv, "--project-config-root") == "/srv/checkout"
    # Policy goes in initialize, never on the command line.
    assert "--managed-settings-in-initialize" in argv and "--await-initialize" in argv
    assert init["managedSettings"] == {"permissions": {"deny": ["Bash"]}} and "deny" not in " ".join(argv)
    assert init["perTaskStopAffordance"] is True and "--debug" in argv
    assert result.env["CLAUDE_CODE_QUESTION_PREVIEW_FORMAT"] == "html"
    assert init["systemPrompt"] == ["shared", "__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__", "own"]
    assert "--system-prompt" not in argv
    # Unset, none of them is sent: official programs get the official command line.
    plain = launch()
    assert not {"--permission-prompts", "--project-config-root", "--debug", "--await-initialize"} & set(plain.argv)
    assert not {"managedSettings", "perTaskStopAffordance", "systemPrompt"} & plain.initialize.keys()


@pytest.mark.parametrize(
    "fields",
    [
        {"permission_prompts": "nobody"},
        {"system_prompt": ["a", 1]},
        {"tool_config": {"ask_user_question": {"preview_format": "pdf"}}},
    ],
)
def test_the_typescript_sdks_options_refuse_bad_values(fields: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        ClaudeAgentOptions(**fields)


def test_long_subagent_prompt_goes_through_a_file() -> None:
    result = launch(append_subagent_system_prompt="x" * 200_000)
    assert "--append-subagent-system-prompt-file" in result.argv
    assert "x" * 1000 not in " ".join(result.argv)


def test_file_checkpointing_sets_the_env() -> None:
    assert launch(enable_file_checkpointing=True).env["CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING"] == "true"
    assert "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING" not in launch().env_changes


class Answer(BaseModel):
    answer: int


def test_output_type_schema_is_sent() -> None:
    argv = launch(output_type=Answer).argv
    assert json.loads(after(argv, "--json-schema"))["properties"]["answer"]["type"] == "integer"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"output_type": Answer, "output_format": {"type": "json_schema", "schema": {}}}, "set only one"),
        ({"output_type": dict}, "pydantic model class"),
    ],
)
def test_conflicts_of_our_own_options_are_refused_at_construction(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ClaudeAgentOptions(**fields)


def test_a_schema_too_long_for_argv_goes_in_initialize() -> None:
    schema = {
        "type": "object",
        "properties": {f"field_{i}": {"type": "string", "description": "d" * 50} for i in range(2000)},
    }
    result = launch(output_format={"type": "json_schema", "schema": schema})
    assert "--json-schema" not in result.argv
    assert result.initialize["jsonSchema"] == schema


def test_explain_shows_the_whole_initialize_request() -> None:
    from claude_wrap import AgentDefinition, HookMatcher

    async def hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        return {}

    shown = ClaudeAgentOptions(
        hooks={"PreToolUse": [HookMatcher("Bash", [hook], timeout=5)]},
        agents={"a": AgentDefinition(description="d", prompt="p")},
        supported_dialog_kinds=["k"],
        prefer_path=False,
    ).explain()
    assert shown.initialize["hooks"] == {
        "PreToolUse": [{"matcher": "Bash", "hookCallbackIds": ["hook_0"], "timeout": 5}]
    }
    assert shown.initialize["agents"] == {"a": {"description": "d", "prompt": "p"}}
    assert shown.initialize["supportedDialogKinds"] == ["k"]


def test_official_compatibility_fields() -> None:
    assert ClaudeAgentOptions(debug_stderr=object()).debug_stderr is not None  # accepted, unused


def test_custom_system_prompt_and_snapshot() -> None:
    custom = launch(system_prompt={"type": "custom", "prompt": "Be brief.", "snapshot": False})
    assert after(custom.argv, "--system-prompt") == "Be brief."
    assert custom.initialize["systemPromptSnapshot"] is False
    preset = launch(system_prompt={"type": "preset", "preset": "claude_code", "snapshot": True})
    assert preset.initialize["systemPromptSnapshot"] is True
    assert "--system-prompt" not in preset.argv
    assert "systemPromptSnapshot" not in launch(system_prompt="Be brief.").initialize
    # A file prompt has no snapshot of its own; only booleans are sent.
    assert (
        "systemPromptSnapshot" not in launch(system_prompt={"type": "file", "path": "p", "snapshot": True}).initialize
    )  # type: ignore[typeddict-unknown-key]
    assert (
        "systemPromptSnapshot" not in launch(system_prompt={"type": "custom", "prompt": "p", "snapshot": 1}).initialize
    )  # type: ignore[typeddict-item]


@pytest.mark.parametrize("value", [True, False])
def test_excluding_dynamic_sections_is_an_initialize_field(value: bool) -> None:
    result = launch(system_prompt={"type": "preset", "preset": "claude_code", "exclude_dynamic_sections": value})
    assert result.initialize["excludeDynamicSections"] is value
    assert not any("dynamic" in arg for arg in result.argv)


def test_client_app_is_an_environment_variable_and_must_be_header_safe() -> None:
    env = launch(client_app="my-app/1.0", env={"CLAUDE_AGENT_SDK_CLIENT_APP": "other"}).env
    assert env["CLAUDE_AGENT_SDK_CLIENT_APP"] == "my-app/1.0"  # the option wins over env
    assert "CLAUDE_AGENT_SDK_CLIENT_APP" not in launch().env_changes
    for bad in ("app\r\nX-Injected: 1", "app/☃"):
        options = ClaudeAgentOptions(client_app=bad)  # accepted, as by the official package
        with pytest.raises(ValueError, match="client_app must be HTTP-header safe"):
            build_launch(options, "claude")


# -- NUL bytes ---------------------------------------------------------------------------------

# Our own options that reach the command line or initialize, beside the official cases.
_OUR_STRINGS = {
    "append_system_prompt": "more",
    "append_subagent_system_prompt": "sub",
    "agent": "reviewer",
    "debug_file": "debug.log",
    "user": "nobody",
    "plan_mode_instructions": "plan",
    "title": "a title",
    "tool_aliases": {"Bash": "mcp__ws__bash"},
}


def _with_a_nul(value: Any, *, keys: bool = False) -> Any:
    """Each copy of ``value`` with a NUL put into one of its strings (or of
    its keys, for a mapping of free names)."""
    if isinstance(value, str):
        yield value + "\0"
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            for changed in _with_a_nul(item):
                yield [*value[:i], changed, *value[i + 1 :]]
    elif isinstance(value, dict):
        for key, item in value.items():
            if key == "type":
                continue  # a different kind of config, not the same one with a NUL
            for changed in _with_a_nul(item):
                yield {**value, key: changed}
            if keys and isinstance(key, str):
                yield {(k + "\0" if k == key else k): v for k, v in value.items()}


def _nul_variants() -> Any:
    import option_cases

    import claude_wrap

    all_cases = {**option_cases.cases(claude_wrap), **{f"ours_{k}": {k: v} for k, v in _OUR_STRINGS.items()}}
    for name, kwargs in sorted(all_cases.items()):
        for field_name, value in kwargs.items():
            for changed in _with_a_nul(value, keys=field_name in ("env", "extra_args", "tool_aliases")):
                yield pytest.param(field_name, {**kwargs, field_name: changed}, id=f"{name}-{field_name}")


@pytest.mark.filterwarnings("ignore::claude_wrap.OptionsWarning")
@pytest.mark.parametrize(("field_name", "kwargs"), list(_nul_variants()))
def test_a_nul_byte_is_an_error_naming_the_option_or_never_reaches_argv_or_env(
    field_name: str, kwargs: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A NUL cannot be part of any argument or variable of a process: it must
    # be refused by name before the spawn, not escape as "embedded null byte".
    monkeypatch.chdir(tmp_path)
    (tmp_path / "settings.json").write_text("{}")
    try:
        made = build_launch(ClaudeAgentOptions(**kwargs), "claude", check_cwd=False)
    except (ValueError, TypeError) as exc:
        # Ours name the option; a skill name is refused as the official package refuses it.
        assert f"ClaudeAgentOptions.{field_name}" in str(exc) or str(exc).startswith("Invalid skill name")
        return
    words = [*made.argv, *made.env, *made.env.values(), *(made.cwd or "")]
    assert not any("\0" in w for w in words), f"{field_name} put a NUL into the command line or environment"
