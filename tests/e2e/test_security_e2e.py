"""Security review against the real binary (the static half: tests/unit/test_security.py).

* A recognizable fake API key and token in the run's env never reach the
  ``claude_wrap`` log (captured at DEBUG), a crashing run's ``ProcessError``,
  or the binary's command line.
* The long-system-prompt temp file is private while the binary runs and
  gone after.
* Paths with spaces and non-ASCII work: cwd, ``add_dirs`` and ``cli_path``
  through a symlink with such a name.
* A default run's permission mode, as the binary reports it, is ``default``.
"""

from __future__ import annotations

import logging
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from _procs import cmdline, executable, processes_where

from claude_wrap import (
    ClaudeAgentOptions,
    HookMatcher,
    InitSystemMessage,
    ProcessError,
    ResultMessage,
    ToolResultBlock,
    UserMessage,
    query,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

Options = Callable[..., ClaudeAgentOptions]

KEY = "sk-ant-api03-CLAUDEWRAPFAKEKEY-9f8e7d6c5b4a"
TOKEN = "ghp_CLAUDEWRAPFAKETOKEN0123456789"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"  # nothing here depends on the event loop


async def _run_noting_processes(
    options: ClaudeAgentOptions, workdir: Path
) -> tuple[list[Any], list[tuple[str, list[str]]]]:
    """Every message of one run, and the executable and command line of each
    process working in ``workdir`` once the binary has started up."""
    messages: list[Any] = []
    processes: list[tuple[str, list[str]]] = []
    with anyio.fail_after(90):
        async for message in query(prompt="go", options=options):
            messages.append(message)
            if InitSystemMessage.of(message) is not None:
                # A short-lived child listed here may exit before it is read: skip it.
                seen = [(executable(p), cmdline(p)) for p in processes_where(cwd=workdir)]
                processes += [(exe, argv) for exe, argv in seen if exe is not None and argv]
    return messages, processes


async def test_secrets_stay_out_of_logs_and_the_command_line(
    scripted_model: ScriptedModel,
    make_options: Options,
    tmp_path: Path,
    workdir: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def failing_hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        raise RuntimeError("hook failed on purpose")  # logged with its traceback

    scripted_model.add(Reply.tool_use("Bash", {"command": "echo hi", "description": "x"}), Reply.text("done"))
    options = make_options(
        env={**scripted_model.env(tmp_path / "home"), "ANTHROPIC_API_KEY": KEY, "MY_SERVICE_TOKEN": TOKEN},
        mcp_servers={
            "ext": {
                "type": "stdio",
                "command": sys.executable,
                "args": ["-m", "claude_wrap.testing.mcp_stdio_server"],
                "env": {"EXT_API_TOKEN": TOKEN},
            }
        },
        hooks={"PostToolUse": [HookMatcher(None, [failing_hook])]},
        allowed_tools=["Bash"],
        stderr=lambda line: logging.getLogger("claude_wrap").debug("stderr: %s", line),
    )
    caplog.set_level(logging.DEBUG, logger="claude_wrap")
    messages, processes = await _run_noting_processes(options, workdir)
    cmdlines = [argv for _, argv in processes]
    assert isinstance(messages[-1], ResultMessage) and not messages[-1].is_error
    assert scripted_model.main_requests[0].headers.get("x-api-key") == KEY  # the key did reach the binary

    assert cmdlines and any("--mcp-config" in c for c in cmdlines)
    for argv in cmdlines:
        assert not any(KEY in a or TOKEN in a for a in argv), argv
    assert any("hook failed on purpose" in r.getMessage() or r.exc_text for r in caplog.records)
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    assert KEY not in logged and TOKEN not in logged


async def test_crashing_run_error_does_not_carry_the_key(
    make_options: Options, scripted_model: ScriptedModel, tmp_path: Path
) -> None:
    options = make_options(
        env={**scripted_model.env(tmp_path / "home"), "ANTHROPIC_API_KEY": KEY, "MY_SERVICE_TOKEN": TOKEN},
        extra_args={"definitely-not-a-flag": None},
    )
    with pytest.raises(ProcessError) as info:
        with anyio.fail_after(60):
            async for _ in query(prompt="hi", options=options):
                pass
    error = info.value
    assert "definitely-not-a-flag" in str(error)  # the binary's stderr is there ...
    for text in (str(error), repr(error), error.stderr or "", str(error.__cause__ or "")):
        assert KEY not in text and TOKEN not in text  # ... the key is not


async def test_long_prompt_file_private_during_and_removed_after_with_unicode_paths(
    scripted_model: ScriptedModel, make_options: Options, tmp_path: Path, workdir: Path, cli_path: str
) -> None:
    link_dir = tmp_path / "bin dir ü 名"
    link_dir.mkdir()
    link = link_dir / "claude link é"
    link.symlink_to(cli_path)
    extra = tmp_path / "extra dir ß ✓"
    extra.mkdir()
    (extra / "note ü.txt").write_text("note from the extra dir\n")
    prompt = "You are careful. ü\n" * 8000  # ~150 KB: over the argv limit, so a temp file
    scripted_model.add(Reply.tool_use("Read", {"file_path": str(extra / "note ü.txt")}), Reply.text("read it"))
    options = make_options(cli_path=link, add_dirs=[extra], system_prompt=prompt, allowed_tools=["Read"])

    seen_file: list[str] = []
    messages: list[Any] = []
    with anyio.fail_after(90):
        async for message in query(prompt="read the note", options=options):
            messages.append(message)
            init = InitSystemMessage.of(message)
            if init is not None:
                (pid,) = [p for p in processes_where(cwd=workdir) if "--system-prompt-file" in cmdline(p)]
                argv = cmdline(pid)
                path = argv[argv.index("--system-prompt-file") + 1]
                seen_file.append(path)
                info = os.stat(path)
                assert stat.S_IMODE(info.st_mode) == 0o600 and info.st_uid == os.getuid()
                assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
                assert Path(path).read_text(encoding="utf-8") == prompt
                assert os.readlink(f"/proc/{pid}/exe") == os.path.realpath(cli_path)
                assert init.permission_mode == "default"  # never bypass by default
                assert init.cwd == str(workdir)
    assert seen_file
    assert not os.path.exists(seen_file[0]) and not os.path.exists(os.path.dirname(seen_file[0]))
    assert scripted_model.main_requests[0].system_text.count("You are careful. ü") == 8000
    results = [b for m in messages if isinstance(m, UserMessage) and isinstance(m.content, list) for b in m.content]
    assert any(isinstance(b, ToolResultBlock) and "note from the extra dir" in str(b.content) for b in results)
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "read it"


ARG_SECRET = "sk-ant-api03-CLAUDEWRAPARGSECRET-1a2b3c4d"
URL_SECRET = "CLAUDEWRAPURLTOKEN7f6e5d4c3b2a1908"
ENV_SECRET = "claude-wrap-settings-value-0a9b8c7d6e5f"


async def test_secrets_under_any_name_stay_out_of_the_command_line(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, cli_path: str
) -> None:
    # Three shapes that no key name gives away: a token in an MCP server's
    # args, one in an MCP URL's query, and a settings env value under an
    # ordinary name. Each must still work: the servers answer, the setting applies.
    from http_mcp_server import HttpMcpServer

    probe = str(Path(__file__).with_name("probe_mcp_server.py"))
    scripted_model.add(
        Reply.tool_use("mcp__probe__argv", {}),
        Reply.tool_use("mcp__web__whoami", {}),
        Reply.tool_use("Bash", {"command": "echo settings said $ORDINARY_NAME", "description": "x"}),
        Reply.text("done"),
    )
    with HttpMcpServer(URL_SECRET) as web:
        options = make_options(
            mcp_servers={
                "probe": {"type": "stdio", "command": sys.executable, "args": [probe, "--api-key", ARG_SECRET]},
                "web": {"type": "http", "url": web.url},
            },
            settings={"env": {"ORDINARY_NAME": ENV_SECRET}},
            allowed_tools=["mcp__probe__argv", "mcp__web__whoami", "Bash"],
        )
        shown = str(options.explain())
        messages, processes = await _run_noting_processes(options, workdir)
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "done"
    texts = [
        str(b.content)
        for m in messages
        if isinstance(m, UserMessage) and isinstance(m.content, list)
        for b in m.content
        if isinstance(b, ToolResultBlock)
    ]
    assert ARG_SECRET in texts[0]  # the server got its args
    assert "caller holds the token" in texts[1] and web.refused == 0  # the URL reached it whole
    assert f"settings said {ENV_SECRET}" in texts[2]  # the settings applied

    (argv,) = [argv for exe, argv in processes if exe == os.path.realpath(cli_path)]  # the binary's
    for secret in (ARG_SECRET, URL_SECRET, ENV_SECRET):
        assert not any(secret in word for word in argv), argv  # /proc/<pid>/cmdline: readable by every local user
        assert secret not in shown  # explain() redacts all three
    files = [argv[argv.index(flag) + 1] for flag in ("--mcp-config", "--settings")]
    assert all(not os.path.exists(f) for f in files)  # removed with the run
