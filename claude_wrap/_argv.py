"""Options → how to start the binary: argv, environment, ``initialize`` payload.

Pure translation with no I/O beyond reading ``os.environ`` and checking the
working directory, so ``ClaudeAgentOptions.explain()`` shows exactly what a
run will do. Values too long for one argv string go through private temp
files, made only when a run actually starts (``materialize``).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ._exceptions import CLIConnectionError
from ._mcp_types import wire_config
from ._options import ClaudeAgentOptions

__all__ = ["Explanation", "Launch", "build_launch", "explain"]

BASE_ARGS = ("--output-format", "stream-json", "--verbose", "--input-format", "stream-json")

# Variables that would make the child think it runs nested inside another
# Claude Code session, or that belong to a parent's SDK entrypoint.
_DROPPED_ENV = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT")

# Linux refuses a single argv string over 128 KiB (MAX_ARG_STRLEN); stay well below.
_ARG_LIMIT = 96 * 1024

_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|AUTH|HEADER)", re.IGNORECASE)
# "scheme://user:password@host": the password part of a URL (proxies, databases).
_URL_PASSWORD = re.compile(r"(://[^/@\s:]*):[^/@\s]*@")
_REDACTED = "<redacted>"


def _has_secret(value: Any) -> bool:
    """True if a JSON value holds a non-empty value under a secret-looking key
    (an MCP server's ``env`` token, ``headers``, a settings ``env`` key ...)."""
    if isinstance(value, dict):
        return any(
            (bool(v) and _SECRET_NAME.search(str(k)) is not None) or _has_secret(v) for k, v in value.items()
        )
    if isinstance(value, list):
        return any(_has_secret(v) for v in value)
    return isinstance(value, str) and _URL_PASSWORD.search(value) is not None


def _redact_value(value: Any, *, everything: bool = False) -> Any:
    """A copy of a JSON value with secrets replaced by ``<redacted>``."""
    if isinstance(value, dict):
        return {
            k: _redact_value(v, everything=everything or _SECRET_NAME.search(str(k)) is not None)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_redact_value(v, everything=everything) for v in value]
    if isinstance(value, str):
        return _REDACTED if everything and value else _URL_PASSWORD.sub(rf"\1:{_REDACTED}@", value)
    return _REDACTED if everything and value is not None else value


@dataclass
class Launch:
    """Everything needed to start one run. ``files`` are written by
    ``materialize()`` and removed by ``cleanup()``."""

    argv: list[str]
    env: dict[str, str]
    env_changes: dict[str, str | None]
    cwd: str | None
    initialize: dict[str, Any]
    files: dict[str, str] = field(default_factory=dict)
    """Placeholder → content for values passed through private temp files."""
    _tmpdir: tempfile.TemporaryDirectory[str] | None = None

    def materialize(self) -> list[str]:
        """Write the private temp files (mode 0600 in a 0700 dir) and return
        the argv with placeholders replaced by their paths."""
        if not self.files:
            return list(self.argv)
        self._tmpdir = tempfile.TemporaryDirectory(prefix="claude-wrap-")
        paths: dict[str, str] = {}
        for i, (placeholder, content) in enumerate(self.files.items()):
            path = os.path.join(self._tmpdir.name, f"arg{i}.txt")
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(content)
            paths[placeholder] = path
        return [paths.get(a, a) for a in self.argv]

    def cleanup(self) -> None:
        """Remove the temp files, if any were written."""
        if self._tmpdir is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None


@dataclass(frozen=True)
class Explanation:
    """What a run with some options will do, with secrets redacted."""

    argv: list[str]
    env_changes: dict[str, str | None]
    cwd: str | None
    initialize: dict[str, Any]

    def __str__(self) -> str:
        env = "\n".join(
            f"  {k}={'<removed>' if v is None else v}" for k, v in sorted(self.env_changes.items())
        )
        return (
            f"argv: {json.dumps(self.argv)}\n"
            f"cwd: {self.cwd or '(caller cwd)'}\n"
            f"env changes:\n{env or '  (none)'}\n"
            f"initialize: {json.dumps(self.initialize, sort_keys=True)}"
        )


def _csv(values: list[str]) -> str:
    return ",".join(values)


def _flag_value(argv: list[str], flag: str, value: str) -> None:
    # ``--flag=value`` keeps a value that starts with "-" from being read as a flag.
    argv.append(f"{flag}={value}" if value.startswith("-") else flag)
    if not value.startswith("-"):
        argv.append(value)


def build_launch(options: ClaudeAgentOptions, cli: str, *, check_cwd: bool = True) -> Launch:
    """Translate validated options into a ``Launch`` for the binary at ``cli``."""
    argv: list[str] = [cli, *BASE_ARGS]
    files: dict[str, str] = {}
    initialize: dict[str, Any] = {"subtype": "initialize", "hooks": None}

    def long_value(flag: str, file_flag: str, value: str, *, private: bool = False) -> None:
        # ``private``: the value holds secrets, which must not show in the
        # world-readable /proc/<pid>/cmdline; a 0600 file keeps them private.
        if private or len(value.encode("utf-8")) > _ARG_LIMIT:
            placeholder = f"@claude-wrap-file-{len(files)}"
            files[placeholder] = value
            argv.extend([file_flag, placeholder])
        else:
            _flag_value(argv, flag, value)

    sp = options.system_prompt
    append = options.append_system_prompt
    if isinstance(sp, str):
        long_value("--system-prompt", "--system-prompt-file", sp)
    elif isinstance(sp, dict) and sp.get("type") == "file":
        _flag_value(argv, "--system-prompt-file", str(sp.get("path", "")))
    elif isinstance(sp, dict) and sp.get("type") == "preset":
        append = sp.get("append", append)  # type: ignore[assignment]
        if sp.get("exclude_dynamic_sections"):
            argv.append("--exclude-dynamic-system-prompt-sections")
    if append is not None:
        long_value("--append-system-prompt", "--append-system-prompt-file", append)

    tools = options.tools
    if isinstance(tools, list):
        _flag_value(argv, "--tools", _csv(tools))
    elif isinstance(tools, dict):
        argv.extend(["--tools", "default"])
    if options.allowed_tools:
        _flag_value(argv, "--allowedTools", _csv(options.allowed_tools))
    if options.disallowed_tools:
        _flag_value(argv, "--disallowedTools", _csv(options.disallowed_tools))
    if options.max_turns is not None:
        argv.extend(["--max-turns", str(options.max_turns)])
    if options.max_budget_usd is not None:
        argv.extend(["--max-budget-usd", repr(float(options.max_budget_usd))])
    if options.model:
        _flag_value(argv, "--model", options.model)
    if options.fallback_model:
        _flag_value(argv, "--fallback-model", options.fallback_model)
    if options.betas:
        _flag_value(argv, "--betas", _csv(options.betas))
    if options.can_use_tool is not None:
        argv.extend(["--permission-prompt-tool", "stdio"])
    elif options.permission_prompt_tool_name:
        _flag_value(argv, "--permission-prompt-tool", options.permission_prompt_tool_name)
    if options.permission_mode:
        argv.extend(["--permission-mode", options.permission_mode])
    if options.continue_conversation:
        argv.append("--continue")
    if options.resume:
        argv.append(f"--resume={options.resume}")
    if options.session_id:
        argv.append(f"--session-id={options.session_id}")
    if options.fork_session:
        argv.append("--fork-session")
    if options.session_store is not None and "session-mirror" not in options.extra_args:
        argv.append("--session-mirror")  # transcript_mirror frames for the store
    if options.settings is not None:
        if isinstance(options.settings, str):
            long_value("--settings", "--settings", options.settings)
        else:
            long_value("--settings", "--settings", json.dumps(options.settings), private=_has_secret(options.settings))
    for d in options.add_dirs:
        _flag_value(argv, "--add-dir", os.fspath(d))
    servers = options.mcp_servers
    if isinstance(servers, dict):
        if servers:
            wire = wire_config(servers)
            long_value("--mcp-config", "--mcp-config", json.dumps(wire), private=_has_secret(wire))
    elif os.fspath(servers):
        _flag_value(argv, "--mcp-config", os.fspath(servers))
    if options.include_partial_messages:
        argv.append("--include-partial-messages")
    if options.strict_mcp_config:
        argv.append("--strict-mcp-config")
    if options.setting_sources is not None:
        argv.append(f"--setting-sources={_csv(list(options.setting_sources))}")
    if options.effort:
        argv.extend(["--effort", options.effort])
    if options.output_format is not None:
        long_value("--json-schema", "--json-schema", json.dumps(options.output_format["schema"]))
    for flag, val in options.extra_args.items():
        if val is None:
            argv.append(f"--{flag}")
        else:
            _flag_value(argv, f"--{flag}", val)

    cwd = None if options.cwd is None else os.fspath(options.cwd)
    if check_cwd and cwd is not None and not os.path.isdir(cwd):
        raise CLIConnectionError(f"working directory does not exist: {cwd}")

    env, changes = _child_env(options.env, cwd)
    return Launch(argv=argv, env=env, env_changes=changes, cwd=cwd, initialize=initialize, files=files)


def _child_env(extra: Mapping[str, str], cwd: str | None) -> tuple[dict[str, str], dict[str, str | None]]:
    """The parent environment minus nesting markers, plus the user's ``env``."""
    env = dict(os.environ)
    changes: dict[str, str | None] = {}
    for name in _DROPPED_ENV:
        if name in env:
            del env[name]
            changes[name] = None
    additions = {"CLAUDE_CODE_ENTRYPOINT": "sdk-py"}
    if cwd is not None:
        additions["PWD"] = cwd
    additions.update(extra)
    for k, v in additions.items():
        if env.get(k) != v:
            changes[k] = v
        env[k] = v
    return env, changes


def _redact(name: str, value: str | None) -> str | None:
    if value is None:
        return value
    if _SECRET_NAME.search(name):
        return _REDACTED
    return _URL_PASSWORD.sub(rf"\1:{_REDACTED}@", value)


def _redact_arg(arg: str) -> str:
    """An argv element for display: JSON objects and URLs without their secrets."""
    if arg.startswith("{"):
        try:
            return json.dumps(_redact_value(json.loads(arg)))
        except ValueError:
            pass
    return _URL_PASSWORD.sub(rf"\1:{_REDACTED}@", arg)


def explain(options: ClaudeAgentOptions) -> Explanation:
    """The launch plan for ``options`` with secrets redacted; spawns nothing."""
    from ._binary import find_binary

    try:
        cli = os.fspath(find_binary(options.cli_path))
    except Exception:  # noqa: BLE001 - explain() must work without a binary too
        cli = os.fspath(options.cli_path) if options.cli_path else "claude"
    launch = build_launch(options, cli, check_cwd=False)
    argv = [
        f"<temp file, {len(launch.files[a])} chars>" if a in launch.files else _redact_arg(a) for a in launch.argv
    ]
    return Explanation(
        argv=argv,
        env_changes={k: _redact(k, v) for k, v in launch.env_changes.items()},
        cwd=launch.cwd,
        initialize=launch.initialize,
    )
