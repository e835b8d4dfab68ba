"""Options → how to start the binary: argv, environment, ``initialize`` payload.

Pure translation with no I/O beyond reading ``os.environ`` and checking the
working directory, so ``ClaudeAgentOptions.explain()`` shows exactly what a
run will do. Values too long for one argv string go through private temp
files, made only when a run actually starts (``materialize``).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_wrap._exceptions import CLIConnectionError
from claude_wrap._launch.checks import OptionsWarning, check_launch
from claude_wrap._launch.option_types import question_preview_format
from claude_wrap._mcp.config import wire_config

if TYPE_CHECKING:
    from claude_wrap._launch.options import ClaudeAgentOptions

__all__ = ["AGENT_SDK_VERSION", "HEAD_ARGS", "STATE_ENV", "TAIL_ARGS", "Launch", "build_launch", "tracing"]

# Every command line starts and ends with these.
HEAD_ARGS = ("--output-format", "stream-json", "--verbose")
TAIL_ARGS = ("--input-format", "stream-json")

AGENT_SDK_VERSION = "0.2.189"
"""The version of the official package whose interface this package
implements, given to the binary as ``CLAUDE_AGENT_SDK_VERSION``: the binary
reports it in its User-Agent and, seeing it, behaves as under that package."""

# Variables a child must not inherit: the marker of running nested inside
# another Claude Code session, and an app label derived for an outer one.
_DROPPED_ENV = ("CLAUDECODE", "CLAUDE_AGENT_SDK_DERIVED_CLIENT_APP")

_TRACE_ENV = frozenset({"TRACEPARENT", "TRACESTATE"})
STATE_ENV = "CLAUDE_CODE_SDK_READS_SESSION_STATE"
"""Set in the binary's environment: it then reports its session state
(``running`` / ``requires_action`` / ``idle``) in frames marked for the host,
which is how a run knows it is over (``claude_wrap._run.run_end``)."""

# Linux refuses a single argv string over 128 KiB (MAX_ARG_STRLEN); stay well below.
_ARG_LIMIT = 96 * 1024


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

    @property
    def private_dir(self) -> str | None:
        """The folder of the written temp files (``None`` before
        ``materialize()`` or when there are none)."""
        return None if self._tmpdir is None else self._tmpdir.name

    def inlined(self) -> list[str]:
        """The argv with each file's content in its place: what the binary
        reads, as the official package passes it."""
        return [self.files.get(a, a) for a in self.argv]

    def cleanup(self) -> None:
        """Remove the temp files, if any were written."""
        if self._tmpdir is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None


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
        self.argv: list[str] = [cli, *HEAD_ARGS]
        self.files: dict[str, str] = {}
        self.initialize: dict[str, Any] = {"subtype": "initialize", "hooks": None}

    def flag(self, name: str, value: str | None = None) -> None:
        if value is None:
            self.argv.append(name)
        else:
            _flag_value(self.argv, name, value)

    def long_value(self, flag: str, file_flag: str, value: str) -> None:
        if len(value.encode("utf-8")) > _ARG_LIMIT:
            self.private(file_flag, value)
        else:
            _flag_value(self.argv, flag, value)

    def private(self, file_flag: str, value: str) -> None:
        """Pass ``value`` as a private file (0600) named after ``file_flag``:
        never in the command line, which every local user can read in
        /proc/<pid>/cmdline."""
        placeholder = f"@claude-wrap-file-{len(self.files)}"
        self.files[placeholder] = value
        self.argv.extend([file_flag, placeholder])


def _prompt_flags(b: _Builder, options: ClaudeAgentOptions) -> None:
    """``--system-prompt`` and friends, plus the prompt's ``initialize`` fields.
    ``None`` is a minimal prompt, not the binary's own: only the preset
    selects the full Claude Code prompt."""
    sp = options.system_prompt
    append = options.append_system_prompt
    if sp is None:
        b.flag("--system-prompt", "")
    elif isinstance(sp, list):
        # In blocks, as the TypeScript SDK sends them: through initialize.
        b.initialize["systemPrompt"] = [str(block) for block in sp]
    elif isinstance(sp, str):
        b.long_value("--system-prompt", "--system-prompt-file", sp)
    else:
        kind = sp.get("type")
        if kind == "file":
            b.flag("--system-prompt-file", os.fspath(sp["path"]))  # type: ignore[typeddict-item]
        elif kind == "custom":
            b.long_value("--system-prompt", "--system-prompt-file", sp["prompt"])  # type: ignore[typeddict-item]
        elif kind == "preset" and "append" in sp:
            append = sp["append"]  # type: ignore[typeddict-item]
        # The binary reads these from ``initialize``, only when they are booleans.
        exclude = sp.get("exclude_dynamic_sections")
        if kind == "preset" and isinstance(exclude, bool):
            b.initialize["excludeDynamicSections"] = exclude
        snapshot = sp.get("snapshot")
        if kind in ("preset", "custom") and isinstance(snapshot, bool):
            b.initialize["systemPromptSnapshot"] = snapshot
    if append is not None:
        b.long_value("--append-system-prompt", "--append-system-prompt-file", append)


def _output_schema(options: ClaudeAgentOptions) -> dict[str, Any] | None:
    fmt = options.output_format
    if isinstance(fmt, Mapping) and fmt.get("type") == "json_schema" and fmt.get("schema") is not None:
        return dict(fmt["schema"])
    if options.output_type is not None:
        return dict(options.output_type.model_json_schema())
    return None


def _skills_defaults(options: ClaudeAgentOptions) -> tuple[list[str], list[str] | None]:
    """``allowed_tools`` and ``setting_sources`` as ``skills`` extends them:
    a rule per skill (or ``Skill`` for all), and the user's and the
    project's settings, where skills live, unless sources are given."""
    allowed = list(options.allowed_tools)
    sources: list[str] | None = None if options.setting_sources is None else list(options.setting_sources)
    skills = options.skills
    if skills is None:
        return allowed, sources
    rules = ["Skill"] if skills == "all" else [f"Skill({name})" for name in skills]
    allowed.extend(rule for rule in rules if rule not in allowed)
    return allowed, ["user", "project"] if sources is None else sources


def _mcp_flags(b: _Builder, options: ClaudeAgentOptions) -> None:
    servers = options.mcp_servers
    if not servers:
        return
    if isinstance(servers, dict):
        # Whatever its keys are called, a config can hold a secret (a token
        # in a server's args, in a URL's query): it always goes in a file.
        b.private("--mcp-config", json.dumps(wire_config(servers)))
    else:
        b.flag("--mcp-config", str(servers))


def _thinking_flags(b: _Builder, options: ClaudeAgentOptions) -> None:
    thinking = options.thinking
    if thinking is not None:
        kind = thinking["type"]
        if kind == "enabled":
            b.flag("--max-thinking-tokens", str(thinking["budget_tokens"]))  # type: ignore[typeddict-item]
        elif kind in ("adaptive", "disabled"):
            b.flag("--thinking", kind)
        if kind != "disabled" and "display" in thinking:
            b.flag("--thinking-display", str(thinking["display"]))  # type: ignore[typeddict-item]
    elif options.max_thinking_tokens is not None:
        b.flag("--max-thinking-tokens", str(options.max_thinking_tokens))


def _settings_value(options: ClaudeAgentOptions, cwd: str | None) -> tuple[str, bool] | None:
    """The ``--settings`` value and whether it is JSON (rather than a file
    path); ``sandbox`` is merged in as the settings' ``sandbox`` key, a
    settings file being read as the binary reads it (relative to ``cwd``,
    with or without a BOM)."""
    settings = options.settings
    if options.sandbox is None:
        if not settings:
            return None
        if isinstance(settings, str):
            text = settings.strip()
            return settings, text.startswith("{") and text.endswith("}")
        return json.dumps(dict(settings)), True
    merged: Any = {}
    try:
        if isinstance(settings, Mapping):
            merged = dict(settings)
        elif settings is not None:
            text = settings.strip()
            if not (text.startswith("{") and text.endswith("}")):
                text = (Path(cwd or "") / text).read_text(encoding="utf-8-sig")
            merged = json.loads(text)
        merged["sandbox"] = options.sandbox
    except (OSError, ValueError, TypeError) as exc:
        raise CLIConnectionError(f"Failed to load settings: {exc}") from exc
    return json.dumps(merged), True


def _plugin_flags(b: _Builder, options: ClaudeAgentOptions, *, check_paths: bool) -> None:
    for plugin in options.plugins:
        path = os.fspath(plugin["path"])
        if check_paths and not os.path.exists(path):
            warnings.warn(
                f"plugin directory {path} does not exist: the binary starts without that plugin",
                OptionsWarning,
                stacklevel=2,
            )
        # The binary's own flag for a plugin whose MCP servers are left out.
        b.flag("--plugin-dir-no-mcp" if plugin.get("skipMcpDiscovery") else "--plugin-dir", path)


def _additions(b: _Builder, options: ClaudeAgentOptions) -> None:
    """Flags and ``initialize`` fields of the options the official package
    does not have."""
    if options.append_subagent_system_prompt is not None:
        b.long_value(
            "--append-subagent-system-prompt",
            "--append-subagent-system-prompt-file",
            options.append_subagent_system_prompt,
        )
    if options.allow_dangerously_skip_permissions:
        b.flag("--allow-dangerously-skip-permissions")
    if not options.persist_session:
        b.flag("--no-session-persistence")
    if options.agent:
        b.flag("--agent", options.agent)
    if options.debug_file is not None:
        b.flag("--debug-file", os.fspath(options.debug_file))
    elif options.debug:
        b.flag("--debug")
    if options.permission_prompts is not None:
        b.flag("--permission-prompts", options.permission_prompts)
    if options.project_config_root is not None:
        b.flag("--project-config-root", os.fspath(options.project_config_root))
    if options.managed_settings is not None:
        # Policy stays off the command line, where any local user reads it.
        b.flag("--await-initialize")
        b.flag("--managed-settings-in-initialize")
        b.initialize["managedSettings"] = dict(options.managed_settings)
    if options.per_task_stop_affordance:
        b.initialize["perTaskStopAffordance"] = True
    if options.bare:
        b.flag("--bare")
    if options.plan_mode_instructions is not None:
        b.initialize["planModeInstructions"] = options.plan_mode_instructions
    if options.tool_aliases:
        b.initialize["toolAliases"] = dict(options.tool_aliases)
    if options.title is not None:
        b.initialize["title"] = options.title
    if options.agent_progress_summaries:
        b.initialize["agentProgressSummaries"] = True
    if options.prompt_suggestions:
        b.initialize["promptSuggestions"] = True


def build_launch(options: ClaudeAgentOptions, cli: str, *, check_cwd: bool = True) -> Launch:
    """Translate options into a ``Launch`` for the binary at ``cli``.

    The official package's flags come in its order, each from the same
    values, so a program gets the same command line on both packages; the
    flags of our own options follow, then ``extra_args``. ``check_cwd``:
    also check that the paths the run needs exist (off for ``explain()``,
    which must work before they do).
    """
    check_launch(options)
    cwd = os.fspath(options.cwd) if options.cwd else None
    b = _Builder(cli)
    _prompt_flags(b, options)
    tools = options.tools
    if tools is not None:
        b.flag("--tools", _csv(tools) if isinstance(tools, list) else "default")
    allowed, sources = _skills_defaults(options)
    if allowed:
        b.flag("--allowedTools", _csv(allowed))
    if options.max_turns:  # 0, like None, sets no limit
        b.flag("--max-turns", str(options.max_turns))
    if options.max_budget_usd is not None:
        b.flag("--max-budget-usd", str(options.max_budget_usd))
    if options.disallowed_tools:
        b.flag("--disallowedTools", _csv(options.disallowed_tools))
    if options.task_budget is not None:
        b.flag("--task-budget", str(options.task_budget["total"]))
    if options.model:
        b.flag("--model", options.model)
    if options.fallback_model:
        b.flag("--fallback-model", options.fallback_model)
    if options.betas:
        b.flag("--betas", _csv(options.betas))
    if options._prompts_come_to_python:
        b.flag("--permission-prompt-tool", "stdio")
    elif options.permission_prompt_tool_name:
        b.flag("--permission-prompt-tool", options.permission_prompt_tool_name)
    if options.permission_mode:
        b.flag("--permission-mode", options.permission_mode)
    if options.continue_conversation:
        b.flag("--continue")
    # ``--flag=value``: an optional-value flag never reads a value as a flag.
    if options.resume:
        b.argv.append(f"--resume={options.resume}")
    if options.session_id:
        b.argv.append(f"--session-id={options.session_id}")
    settings = _settings_value(options, cwd)
    if settings is not None:
        value, is_json = settings
        if is_json:
            b.private("--settings", value)  # settings ``env`` holds anything, under any name
        else:
            b.flag("--settings", value)
    for d in options.add_dirs:
        b.flag("--add-dir", os.fspath(d))
    _mcp_flags(b, options)
    if options.include_partial_messages:
        b.flag("--include-partial-messages")
    if options.include_hook_events:
        b.flag("--include-hook-events")
    if options.strict_mcp_config:
        b.flag("--strict-mcp-config")
    if options.fork_session:
        b.flag("--fork-session")
    if options.resume_session_at:
        b.argv.append(f"--resume-session-at={options.resume_session_at}")
    if options.resume_drops_turn is not None:  # "" too: the binary refuses it, rather than no check
        b.argv.append(f"--resume-drops-turn={options.resume_drops_turn}")
    if options.session_store is not None and "session-mirror" not in options.extra_args:
        b.flag("--session-mirror")  # transcript_mirror frames for the store
    if sources is not None:
        b.argv.append(f"--setting-sources={_csv(sources)}")
    _plugin_flags(b, options, check_paths=check_cwd)
    _additions(b, options)
    for flag, val in options.extra_args.items():
        b.flag(f"--{flag}", None if val is None else str(val))
    _thinking_flags(b, options)
    if options.effort is not None:
        b.flag("--effort", options.effort)
    schema = _output_schema(options)
    if schema is not None:
        text = json.dumps(schema)
        if len(text.encode("utf-8")) > _ARG_LIMIT:
            # --json-schema takes JSON only (no file); the binary also reads it
            # from initialize, which has no size limit.
            b.initialize["jsonSchema"] = schema
        else:
            b.flag("--json-schema", text)
    b.argv.extend(TAIL_ARGS)
    if options.skills is not None and options.skills != "all":
        b.initialize["skills"] = list(options.skills)
    if options.forward_subagent_text:
        b.initialize["forwardSubagentText"] = True

    if check_cwd and cwd is not None and not os.path.isdir(cwd):
        raise CLIConnectionError(f"Working directory does not exist: {cwd}")
    env, changes = _child_env(options, cwd)
    return Launch(argv=b.argv, env=env, env_changes=changes, cwd=cwd, initialize=b.initialize, files=b.files)


def tracing() -> bool:
    """Whether the application traces: it has loaded OpenTelemetry's API.

    The one test for tracing (child environment and spans), cheap enough to
    make per session; a program that does not trace never imports it
    through us."""
    return "opentelemetry.trace" in sys.modules


def _child_env(options: ClaudeAgentOptions, cwd: str | None) -> tuple[dict[str, str], dict[str, str | None]]:
    """The child's environment, built as the official package builds it:
    the parent's minus ``_DROPPED_ENV``, ``CLAUDE_CODE_ENTRYPOINT`` (which
    ``env`` may override), the user's ``env``, then the variables ``env``
    cannot override; plus the trace context when the app traces. Also the
    changes against our own environment, for ``explain()``."""
    user = options.env
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED_ENV}
    env["CLAUDE_CODE_ENTRYPOINT"] = "sdk-py"
    env.update(user)
    env["CLAUDE_AGENT_SDK_VERSION"] = AGENT_SDK_VERSION
    env.pop("CLAUDE_AGENT_SDK_DERIVED_CLIENT_APP", None)
    if options.client_app is not None:
        env["CLAUDE_AGENT_SDK_CLIENT_APP"] = options.client_app
    if tracing() and not _TRACE_ENV & user.keys():
        from claude_wrap._launch.trace_context import trace_env

        # The span current at spawn time parents what the child traces (its
        # own spans, its tools' processes). The user's ``env`` wins, as a
        # pair: half of ours next to half of theirs would be a wrong pair.
        context = trace_env()
        if context:
            for key in _TRACE_ENV:
                env.pop(key, None)  # an inherited context belongs to another parent
            env.update(context)
    if options.enable_file_checkpointing:
        env["CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING"] = "true"
    preview = question_preview_format(options.tool_config)
    if preview is not None:
        env["CLAUDE_CODE_QUESTION_PREVIEW_FORMAT"] = str(preview)
    if cwd is not None:
        env["PWD"] = cwd
    if not any(k.upper() == STATE_ENV for k in env):
        # The binary then reports its session state to us (marked for the
        # host, and not handed out): it is how a run knows it is over.
        env[STATE_ENV] = "1"
    changes: dict[str, str | None] = {k: None for k in os.environ if k not in env}
    changes.update({k: v for k, v in env.items() if os.environ.get(k) != v})
    return env, changes
