"""``ClaudeAgentOptions``: what a run should do, validated when it is built.

Field names match the official package. The class is a pydantic dataclass
whose validation schema is built on first use, so importing claude_wrap stays
cheap; assignments are validated too. Invalid values raise
``pydantic.ValidationError`` (a ``ValueError``) naming the field.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from pydantic import ConfigDict, Field, SkipValidation, field_validator, model_validator
from pydantic.dataclasses import dataclass
from typing_extensions import Annotated, NotRequired, TypedDict

from ._mcp_types import McpServerConfig, check_server_config
from ._option_types import (
    SandboxSettings,
    SdkPluginConfig,
    SystemPromptCustom,
    SystemPromptFile,
    SystemPromptPreset,
    TaskBudget,
    ThinkingConfig,
    ToolsPreset,
    check_skill_name,
)
from ._session_store import SessionStore, SessionStoreFlushMode

if TYPE_CHECKING:
    from ._argv import Explanation

__all__ = [
    "ClaudeAgentOptions",
    "EffortLevel",
    "PermissionMode",
    "SettingSource",
    "SystemPromptCustom",
    "SystemPromptFile",
    "SystemPromptPreset",
    "ToolsPreset",
]

PermissionMode = Literal["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto"]
"""Permission modes the binary accepts."""

EffortLevel = Literal["low", "medium", "high", "xhigh", "max"]
"""How hard the model should think."""

SettingSource = Literal["user", "project", "local"]
"""Which settings files the binary loads."""


StderrCallback = Callable[[str], None]
CanUseTool = Callable[..., Awaitable[Any]]


@dataclass(
    config=ConfigDict(
        defer_build=True,
        validate_assignment=True,
        extra="forbid",
        arbitrary_types_allowed=True,
    )
)
class ClaudeAgentOptions:
    """Options for ``query()`` and ``ClaudeSDKClient``.

    Every field is optional. ``explain()`` shows the exact argv, environment
    changes and ``initialize`` payload a run will use.
    """

    # -- tools and permissions ------------------------------------------------
    tools: Union[list[str], ToolsPreset, None] = None
    """Base set of built-in tools: a list of names, ``[]`` for none, or the preset."""
    allowed_tools: list[str] = dataclasses.field(default_factory=list)
    """Permission rules that auto-approve tools (``"Bash"``, ``"Bash(git:*)"``)."""
    disallowed_tools: list[str] = dataclasses.field(default_factory=list)
    """Tools removed from the model's tool list."""
    permission_mode: PermissionMode | None = None
    """Initial permission mode. Never ``bypassPermissions`` unless you ask."""
    permission_prompt_tool_name: str | None = None
    """An MCP tool that answers permission prompts (exclusive with ``can_use_tool``)."""
    can_use_tool: CanUseTool | None = None
    """Async callback deciding permission prompts (see the control-plane docs)."""
    on_user_question: Callable[..., Awaitable[Any]] | None = None
    """Answers the model's ``AskUserQuestion`` tool: called with the typed
    questions (``list[UserQuestion]``) and a ``ToolPermissionContext``,
    returns ``{question text: label, labels or free text}``. Turns on the
    tool (and host permission prompts, like ``can_use_tool``); any
    ``can_use_tool`` still decides every other tool. A raising callback
    becomes an error result for the model."""
    hooks: dict[str, list[Any]] | None = None
    """Python hook callbacks by event name: ``{"PreToolUse": [HookMatcher(...)]}``."""
    on_elicitation: Callable[..., Awaitable[Any]] | None = None
    """Answers an MCP server's request for user input (``elicitation``):
    called with the request dict, returns ``{"action": "accept", "content":
    {...}}``, ``{"action": "decline"}`` or ``{"action": "cancel"}``. Without
    it, every elicitation is declined."""
    on_user_dialog: Callable[..., Awaitable[Any]] | None = None
    """Answers the binary's ``request_user_dialog`` for the dialog kinds in
    ``supported_dialog_kinds``: returns ``{"behavior": "completed", "result":
    ...}`` or ``{"behavior": "cancelled"}``. Without it, dialogs are cancelled."""
    supported_dialog_kinds: list[str] = dataclasses.field(default_factory=list)
    """Dialog kinds ``on_user_dialog`` can answer (sent in ``initialize``)."""
    hooks_fail_open: bool = False
    """If true, a raising ``PreToolUse``/``PermissionRequest`` hook means "no
    opinion" instead of denying the tool."""

    # -- MCP servers ----------------------------------------------------------
    mcp_servers: Union[Annotated[dict[str, McpServerConfig], SkipValidation], str, Path] = dataclasses.field(
        default_factory=dict
    )
    """MCP servers by name (stdio, SSE, HTTP, or in-process ones from
    ``create_sdk_mcp_server``), or the path of an MCP JSON config file."""
    strict_mcp_config: bool = False
    """Use only ``mcp_servers``, ignoring MCP servers from settings files."""

    # -- subagents -------------------------------------------------------------
    agents: dict[str, Any] | None = None
    """Subagents by name: ``{"reviewer": AgentDefinition(description=..., prompt=...)}``."""
    agent: str | None = None
    """Run the main thread as this agent (``--agent``)."""
    forward_subagent_text: bool = False
    """Forward subagents' text and thinking as messages with ``parent_tool_use_id``."""
    agent_progress_summaries: bool = False
    """Ask for short progress summaries of running subagents (in ``task_progress``)."""
    append_subagent_system_prompt: str | None = None
    """Text appended to every subagent's system prompt."""
    skills: Union[list[str], Literal["all"], None] = None
    """Skills the model may use: names, or ``"all"``. Loads user and project
    settings unless ``setting_sources`` says otherwise."""
    plugins: list[SdkPluginConfig] = dataclasses.field(default_factory=list)
    """Local plugin directories (or .zip files)."""
    sandbox: SandboxSettings | None = None
    """Bash sandbox settings (merged into ``settings`` as its ``sandbox`` key)."""

    # -- prompt and model -----------------------------------------------------
    system_prompt: Union[str, SystemPromptPreset, SystemPromptCustom, SystemPromptFile, None] = None
    """``None`` keeps the binary's own Claude Code prompt; a string (or
    ``{"type": "custom", "prompt": ...}``) replaces it (``""`` for none); the
    preset with ``append`` extends it; a file is read by the binary."""
    append_system_prompt: str | None = None
    """Text appended to the system prompt (same as the preset's ``append``)."""
    model: str | None = None
    fallback_model: str | None = None
    betas: list[str] = dataclasses.field(default_factory=list)
    effort: EffortLevel | None = None
    thinking: ThinkingConfig | None = None
    """``{"type": "adaptive"}``, ``{"type": "enabled", "budget_tokens": N}`` or
    ``{"type": "disabled"}``; ``display`` picks how thinking is shown."""
    max_thinking_tokens: int | None = Field(default=None, ge=0)
    """Older spelling of ``thinking={"type": "enabled", "budget_tokens": N}``."""
    task_budget: TaskBudget | None = None
    """An API-side token budget for the task: ``{"total": N}``."""
    plan_mode_instructions: str | None = None
    """Custom workflow text for plan mode."""
    prompt_suggestions: bool = False
    """Ask the binary for suggested next prompts."""
    tool_aliases: dict[str, str] | None = None
    """Serve a built-in tool through another one, e.g. ``{"Bash": "mcp__ws__bash"}``."""
    max_turns: int | None = Field(default=None, ge=1)
    """Stop after this many model turns with an ``error_max_turns`` result."""
    max_budget_usd: float | None = Field(default=None, gt=0)
    """Stop once the run costs more than this, with ``error_max_budget_usd``."""
    output_format: dict[str, Any] | None = None
    """``{"type": "json_schema", "schema": {...}}``: the final answer is
    ``ResultMessage.structured_output``."""
    output_type: Any = None
    """A pydantic model class: its JSON Schema is the output format, and
    ``ResultMessage.structured_output`` holds a validated instance."""

    # -- sessions -------------------------------------------------------------
    continue_conversation: bool = False
    resume: str | None = None
    session_id: str | None = None
    fork_session: bool = False
    resume_session_at: str | None = None
    """With ``resume``: keep the transcript only up to this message uuid."""
    resume_drops_turn: str | None = None
    """With ``resume_session_at``: the prompt uuid of the turn it drops (checked)."""
    persist_session: bool = True
    """``False``: the session is not saved to disk and cannot be resumed."""
    title: str | None = None
    """A title for the session."""
    enable_file_checkpointing: bool = False
    """Keep file checkpoints, so ``ClaudeSDKClient.rewind_files()`` works."""
    session_store: Annotated[Optional[SessionStore], SkipValidation] = None
    """Mirror every transcript to this store (``--session-mirror``), and
    resume from it: ``resume=``/``continue_conversation`` then work on a host
    that never saw the session. See ``SQLiteSessionStore`` and friends."""
    session_store_flush: SessionStoreFlushMode = "batched"
    """``"batched"``: append at each result and at close; ``"eager"``: every frame."""
    load_timeout_ms: int = Field(default=60_000, gt=0)
    """Limit for each store call made to resume a session."""

    # -- environment ----------------------------------------------------------
    cwd: Union[str, Path, None] = None
    cli_path: Union[str, Path, None] = None
    prefer_path: bool | None = None
    """Prefer ``claude`` on PATH over the bundled or cached binary
    (``None``: the ``CLAUDE_WRAP_PREFER_PATH`` environment variable decides)."""
    user: str | None = None
    """Run the binary as this OS user (POSIX; needs the right privileges)."""
    env: dict[str, str] = dataclasses.field(default_factory=dict)
    client_app: str | None = None
    """Your application's name and version, e.g. ``"my-app/1.0"``: the binary
    adds it to the User-Agent and an ``x-client-app`` header of its API
    requests (``CLAUDE_AGENT_SDK_CLIENT_APP``; wins over that variable in
    ``env``). Must be HTTP-header safe: characters up to U+00FF, no line breaks."""
    settings: Union[str, dict[str, Any], None] = None
    """A settings file path, a JSON string, or a dict."""
    setting_sources: list[SettingSource] | None = None
    """``None`` lets the binary load its usual settings; ``[]`` loads none."""
    add_dirs: list[Union[str, Path]] = dataclasses.field(default_factory=list)
    extra_args: dict[str, str | None] = dataclasses.field(default_factory=dict)
    """Extra CLI flags: ``{"flag": None}`` → ``--flag``, ``{"flag": "v"}`` → ``--flag v``."""

    # -- stream ---------------------------------------------------------------
    include_partial_messages: bool = False
    verbatim_prompts: bool = False
    """Deliver every prompt exactly as written: each ``user`` message sent is
    marked ``client_composed``, so the binary expands no ``@path`` mentions
    (and no ``@server:resource`` ones) and runs no slash commands. Use it when
    prompt text comes from somewhere other than the person at the keyboard,
    so an ``@/etc/...`` inside it cannot make the binary read a local file.
    For one message only, set ``"client_composed": True`` on that streamed
    frame instead."""
    include_hook_events: bool = False
    """Emit ``hook_started``/``hook_response`` messages for settings-file hooks."""
    allow_dangerously_skip_permissions: bool = False
    """Let ``set_permission_mode("bypassPermissions")`` be used later in the
    session (only for sandboxes with no network)."""
    debug_file: Union[str, Path, None] = None
    """Write the binary's debug log to this file."""
    """Yield ``StreamEvent`` deltas while the model writes."""
    max_buffer_size: int | None = Field(default=None, gt=0)
    """Largest stdout line accepted, in bytes. ``None`` (default): no limit."""
    debug_stderr: Any = None
    """Accepted for compatibility with the official package, where it is
    deprecated and unused; use ``stderr``."""
    stderr: StderrCallback | None = None
    """Called with each stderr line of the binary."""

    # -- time limits (seconds) ------------------------------------------------
    control_timeout: float = Field(default=60.0, gt=0)
    """How long one of our control requests may wait for its answer."""
    initialize_timeout: float = Field(default=60.0, gt=0)
    """How long the ``initialize`` handshake may take."""
    idle_timeout: float | None = Field(default=None, gt=0)
    """Fail a turn after this long with no output from the binary (time
    spent in our own callbacks does not count); it also covers a background
    agent the binary is still running after a result."""
    turn_timeout: float | None = Field(default=None, gt=0)
    """Fail a turn that runs longer than this."""
    callback_timeout: float | None = Field(default=None, gt=0)
    """Limit for each hook and ``can_use_tool`` call; expiry counts as a failure
    (a denial for permission decisions)."""
    shutdown_grace: float = Field(default=5.0, ge=0)
    """Seconds to wait after closing stdin, and again after SIGTERM."""

    # -- recovery -------------------------------------------------------------
    auto_reconnect: int = Field(default=0, ge=0, strict=True)
    """How many times a ``ClaudeSDKClient`` may start its binary again on its
    own, over the client's whole life (``0``, the default: never). When the
    binary has died, the next ``query()`` first reconnects, resuming the last
    session id the client saw, and then sends its prompt. A turn that was
    running when the binary died is never sent again: its reader gets the
    error. ``reconnect()`` called by hand does not use up this budget."""

    @field_validator("env")
    @classmethod
    def _env_is_strings(cls, value: dict[str, str]) -> dict[str, str]:
        for key in value:
            if not key or "=" in key or "\0" in key:
                raise ValueError(f"invalid environment variable name {key!r}")
        return value

    @field_validator("mcp_servers")
    @classmethod
    def _mcp_servers_shape(cls, value: Any) -> Any:
        if isinstance(value, dict):
            for name, config in value.items():
                check_server_config(name, config)
        elif not isinstance(value, (str, os.PathLike)):
            raise ValueError(f"mcp_servers must be a dict of server configs or a config file path, got {value!r}")
        return value

    @field_validator("output_format")
    @classmethod
    def _output_format_shape(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is None:
            return None
        if value.get("type") != "json_schema" or not isinstance(value.get("schema"), Mapping):
            raise ValueError('output_format must be {"type": "json_schema", "schema": {...}}')
        return value

    @field_validator("skills")
    @classmethod
    def _skill_names(cls, value: Any) -> Any:
        if isinstance(value, list):
            for name in value:
                check_skill_name(name)
        return value

    @field_validator("thinking")
    @classmethod
    def _thinking_budget(cls, value: Any) -> Any:
        if value is not None and value.get("type") == "enabled" and value.get("budget_tokens", 0) < 1:
            raise ValueError("thinking budget_tokens must be a positive number of tokens")
        return value

    @field_validator("output_type")
    @classmethod
    def _output_type_is_model(cls, value: Any) -> Any:
        if value is not None:
            from pydantic import BaseModel

            if not (isinstance(value, type) and issubclass(value, BaseModel)):
                raise ValueError(f"output_type must be a pydantic model class, got {value!r}")
        return value

    @field_validator("extra_args")
    @classmethod
    def _extra_args_names(cls, value: dict[str, str | None]) -> dict[str, str | None]:
        for flag in value:
            if not flag or flag.startswith("-") or any(c.isspace() for c in flag) or "=" in flag:
                raise ValueError(
                    f"extra_args keys are flag names without dashes, e.g. 'verbose'; got {flag!r}"
                )
        return value

    @model_validator(mode="after")
    def _consistent(self) -> ClaudeAgentOptions:
        if self.can_use_tool is not None and self.permission_prompt_tool_name is not None:
            raise ValueError(
                "can_use_tool and permission_prompt_tool_name both answer permission prompts; set only one"
            )
        if self.on_user_question is not None and self.permission_prompt_tool_name is not None:
            raise ValueError(
                "on_user_question needs permission prompts on stdio, but permission_prompt_tool_name "
                "sends them (AskUserQuestion included) to an MCP tool; set only one"
            )
        if self.output_format is not None and self.output_type is not None:
            raise ValueError("output_format and output_type both set the output schema; set only one")
        if self.thinking is not None and self.max_thinking_tokens is not None:
            raise ValueError("thinking and max_thinking_tokens both configure thinking; use thinking")
        if (self.resume_session_at or self.resume_drops_turn) and not self.resume:
            raise ValueError("resume_session_at and resume_drops_turn need resume=<session id>")
        if self.resume_drops_turn and not self.resume_session_at:
            raise ValueError("resume_drops_turn needs resume_session_at")
        if self.session_store is not None and self.enable_file_checkpointing:
            raise ValueError(
                "enable_file_checkpointing cannot be used with session_store: checkpoints live in the "
                "local config dir, which a store-backed resume replaces with a temporary one"
            )
        if self.continue_conversation and self.resume is not None:
            raise ValueError("continue_conversation and resume both pick the session to load; set only one")
        if self.fork_session and not (self.resume or self.continue_conversation):
            raise ValueError("fork_session needs resume=... or continue_conversation=True")
        if self.session_id is not None and (self.resume or self.continue_conversation) and not self.fork_session:
            raise ValueError("session_id names a new session; with resume/continue it needs fork_session=True")
        if self.session_store is not None:
            from ._session_store import implements

            if not all(callable(getattr(self.session_store, m, None)) for m in ("append", "load")):
                raise ValueError("session_store needs async append() and load() methods (see SessionStore)")
            if self.continue_conversation and not implements(self.session_store, "list_sessions"):
                raise ValueError("continue_conversation with a session_store needs a store with list_sessions()")
        if self.client_app is not None and (
            any(ord(c) > 0xFF or c in "\r\n\0" for c in self.client_app)
        ):
            raise ValueError(
                f"client_app must be HTTP-header safe (characters up to U+00FF, no line breaks): {self.client_app!r}"
            )
        if (
            self.append_system_prompt is not None
            and isinstance(self.system_prompt, dict)
            and "append" in self.system_prompt
        ):
            raise ValueError("append_system_prompt and system_prompt['append'] both set; use one")
        return self

    @property
    def _prompts_come_to_python(self) -> bool:
        """Whether the binary sends its permission prompts here (``can_use_tool``
        or ``on_user_question`` answers them), which also makes it offer the
        model ``AskUserQuestion``."""
        return self.can_use_tool is not None or self.on_user_question is not None

    def explain(self) -> Explanation:
        """Describe exactly how a run with these options will start: argv,
        environment changes and the ``initialize`` payload. Spawns nothing."""
        from ._argv import explain

        return explain(self)


def resolve_cwd(options: ClaudeAgentOptions) -> str | None:
    """The working directory as a string, or ``None`` for the caller's own."""
    if options.cwd is None:
        return None
    return os.fspath(options.cwd)
