"""``claude-wrap`` end to end: ``run`` against the scripted model, ``doctor``, ``version``,
and the command-line conventions (``--version``, ``--json``, argument errors)."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from claude_wrap._process.binary import pinned_version
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = pytest.mark.e2e


def _cli(*args: str, env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "claude_wrap", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )


@pytest.fixture
def cli_env(scripted_model: ScriptedModel, tmp_path: Path, cli_path: str) -> dict[str, str]:
    """The caller's environment pointed at the scripted model (the binary inherits it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE_"))}
    env.update(scripted_model.env(tmp_path / "home"))
    env["CLAUDE_WRAP_CLI"] = cli_path
    return env


def test_run_shows_text_tool_line_and_result(
    scripted_model: ScriptedModel, cli_env: dict[str, str], workdir: Path
) -> None:
    scripted_model.add(
        Reply.tool_use("Bash", {"command": "echo cli-tool-output", "description": "echo"}, text="Running it."),
        Reply.text("All done: the tool said cli-tool-output."),
    )
    proc = _cli("run", "say it", "--cwd", str(workdir), "--allowed-tools", "Bash", "--max-turns", "5", env=cli_env)

    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "Running it." in lines
    tool = [ln for ln in lines if "Bash(command='echo cli-tool-output')" in ln]
    assert len(tool) == 1 and tool[0].startswith("  ✓ ") and "→ cli-tool-output" in tool[0]
    assert "All done: the tool said cli-tool-output." in lines
    assert lines.index("Running it.") < lines.index(tool[0]) < lines.index("All done: the tool said cli-tool-output.")
    assert lines[-1].startswith("result: success · 2 turns · cost $")
    assert "\r" not in proc.stdout and "\033" not in proc.stdout  # no spinner when not a terminal
    assert scripted_model.main_requests[0].last_user_text == "say it"


def test_run_json_prints_one_stream_json_message_per_line(
    scripted_model: ScriptedModel, cli_env: dict[str, str]
) -> None:
    scripted_model.add(Reply.text("as json"), Reply.text("streamed"))
    proc = _cli("run", "hi", "--json", env=cli_env)

    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    types = [r["type"] for r in records]
    assert types[0] == "system" and records[0]["subtype"] == "init" and types[-1] == "result"
    assert records[0]["session_id"] == records[-1]["session_id"] and "tools" in records[0]  # the frame itself
    assert "stream_event" not in types
    assert records[-1]["result"] == "as json" and records[-1]["is_error"] is False
    (assistant,) = [r for r in records if r["type"] == "assistant"]
    assert assistant["message"]["content"] == [{"type": "text", "text": "as json"}]
    assert assistant["message"]["role"] == "assistant" and assistant["session_id"] == records[0]["session_id"]

    partial = _cli("run", "hi", "--json", "--include-partial-messages", env=cli_env)
    assert partial.returncode == 0, partial.stderr
    events = [json.loads(line) for line in partial.stdout.splitlines() if '"stream_event"' in line]
    assert events and all(e["type"] == "stream_event" and "event" in e for e in events)


def test_run_error_result_exits_non_zero_and_names_the_failure(
    scripted_model: ScriptedModel, cli_env: dict[str, str]
) -> None:
    scripted_model.add(Reply.error(500, "scripted outage"))
    proc = _cli("run", "hi", env=cli_env)

    assert proc.returncode == 1
    assert "500" in proc.stderr
    result = proc.stdout.splitlines()[-1]
    assert result.startswith("result: error (api_error, HTTP 500, ") and "(success)" not in result


def test_run_shows_each_api_retry_then_the_answer(scripted_model: ScriptedModel, cli_env: dict[str, str]) -> None:
    scripted_model.add(Reply.error(529), Reply.error(500), Reply.text("third time lucky"))
    proc = _cli("run", "hi", env=dict(cli_env, CLAUDE_CODE_MAX_RETRIES="2"))

    assert proc.returncode == 0, proc.stderr
    retries = [line for line in proc.stdout.splitlines() if "↻" in line]
    assert len(retries) == 2, proc.stdout
    assert retries[0].startswith("  ↻ API call failed (HTTP 529 ") and " retry 1 of 2 in " in retries[0]
    assert retries[1].startswith("  ↻ API call failed (HTTP 500 ") and " retry 2 of 2 in " in retries[1]
    assert retries[1].endswith(" s")
    assert "third time lucky" in proc.stdout.splitlines()


def test_a_network_failure_is_named_on_the_retry_line(cli_env: dict[str, str]) -> None:
    import socket

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(cli_env, ANTHROPIC_BASE_URL=f"http://127.0.0.1:{port}", CLAUDE_CODE_MAX_RETRIES="1")
    proc = _cli("run", "hi", env=env)

    assert proc.returncode == 1
    retries = [line for line in proc.stdout.splitlines() if "↻" in line]
    assert retries == [retries[0]] and retries[0].startswith(
        f"  ↻ API call failed (no HTTP answer: ECONNREFUSED at 127.0.0.1:{port}); retry 1 of 1 in "
    ), proc.stdout


def test_run_on_a_terminal_shows_a_status_line_until_the_model_answers(
    scripted_model: ScriptedModel, cli_env: dict[str, str]
) -> None:
    import pty
    import select

    gate = threading.Event()
    scripted_model.add(Reply.text("Answered at last.").held(gate))
    primary, secondary = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "claude_wrap", "run", "hi"],
        stdin=subprocess.DEVNULL,
        stdout=secondary,
        stderr=subprocess.PIPE,
        env=cli_env,
    )
    os.close(secondary)
    seen = bytearray()

    def read_until(text: bytes, limit: float = 120) -> None:
        deadline = time.monotonic() + limit  # a hang guard
        while text not in seen:
            assert time.monotonic() < deadline, f"{text!r} not shown: {bytes(seen)!r}"
            if select.select([primary], [], [], 0.5)[0]:
                try:
                    chunk = os.read(primary, 65536)
                except OSError:  # EIO: the command closed the terminal
                    chunk = b""
                assert chunk, f"{text!r} not shown before the end: {bytes(seen)!r}"
                seen.extend(chunk)

    try:
        read_until("waiting for the model…".encode())
        assert f"starting Claude Code {pinned_version()}…".encode() in seen
        gate.set()  # only now may the model answer
        read_until(b"result: ")
        assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        gate.set()
        proc.kill()
        proc.wait()
        os.close(primary)
        if proc.stderr is not None:
            proc.stderr.close()
    shown = bytes(seen).decode()
    assert (
        shown.index("starting Claude Code") < shown.index("waiting for the model…") < shown.index("Answered at last.")
    )
    assert "\r\033[KAnswered at last." in shown  # the status line gives way to the answer


def test_retries_are_bounded_by_claude_code_max_retries(scripted_model: ScriptedModel, cli_env: dict[str, str]) -> None:
    scripted_model.add(*[Reply.error(529)] * 3, Reply.text("never reached"))
    proc = _cli("run", "hi", env=dict(cli_env, CLAUDE_CODE_MAX_RETRIES="1"))

    assert proc.returncode == 1
    retries = [line for line in proc.stdout.splitlines() if "↻" in line]
    assert len(retries) == 1 and " retry 1 of 1 in " in retries[0]
    assert len(scripted_model.main_requests) == 2  # the first call and one retry
    assert "HTTP 529" in proc.stdout.splitlines()[-1]


def test_allowed_tools_take_a_comma_separated_list_and_never_swallow_the_prompt(
    scripted_model: ScriptedModel, cli_env: dict[str, str]
) -> None:
    swallowed = _cli("run", "--allowed-tools", "Read", "Bash", "the prompt", env=cli_env)
    assert swallowed.returncode == 2
    assert "unrecognized arguments: the prompt" in swallowed.stderr
    assert not scripted_model.requests  # nothing ran

    scripted_model.add(Reply.text("ok"))
    proc = _cli("run", "--allowed-tools", "Read, Bash", "--allowed-tools", "Grep", "the prompt", env=cli_env)
    assert proc.returncode == 0, proc.stderr
    assert scripted_model.main_requests[0].last_user_text == "the prompt"


def test_partial_messages_without_json_get_a_note(scripted_model: ScriptedModel, cli_env: dict[str, str]) -> None:
    scripted_model.add(Reply.text("fine"))
    proc = _cli("run", "hi", "--include-partial-messages", env=cli_env)
    assert proc.returncode == 0, proc.stderr
    assert "--include-partial-messages only changes --json output" in proc.stderr
    assert "fine" in proc.stdout.splitlines()


def test_doctor_good_setup(cli_env: dict[str, str], cli_path: str, scripted_model: ScriptedModel) -> None:
    proc = _cli("doctor", env=cli_env)

    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert f"✓ binary      {cli_path} (from $CLAUDE_WRAP_CLI)" in out
    assert f"✓ version     {pinned_version()} (pinned {pinned_version()})" in out
    assert "✓ auth        ANTHROPIC_API_KEY is set" in out
    assert "sk-test" not in out  # never the value
    assert f"✓ API         {scripted_model.base_url} (ANTHROPIC_BASE_URL) answers (HTTP " in out
    assert "✓ key         ANTHROPIC_API_KEY accepted" in out
    assert f"✓ config dir  {cli_env['CLAUDE_CONFIG_DIR']} (CLAUDE_CONFIG_DIR; exists)" in out
    assert out.rstrip().endswith("all good")
    (asked,) = [r for r in scripted_model.requests if r.headers.get("x-api-key")]
    assert asked.endpoint == "/v1/models"  # one cheap authenticated request, no model call


def test_doctor_says_a_rejected_key_is_rejected(cli_env: dict[str, str], tmp_path: Path) -> None:
    with ScriptedModel(api_key="sk-the-right-one") as strict:
        env = dict(cli_env, ANTHROPIC_BASE_URL=strict.base_url)
        proc = _cli("doctor", env=env)
        offline = _cli("doctor", "--offline", env=env)
    assert proc.returncode == 1
    assert "✗ key         ANTHROPIC_API_KEY rejected (HTTP 401: invalid x-api-key)" in proc.stdout
    assert "problems: key" in proc.stdout
    assert "sk-test" not in proc.stdout
    # --offline sends nothing, and says what it did not check.
    assert offline.returncode == 0, offline.stdout
    assert "! key         not checked (--offline)" in offline.stdout and "not checked (--offline)" in offline.stdout


def test_doctor_broken_setup(cli_env: dict[str, str], tmp_path: Path) -> None:
    env = dict(cli_env, CLAUDE_WRAP_CLI="/nonexistent", ANTHROPIC_BASE_URL="http://127.0.0.1:9")
    del env["ANTHROPIC_API_KEY"]
    proc = _cli("doctor", "--timeout", "1", env=env)

    assert proc.returncode == 1
    out = proc.stdout
    assert "✗ binary      Claude Code not found at: /nonexistent (the path from CLAUDE_WRAP_CLI does not exist" in out
    assert "! auth        none" in out
    assert "✗ API         http://127.0.0.1:9 (ANTHROPIC_BASE_URL) unreachable" in out
    assert "problems: binary, API" in out


def test_doctor_fails_on_a_server_error_answer(cli_env: dict[str, str]) -> None:
    # A server that is no API: http.server answers 501 to a method it lacks.
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        proc = _cli("doctor", "--timeout", "5", env=dict(cli_env, ANTHROPIC_BASE_URL=url))
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    assert proc.returncode == 1
    assert f"✗ API         {url} (ANTHROPIC_BASE_URL) answers with a server error (HTTP 501 in " in proc.stdout


def test_doctor_json(cli_env: dict[str, str], cli_path: str) -> None:
    proc = _cli("doctor", "--json", env=cli_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report["ok"] is True
    assert [c["check"] for c in report["checks"]] == ["binary", "version", "auth", "API", "key", "config dir"]
    assert report["checks"][0] == {"check": "binary", "status": "ok", "detail": f"{cli_path} (from $CLAUDE_WRAP_CLI)"}

    broken = _cli("doctor", "--json", "--timeout", "1", env=dict(cli_env, CLAUDE_WRAP_CLI="/nonexistent"))
    assert broken.returncode == 1
    assert json.loads(broken.stdout)["ok"] is False


def test_version_and_fetch_binary(cli_env: dict[str, str], cli_path: str) -> None:
    version = __import__("claude_wrap").__version__
    proc = _cli("version", env=cli_env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        f"claude_wrap {version} (claude-wrap-sdk)",
        f"pinned Claude Code {pinned_version()}",
        f"found Claude Code {pinned_version()} at {cli_path} (env)",
    ]
    as_json = _cli("version", "--json", env=cli_env)
    assert json.loads(as_json.stdout) == {
        "claude_wrap": version,
        "distribution": "claude-wrap-sdk",
        "pinned": pinned_version(),
        "found": {"version": pinned_version(), "path": cli_path, "source": "env"},
    }
    flag = _cli("--version", env=cli_env)
    assert (flag.returncode, flag.stdout) == (0, f"claude-wrap {version} (claude-wrap-sdk)\n")

    bad = _cli("version", env=dict(cli_env, CLAUDE_WRAP_CLI="/nonexistent/claude"))
    assert bad.returncode == 1
    assert bad.stdout.splitlines()[-1] == "found Claude Code: none"
    assert "the path from CLAUDE_WRAP_CLI does not exist" in bad.stderr

    # A verified copy is cached (the suite needs it): fetch-binary is a no-op.
    from claude_wrap._process.binary import cache_root

    env = {k: v for k, v in cli_env.items() if k != "CLAUDE_WRAP_CLI"}
    env["CLAUDE_WRAP_CACHE_DIR"] = str(cache_root())  # HOME moved; the cache must not
    fetch = _cli("fetch-binary", "--print-path", env=env)
    assert fetch.returncode == 0, fetch.stderr
    assert "already at" in fetch.stderr
    assert Path(fetch.stdout.strip()).is_file()
