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
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._exceptions import CLIConnectionError
from ._mcp_types import wire_config
from ._options import ClaudeAgentOptions
from ._run_end import STATE_ENV

__all__ = ["Explanation", "Launch", "build_launch", "explain"]

BASE_ARGS = ("--output-format", "stream-json", "--verbose", "--input-format", "stream-json")

# Variables that would make the child think it runs nested inside another
# Claude Code session, or that belong to a parent's SDK entrypoint.
_DROPPED_ENV = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT")

_TRACE_ENV = frozenset({"TRACEPARENT", "TRACESTATE"})

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


class _Builder:
    """Accumulates argv, private files and ``initialize`` fields for one launch."""

    def __init__(self, cli: str) -> None:
        self.argv: list[str] = [cli, *BASE_ARGS]
        self.files: dict[str, str] = {}
        self.initialize: dict[str, Any] = {"subtype": "initialize", "hooks": None}

    def flag(self, name: str, value: str | None = None) -> None:
        if value is None:
            self.argv.append(name)
        else:
            _flag_value(self.argv, name, value)

    def long_value(self, flag: str, file_flag: str, value: str, *, private: bool = False) -> None:
        # ``private``: the value holds secrets, which must not show in the
        # world-readable /proc/<pid>/cmdline; a 0600 file keeps them private.
        if private or len(value.encode("utf-8")) > _ARG_LIMIT:
            placeholder = f"@claude-wrap-file-{len(self.files)}"
            self.files[placeholder] = value
            self.argv.extend([file_flag, placeholder])
        else:
            _flag_value(self.argv, flag, value)


def _prompt_flags(b: _Builder, options: ClaudeAgentOptions) -> None:
    sp = options.system_prompt
    append = options.append_system_prompt
    if isinstance(sp, str):
        b.long_value("--system-prompt", "--system-prompt-file", sp)
    elif isinstance(sp, dict) and sp.get("type") == "file":
        b.flag("--system-prompt-file", str(sp.get("path", "")))
    elif isinstance(sp, dict) and sp.get("type") == "custom":
        b.long_value("--system-prompt", "--system-prompt-file", str(sp.get("prompt", "")))
    elif isinstance(sp, dict) and sp.get("type") == "preset":
        append = sp.get("append", append)  # type: ignore[assignment]
        if sp.get("exclude_dynamic_sections"):
            b.flag("--exclude-dynamic-system-prompt-sections")
    snapshot = dict(sp).get("snapshot") if isinstance(sp, dict) else None
    if isinstance(snapshot, bool):
        b.initialize["systemPromptSnapshot"] = snapshot
    if append is not None:
        b.long_value("--append-system-prompt", "--append-system-prompt-file", append)
    if options.append_subagent_system_prompt is not None:
        b.long_value(
            "--append-subagent-system-prompt",
            "--append-subagent-system-prompt-file",
            options.append_subagent_system_prompt,
        )
    if options.plan_mode_instructions is not None:
        b.initialize["planModeInstructions"] = options.plan_mode_instructions


def _model_flags(b: _Builder, options: ClaudeAgentOptions) -> None:
    if options.model:
        b.flag("--model", options.model)
    if options.fallback_model:
        b.flag("--fallback-model", options.fallback_model)
    if options.betas:
        b.flag("--betas", _csv(options.betas))
    if options.effort:
        b.flag("--effort", options.effort)
    thinking = options.thinking
    if thinking is not None:
        if thinking["type"] == "enabled":
            b.flag("--max-thinking-tokens", str(thinking["budget_tokens"]))
        else:
            b.flag("--thinking", thinking["type"])
        display = thinking.get("display")
        if display:
            b.flag("--thinking-display", str(display))
    elif options.max_thinking_tokens is not None:
        b.flag("--max-thinking-tokens", str(options.max_thinking_tokens))
    if options.max_turns is not None:
        b.flag("--max-turns", str(options.max_turns))
    if options.max_budget_usd is not None:
        b.flag("--max-budget-usd", repr(float(options.max_budget_usd)))
    if options.task_budget is not None:
        b.flag("--task-budget", str(int(options.task_budget["total"])))
    schema = _output_schema(options)
    if schema is not None:
        text = json.dumps(schema)
        if len(text.encode("utf-8")) > _ARG_LIMIT:
            # --json-schema takes JSON only (no file); the binary also reads it
            # from initialize, which has no size limit.
            b.initialize["jsonSchema"] = schema
        else:
            b.flag("--json-schema", text)


def _output_schema(options: ClaudeAgentOptions) -> dict[str, Any] | None:
    if options.output_format is not None:
        return dict(options.output_format["schema"])
    if options.output_type is not None:
        return dict(options.output_type.model_json_schema())
    return None


def _tool_flags(b: _Builder, options: ClaudeAgentOptions) -> None:
    tools = options.tools
    if isinstance(tools, list):
        b.flag("--tools", _csv(tools))
    elif isinstance(tools, dict):
        b.flag("--tools", "default")
    allowed = list(options.allowed_tools)
    if options.skills == "all":
        allowed.append("Skill")
    elif options.skills:
        allowed.extend(f"Skill({name})" for name in options.skills)
        b.initialize["skills"] = list(options.skills)
    if allowed:
        b.flag("--allowedTools", _csv(allowed))
    if options.disallowed_tools:
        b.flag("--disallowedTools", _csv(options.disallowed_tools))
    if options.tool_aliases:
        b.initialize["toolAliases"] = dict(options.tool_aliases)
    if options._prompts_come_to_python:
        b.flag("--permission-prompt-tool", "stdio")
    elif options.permission_prompt_tool_name:
        b.flag("--permission-prompt-tool", options.permission_prompt_tool_name)
    if options.permission_mode:
        b.flag("--permission-mode", options.permission_mode)
    if options.allow_dangerously_skip_permissions:
        b.flag("--allow-dangerously-skip-permissions")
    servers = options.mcp_servers
    if isinstance(servers, dict):
        if servers:
            wire = wire_config(servers)
            b.long_value("--mcp-config", "--mcp-config", json.dumps(wire), private=_has_secret(wire))
    elif os.fspath(servers):
        b.flag("--mcp-config", os.fspath(servers))
    if options.strict_mcp_config:
        b.flag("--strict-mcp-config")


def _session_flags(b: _Builder, options: ClaudeAgentOptions) -> None:
    if options.continue_conversation:
        b.flag("--continue")
    if options.resume:
        b.argv.append(f"--resume={options.resume}")
    if options.session_id:
        b.argv.append(f"--session-id={options.session_id}")
    if options.fork_session:
        b.flag("--fork-session")
    if options.resume_session_at:
        b.argv.append(f"--resume-session-at={options.resume_session_at}")
    if options.resume_drops_turn:
        b.argv.append(f"--resume-drops-turn={options.resume_drops_turn}")
    if not options.persist_session:
        b.flag("--no-session-persistence")
    if options.session_store is not None and "session-mirror" not in options.extra_args:
        b.flag("--session-mirror")  # transcript_mirror frames for the store
    if options.title is not None:
        b.initialize["title"] = options.title


def _settings_value(options: ClaudeAgentOptions) -> tuple[str, bool] | None:
    """The ``--settings`` value and whether it holds secrets; ``sandbox`` is
    merged in as the settings' ``sandbox`` key."""
    settings = options.settings
    if options.sandbox is None:
        if settings is None:
            return None
        if isinstance(settings, str):
            return settings, False
        return json.dumps(settings), _has_secret(settings)
    merged: dict[str, Any] = {}
    if isinstance(settings, dict):
        merged.update(settings)
    elif isinstance(settings, str):
        text = settings.strip()
        if not text.startswith("{"):
            try:
                text = Path(settings).read_text(encoding="utf-8")
            except OSError as exc:
                raise CLIConnectionError(f"cannot read the settings file {settings}: {exc}") from exc
        loaded = json.loads(text)
        if not isinstance(loaded, dict):
            raise ValueError("settings must be a JSON object to merge sandbox into")
        merged.update(loaded)
    merged["sandbox"] = dict(options.sandbox)
    return json.dumps(merged), _has_secret(merged)


def _environment_flags(b: _Builder, options: ClaudeAgentOptions, *, check_paths: bool) -> None:
    settings = _settings_value(options)
    if settings is not None:
        b.long_value("--settings", "--settings", settings[0], private=settings[1])
    if options.setting_sources is not None:
        b.argv.append(f"--setting-sources={_csv(list(options.setting_sources))}")
    elif options.skills:
        # Skills live in the user's and the project's settings directories.
        b.argv.append("--setting-sources=user,project")
    for d in options.add_dirs:
        b.flag("--add-dir", os.fspath(d))
    for plugin in options.plugins:
        path = os.fspath(plugin["path"])
        if check_paths and not os.path.exists(path):
            raise CLIConnectionError(f"plugin directory does not exist: {path}")
        b.flag("--plugin-dir", path)
    if options.agent:
        b.flag("--agent", options.agent)
    if options.forward_subagent_text:
        b.initialize["forwardSubagentText"] = True
    if options.agent_progress_summaries:
        b.initialize["agentProgressSummaries"] = True
    if options.prompt_suggestions:
        b.initialize["promptSuggestions"] = True
    if options.include_partial_messages:
        b.flag("--include-partial-messages")
    if options.include_hook_events:
        b.flag("--include-hook-events")
    if options.debug_file is not None:
        b.flag("--debug-file", os.fspath(options.debug_file))


def build_launch(options: ClaudeAgentOptions, cli: str, *, check_cwd: bool = True) -> Launch:
    """Translate validated options into a ``Launch`` for the binary at ``cli``.

    ``check_cwd``: also check that the paths the run needs exist (off for
    ``explain()``, which must work before they do).
    """
    b = _Builder(cli)
    _prompt_flags(b, options)
    _model_flags(b, options)
    _tool_flags(b, options)
    _session_flags(b, options)
    _environment_flags(b, options, check_paths=check_cwd)
    for flag, val in options.extra_args.items():
        b.flag(f"--{flag}", val)

    cwd = None if options.cwd is None else os.fspath(options.cwd)
    if check_cwd and cwd is not None and not os.path.isdir(cwd):
        raise CLIConnectionError(f"working directory does not exist: {cwd}")

    extra_env = dict(options.env)
    if options.enable_file_checkpointing:
        extra_env.setdefault("CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING", "true")
    if options.client_app is not None:
        extra_env["CLAUDE_AGENT_SDK_CLIENT_APP"] = options.client_app
    env, changes = _child_env(extra_env, cwd)
    return Launch(argv=b.argv, env=env, env_changes=changes, cwd=cwd, initialize=b.initialize, files=b.files)


def tracing() -> bool:
    """Whether the application traces: it has loaded OpenTelemetry's API.

    The one test for tracing (child environment and spans), cheap enough to
    make per session; a program that does not trace never imports it
    through us."""
    return "opentelemetry.trace" in sys.modules


def _child_env(extra: Mapping[str, str], cwd: str | None) -> tuple[dict[str, str], dict[str, str | None]]:
    """The parent environment minus nesting markers, plus the trace context
    (when the app traces) and the user's ``env``."""
    env = dict(os.environ)
    changes: dict[str, str | None] = {}
    for name in _DROPPED_ENV:
        if name in env:
            del env[name]
            changes[name] = None
    additions = {"CLAUDE_CODE_ENTRYPOINT": "sdk-py"}
    if cwd is not None:
        additions["PWD"] = cwd
    if tracing() and not _TRACE_ENV & extra.keys():
        from ._otel import trace_env

        # The span current at spawn time parents what the child traces (its
        # own spans, its tools' processes). The user's ``env`` wins, as a pair.
        context = trace_env()
        if context and "TRACESTATE" not in context and "TRACESTATE" in env:
            del env["TRACESTATE"]  # an inherited state belongs to another parent
            changes["TRACESTATE"] = None
        additions.update(context)
    additions.update(extra)
    if not any(k.upper() == STATE_ENV for k in (*env, *additions)):
        # The binary then reports its session state to us (marked for the
        # host, and not handed out): it is how a run knows it is over.
        additions[STATE_ENV] = "1"
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
    from ._control_plane import control_plane, initialize_request

    try:
        cli = os.fspath(find_binary(options.cli_path, prefer_path=options.prefer_path))
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
        # the whole request, as a run sends it (hooks, agents, MCP servers ...)
        initialize={"subtype": "initialize", **initialize_request(launch.initialize, control_plane(options))},
    )
