"""Security review, as tests (see SECURITY.md; the end-to-end half is in
tests/e2e/test_security_e2e.py).

* No shell anywhere in ``claude_wrap/``: a source scan, plus proof that an
  argv string is never interpreted by one.
* Values beginning with ``-`` cannot inject options, for every option that
  reaches argv (property-based).
* The default permission mode is never bypass.
* Secrets: ``explain()`` redacts them in env, URLs and JSON-valued flags,
  and JSON flags holding secrets go through a private file instead of the
  world-readable command line.
"""

from __future__ import annotations

import ast
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import claude_wrap
from claude_wrap import ClaudeAgentOptions, CLINotFoundError, SubprocessTransport
from claude_wrap._argv import HEAD_ARGS, TAIL_ARGS, build_launch

PACKAGE = Path(claude_wrap.__file__).parent
CLI = "/opt/claude/claude"

# -- no shell ------------------------------------------------------------------------------------------

SHELL_CALLS = {
    ("os", "system"),
    ("os", "popen"),
    ("asyncio", "create_subprocess_shell"),
    ("subprocess", "getoutput"),
    ("subprocess", "getstatusoutput"),
}
SHELL_FUNCTIONS = {"create_subprocess_shell", "getoutput", "getstatusoutput", "popen"}
SPAWN_FUNCTIONS = {"open_process", "run_process", "Popen", "run", "call", "check_call", "check_output"}
SPAWN_MODULES = {"anyio", "subprocess", "asyncio", "trio"}


def _dotted(node: ast.expr) -> tuple[str, ...]:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return tuple(reversed(parts))


def _is_string_expr(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _is_string_expr(node.left) or _is_string_expr(node.right)
    return False


def shell_uses(source: str, filename: str = "<src>") -> tuple[list[str], int]:
    """(shell uses found, number of process spawns seen) in Python source."""
    found: list[str] = []
    spawns = 0
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.ImportFrom) and node.module in ("os", "asyncio", "subprocess"):
            for alias in node.names:
                if (node.module, alias.name) in SHELL_CALLS:
                    found.append(f"{filename}:{node.lineno}: imports {node.module}.{alias.name}")
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        where = f"{filename}:{node.lineno}: {'.'.join(name)}"
        for kw in node.keywords:
            if kw.arg == "shell" and not (isinstance(kw.value, ast.Constant) and kw.value.value is False):
                found.append(f"{where}(shell=...)")
        if name[-2:] in SHELL_CALLS or (len(name) == 1 and name[0] in SHELL_FUNCTIONS):
            found.append(where)
        if name and name[-1] in SPAWN_FUNCTIONS and (len(name) == 1 or name[0] in SPAWN_MODULES):
            spawns += 1
            if node.args and _is_string_expr(node.args[0]):
                found.append(f"{where} with a command string (anyio/subprocess run it through a shell)")
    return found, spawns


def test_no_shell_anywhere_in_the_package() -> None:
    found: list[str] = []
    spawns = 0
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 20
    for path in files:
        f, s = shell_uses(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))
        found += f
        spawns += s
    assert found == []
    assert spawns >= 3  # the scan does see the package's real spawns (transport, binary checks)


@pytest.mark.parametrize(
    "snippet",
    [
        "import subprocess\nsubprocess.run('ls', shell=True)",
        "import os\nos.system('ls')",
        "from os import system\nsystem('ls')",
        "import asyncio\nasyncio.create_subprocess_shell('ls')",
        "import anyio\nanyio.open_process(f'ls {x}')",
        "import anyio\nanyio.run_process('ls ' + x)",
        "import subprocess\nsubprocess.Popen(cmd, shell=flag)",
    ],
)
def test_the_shell_scan_catches_each_form(snippet: str) -> None:
    found, _ = shell_uses(snippet)
    assert found, snippet


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.anyio
async def test_argv_strings_never_reach_a_shell(tmp_path: Path) -> None:
    pwned = tmp_path / "pwned"
    # A "binary path" that a shell would run as two commands.
    with pytest.raises(CLINotFoundError):
        await SubprocessTransport([f"{tmp_path}/claude; touch {pwned}"]).start()
    # Arguments with shell syntax arrive verbatim.
    hostile = f"$(touch {pwned}) `touch {pwned}` ; touch {pwned} | cat && echo *"
    t = SubprocessTransport([sys.executable, "-c", "import sys; print(sys.argv[1])", hostile])
    await t.start()
    try:
        with anyio.fail_after(30):
            assert await t.receive() == hostile.encode()
    finally:
        await t.aclose()
    assert not pwned.exists()


# -- option injection --------------------------------------------------------------------------------

# Every option that reaches argv with a caller-chosen string, as a builder.
STRING_OPTIONS: dict[str, Any] = {
    "model": lambda v: {"model": v},
    "fallback_model": lambda v: {"fallback_model": v},
    "system_prompt": lambda v: {"system_prompt": v},
    "system_prompt_file": lambda v: {"system_prompt": {"type": "file", "path": v}},
    "append_system_prompt": lambda v: {"append_system_prompt": v},
    "preset_append": lambda v: {"system_prompt": {"type": "preset", "preset": "claude_code", "append": v}},
    "tools": lambda v: {"tools": [v, "Read"]},
    "allowed_tools": lambda v: {"allowed_tools": ["Read", v]},
    "disallowed_tools": lambda v: {"disallowed_tools": [v]},
    "betas": lambda v: {"betas": [v]},
    "permission_prompt_tool_name": lambda v: {"permission_prompt_tool_name": v},
    "resume": lambda v: {"resume": v},
    "session_id": lambda v: {"session_id": v},
    "settings": lambda v: {"settings": v},
    "add_dirs": lambda v: {"add_dirs": ["/ok", v]},
    "mcp_servers_path": lambda v: {"mcp_servers": v},
    "extra_args": lambda v: {"extra_args": {"name": v}},
    # Not checked against their vocabulary (the official package does not): the binary refuses a stray value.
    "permission_mode": lambda v: {"permission_mode": v},
    "effort": lambda v: {"effort": v},
    "setting_sources": lambda v: {"setting_sources": ["user", v]},
}

hostile_values = st.sampled_from(
    [
        "--dangerously-skip-permissions",
        "--permission-mode=bypassPermissions",
        "--permission-mode",
        "-p",
        "-",
        "--",
        "-- --help",
    ]
) | st.text(st.characters(exclude_characters="\0"), min_size=0, max_size=20).map(lambda s: "-" + s)  # NUL: refused by name


def _flag_names(argv: list[str]) -> list[str]:
    """The option names in argv (``--flag=value`` counts as ``--flag``)."""
    return [a.split("=", 1)[0] for a in argv[1:] if a.startswith("-")]


def _argv_for(fields: dict[str, Any]) -> list[str]:
    launch = build_launch(ClaudeAgentOptions(**fields), CLI, check_cwd=False)
    return launch.argv


@pytest.mark.parametrize("option", sorted(STRING_OPTIONS))
@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(value=hostile_values)
def test_values_beginning_with_dash_never_add_an_option(option: str, value: str) -> None:
    build = STRING_OPTIONS[option]
    benign = _argv_for(build("benign"))
    hostile = _argv_for(build(value))
    # Same options as with a harmless value: the value never became a flag of its own.
    assert _flag_names(hostile) == _flag_names(benign)
    assert "--dangerously-skip-permissions" not in hostile
    assert "bypassPermissions" not in hostile


@pytest.mark.parametrize("option", sorted(STRING_OPTIONS))
def test_each_option_reaches_argv(option: str) -> None:
    # Guards the property test above against options that silently vanish.
    argv = _argv_for(STRING_OPTIONS[option]("benign"))
    assert any("benign" in a for a in argv)


# -- permission mode ----------------------------------------------------------------------------------


async def _allow(*args: Any) -> Any:
    return None


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"allowed_tools": ["Bash", "Write"]},
        {"can_use_tool": _allow},
        {"max_turns": 3, "model": "claude-sonnet-4-5", "add_dirs": ["/tmp"]},
        {"mcp_servers": {"x": {"command": "srv"}}, "tools": ["Bash"]},
    ],
)
def test_permission_mode_is_never_bypass_unless_asked(fields: dict[str, Any]) -> None:
    launch = build_launch(ClaudeAgentOptions(**fields), CLI, check_cwd=False)
    text = json.dumps([launch.argv, launch.env_changes, launch.initialize])
    assert "bypassPermissions" not in text
    assert "dangerously" not in text
    assert "--permission-mode" not in launch.argv
    # Asked for explicitly, it does show: the check above can see it.
    explicit = build_launch(ClaudeAgentOptions(**fields, permission_mode="bypassPermissions"), CLI, check_cwd=False)
    assert explicit.argv[explicit.argv.index("--permission-mode") + 1] == "bypassPermissions"


def test_default_options_field_is_not_bypass() -> None:
    assert ClaudeAgentOptions().permission_mode in (None, "default")


# -- secrets ----------------------------------------------------------------------------------------------

SECRET = "sk-ant-api03-CLAUDEWRAPFAKE-0123456789"


def _secret_options(tmp_path: Path) -> ClaudeAgentOptions:
    return ClaudeAgentOptions(
        env={
            "ANTHROPIC_API_KEY": SECRET,
            "ANTHROPIC_CUSTOM_HEADERS": f"x-api-key: {SECRET}-hdr",
            "HTTPS_PROXY": f"http://bob:{SECRET}-proxy@proxy.local:8080",
        },
        mcp_servers={
            "gh": {"command": "srv", "env": {"GITHUB_TOKEN": f"{SECRET}-gh", "PLAIN": "visible"}},
            "web": {"type": "http", "url": "https://mcp.local/x", "headers": {"Authorization": f"Bearer {SECRET}-web"}},
        },
        settings={"env": {"OPENAI_API_KEY": f"{SECRET}-settings"}, "model": "m"},
        extra_args={"db": f"postgres://u:{SECRET}-db@h/db"},
        cwd=tmp_path,
        cli_path=str(tmp_path / "claude"),
    )


def test_explain_redacts_secrets_in_env_urls_and_json_flags(tmp_path: Path) -> None:
    explanation = _secret_options(tmp_path).explain()
    text = str(explanation) + repr(explanation)
    assert SECRET not in text
    assert explanation.env_changes["ANTHROPIC_CUSTOM_HEADERS"] == "<redacted>"
    assert explanation.env_changes["HTTPS_PROXY"] == "http://bob:<redacted>@proxy.local:8080"
    assert "postgres://u:<redacted>@h/db" in explanation.argv
    # JSON flags with secrets are not in argv at all (see below).
    assert explanation.argv[explanation.argv.index("--mcp-config") + 1].startswith("<temp file")


def test_explain_redacts_json_flags_shown_inline() -> None:
    # A settings string is passed as given; if it is inline JSON, explain() still redacts it.
    raw = json.dumps({"env": {"MY_TOKEN": SECRET, "PLAIN": "shown"}, "apiUrl": f"https://a:{SECRET}@h"})
    explanation = ClaudeAgentOptions(settings=raw).explain()
    shown = json.loads(explanation.argv[explanation.argv.index("--settings") + 1])
    assert shown == {"env": {"MY_TOKEN": "<redacted>", "PLAIN": "shown"}, "apiUrl": "https://a:<redacted>@h"}


def test_json_flags_with_secrets_go_through_private_files_not_the_command_line(tmp_path: Path) -> None:
    launch = build_launch(_secret_options(tmp_path), CLI)
    argv = launch.materialize()
    try:
        # /proc/<pid>/cmdline is readable by every local user: no JSON secret in argv.
        assert not any(SECRET in a for a in argv if not a.startswith("postgres"))
        paths = [argv[argv.index(flag) + 1] for flag in ("--mcp-config", "--settings")]
        for path in paths:
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
            assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
            assert os.stat(path).st_uid == os.getuid()
        config = json.loads(Path(paths[0]).read_text())
        assert config["mcpServers"]["gh"]["env"]["GITHUB_TOKEN"] == f"{SECRET}-gh"
    finally:
        launch.cleanup()
    assert not any(os.path.exists(p) for p in paths)
    assert not os.path.exists(os.path.dirname(paths[0]))


def test_json_flags_without_secrets_stay_inline() -> None:
    launch = build_launch(ClaudeAgentOptions(settings={"env": {"A": "1"}}, mcp_servers={"x": {"command": "srv"}}), CLI)
    assert launch.files == {}
    assert json.loads(launch.argv[launch.argv.index("--settings") + 1]) == {"env": {"A": "1"}}


def test_base_args_and_the_minimal_prompt_are_the_only_fixed_flags() -> None:
    assert _argv_for({})[1:] == [*HEAD_ARGS, "--system-prompt", "", *TAIL_ARGS]
