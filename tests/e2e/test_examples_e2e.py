"""Every program in ``examples/`` runs against the scripted model as a user
runs it: a script of its own, in a project directory, with the model's
address in its environment (``ANTHROPIC_BASE_URL``), importing public names
only; and it does what its docstring says."""

from __future__ import annotations

import ast
import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from _docs import EXAMPLES, claude_wrap_imports, make_project, private, run_python, user_env
from _e2e import bash
from _procs import processes_where, wait_until

from claude_wrap.testing import Reply, ScriptedModel

pytestmark = pytest.mark.e2e

FILES = sorted(path.name for path in EXAMPLES.glob("*.py"))
TESTED: set[str] = set()


def example(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Marks the test of ``examples/<name>``."""
    TESTED.add(name)
    return lambda test: test


# Tested beside the feature it shows (it needs the fleet's fixtures).
TESTED.add("fleet_batch.py")  # tests/fleet/test_fleet_example.py


def test_every_example_has_its_test() -> None:
    assert len(FILES) >= 12
    assert set(FILES) == TESTED


@pytest.mark.parametrize("name", FILES)
def test_examples_import_public_names_only(name: str) -> None:
    imported = claude_wrap_imports(ast.parse((EXAMPLES / name).read_text(encoding="utf-8")))
    assert imported, f"{name} uses nothing of claude_wrap"
    assert not [n for n in imported if private(n)]


def test_examples_type_check_strictly() -> None:
    # As a user's project checks them: mypy --strict, this checkout's claude_wrap.
    args = ("-m", "mypy", "--strict", "--no-incremental", "--python-version", "3.10", *FILES)
    proc = run_python(*args, cwd=EXAMPLES, env={**os.environ, "MYPYPATH": str(EXAMPLES.parent)}, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "project")


Run = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def env(scripted_model: ScriptedModel, tmp_path: Path, cli_path: str) -> dict[str, str]:
    return user_env(scripted_model.env(tmp_path / "home"), cli_path)


@pytest.fixture
def run(scripted_model: ScriptedModel, project: Path, env: dict[str, str]) -> Run:
    """Run ``examples/<name>`` in the project; it must succeed and use up the script."""

    def run(name: str, *args: str) -> subprocess.CompletedProcess[str]:
        proc = run_python(str(EXAMPLES / name), *args, cwd=project, env=env)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert not [r for r in scripted_model.pending if r.count is not None], "the script was not used up"
        assert not scripted_model.unexpected and not scripted_model.errors
        return proc

    return run


@example("quick_start.py")
def test_quick_start(scripted_model: ScriptedModel, run: Run) -> None:
    scripted_model.add(bash("ls *.py | wc -l"), Reply.text("There are 2 Python files here."))
    out = run("quick_start.py").stdout.splitlines()
    assert out[0].startswith("tool: Bash {'command': 'ls *.py | wc -l'")
    assert "There are 2 Python files here." in out
    assert out[-1].startswith("result: success after 2 turns")
    assert scripted_model.main_requests[1].tool_result_texts == ["2"]  # the command ran in the project


@example("streaming_ui.py")
def test_streaming_ui_shows_each_piece_once(scripted_model: ScriptedModel, run: Run) -> None:
    answer = "The project has a setup script, an app, a README and a shopping list."
    scripted_model.add(
        Reply.tool_use("Bash", {"command": "ls", "description": "list"}, text="Let me look around."),
        Reply.text(answer),
    )
    out = run("streaming_ui.py", "What is in this directory?").stdout
    assert out.count("Let me look around.") == 1 and out.count(answer) == 1
    assert out.count("→ Bash({'command': 'ls', 'description': 'list'})") == 1
    assert "  ✓ README.md" in out
    assert out.rstrip().endswith("[success]")


@example("hooks.py")
def test_hooks_deny_the_recursive_delete_and_log_the_rest(
    scripted_model: ScriptedModel, run: Run, project: Path
) -> None:
    (project / "build").mkdir()
    scripted_model.add(
        bash("rm -rf build"), bash("ls"), Reply.text("The hook refused the delete; here is what is left.")
    )
    out = run("hooks.py").stdout.splitlines()
    assert (project / "build").is_dir()
    assert "hook: denied 'rm -rf build'" in out
    assert "recursive deletes are not allowed here" in scripted_model.main_requests[1].tool_result_texts[0]
    assert out[out.index("audit log:") + 1 :] == ["  Bash: {'command': 'ls', 'description': 'run'}"]


@example("permissions.py")
def test_permission_callback_allows_writes_under_out_only(
    scripted_model: ScriptedModel, run: Run, project: Path
) -> None:
    scripted_model.add(
        Reply.tool_use("Write", {"file_path": str(project / "notes.txt"), "content": "overwritten"}),
        Reply.tool_use("Write", {"file_path": str(project / "out" / "summary.txt"), "content": "A shopping list.\n"}),
        Reply.text("Wrote out/summary.txt."),
    )
    out = run("permissions.py").stdout.splitlines()
    assert out[:2] == [f"denied: Write {project / 'notes.txt'}", "allowed: Write"]
    assert (project / "notes.txt").read_text().startswith("Shopping list")
    assert (project / "out" / "summary.txt").read_text() == "A shopping list.\n"
    assert f"only files under {project / 'out'} may be written" in scripted_model.main_requests[1].tool_result_texts[0]


@example("mcp_tools.py")
def test_mcp_tools_get_validated_pydantic_inputs(scripted_model: ScriptedModel, run: Run) -> None:
    scripted_model.add(
        Reply.tool_use("mcp__inventory__receive", {"item": "bagels", "quantity": 0}),
        Reply.tool_use("mcp__inventory__receive", {"item": "bagels", "quantity": 12}),
        Reply.tool_use("mcp__inventory__count", {"item": "bagels"}),
        Reply.text("We have 12 bagels."),
    )
    out = run("mcp_tools.py").stdout.splitlines()
    assert out == ["We have 12 bagels.", "stock: {'coffee': 2, 'bagels': 12}"]
    requests = scripted_model.main_requests
    assert "greater than or equal to 1" in requests[1].tool_result_texts[0]  # refused before the handler ran
    assert requests[2].tool_result_texts == ["bagels: 12 in stock"]
    assert json.loads(requests[3].tool_result_texts[0]) == {"item": "bagels", "in_stock": 12}


@example("multi_turn_client.py")
def test_multi_turn_client_keeps_the_conversation(scripted_model: ScriptedModel, run: Run) -> None:
    scripted_model.add(Reply.text("OK."), Reply.text("Teal."))
    out = run("multi_turn_client.py").stdout.splitlines()
    assert out[:2] == ["> My favourite colour is teal. Just say OK.", "OK."]
    assert out[3:5] == ["> What is my favourite colour?", "Teal."]
    second = scripted_model.main_requests[1]
    assert "My favourite colour is teal. Just say OK." in json.dumps(second.messages)  # the first turn was sent along
    assert out[2].split()[-1].rstrip(")") == out[5].split()[-1].rstrip(")")  # one session


@example("sessions_sqlite.py")
def test_sessions_are_stored_and_resumed_from_sqlite(
    scripted_model: ScriptedModel, run: Run, project: Path, tmp_path: Path
) -> None:
    scripted_model.add(Reply.text("OK."), Reply.text("42."))
    out = run("sessions_sqlite.py", str(tmp_path / "store.db")).stdout.splitlines()
    assert out[:2] == ["> Remember this number: 42. Just say OK.", "OK."]
    assert out[2].startswith("stored: ") and out[3:] == ["> Which number did I ask you to remember?", "42."]
    resumed = scripted_model.main_requests[1]
    assert "Remember this number: 42." in json.dumps(resumed.messages)  # the conversation came from the store
    assert (tmp_path / "store.db").is_file()


@example("structured_output.py")
def test_structured_output_arrives_as_the_pydantic_model(scripted_model: ScriptedModel, run: Run) -> None:
    summary = {
        "name": "demo",
        "files": [{"name": "setup.py", "purpose": "packaging"}, {"name": "app.py", "purpose": "the program"}],
        "python_files": 2,
    }
    scripted_model.add(Reply.tool_use("StructuredOutput", summary), Reply.text("Done.").sticky())
    out = run("structured_output.py").stdout.splitlines()
    assert out == ["demo: 2 Python files", "  setup.py: packaging", "  app.py: the program"]
    tool = next(t for t in scripted_model.main_requests[0].tools if t["name"] == "StructuredOutput")
    assert set(tool["input_schema"]["properties"]) == {"name", "files", "python_files"}


@example("warm_pool.py")
def test_warm_pool_answers_concurrent_questions(scripted_model: ScriptedModel, run: Run) -> None:
    for country, city in [("France", "Paris"), ("Japan", "Tokyo"), ("Peru", "Lima")]:
        scripted_model.add(Reply.text(city).match_if(lambda r, c=country: r.is_main and c in r.last_user_text))
    out = run("warm_pool.py").stdout.splitlines()
    assert out == [
        "What is the capital of France? One word. -> Paris",
        "What is the capital of Japan? One word. -> Tokyo",
        "What is the capital of Peru? One word. -> Lima",
    ]


@example("sync_script.py")
def test_sync_script(scripted_model: ScriptedModel, run: Run) -> None:
    scripted_model.add(
        bash("wc -l < notes.txt"), Reply.text("notes.txt has 3 lines."), Reply.text("Apple."), Reply.text("Pear.")
    )
    out = run("sync_script.py").stdout.splitlines()
    assert out == ["notes.txt has 3 lines.", "[success]", "Name one fruit. -> Apple.", "Name another one. -> Pear."]
    assert scripted_model.main_requests[1].tool_result_texts == ["3"]


@example("test_agent.py")
def test_the_pytest_example_passes(env: dict[str, str], tmp_path: Path) -> None:
    # A project of its own: the example file and nothing of this repository's test set-up.
    user_project = tmp_path / "user project"
    user_project.mkdir()
    (user_project / "test_agent.py").write_text((EXAMPLES / "test_agent.py").read_text(encoding="utf-8"))
    proc = run_python(
        "-m", "pytest", "-v", "-p", "no:cacheprovider", "test_agent.py", cwd=user_project, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    passed = re.findall(r"^test_agent\.py::(\w+)\[\w+\] PASSED", proc.stdout, re.MULTILINE)
    assert set(passed) == {"test_agent_runs_the_command", "test_a_tool_the_rules_do_not_allow_is_refused"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def sse_server(project: Path, env: dict[str, str]) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, str(EXAMPLES / "sse_server.py")],
        cwd=project,
        env={**env, "PORT": str(port)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:

        def listening() -> bool:
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0

        wait_until(lambda: listening() or server.poll() is not None, what="the server never listened")
        assert server.poll() is None, server.communicate()[0]
        yield f"http://127.0.0.1:{port}", server
    finally:
        server.send_signal(signal.SIGINT)  # uvicorn's own way to stop
        try:
            server.communicate(timeout=30)
        finally:
            if server.poll() is None:
                server.kill()


def _events(lines: Iterator[bytes]) -> Iterator[tuple[str, Any]]:
    name = ""
    for raw in lines:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[len("event: ") :]
        elif line.startswith("data: "):
            yield name, json.loads(line[len("data: ") :])


@example("sse_server.py")
def test_sse_endpoint_streams_the_run(scripted_model: ScriptedModel, sse_server: tuple[str, Any]) -> None:
    url, _ = sse_server
    scripted_model.add(
        Reply.tool_use("Bash", {"command": "ls", "description": "list"}, text="Let me look."),
        Reply.text("Four files: a setup script, an app, a README and notes."),
    )
    with urllib.request.urlopen(f"{url}/ask?prompt=What+is+in+this+directory%3F", timeout=120) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        events = list(_events(response))
    text = "".join(data["text"] for name, data in events if name == "text")
    assert text == "Let me look.Four files: a setup script, an app, a README and notes."
    assert len([e for e in events if e[0] == "text"]) > 2  # streamed in pieces, not whole blocks
    assert [data for name, data in events if name == "tool"] == [
        {"name": "Bash", "input": {"command": "ls", "description": "list"}}
    ]
    assert events[-1][0] == "result" and events[-1][1]["outcome"] == "completed"
    assert scripted_model.main_requests[0].last_user_text == "What is in this directory?"
    assert not scripted_model.pending


@example("sse_server.py")
def test_sse_client_that_leaves_stops_the_agent(
    scripted_model: ScriptedModel, sse_server: tuple[str, subprocess.Popen[str]], project: Path
) -> None:
    url, server = sse_server
    scripted_model.add(bash("echo start && sleep 89.25 && echo end"), Reply.text("never"))

    def agent() -> list[int]:  # the binary and its tool's command (the server runs there too)
        return [pid for pid in processes_where(cwd=project) if pid != server.pid]

    response = urllib.request.urlopen(f"{url}/ask?prompt=Wait", timeout=120)
    wait_until(lambda: processes_where(cmdline_contains="sleep 89.25"), what="the tool never started")
    response.close()  # the browser tab is closed
    wait_until(lambda: not agent(), limit=30, what="the agent outlived its client")
    assert server.poll() is None  # the server itself goes on
