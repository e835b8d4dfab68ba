"""``ClaudeAgentOptions``: what a run should do.

A plain dataclass, as in the official package: its fields come first, in its
order and with its defaults, then the fields this package adds. Building
one imports nothing heavy and accepts every value the official package
accepts. Three kinds of check, each at the point where it belongs:

* at construction, our own fields: a value out of range raises
  ``ValueError`` naming the field. Official fields never raise here; a
  combination that is probably a mistake (``continue_conversation`` with
  ``resume``, ``max_turns=0`` ...) gives an ``OptionsWarning`` saying what
  the binary will do with it;
* when a run starts, the errors the official package raises there;
* when the command line is built, values the binary cannot work with.

The checks themselves are in ``checks``.
"""

import copy
import functools
import sys
import warnings
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from claude_wrap._launch.checks import OptionsWarning, check_options, doubtful
from claude_wrap._launch.option_types import (
    SandboxSettings,
    SdkPluginConfig,
    SystemPromptCustom,
    SystemPromptFile,
    SystemPromptPreset,
    TaskBudget,
    ThinkingConfig,
    ToolConfig,
    ToolsPreset,
)
from claude_wrap._mcp.config import McpServerConfig
from claude_wrap._sessions.store import SessionStore, SessionStoreFlushMode
from claude_wrap._wire.modes import PermissionMode

if TYPE_CHECKING:
    from claude_wrap._launch.explain import Explanation

__all__ = [
    "ClaudeAgentOptions",
    "EffortLevel",
    "PermissionMode",
    "SettingSource",
    "SystemPromptCustom",
    "SystemPromptFile",
    "SystemPromptPreset",
    "ToolsPreset",
    "copy_with",
    "resuming",
]

"""Permission modes the binary accepts."""

EffortLevel = Literal["low", "medium", "high", "xhigh", "max"]
"""How hard the model should think."""

SettingSource = Literal["user", "project", "local"]
"""Which settings files the binary loads."""


StderrCallback = Callable[[str], None]
CanUseTool = Callable[..., Awaitable[Any]]


@dataclass
class ClaudeAgentOptions:
    """Options for ``query()`` and ``ClaudeSDKClient``.

    Every field is optional. The fields of the official package come first,
    with its defaults; the rest are additions. ``explain()`` shows the exact
    argv, environment changes and ``initialize`` payload a run will use.
    """

    # -- the official package's fields, in its order ---------------------------
    tools: Union[list[str], ToolsPreset, None] = None
    """Base set of built-in tools: a list of names, ``[]`` for none, or the preset."""
    allowed_tools: list[str] = field(default_factory=list)
    """Permission rules that auto-approve tools (``"Bash"``, ``"Bash(git:*)"``)."""
    system_prompt: Union[str, list[str], SystemPromptPreset, SystemPromptCustom, SystemPromptFile, None] = None
    """``None`` (the default): a minimal prompt (``--system-prompt ""``); a
    string (or ``{"type": "custom", "prompt": ...}``) is the prompt; the
    preset ``{"type": "preset", "preset": "claude_code"}`` is the binary's
    full Claude Code prompt, extended by its ``append``; a file is read by
    the binary. Our addition, as in the TypeScript SDK: a list of strings is
    the prompt in blocks, where an element ``SYSTEM_PROMPT_DYNAMIC_BOUNDARY``
    splits the part sessions share from the session's own."""
    mcp_servers: Union[dict[str, McpServerConfig], str, Path] = field(default_factory=dict)
    """MCP servers by name (stdio, SSE, HTTP, or in-process ones from
    ``create_sdk_mcp_server``), or the path of an MCP JSON config file."""
    strict_mcp_config: bool = False
    """Use only ``mcp_servers``, ignoring MCP servers from settings files."""
    permission_mode: Optional[PermissionMode] = None
    """Initial permission mode. Never ``bypassPermissions`` unless you ask."""
    continue_conversation: bool = False
    """Continue the most recent session in ``cwd``."""
    resume: Optional[str] = None
    """The id of a session to resume."""
    session_id: Optional[str] = None
    """A UUID for the new session (with ``resume``/``continue_conversation``
    only together with ``fork_session``)."""
    max_turns: Optional[int] = None
    """Stop after this many model turns with an ``error_max_turns`` result
    (``None`` or ``0``: no limit)."""
    max_budget_usd: Optional[float] = None
    """Stop once the run costs more than this, with ``error_max_budget_usd``."""
    disallowed_tools: list[str] = field(default_factory=list)
    """Tools removed from the model's tool list."""
    model: Optional[str] = None
    fallback_model: Optional[str] = None
    betas: list[str] = field(default_factory=list)
    permission_prompt_tool_name: Optional[str] = None
    """An MCP tool that answers permission prompts (exclusive with ``can_use_tool``)."""
    cwd: Union[str, Path, None] = None
    cli_path: Union[str, Path, None] = None
    settings: Union[str, Mapping[str, Any], None] = None
    """A settings file path, a JSON string, or a dict (``Settings`` types its keys)."""
    add_dirs: list[Union[str, Path]] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    """Variables set for the binary, over the inherited environment."""
    extra_args: dict[str, Optional[str]] = field(default_factory=dict)
    """Extra CLI flags: ``{"flag": None}`` → ``--flag``, ``{"flag": "v"}`` → ``--flag v``."""
    max_buffer_size: Optional[int] = None
    """Largest stdout line accepted, in bytes. ``None`` (default): no limit."""
    debug_stderr: Any = sys.stderr
    """Accepted for compatibility with the official package, where it is
    deprecated and unused; use ``stderr``."""
    stderr: Optional[StderrCallback] = None
    """Called with each stderr line of the binary. Without it the lines go
    to this process's stderr, so the binary's warnings reach the terminal;
    error messages carry the last lines either way."""
    can_use_tool: Optional[CanUseTool] = None
    """Async callback deciding permission prompts (see the control-plane docs)."""
    hooks: Optional[dict[str, list[Any]]] = None
    """Python hook callbacks by event name: ``{"PreToolUse": [HookMatcher(...)]}``."""
    user: Optional[str] = None
    """Run the binary as this OS user (POSIX; needs the right privileges)."""
    include_partial_messages: bool = False
    """Yield ``StreamEvent`` deltas while the model writes."""
    include_hook_events: bool = False
    """Emit ``hook_started``/``hook_response`` messages for settings-file hooks."""
    forward_subagent_text: bool = False
    """Forward subagents' text and thinking as messages with ``parent_tool_use_id``."""
    verbatim_prompts: bool = False
    """Deliver every prompt exactly as written: each ``user`` message sent is
    marked ``client_composed``, so the binary expands no ``@path`` mentions
    (and no ``@server:resource`` ones) and runs no slash commands. Use it when
    prompt text comes from somewhere other than the person at the keyboard,
    so an ``@/etc/...`` inside it cannot make the binary read a local file.
    For one message only, set ``"client_composed": True`` on that streamed
    frame instead."""
    fork_session: bool = False
    """With ``resume``/``continue_conversation``: continue in a new session."""
    resume_session_at: Optional[str] = None
    """With ``resume``: keep the transcript only up to this message uuid."""
    resume_drops_turn: Optional[str] = None
    """With ``resume_session_at``: the prompt uuid of the turn it drops (checked)."""
    agents: Optional[dict[str, Any]] = None
    """Subagents by name: ``{"reviewer": AgentDefinition(description=..., prompt=...)}``."""
    setting_sources: Optional[list[SettingSource]] = None
    """``None`` lets the binary load its usual settings; ``[]`` loads none."""
    skills: Union[list[str], Literal["all"], None] = None
    """Skills the model may use: names, or ``"all"``. Loads user and project
    settings unless ``setting_sources`` says otherwise."""
    sandbox: Optional[SandboxSettings] = None
    """Bash sandbox settings (merged into ``settings`` as its ``sandbox`` key)."""
    plugins: list[SdkPluginConfig] = field(default_factory=list)
    """Local plugin directories (or .zip files)."""
    max_thinking_tokens: Optional[int] = None
    """Older spelling of ``thinking={"type": "enabled", "budget_tokens": N}``."""
    thinking: Optional[ThinkingConfig] = None
    """``{"type": "adaptive"}``, ``{"type": "enabled", "budget_tokens": N}`` or
    ``{"type": "disabled"}``; ``display`` picks how thinking is shown."""
    effort: Optional[EffortLevel] = None
    output_format: Optional[dict[str, Any]] = None
    """``{"type": "json_schema", "schema": {...}}``: the final answer is
    ``ResultMessage.structured_output``."""
    enable_file_checkpointing: bool = False
    """Keep file checkpoints, so ``ClaudeSDKClient.rewind_files()`` works."""
    session_store: Optional[SessionStore] = None
    """Mirror every transcript to this store (``--session-mirror``), and
    resume from it: ``resume=``/``continue_conversation`` then work on a host
    that never saw the session. See ``SQLiteSessionStore`` and friends."""
    session_store_flush: SessionStoreFlushMode = "batched"
    """``"batched"``: append at each result and at close; ``"eager"``: every frame."""
    load_timeout_ms: int = 60_000
    """Limit for each store call made to resume a session."""
    task_budget: Optional[TaskBudget] = None
    """An API-side token budget for the task: ``{"total": N}``."""
    client_app: Optional[str] = None
    """Your application's name and version, e.g. ``"my-app/1.0"``: the binary
    adds it to the User-Agent and an ``x-client-app`` header of its API
    requests (``CLAUDE_AGENT_SDK_CLIENT_APP``; wins over that variable in
    ``env``). Must be HTTP-header safe: characters up to U+00FF, no line breaks."""

    # -- additions: callbacks ---------------------------------------------------
    on_user_question: Optional[Callable[..., Awaitable[Any]]] = None
    """Answers the model's ``AskUserQuestion`` tool: called with the typed
    questions (``list[UserQuestion]``) and a ``ToolPermissionContext``,
    returns ``{question text: label, labels or free text}``. Turns on the
    tool (and host permission prompts, like ``can_use_tool``); any
    ``can_use_tool`` still decides every other tool. A raising callback
    becomes an error result for the model."""
    on_elicitation: Optional[Callable[..., Awaitable[Any]]] = None
    """Answers an MCP server's request for user input (``elicitation``):
    called with the request dict, returns ``{"action": "accept", "content":
    {...}}``, ``{"action": "decline"}`` or ``{"action": "cancel"}``. Without
    it, every elicitation is declined."""
    on_user_dialog: Optional[Callable[..., Awaitable[Any]]] = None
    """Answers the binary's ``request_user_dialog`` for the dialog kinds in
    ``supported_dialog_kinds``: returns ``{"behavior": "completed", "result":
    ...}`` or ``{"behavior": "cancelled"}``. Without it, dialogs are cancelled."""
    supported_dialog_kinds: list[str] = field(default_factory=list)
    """Dialog kinds ``on_user_dialog`` can answer (sent in ``initialize``)."""

    # -- additions: agents and prompts -------------------------------------------
    agent: Optional[str] = None
    """Run the main thread as this agent (``--agent``)."""
    agent_progress_summaries: bool = False
    """Ask for short progress summaries of running subagents (in ``task_progress``)."""
    append_subagent_system_prompt: Optional[str] = None
    """Text appended to every subagent's system prompt."""
    append_system_prompt: Optional[str] = None
    """Text appended to the system prompt, whichever it is (the same as the
    preset's ``append``)."""
    plan_mode_instructions: Optional[str] = None
    """Custom workflow text for plan mode."""
    prompt_suggestions: bool = False
    """Ask the binary for suggested next prompts."""
    tool_aliases: Optional[dict[str, str]] = None
    """Serve a built-in tool through another one, e.g. ``{"Bash": "mcp__ws__bash"}``."""
    output_type: Any = None
    """A pydantic model class: its JSON Schema is the output format, and
    ``ResultMessage.structured_output`` holds a validated instance."""

    # -- additions: sessions and environment -------------------------------------
    persist_session: bool = True
    """``False``: the session is not saved to disk and cannot be resumed."""
    title: Optional[str] = None
    """A title for the session."""
    prefer_path: Optional[bool] = None
    """Prefer ``claude`` on PATH over the bundled or cached binary
    (``None``: the ``CLAUDE_WRAP_PREFER_PATH`` environment variable decides)."""
    allow_dangerously_skip_permissions: bool = False
    """Let ``set_permission_mode("bypassPermissions")`` be used later in the
    session (only for sandboxes with no network)."""
    debug_file: Union[str, Path, None] = None
    """Write the binary's debug log to this file."""
    debug: bool = False
    """The binary's debug log on its stderr (``--debug``; with ``debug_file``, the file wins)."""
    permission_prompts: Optional[Literal["host", "none"]] = None
    """Who answers permission prompts: ``"host"`` (the binary's default:
    ``can_use_tool`` or ``permission_prompt_tool_name``), or ``"none"``:
    rules, the permission mode and hooks still decide, and a call that would
    prompt is denied at once (the model is told there is nobody to ask)."""
    project_config_root: Union[str, Path, None] = None
    """The checkout ``cwd`` is a worktree of: project settings, ``.mcp.json``
    and the ``.claude`` trees (commands, agents, skills, output styles) are
    read from there instead of from ``cwd``."""
    managed_settings: Optional[Mapping[str, Any]] = None
    """Policy-tier settings from this host (restrictive settings only bind:
    the binary drops what would widen other sources). Sent in ``initialize``,
    not on the command line; the binary refuses to start without them if
    they cannot be used."""
    per_task_stop_affordance: bool = False
    """Tell the binary this host can stop background tasks one at a time
    (``stop_task``): an interrupt then spares running background agents and
    stops only the turn."""
    tool_config: Optional[ToolConfig] = None
    """Settings of built-in tools, e.g. ``{"ask_user_question": {"preview_format": "html"}}``."""
    session_store_flush_timeout: float = 5.0
    """Seconds one flush to ``session_store`` may take, retries included: a
    result waits at most this long for its transcript entries to reach the
    store, and so does close (within ``shutdown_grace``). What is not in the
    store by then stays queued for the next flush, and a
    ``MirrorErrorMessage`` just before the result says how much. The local
    transcript is complete either way."""
    bare: bool = False
    """Start the binary in its minimal mode (``--bare``), which starts
    faster. The binary then skips hooks from settings files and plugins,
    LSP, plugin sync, auto-memory, background prefetches, keychain reads and
    CLAUDE.md discovery, and the model sees less: no CLAUDE.md, no commit
    attribution guidance, and of the built-in tools only Bash, Edit and Read
    (no Agent, no Skill). What keeps working: in-process and other MCP
    servers, ``can_use_tool`` and the other permission callbacks, structured
    output, session stores. Hook callbacks are never called in this mode, so
    ``hooks`` together with ``bare`` is refused. The API key must come from
    ``ANTHROPIC_API_KEY`` (or an ``apiKeyHelper`` in ``settings``): no OAuth
    login is read."""

    # -- additions: time limits (seconds) -----------------------------------------
    control_timeout: float = 60.0
    """How long one of our control requests may wait for its answer (and,
    before that, for the binary to take it in)."""
    initialize_timeout: float = 60.0
    """How long the ``initialize`` handshake may take (at least
    ``CLAUDE_CODE_STREAM_CLOSE_TIMEOUT`` milliseconds, when that is set)."""
    idle_timeout: Optional[float] = None
    """Fail a turn after this long with no output from the binary, or when
    the binary does not take in its prompt for this long (time spent in our
    own callbacks does not count, nor time the event loop spent elsewhere
    while output or the pipe waited); it also covers a background agent the
    binary is still running after a result."""
    turn_timeout: Optional[float] = None
    """Fail a turn that runs longer than this."""
    callback_timeout: Optional[float] = None
    """Limit for each call of a hook, ``can_use_tool``, ``on_user_question``,
    ``on_elicitation``, ``on_user_dialog`` and in-process MCP tool handler,
    sync or async. A callback past it fails like one that raised: the binary
    gets an error reply and decides (``can_use_tool``: the tool is denied; a
    hook: its matcher's ``on_failure``), and a tool call is an error result
    for the model. A plain function's worker thread is abandoned, not stopped."""
    shutdown_grace: float = 5.0
    """How long closing a run may take before SIGKILL: half of it for the
    binary to exit after stdin closes, the rest after SIGTERM. A guard
    process gives the binary the same time if this process dies."""

    # -- additions: recovery --------------------------------------------------------
    auto_reconnect: int = 0
    """How many times a ``ClaudeSDKClient`` may start its binary again on its
    own, over the client's whole life (``0``, the default: never). When the
    binary has died, the next ``query()`` first reconnects, resuming the last
    session id the client saw, and then sends its prompt. A turn that was
    running when the binary died is never sent again: its reader gets the
    error. ``reconnect()`` called by hand does not use up this budget."""

    # -- decoding -------------------------------------------------------------
    keep_unrecognized: bool = False
    """Also yield what the official package leaves out: frames of a type it
    does not model arrive as ``UnknownMessage``, and content blocks it drops
    (images, redacted thinking, web search results, block types added later,
    ...) as ``ImageBlock`` / ``RedactedThinkingBlock`` /
    ``ServerToolResultBlock`` / ``UnknownBlock`` in place. Off by default,
    so programs see the same messages as with the official package. A known
    frame that does not fit its type is yielded as ``UnknownMessage`` with
    ``error`` set either way."""

    def __post_init__(self) -> None:
        check_options(self)
        # warn() ← __post_init__ ← __init__ (← _suggesting_init) ← the caller's line;
        # a dataclass subclass generates an __init__ of its own, without the wrapper.
        level = 4 if type(self).__init__ is ClaudeAgentOptions.__init__ else 3
        for message in doubtful(self):
            warnings.warn(message, OptionsWarning, stacklevel=level)

    @property
    def _prompts_come_to_python(self) -> bool:
        """Whether the binary sends its permission prompts here (``can_use_tool``
        or ``on_user_question`` answers them), which also makes it offer the
        model ``AskUserQuestion``."""
        return self.can_use_tool is not None or self.on_user_question is not None

    def explain(self) -> "Explanation":
        """Describe exactly how a run with these options will start: argv,
        environment changes and the ``initialize`` payload. Spawns nothing."""
        from claude_wrap._launch.explain import explain

        return explain(self)


def _suggesting_init(init: Callable[..., None]) -> Callable[..., None]:
    """The dataclass ``__init__``, whose ``TypeError`` for an unknown keyword
    also names the closest option (same class and traceback; the message
    gains ``; did you mean 'allowed_tools'?``)."""

    @functools.wraps(init)
    def __init__(self: ClaudeAgentOptions, *args: Any, **kwargs: Any) -> None:
        try:
            init(self, *args, **kwargs)
        except TypeError as exc:
            # Raised while binding the arguments (no frame below this one),
            # not from inside __post_init__'s checks.
            tb = exc.__traceback__
            if tb is not None and tb.tb_next is None and exc.args and isinstance(exc.args[0], str):
                exc.args = (exc.args[0] + _closest_option(type(self), exc.args[0], kwargs),)
            raise

    return __init__


def _closest_option(cls: type, message: str, kwargs: Mapping[str, Any]) -> str:
    import dataclasses
    import difflib

    fields = [f.name for f in dataclasses.fields(cls) if f.init]
    for name in kwargs:
        if f"unexpected keyword argument {name!r}" in message:
            close = difflib.get_close_matches(name, fields, n=1, cutoff=0.6)
            return f"; did you mean {close[0]!r}?" if close else ""
    return ""


ClaudeAgentOptions.__init__ = _suggesting_init(ClaudeAgentOptions.__init__)  # type: ignore[method-assign]


def copy_with(options: ClaudeAgentOptions, **changes: Any) -> ClaudeAgentOptions:
    """A shallow copy with ``changes`` applied, as ``dataclasses.replace``
    makes it, without checking or warning again (for copies made inside a
    run, from options the caller already built)."""
    new = copy.copy(options)
    for name, value in changes.items():
        setattr(new, name, value)
    return new


def resuming(options: ClaudeAgentOptions, session_id: str) -> ClaudeAgentOptions:
    """A copy of ``options`` that resumes ``session_id``: it neither
    continues the latest session, forks, names a new one, nor cuts the
    transcript short."""
    return copy_with(
        options,
        resume=session_id,
        continue_conversation=False,
        fork_session=False,
        session_id=None,
        resume_session_at=None,
        resume_drops_turn=None,
    )
