"""Run one program on both packages: same binary, same scripted model, same world.

A *program* is a Python file written against ``import claude_agent_sdk`` plus
a spec (JSON, data only) with the scripted model's replies and how to start
it. `run_twin` runs it once with the official package's interpreter and once
with ours, each side in a fresh directory::

    <root>/<off|our>/work/      the program's cwd; the program is copied into work/<subdir>/
    <root>/<off|our>/home/      HOME and CLAUDE_CONFIG_DIR (home/.claude)
    <root>/<off|our>/bin/claude a recording wrapper of the pinned binary, first on PATH
    <root>/<off|our>/spawns/    one directory per start of the binary: argv, env, stdin, stdout
    <root>/<off|our>/model-requests  one line per main-loop request the model got

The wrapper hands the binary the exact environment it was given and becomes
it (``exec``), so signals and exit codes are the binary's own; ``tee`` copies
its stdin and stdout on the way.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_wrap.testing import RecordedRequest, Reply, ScriptedModel, reply_from_json

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "twin_runner.py"
SIDES = ("official", "ours")
DEFAULT_TIMEOUT = 120.0
# Where twin.main_requests() in the program finds the model's main-loop requests.
REQUESTS_LOG_ENV = "TWIN_MODEL_REQUESTS"
# Names of equal length: path lengths reach the model (and file sizes).
_RUN_DIRS = {"official": "off", "ours": "our"}

_WRAPPER = """\
#!/usr/bin/env bash
# Records one start of the Claude Code binary, then becomes it.
log=$(mktemp -d {spawns}/spawn.XXXXXXXX) || exit 97
printf '%s' "${{EPOCHREALTIME:-0}}" > "$log/start"
printf '%s' "$$" > "$log/pid"
printf '%s\\0' "$@" > "$log/argv"
# The files the binary reads config from, as they are now (a private one is
# removed when the run ends): compared by content, not by their paths.
i=0; prev=
for arg in "$@"; do
    case "$prev" in --mcp-config|--settings) [ -f "$arg" ] && cp "$arg" "$log/file.$i" ;; esac
    prev=$arg; i=$((i + 1))
done
if [ -r /proc/$$/environ ]; then
    # The environment as the package passed it; bash itself adds SHLVL and _.
    cat /proc/$$/environ > "$log/env"
    mapfile -d '' given < /proc/$$/environ
    exec < <(exec tee "$log/stdin") > >(exec tee "$log/stdout") env -i "${{given[@]}}" {binary} "$@"
fi
env -0 > "$log/env"
exec < <(exec tee "$log/stdin") > >(exec tee "$log/stdout") {binary} "$@"
"""


@dataclass(frozen=True)
class Program:
    """One program and its spec (see tests/compat/README.md for the spec's keys)."""

    name: str
    source: Path
    subdir: str
    replies: tuple[Any, ...] = ()
    argv: tuple[str, ...] = ()
    call: str | None = None
    backend: str = "asyncio"
    cell: int | None = None
    files: dict[str, str] = field(default_factory=dict)
    copy: tuple[Path, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    expect_exit: int = 0
    # Paths (patterns as in intentional.py) not compared, with the race that makes them vary.
    unstable: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_spec(
        cls, name: str, source: Path, subdir: str, spec: dict[str, Any], *, copy: tuple[Path, ...] = ()
    ) -> Program:
        known = {
            "replies",
            "argv",
            "call",
            "backend",
            "cell",
            "files",
            "env",
            "timeout",
            "expect_exit",
            "unstable",
            "about",
        }
        unknown = set(spec) - known
        if unknown:
            raise ValueError(f"{name}: unknown spec keys {sorted(unknown)}")
        for entry in spec.get("replies", []):
            _reply(entry)  # a bad script fails here, by name
        return cls(
            name=name,
            source=source,
            subdir=subdir,
            replies=tuple(spec.get("replies", [])),
            argv=tuple(spec.get("argv", [])),
            call=spec.get("call"),
            backend=spec.get("backend", "asyncio"),
            cell=spec.get("cell"),
            files=dict(spec.get("files", {})),
            copy=copy,
            env=dict(spec.get("env", {})),
            timeout=float(spec.get("timeout", DEFAULT_TIMEOUT)),
            expect_exit=int(spec.get("expect_exit", 0)),
            unstable=dict(spec.get("unstable", {})),
        )


@dataclass
class Spawn:
    """One start of the binary, as the wrapper saw it."""

    start: float
    pid: int
    argv: list[str]
    env: dict[str, str]
    stdin: list[str]
    stdout: list[str]
    alive_after_exit: bool = False
    files: list[str] = field(default_factory=list)
    """The flags whose value was a file: ``argv`` holds its content there."""


@dataclass
class SideResult:
    """Everything one side of a twin run produced, before normalisation."""

    side: str
    run_dir: Path
    exit_code: int | None
    timed_out: bool
    stdout: str
    stderr: str
    record: dict[str, Any]
    traceback: str
    spawns: list[Spawn]
    requests: list[RecordedRequest]
    # Replies of the script never used (sticky ones do not count).
    unused_replies: int
    seconds: float
    # Literal strings that stand for the same thing on both sides.
    replacements: dict[str, str] = field(default_factory=dict)
    # The observed document, when it comes from an earlier run (see _twin_cache).
    document: dict[str, Any] | None = None
    # Main-loop requests that found no reply queued (kept when requests are not).
    unexpected: int = 0

    def problems(self, expect_exit: int) -> list[str]:
        """Why this run does not fit its script (meaningful for the official side)."""
        problems = []
        if self.timed_out:
            problems.append(f"it timed out after {self.seconds:.0f}s")
        elif self.exit_code != expect_exit:
            problems.append(f"it exited with {self.exit_code}, the spec expects {expect_exit}")
        if self.unexpected:
            problems.append(f"{self.unexpected} main-loop request(s) found no reply queued")
        if self.unused_replies:
            problems.append(f"{self.unused_replies} scripted reply(ies) were never used")
        return problems


@dataclass
class Twin:
    program: Program
    official: SideResult
    ours: SideResult


# --------------------------------------------------------------------------- the world of one side


def _write_wrapper(bin_dir: Path, spawns: Path, binary: Path) -> None:
    bin_dir.mkdir(parents=True)
    spawns.mkdir(parents=True)
    wrapper = bin_dir / "claude"
    wrapper.write_text(
        _WRAPPER.format(spawns=shlex.quote(str(spawns)), binary=shlex.quote(str(binary))), encoding="utf-8"
    )
    wrapper.chmod(0o755)


def _lay_out(program: Program, run_dir: Path) -> Path:
    work = run_dir / "work"
    target_dir = work / program.subdir
    target_dir.mkdir(parents=True)
    shutil.copy2(program.source, target_dir / program.source.name)
    for extra in program.copy:
        if extra.is_dir():
            shutil.copytree(extra, target_dir / extra.name)
        else:
            shutil.copy2(extra, target_dir / extra.name)
    for relative, content in program.files.items():
        path = work / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return target_dir / program.source.name


def _environment(model: ScriptedModel, run_dir: Path, program: Program) -> dict[str, str]:
    env = model.env(run_dir / "home")
    env["PATH"] = f"{run_dir / 'bin'}{os.pathsep}{env['PATH']}"
    env["PWD"] = str(run_dir / "work")
    # claude_wrap finds `claude` on PATH before its cache with this; the
    # official package ignores it, so both get the same environment.
    env["CLAUDE_WRAP_PREFER_PATH"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # Sets of strings print in one order on both sides.
    env["PYTHONHASHSEED"] = "0"
    env.update(program.env)
    return env


def _runner_command(
    program: Program, side: str, python: Path, script: Path, record: Path, ours_root: Path
) -> list[str]:
    command = [str(python), str(RUNNER), "--side", side, "--record", str(record)]
    if side == "ours":
        command += ["--ours-root", str(ours_root)]
    if program.call:
        command += ["--call", program.call, "--backend", program.backend]
    if program.cell is not None:
        command += ["--cell", str(program.cell)]
    return [*command, str(script), *program.argv]


def _fill(value: Any, work: Path) -> Any:
    """``{{work}}`` in a reply stands for the side's work directory (tools want absolute paths)."""
    if isinstance(value, str):
        return value.replace("{{work}}", str(work))
    if isinstance(value, list):
        return [_fill(v, work) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, work) for k, v in value.items()}
    return value


_CONDITIONS = ("system_contains", "system_lacks", "last_user_contains", "tool_result_contains")


def _reply(entry: Any) -> Reply:
    """A script entry (claude_wrap.testing's format) plus an optional ``"when"``.

    ``"when": {"system_contains": "...", "system_lacks": "...", "last_user_contains": "...",
    "tool_result_contains": "..."}`` makes the reply answer only matching
    main-loop requests, so a subagent and its parent, which ask at the same
    time, each get their own (``tool_result_contains``: the text of a tool
    result in the last user message, for the request that follows a tool).
    """
    if not (isinstance(entry, dict) and "when" in entry):
        return reply_from_json(entry)
    entry = dict(entry)
    when = entry.pop("when")
    unknown = set(when) - set(_CONDITIONS)
    if unknown:
        raise ValueError(f"unknown 'when' conditions {sorted(unknown)}")

    def matches(request: RecordedRequest) -> bool:
        system = request.system_text
        return (
            request.is_main
            and when.get("system_contains", "") in system
            and ("system_lacks" not in when or when["system_lacks"] not in system)
            and when.get("last_user_contains", "") in request.last_user_text
            and (
                "tool_result_contains" not in when
                or any(when["tool_result_contains"] in text for text in request.tool_result_texts)
            )
        )

    return reply_from_json(entry).match_if(matches)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state != "Z"


def _kill(pid: int, *, group: bool = False) -> None:
    try:
        (os.killpg if group else os.kill)(pid, signal.SIGKILL)
    except OSError:
        pass


def _read_spawns(spawns_dir: Path) -> list[Spawn]:
    spawns = []
    for log in spawns_dir.iterdir():

        def text(name: str) -> str:
            path = log / name  # noqa: B023 - called within this iteration
            return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

        env_items = [item.split("=", 1) for item in text("env").split("\0") if "=" in item]
        argv = [a for a in text("argv").split("\0")][:-1]
        files = [i for i in range(len(argv)) if (log / f"file.{i}").exists()]
        for i in files:
            argv[i] = text(f"file.{i}")
        spawns.append(
            Spawn(
                start=float(text("start") or 0),
                pid=int(text("pid") or 0),
                argv=argv,
                env={k: v for k, v in env_items},
                stdin=text("stdin").splitlines(),
                stdout=text("stdout").splitlines(),
                files=[argv[i - 1] for i in files],
            )
        )
    return sorted(spawns, key=lambda s: s.start)


def run_side(program: Program, side: str, *, python: Path, binary: Path, run_dir: Path, ours_root: Path) -> SideResult:
    """Run ``program`` on one package in a fresh ``run_dir``."""
    run_dir.mkdir(parents=True)
    script = _lay_out(program, run_dir)
    spawns_dir = run_dir / "spawns"
    _write_wrapper(run_dir / "bin", spawns_dir, binary)
    record_path = run_dir / "record.json"
    replies = [_reply(_fill(r, run_dir / "work")) for r in program.replies]
    requests_log = run_dir / "model-requests"
    requests_log.touch()

    def log_request(request: RecordedRequest) -> None:
        if request.is_main:
            with requests_log.open("a", encoding="utf-8") as log:
                log.write(f"{request.last_user_text[:60]!r}\n")

    with ScriptedModel(*replies, on_request=log_request) as model:
        env = _environment(model, run_dir, program)
        env[REQUESTS_LOG_ENV] = str(requests_log)
        command = _runner_command(program, side, python, script, record_path, ours_root)
        started = time.monotonic()
        process = subprocess.Popen(
            command,
            cwd=run_dir / "work",
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        timed_out = False
        try:
            out, err = process.communicate(timeout=program.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill(process.pid, group=True)
            out, err = process.communicate()
        seconds = time.monotonic() - started
        spawns = _read_spawns(spawns_dir)
        for spawn in spawns:
            spawn.alive_after_exit = _alive(spawn.pid)
            _kill(spawn.pid)
        _kill(process.pid, group=True)
        requests = model.requests
        unused = sum(1 for reply in model.pending if reply.count is not None)
        base_url = model.base_url
    record = (
        json.loads(record_path.read_text(encoding="utf-8"))
        if record_path.exists()
        else {"events": [], "exception": None, "missing": True}
    )
    traceback_path = Path(str(record_path) + ".traceback")
    return SideResult(
        side=side,
        run_dir=run_dir,
        exit_code=None if timed_out else process.returncode,
        timed_out=timed_out,
        stdout=out.decode("utf-8", errors="replace"),
        stderr=err.decode("utf-8", errors="replace"),
        record=record,
        traceback=traceback_path.read_text(encoding="utf-8") if traceback_path.exists() else "",
        spawns=spawns,
        requests=requests,
        unexpected=sum(1 for r in requests if r.unexpected),
        unused_replies=unused,
        seconds=seconds,
        replacements={base_url: "<model-url>", base_url.split("://", 1)[1]: "<model-host>"},
    )


def run_twin(
    program: Program,
    *,
    official_python: Path,
    binary: Path,
    root: Path,
    ours_root: Path,
    official: SideResult | None = None,
) -> Twin:
    """Run ``program`` on both packages at once, under ``root/off`` and ``root/our``.

    ``official``: the official side from an earlier run; only ours runs.
    """
    pythons = {"official": official_python, "ours": Path(sys.executable)}
    sides = [side for side in SIDES if side != "official" or official is None]
    with ThreadPoolExecutor(len(sides)) as pool:
        futures = {
            side: pool.submit(
                run_side,
                program,
                side,
                python=pythons[side],
                binary=binary,
                run_dir=root / _RUN_DIRS[side],
                ours_root=ours_root,
            )
            for side in sides
        }
        results = {side: future.result() for side, future in futures.items()}
    return Twin(program, official or results["official"], results["ours"])
