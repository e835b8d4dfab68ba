"""Options → argv / env / initialize (``build_launch``), validation and ``explain()``."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from claude_wrap import ClaudeAgentOptions, CLIConnectionError, OptionsWarning
from claude_wrap._launch.argv import HEAD_ARGS, TAIL_ARGS, build_launch

CLI = "/opt/claude/bin/claude"


def argv_of(**fields: Any) -> list[str]:
    return build_launch(ClaudeAgentOptions(**fields), CLI).argv


MINIMAL_PROMPT = ["--system-prompt", ""]


def flags(**fields: Any) -> list[str]:
    """The argv between the fixed head and tail args, without the default
    minimal-prompt pair unless ``system_prompt`` is among ``fields``."""
    argv = argv_of(**fields)
    assert argv[: 1 + len(HEAD_ARGS)] == [CLI, *HEAD_ARGS]
    assert argv[-len(TAIL_ARGS) :] == list(TAIL_ARGS)
    middle = argv[1 + len(HEAD_ARGS) : -len(TAIL_ARGS)]
    if "system_prompt" not in fields:
        assert middle[:2] == MINIMAL_PROMPT
        middle = middle[2:]
    return middle


def value_after(argv: list[str], flag: str) -> str:
    """The value of ``flag`` whether written as ``flag value`` or ``flag=value``."""
    for i, arg in enumerate(argv):
        if arg == flag:
            return argv[i + 1]
        if arg.startswith(flag + "="):
            return arg[len(flag) + 1 :]
    raise AssertionError(f"{flag} not in {argv}")


# -- base -------------------------------------------------------------------------------


def test_base_args_and_a_minimal_prompt_by_default() -> None:
    launch = build_launch(ClaudeAgentOptions(), CLI)
    assert launch.argv[0] == CLI
    argv = launch.argv
    assert "--output-format" in argv and value_after(argv, "--output-format") == "stream-json"
    assert "--input-format" in argv and value_after(argv, "--input-format") == "stream-json"
    assert "--verbose" in argv  # stream-json output requires it
    assert "-p" not in argv and "--print" not in argv
    # As in the official package: no system prompt given means a minimal one,
    # not the binary's full Claude Code prompt (that is the preset).
    assert argv == [CLI, *HEAD_ARGS, *MINIMAL_PROMPT, *TAIL_ARGS]
    assert flags() == []
    assert launch.files == {}
    assert launch.initialize["subtype"] == "initialize"
    assert launch.cwd is None


# -- each option -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"model": "claude-sonnet-4-5"}, ["--model", "claude-sonnet-4-5"]),
        ({"fallback_model": "claude-haiku-4-5"}, ["--fallback-model", "claude-haiku-4-5"]),
        ({"system_prompt": "Be terse."}, ["--system-prompt", "Be terse."]),
        ({"system_prompt": ""}, ["--system-prompt", ""]),
        ({"system_prompt": None}, ["--system-prompt", ""]),
        ({"system_prompt": {"type": "preset", "preset": "claude_code"}}, []),
        (
            {"system_prompt": {"type": "preset", "preset": "claude_code", "append": "Also X."}},
            ["--append-system-prompt", "Also X."],
        ),
        (
            {"system_prompt": {"type": "preset", "preset": "claude_code", "exclude_dynamic_sections": True}},
            [],  # an initialize field (see test_argv_options)
        ),
        ({"system_prompt": {"type": "file", "path": "/etc/prompt.md"}}, ["--system-prompt-file", "/etc/prompt.md"]),
        ({"append_system_prompt": "Extra."}, ["--append-system-prompt", "Extra."]),
        (
            {"system_prompt": {"type": "preset", "preset": "claude_code"}, "append_system_prompt": "Extra."},
            ["--append-system-prompt", "Extra."],
        ),
        ({"tools": ["Read", "Grep"]}, ["--tools", "Read,Grep"]),
        ({"tools": []}, ["--tools", ""]),
        ({"tools": {"type": "preset", "preset": "claude_code"}}, ["--tools", "default"]),
        ({"allowed_tools": ["Bash(git:*)", "Read"]}, ["--allowedTools", "Bash(git:*),Read"]),
        ({"disallowed_tools": ["Write"]}, ["--disallowedTools", "Write"]),
        ({"max_turns": 3}, ["--max-turns", "3"]),
        ({"max_budget_usd": 0.5}, ["--max-budget-usd", "0.5"]),
        ({"max_budget_usd": 2}, ["--max-budget-usd", "2"]),
        ({"permission_mode": "acceptEdits"}, ["--permission-mode", "acceptEdits"]),
        ({"continue_conversation": True}, ["--continue"]),
        ({"resume": "994dfc7c-28f7"}, ["--resume=994dfc7c-28f7"]),
        ({"session_id": "11111111-2222-4333-8444-555555555555"}, ["--session-id=11111111-2222-4333-8444-555555555555"]),
        ({"resume": "abc", "fork_session": True}, ["--resume=abc", "--fork-session"]),
        (
            {"resume": "abc", "resume_session_at": "u", "resume_drops_turn": ""},
            [
                "--resume=abc",
                "--resume-session-at=u",
                "--resume-drops-turn=",
            ],  # "" is refused by the binary, not dropped
        ),
        ({"settings": "/home/me/settings.json"}, ["--settings", "/home/me/settings.json"]),
        ({"setting_sources": []}, ["--setting-sources="]),
        ({"setting_sources": ["user", "project"]}, ["--setting-sources=user,project"]),
        ({"add_dirs": ["/a", Path("/b c")]}, ["--add-dir", "/a", "--add-dir", "/b c"]),
        ({"include_partial_messages": True}, ["--include-partial-messages"]),
        ({"effort": "high"}, ["--effort", "high"]),
        ({"betas": ["context-1m"]}, ["--betas", "context-1m"]),
        ({"extra_args": {"debug-to-stderr": None}}, ["--debug-to-stderr"]),
        ({"extra_args": {"mcp-config": "/x.json"}}, ["--mcp-config", "/x.json"]),
        ({"extra_args": {"replay-user-messages": None, "name": "v"}}, ["--replay-user-messages", "--name", "v"]),
    ],
)
def test_option_flags(fields: dict[str, Any], expected: list[str]) -> None:
    assert flags(**fields) == expected


def test_settings_dict_is_passed_as_json_in_a_private_file() -> None:
    settings = {"permissions": {"allow": ["Bash(ls:*)"]}, "env": {"A": "1"}}
    launch = build_launch(ClaudeAgentOptions(settings=settings), CLI)
    assert json.loads(launch.files[value_after(launch.argv, "--settings")]) == settings


def test_output_format_becomes_json_schema() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    argv = flags(output_format={"type": "json_schema", "schema": schema})
    assert json.loads(value_after(argv, "--json-schema")) == schema


def test_can_use_tool_routes_prompts_over_stdio() -> None:
    async def allow(*args: Any) -> Any:
        return None

    assert value_after(flags(can_use_tool=allow), "--permission-prompt-tool") == "stdio"
    assert flags(permission_prompt_tool_name="mcp__perm__ask") == ["--permission-prompt-tool", "mcp__perm__ask"]


def test_permission_mode_is_never_bypass_by_default() -> None:
    assert "bypassPermissions" not in argv_of()
    assert "--dangerously-skip-permissions" not in argv_of()


# -- values that begin with "-" ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "flag"),
    [
        ({"model": "-x"}, "--model"),
        ({"fallback_model": "--help"}, "--fallback-model"),
        ({"system_prompt": "- a bulleted prompt"}, "--system-prompt"),
        ({"append_system_prompt": "--dangerously-skip-permissions"}, "--append-system-prompt"),
        ({"system_prompt": {"type": "file", "path": "-prompt.md"}}, "--system-prompt-file"),
        ({"add_dirs": ["-dir"]}, "--add-dir"),
        ({"extra_args": {"name": "--dangerously-skip-permissions"}}, "--name"),
        ({"permission_prompt_tool_name": "-t"}, "--permission-prompt-tool"),
        ({"resume": "-r"}, "--resume"),
        ({"settings": "-settings.json"}, "--settings"),
        ({"tools": ["-Bash"]}, "--tools"),
        ({"allowed_tools": ["--dangerously-skip-permissions"]}, "--allowedTools"),
        ({"disallowed_tools": ["-Write"]}, "--disallowedTools"),
        ({"betas": ["-beta"]}, "--betas"),
    ],
    ids=lambda v: v if isinstance(v, str) else next(iter(v)),
)
def test_values_beginning_with_dash_cannot_become_flags(fields: dict[str, Any], flag: str) -> None:
    argv = flags(**fields)
    value = value_after(argv, flag)
    assert value.startswith("-")
    # The value is glued to its flag, so no argv element is a bare "-..." value.
    assert f"{flag}={value}" in argv
    assert value not in argv


# -- long values go through private temp files --------------------------------------------------


def test_long_system_prompt_goes_through_a_private_temp_file() -> None:
    prompt = "You are a careful assistant. ü\n" * 7000  # ~210 KB
    assert len(prompt.encode()) > 200_000
    launch = build_launch(ClaudeAgentOptions(system_prompt=prompt), CLI)
    assert prompt not in launch.argv
    assert all(len(a) < 100_000 for a in launch.argv)
    argv = launch.materialize()
    try:
        path = value_after(argv, "--system-prompt-file")
        assert "--system-prompt" not in argv
        assert Path(path).read_text(encoding="utf-8") == prompt
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
        assert all(len(a) < 100_000 for a in argv)
    finally:
        launch.cleanup()
    assert not os.path.exists(path)
    assert not os.path.exists(os.path.dirname(path))
    launch.cleanup()  # twice is fine


def test_long_append_prompt_and_settings_use_files_too() -> None:
    big = "x" * 150_000
    launch = build_launch(ClaudeAgentOptions(append_system_prompt=big, settings={"blob": big}), CLI)
    argv = launch.materialize()
    try:
        append_path = value_after(argv, "--append-system-prompt-file")
        assert Path(append_path).read_text() == big
        settings_path = value_after(argv, "--settings")
        assert json.loads(Path(settings_path).read_text()) == {"blob": big}
    finally:
        launch.cleanup()


def test_short_values_need_no_files() -> None:
    launch = build_launch(ClaudeAgentOptions(system_prompt="short"), CLI)
    assert launch.files == {}
    assert launch.materialize() == launch.argv
    launch.cleanup()


# -- environment ----------------------------------------------------------------------------------


def test_env_drops_nesting_markers_and_applies_user_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CLAUDECODE", "1")
    monkeypatch.setenv("KEEP_ME", "yes")
    launch = build_launch(
        ClaudeAgentOptions(env={"ANTHROPIC_BASE_URL": "http://127.0.0.1:1", "KEEP_ME": "changed"}, cwd=tmp_path), CLI
    )
    env = launch.env
    assert "CLAUDECODE" not in env
    assert env["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:1"
    assert env["KEEP_ME"] == "changed"
    assert env["PWD"] == str(tmp_path)
    assert env["PATH"] == os.environ["PATH"]  # the parent environment is inherited
    assert launch.cwd == str(tmp_path)
    assert launch.env_changes["CLAUDECODE"] is None
    assert launch.env_changes["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:1"
    assert "CLAUDECODE" in os.environ  # our own environment is untouched


def test_env_without_cwd_does_not_set_pwd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PWD", "/parent/dir")
    launch = build_launch(ClaudeAgentOptions(), CLI)
    assert launch.env["PWD"] == "/parent/dir"
    assert "PWD" not in launch.env_changes


def test_missing_cwd_raises_connection_error(tmp_path: Path) -> None:
    missing = tmp_path / "does-not-exist"
    with pytest.raises(CLIConnectionError) as info:
        build_launch(ClaudeAgentOptions(cwd=missing), CLI)
    assert str(missing) in str(info.value)


# -- validation (the checks themselves: tests/unit/test_options.py) ---------------------------------


def test_our_own_fields_are_checked_at_construction() -> None:
    with pytest.raises(ValueError, match="ClaudeAgentOptions.control_timeout"):
        ClaudeAgentOptions(control_timeout=0)


def test_values_the_binary_cannot_use_are_refused_at_launch() -> None:
    options = ClaudeAgentOptions(env={"A=B": "1"})  # accepted, as by the official package
    with pytest.raises(ValueError, match="ClaudeAgentOptions.env"):
        build_launch(options, CLI)


def test_options_the_binary_ignores_warn() -> None:
    with pytest.warns(OptionsWarning, match="max_turns=0"):
        options = ClaudeAgentOptions(max_turns=0)
    assert flags(max_turns=None) == []
    assert build_launch(options, CLI).argv == argv_of()


# -- explain() ---------------------------------------------------------------------------------------


def test_explain_redacts_secrets_and_spawns_nothing(tmp_path: Path) -> None:
    secret = "sk-ant-SUPERSECRET-0123456789"
    options = ClaudeAgentOptions(
        env={
            "ANTHROPIC_API_KEY": secret,
            "GITHUB_TOKEN": secret + "-gh",
            "MY_SECRET": secret + "-mine",
            "api_key_lower": secret + "-lower",
            "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",
        },
        model="claude-sonnet-4-5",
        cwd=tmp_path / "not-created-yet",
        cli_path=str(tmp_path / "claude"),
    )
    explanation = options.explain()
    text = str(explanation)
    assert secret not in text
    assert secret not in repr(explanation)
    for name in ("ANTHROPIC_API_KEY", "GITHUB_TOKEN", "MY_SECRET", "api_key_lower"):
        assert explanation.env_changes[name] == "<redacted>"
        assert name in text
    assert explanation.env_changes["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:9"
    assert "http://127.0.0.1:9" in text
    assert explanation.argv[1 : 1 + len(HEAD_ARGS)] == list(HEAD_ARGS)
    assert value_after(explanation.argv, "--model") == "claude-sonnet-4-5"
    assert explanation.cwd == str(tmp_path / "not-created-yet")  # explain() does not require the cwd
    assert not (tmp_path / "not-created-yet").exists()
    assert explanation.initialize["subtype"] == "initialize"
    assert "claude-sonnet-4-5" in text


def test_explain_describes_a_long_prompt_without_writing_it() -> None:
    prompt = "p" * 200_000
    explanation = ClaudeAgentOptions(system_prompt=prompt).explain()
    assert prompt not in str(explanation)
    assert value_after(explanation.argv, "--system-prompt-file").startswith("<temp file, 200000 chars>")
