"""The checks on ``ClaudeAgentOptions``, each made where it belongs.

* ``check_options`` at construction: our own fields (a value out of range
  raises ``ValueError`` naming the field), and ``doubtful`` combinations of
  official fields that get an ``OptionsWarning``;
* ``check_run`` when a run starts: the errors the official package raises
  there, with the same class and message, and our own checks again (fields
  can be assigned after construction);
* ``check_launch`` when the command line is built: values the binary cannot
  work with at all, and the official package's own launch errors.

The options are only read here, never built: ``options`` imports this
module, and the launch (``argv``, ``control_plane``) uses it without loading
the options class.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_wrap._exceptions import LaunchValueError
from claude_wrap._launch.option_types import check_skills, question_preview_format
from claude_wrap._mcp.config import check_server_config

if TYPE_CHECKING:
    from claude_wrap._launch.options import ClaudeAgentOptions

__all__ = ["OptionsWarning", "check_launch", "check_options", "check_run", "doubtful"]


class OptionsWarning(UserWarning):
    """``ClaudeAgentOptions`` holds a value or combination that the official
    package accepts as well, but that probably does not do what was meant
    (the message says what the binary will do with it)."""


# -- our own fields --------------------------------------------------------------


def _number(name: str, value: Any, *, minimum: float, inclusive: bool, optional: bool) -> None:
    if value is None and optional:
        return
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value)
    if ok and (value >= minimum if inclusive else value > minimum):
        return
    bound = f"at least {minimum:g}" if inclusive else f"greater than {minimum:g}"
    none = " (or None)" if optional else ""
    raise ValueError(f"ClaudeAgentOptions.{name} must be a number {bound}{none}, got {value!r}")


def check_options(options: ClaudeAgentOptions) -> None:
    """Raise ``ValueError`` naming the field for values of our own fields
    (and combinations with them) that cannot work."""
    for name in ("control_timeout", "initialize_timeout"):
        _number(name, getattr(options, name), minimum=0, inclusive=False, optional=False)
    for name in ("idle_timeout", "turn_timeout", "callback_timeout"):
        _number(name, getattr(options, name), minimum=0, inclusive=False, optional=True)
    _number("shutdown_grace", options.shutdown_grace, minimum=0, inclusive=True, optional=False)
    _number(
        "session_store_flush_timeout", options.session_store_flush_timeout, minimum=0, inclusive=False, optional=False
    )
    if (
        not isinstance(options.auto_reconnect, int)
        or isinstance(options.auto_reconnect, bool)
        or options.auto_reconnect < 0
    ):
        raise ValueError(
            f"ClaudeAgentOptions.auto_reconnect must be a whole number of restarts (0 or more), "
            f"got {options.auto_reconnect!r}"
        )
    if options.output_type is not None:
        if not _is_pydantic_model(options.output_type):
            raise ValueError(
                f"ClaudeAgentOptions.output_type must be a pydantic model class, got {options.output_type!r}"
            )
        if options.output_format is not None:
            raise ValueError("output_format and output_type both set the output schema; set only one")
    if options.on_user_question is not None and options.permission_prompt_tool_name is not None:
        raise ValueError(
            "on_user_question needs permission prompts on stdio, but permission_prompt_tool_name "
            "sends them (AskUserQuestion included) to an MCP tool; set only one"
        )
    if options.bare and options.hooks:
        raise ValueError(
            "ClaudeAgentOptions.bare: the binary calls no hooks in bare mode, so these hooks would never run "
            "(a blocking one would never block); drop bare=True or the hooks"
        )
    sp = options.system_prompt
    if options.append_system_prompt is not None and isinstance(sp, Mapping) and "append" in sp:
        raise ValueError("append_system_prompt and system_prompt['append'] both set; use one")
    if isinstance(sp, list) and not all(isinstance(block, str) for block in sp):
        raise ValueError("ClaudeAgentOptions.system_prompt: a list holds strings (the prompt's blocks)")
    if options.permission_prompts not in (None, "host", "none"):
        raise ValueError(
            f"ClaudeAgentOptions.permission_prompts is 'host' or 'none', got {options.permission_prompts!r}"
        )
    if options.managed_settings is not None and not isinstance(options.managed_settings, Mapping):
        raise ValueError("ClaudeAgentOptions.managed_settings is a dict of settings")
    preview = question_preview_format(options.tool_config)
    if preview not in (None, "markdown", "html"):
        raise ValueError(f"tool_config['ask_user_question']['preview_format'] is 'markdown' or 'html', got {preview!r}")


def _is_pydantic_model(value: Any) -> bool:
    # A pydantic model class exists only once pydantic is loaded; looking it
    # up in sys.modules keeps the check from loading pydantic itself.
    pydantic = sys.modules.get("pydantic")
    return pydantic is not None and isinstance(value, type) and issubclass(value, pydantic.BaseModel)


# -- official fields: warnings ---------------------------------------------------------


def doubtful(options: ClaudeAgentOptions) -> list[str]:
    """What the binary will do with accepted but probably unintended values."""
    found: list[str] = []
    resuming = bool(options.resume) or options.continue_conversation
    if options.continue_conversation and options.resume:
        found.append(
            "continue_conversation=True is ignored with resume: the binary resumes the session named by resume"
        )
    if options.fork_session and not resuming:
        found.append(
            "fork_session=True does nothing without resume or continue_conversation: there is no session to fork"
        )
    if options.session_id and resuming and not options.fork_session:
        found.append(
            "the binary refuses session_id together with resume or continue_conversation unless "
            "fork_session=True: the run will fail"
        )
    if options.resume_session_at and not options.resume:
        found.append("the binary refuses resume_session_at without resume: the run will fail")
    if options.resume_drops_turn is not None and not options.resume_session_at:
        found.append("the binary refuses resume_drops_turn without resume_session_at: the run will fail")
    found.extend(_doubtful_limits(options))
    found.extend(_doubtful_shapes(options))
    found.extend(_doubtful_bare(options))
    return found


_BARE_TOOLS = ("Bash", "Edit", "Read")


def _doubtful_bare(options: ClaudeAgentOptions) -> list[str]:
    """What bare mode leaves out that the options ask for."""
    if not options.bare:
        return []
    found: list[str] = []
    if options.agents:
        found.append("agents are not available with bare=True: the binary offers no Agent tool in bare mode")
    if options.skills:
        found.append("skills are not available with bare=True: the binary offers no Skill tool in bare mode")
    tools = options.tools
    if isinstance(tools, list) and any(t not in _BARE_TOOLS for t in tools):
        extra = sorted(t for t in tools if t not in _BARE_TOOLS)
        found.append(
            f"with bare=True the binary offers only {', '.join(_BARE_TOOLS)} of its built-in tools, not {', '.join(extra)}"
        )
    return found


def _doubtful_limits(options: ClaudeAgentOptions) -> list[str]:
    found: list[str] = []
    if isinstance(options.max_turns, int) and options.max_turns < 1:
        found.append(
            f"max_turns={options.max_turns} sets no turn limit at all; use None for that, or a positive number"
        )
    thinking = options.thinking
    if isinstance(thinking, Mapping):
        budget = thinking.get("budget_tokens")
        if thinking.get("type") == "enabled" and not (isinstance(budget, int) and budget >= 1):
            found.append(f"thinking budget_tokens={budget!r} is not a positive number of tokens")
        if options.max_thinking_tokens is not None:
            found.append("max_thinking_tokens is ignored: thinking takes precedence")
    elif isinstance(options.max_thinking_tokens, int) and options.max_thinking_tokens < 0:
        found.append(f"max_thinking_tokens={options.max_thinking_tokens} is not a number of tokens")
    return found


def _doubtful_shapes(options: ClaudeAgentOptions) -> list[str]:
    found: list[str] = []
    for flag in options.extra_args:
        if (
            not isinstance(flag, str)
            or not flag
            or flag.startswith("-")
            or "=" in flag
            or any(c.isspace() for c in flag)
        ):
            found.append(
                f"extra_args key {flag!r} becomes the argument '--{flag}'; keys are flag names "
                "without dashes, e.g. 'verbose'"
            )
    fmt = options.output_format
    if fmt is not None and not (
        isinstance(fmt, Mapping) and fmt.get("type") == "json_schema" and isinstance(fmt.get("schema"), Mapping)
    ):
        found.append(
            'output_format is not sent to the binary: only {"type": "json_schema", "schema": {...}} is, '
            f"got {fmt!r}"
        )
    servers = options.mcp_servers
    if isinstance(servers, Mapping):
        for name, config in servers.items():
            try:
                check_server_config(name, config)
            except ValueError as exc:
                found.append(str(exc))
    elif not isinstance(servers, (str, Path)):
        found.append(f"mcp_servers should be a dict of server configs or a config file path, got {servers!r}")
    return found


# -- when a run starts -----------------------------------------------------------------


def check_run(options: ClaudeAgentOptions) -> None:
    """The checks made when ``query()`` starts or a client connects, before
    anything is spawned: the official package's, with its classes and
    messages, then ours again (fields may have been assigned since)."""
    store = options.session_store
    if store is not None:
        from claude_wrap._sessions.store import implements

        if options.continue_conversation and options.resume is None and not implements(store, "list_sessions"):
            raise ValueError("continue_conversation with session_store requires the store to implement list_sessions()")
        if options.enable_file_checkpointing:
            raise ValueError(
                "session_store cannot be combined with enable_file_checkpointing (checkpoints are local-disk "
                "only and would diverge from the mirrored transcript)"
            )
        if not all(callable(getattr(store, m, None)) for m in ("append", "load")):
            raise ValueError(
                "ClaudeAgentOptions.session_store needs async append() and load() methods (see SessionStore)"
            )
    if options.can_use_tool and options.permission_prompt_tool_name:
        raise ValueError(
            "can_use_tool callback cannot be used with permission_prompt_tool_name. Please use one or the other."
        )
    check_options(options)


def check_launch(options: ClaudeAgentOptions) -> None:
    """Values the binary cannot work with at all, checked when its command
    line is built: ``ValueError`` naming the option (``TypeError`` for a
    wrongly typed ``skills``, as in the official package). A NUL byte in any
    string bound for the command line or the environment, and an ``env``
    entry no process can have, raise ``LaunchValueError``: also a
    ``CLIConnectionError``, which the official package raises there."""
    if options.skills is not None:
        check_skills(options.skills)
    for label, value in _command_line_strings(options):
        if "\0" in value:
            raise LaunchValueError(
                f"ClaudeAgentOptions.{label} must not contain NUL bytes (no process argument can), got {value!r}"
            )
    for plugin in options.plugins:
        if plugin.get("type") != "local":
            raise ValueError(f"Unsupported plugin type: {plugin.get('type')}")
    for key, value in options.env.items():
        if not isinstance(key, str) or not key or "=" in key or "\0" in key:
            raise LaunchValueError(f"ClaudeAgentOptions.env: {key!r} cannot be an environment variable name")
        if not isinstance(value, str) or "\0" in value:
            raise LaunchValueError(f"ClaudeAgentOptions.env[{key!r}] must be a string without NUL bytes, got {value!r}")
    budget = options.max_budget_usd
    if budget is not None and not (isinstance(budget, (int, float)) and budget > 0):
        raise ValueError(
            f"ClaudeAgentOptions.max_budget_usd must be greater than 0 (the binary refuses it), got {budget!r}"
        )
    size = options.max_buffer_size
    if size is not None and not (isinstance(size, int) and size >= 1):
        raise ValueError(f"ClaudeAgentOptions.max_buffer_size must be a positive number of bytes, got {size!r}")
    app = options.client_app
    if app is not None and any(ord(c) > 0xFF or c in "\r\n\0" for c in app):
        raise ValueError(
            "ClaudeAgentOptions.client_app must be HTTP-header safe (characters up to U+00FF, no line breaks); "
            f"every API request would fail with {app!r}"
        )


# Options whose value (a string or a path) becomes one word of the command line.
_WORD_OPTIONS = (
    "model",
    "fallback_model",
    "permission_prompt_tool_name",
    "permission_mode",
    "resume",
    "session_id",
    "resume_session_at",
    "resume_drops_turn",
    "append_system_prompt",
    "append_subagent_system_prompt",
    "agent",
    "debug_file",
    "permission_prompts",
    "project_config_root",
    "effort",
    "cwd",
    "user",
    "settings",
    "mcp_servers",
)
# Options whose items do (lists of names or paths).
_LIST_OPTIONS = ("tools", "allowed_tools", "disallowed_tools", "betas", "add_dirs", "setting_sources", "skills")


def _command_line_strings(options: ClaudeAgentOptions) -> Iterator[tuple[str, str]]:
    """(the option as written, its text) for every string that reaches the
    binary's command line or environment, where a NUL byte cannot go (values
    sent as JSON, in ``initialize`` or a file, can hold one)."""
    for name in _WORD_OPTIONS:
        value = getattr(options, name)
        if isinstance(value, (str, Path)):
            yield name, str(value)
    for name in _LIST_OPTIONS:
        values = getattr(options, name)
        if isinstance(values, (list, tuple)):
            yield from ((f"{name}[{i}]", str(v)) for i, v in enumerate(values) if isinstance(v, (str, Path)))
    sp: Any = options.system_prompt  # a TypedDict of one kind or another: read as a plain mapping
    if isinstance(sp, str):
        yield "system_prompt", sp
    elif isinstance(sp, Mapping):
        for key in ("prompt", "append", "path"):
            if isinstance(sp.get(key), (str, Path)):
                yield f"system_prompt[{key!r}]", str(sp[key])
    for i, plugin in enumerate(options.plugins):
        if isinstance(plugin, Mapping) and isinstance(plugin.get("path"), (str, Path)):
            yield f"plugins[{i}]['path']", str(plugin["path"])
    thinking: Any = options.thinking
    if isinstance(thinking, Mapping) and isinstance(thinking.get("display"), str):
        yield "thinking['display']", thinking["display"]
    for flag, value in options.extra_args.items():
        if isinstance(flag, str):
            yield f"extra_args key {flag!r}", flag
            if isinstance(value, str):
                yield f"extra_args[{flag!r}]", value
