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
from hypothesis import given, settings, strategies as st

import claude_wrap
from claude_wrap import ClaudeAgentOptions, CLINotFoundError, SubprocessTransport
from claude_wrap._launch.argv import HEAD_ARGS, TAIL_ARGS, build_launch

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
) | st.text(st.characters(exclude_characters="\0"), min_size=0, max_size=20).map(
    lambda s: "-" + s
)  # NUL: refused by name


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


def _shown_file(argv: list[str], flag: str) -> Any:
    shown = argv[argv.index(flag) + 1]
    assert shown.startswith("<temp file: ") and shown.endswith(">")
    return json.loads(shown[len("<temp file: ") : -1])


def test_explain_shows_json_files_redacted_by_name_and_by_shape() -> None:
    raw = json.dumps(
        {
            "env": {
                "MY_TOKEN": SECRET,
                "PLAIN": "shown",
                "ORDINARY": f"{SECRET}-plain",
                "HEX": "b1a628cd698de4f916a56bfade40e63fc539fd07",
            },
            "apiUrl": f"https://a:{SECRET}@h",
        }
    )
    servers = {
        "args": {"command": "srv", "args": ["--api-key", "hunter2", "--token=abc", "--port", "8080"]},
        "url": {
            "type": "http",
            "url": "https://mcp.local/x?access_token=t0k3n&team=blue",
            "headers": {"Authorization": "Bearer x"},
        },
    }
    argv = ClaudeAgentOptions(settings=raw, mcp_servers=servers).explain().argv  # type: ignore[arg-type]
    assert _shown_file(argv, "--settings") == {
        "env": {"MY_TOKEN": "<redacted>", "PLAIN": "shown", "ORDINARY": "<redacted>", "HEX": "<redacted>"},
        "apiUrl": "https://a:<redacted>@h",
    }
    mcp = _shown_file(argv, "--mcp-config")["mcpServers"]
    assert mcp["args"]["args"] == ["--api-key", "<redacted>", "--token=<redacted>", "--port", "8080"]
    assert mcp["url"]["url"] == "https://mcp.local/x?access_token=<redacted>&team=blue"
    assert mcp["url"]["headers"] == {"Authorization": "<redacted>"}


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (f"x {SECRET} y", "x <redacted> y"),
        ("ghp_abcdefghijklmnopqrstuvwxyz0123", "<redacted>"),
        ("xoxb-1234567890-abcdefghij", "<redacted>"),
        ("AKIAIOSFODNN7EXAMPLE", "<redacted>"),
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlMTIz", "<redacted>"),
        ("Authorization: Bearer abc.def-123", "Authorization: <redacted>"),
        ("curl -H 'x: y' --password=hunter2", "curl -H 'x: y' --password=<redacted>"),
        ("wss://h/socket?sig=abcdef&v=2", "wss://h/socket?sig=<redacted>&v=2"),
        ("zONBI6VMbxx6BQ3mc-VSz2RS_qojfsL4", "<redacted>"),  # a base64url token of no known kind
        ("aws wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ok", "aws <redacted> ok"),  # an AWS secret, "/" and all
        (
            "https://hooks.slack.com/services/T0000AAAA/B0000BBBB/XXXXXXXXXXXXXXXXXXXXXXXX",
            "https://hooks.slack.com/services/<redacted>",
        ),
        ("https://discord.com/api/webhooks/123456/abcDEF-ghi", "https://discord.com/api/webhooks/<redacted>"),
        ("https://ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/o/r.git", "https://<redacted>@github.com/o/r.git"),
        ("https://x9Kf2LmQ8zR4vT7pW1nBq@host/x", "https://<redacted>@host/x"),  # a token as the URL's user
        ("https://alice@example.com/repo", "https://alice@example.com/repo"),  # a user name is kept
        # Kept: what only looks long or odd.
        ("11111111-2222-4333-8444-555555555555", "11111111-2222-4333-8444-555555555555"),
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5-20250929"),
        ("--max-thinking-tokens", "--max-thinking-tokens"),
        (
            "/home/me/.cache/claude-wrap/claude-code/2.1.332/linux-x64/claude",
            "/home/me/.cache/claude-wrap/claude-code/2.1.332/linux-x64/claude",
        ),
        ("mcp__my_server__some_long_tool_name_v2", "mcp__my_server__some_long_tool_name_v2"),
    ],
)
def test_secrets_are_redacted_by_shape(text: str, shown: str) -> None:
    from claude_wrap._launch.redact import redact_text

    assert redact_text(text) == shown


def test_explain_redacts_common_secrets_under_plain_option_names(tmp_path: Path) -> None:
    aws = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    webhook = "https://hooks.slack.com/services/T0000AAAA/B0000BBBB/XXXXXXXXXXXXXXXXXXXXXXXX"
    repo = "https://ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/o/r.git"
    options = ClaudeAgentOptions(
        env={"AWS_CREDS": aws, "NOTIFY": webhook, "REPO": repo, "DB_PASS": "hunter2", "pwd": "abc"},
        extra_args={"remote": repo},
        cli_path=str(tmp_path / "claude"),
    )
    explanation = options.explain()
    shown = explanation.env_changes
    assert shown["AWS_CREDS"] == "<redacted>"
    assert shown["NOTIFY"] == "https://hooks.slack.com/services/<redacted>"
    assert shown["REPO"] == "https://<redacted>@github.com/o/r.git"
    assert shown["DB_PASS"] == shown["pwd"] == "<redacted>"  # short, but named a password
    assert explanation.argv[explanation.argv.index("--remote") + 1] == "https://<redacted>@github.com/o/r.git"
    text = str(explanation)
    assert not any(secret in text for secret in (aws, "XXXXXXXXXXXXXXXXXXXXXXXX", "ghp_abcdef", "hunter2"))


def test_explain_redacts_env_and_argv_by_shape(tmp_path: Path) -> None:
    options = ClaudeAgentOptions(
        env={"DEPLOY_NOTE": f"use {SECRET}", "ENDPOINT": "https://h/v1?api_key=abc123", "COUNT": "3"},
        extra_args={"api-key": "hunter2", "url": "https://u:pw@h"},
        system_prompt="Be brief.",
        cli_path=str(tmp_path / "claude"),
    )
    explanation = options.explain()
    assert explanation.env_changes["DEPLOY_NOTE"] == "use <redacted>"
    assert explanation.env_changes["ENDPOINT"] == "https://h/v1?api_key=<redacted>"
    assert explanation.env_changes["COUNT"] == "3"
    argv = explanation.argv
    assert argv[argv.index("--api-key") + 1] == "<redacted>"
    assert argv[argv.index("--url") + 1] == "https://u:<redacted>@h"
    assert argv[argv.index("--system-prompt") + 1] == "Be brief."


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


@pytest.mark.parametrize(
    "fields",
    [
        {"mcp_servers": {"x": {"command": "srv", "args": ["--api-key", "plain-value"]}}},
        {"mcp_servers": {"x": {"type": "sse", "url": "https://h/sse?access_token=plain-value"}}},
        {"mcp_servers": {"x": {"command": "srv"}}},  # nothing secret: a file all the same
        {"settings": {"env": {"ORDINARY_NAME": "plain-value"}}},
        {"settings": json.dumps({"env": {"ORDINARY_NAME": "plain-value"}})},
        {"settings": {"env": {"A": "1"}}, "sandbox": {"enabled": True}},
    ],
)
def test_mcp_and_settings_json_always_go_through_private_files(fields: dict[str, Any]) -> None:
    # Whatever the key names: a secret can sit in an MCP server's args, in a
    # URL's query, or in settings env under any name.
    launch = build_launch(ClaudeAgentOptions(**fields), CLI)
    flag = "--mcp-config" if "mcp_servers" in fields else "--settings"
    assert launch.argv[launch.argv.index(flag) + 1] in launch.files
    assert not any("plain-value" in a or a.startswith("{") for a in launch.argv)
    assert json.loads(launch.inlined()[launch.argv.index(flag) + 1])  # the same JSON, in the file


def test_a_settings_path_stays_a_path(tmp_path: Path) -> None:
    launch = build_launch(ClaudeAgentOptions(settings="settings.json", mcp_servers=tmp_path / "mcp.json"), CLI)
    assert launch.files == {}
    assert launch.argv[launch.argv.index("--settings") + 1] == "settings.json"
    assert launch.argv[launch.argv.index("--mcp-config") + 1] == str(tmp_path / "mcp.json")


def test_base_args_and_the_minimal_prompt_are_the_only_fixed_flags() -> None:
    assert _argv_for({})[1:] == [*HEAD_ARGS, "--system-prompt", "", *TAIL_ARGS]
