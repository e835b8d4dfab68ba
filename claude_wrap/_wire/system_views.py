"""Typed views of a ``SystemMessage``'s ``data``.

System frames such as ``init`` arrive as a plain ``SystemMessage`` whose
``data`` is the whole frame, exactly as in the official package. These
views read the keys of one subtype into typed attributes, on demand::

    async for message in query(prompt="..."):
        if (init := InitSystemMessage.of(message)) is not None:
            print(init.model, init.tools)

``of`` returns ``None`` for any other message, and raises
``MessageParseError`` when the frame's keys do not have the types the view
declares. A key the frame lacks takes the attribute's default. Views are
frozen dataclasses and not messages: ``query()`` never yields one.
``ResultDetails`` is the same kind of view of a ``ResultMessage``'s frame.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

import msgspec

from claude_wrap._exceptions import MessageParseError
from claude_wrap._wire.messages import ResultMessage, SystemMessage
from claude_wrap._wire.shapes import (
    WireFastModeDisabledReason,
    WireFastModeState,
    WireMcpServers,
    WirePluginErrors,
    WirePlugins,
)

__all__ = [
    "system_view",
    "ResultDetails",
    "ApiRetryMessage",
    "CompactBoundaryMessage",
    "InformationalMessage",
    "InitSystemMessage",
    "StatusMessage",
]

_View = TypeVar("_View", bound="_SystemView")


def _key(name: str) -> Any:
    """Field metadata for an attribute read from a differently spelled key."""
    return {"key": name}


@dataclass(frozen=True)
class _SystemView:
    subtype: ClassVar[str]

    @classmethod
    def of(cls: type[_View], message: object) -> _View | None:
        """The view of ``message`` if it is a ``SystemMessage`` of this
        view's subtype, else ``None``."""
        if not isinstance(message, SystemMessage) or message.subtype != cls.subtype:
            return None
        data = message.data
        present = {}
        for f in dataclasses.fields(cls):
            key = f.metadata.get("key", f.name)
            if key in data:
                present[f.name] = data[key]
        try:
            return msgspec.convert(present, cls)
        except msgspec.ValidationError as exc:
            raise MessageParseError(f"system/{cls.subtype} frame does not fit {cls.__name__}: {exc}", data) from exc


@dataclass(frozen=True)
class InitSystemMessage(_SystemView):
    """``system/init``, sent at the start of every turn (see ``SystemInitData``
    for every key of the frame)."""

    subtype: ClassVar[str] = "init"

    session_id: str = ""
    model: str = ""
    cwd: str = ""
    tools: list[str] = field(default_factory=list)
    mcp_servers: WireMcpServers = field(default_factory=list)
    permission_mode: str = field(default="", metadata=_key("permissionMode"))
    slash_commands: list[str] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)
    skills: list[str] = field(default_factory=list)
    claude_code_version: str = ""
    api_key_source: str = field(default="", metadata=_key("apiKeySource"))
    output_style: str = ""
    uuid: str = ""
    plugins: WirePlugins = field(default_factory=list)
    plugin_errors: WirePluginErrors | None = None
    fast_mode_state: WireFastModeState | None = None
    fast_mode_disabled_reason: WireFastModeDisabledReason | None = None
    capabilities: list[str] | None = None
    terminal_slash_commands: list[str] | None = None
    betas: list[str] | None = None


@dataclass(frozen=True)
class ApiRetryMessage(_SystemView):
    """``system/api_retry``: the binary is retrying a failed API call."""

    subtype: ClassVar[str] = "api_retry"

    attempt: int = 0
    max_retries: int = 0
    retry_delay_ms: float = 0
    error_status: int | None = None
    error: str | None = None


@dataclass(frozen=True)
class CompactBoundaryMessage(_SystemView):
    """``system/compact_boundary``: the conversation was compacted here."""

    subtype: ClassVar[str] = "compact_boundary"

    compact_metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class StatusMessage(_SystemView):
    """``system/status``: what the binary is doing now (e.g. ``requesting``)."""

    subtype: ClassVar[str] = "status"

    status: str | None = None


@dataclass(frozen=True)
class InformationalMessage(_SystemView):
    """``system/informational``: a notice meant for the user."""

    subtype: ClassVar[str] = "informational"

    content: str | None = None
    level: str | None = None


@dataclass(frozen=True)
class ResultDetails:
    """What a ``ResultMessage``'s frame says beyond the official fields:
    the turn's timings, its queue and fast mode (the TypeScript SDK's
    result keys)::

        details = ResultDetails.of(result)
        print(details.ttft_ms, details.queued_turn_count)

    Read from the frame on demand (the message keeps its line); a result
    that was not decoded from a line gives the defaults."""

    ttft_ms: float | None = None
    """Milliseconds from sending the request to the first token."""
    ttft_stream_ms: float | None = None
    """Milliseconds from the stream's start to its first token."""
    time_to_request_ms: float | None = None
    """Milliseconds from the prompt to the API request being sent."""
    first_content_frame_ms: float | None = None
    """Milliseconds from the prompt to the first content frame."""
    request_sent_wall_ms: float | None = None
    """When the request was sent, in Unix milliseconds."""
    queued_turn_count: int | None = None
    """How many prompts were waiting when this turn ended."""
    fast_mode_state: str | None = None
    fast_mode_disabled_reason: str | None = None
    resume_reason: str | None = None
    """Why a turn the session began by itself started."""
    local_command: str | None = None
    """The slash command a turn ran locally, without the model."""
    credential_expires_at: str | None = None
    startup_failure_reason: str | None = None
    invalid_config_file: dict[str, Any] | None = None
    """The settings file that could not be read, on a startup failure."""
    begun_message_ids: list[str] | None = None
    """The API message ids of the replies this turn began."""
    model_usage_since_last_result: dict[str, Any] | None = None
    subagent_stats: Any = None
    safety_stops: Any = None

    @classmethod
    def of(cls, result: ResultMessage) -> ResultDetails:
        """The details of ``result``; ``MessageParseError`` if a key has
        another type than declared here."""
        line = getattr(result, "_line", None)
        if line is None:
            return cls()
        try:
            return msgspec.json.decode(line, type=cls)
        except msgspec.ValidationError as exc:
            raise MessageParseError(f"result frame does not fit ResultDetails: {exc}", None) from exc


def system_view(message: object) -> _SystemView | None:
    """The typed view of a ``SystemMessage`` whose subtype has one (the
    views here), else ``None``: one call instead of trying each view::

        match system_view(message):
            case PermissionDeniedMessage(tool_name=name, message=why):
                print(f"{name} denied: {why}")
    """
    if not isinstance(message, SystemMessage):
        return None
    view = _views().get(message.subtype)
    return view.of(message) if view is not None else None


@functools.cache
def _views() -> dict[str, type[_SystemView]]:
    return {cls.subtype: cls for cls in _SystemView.__subclasses__()}


# --- written by scripts/ts_types.py: begin ---
# From the TypeScript SDK 0.3.333 (sdk.d.ts); make bump rewrites this block.


@dataclass(frozen=True)
class BackgroundTasksChangedMessage(_SystemView):
    """``system/background_tasks_changed``: the full set of live background tasks, emitted whenever
    membership changes (start, completion, kill, a foreground agent being backgrounded) or an
    entry's `ambient` flag or `parent_task_id` changes.
    """

    subtype: ClassVar[str] = "background_tasks_changed"

    tasks: list[Any] = field(default_factory=list)
    """Every live background task after the change. REPLACE semantics: swap your set for this payload.
    """
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class CommandsChangedMessage(_SystemView):
    """``system/commands_changed``: fire-and-forget push of the full slash-command list after a mid-
    session change (e.g. skills discovered dynamically as the agent works in a subdirectory).
    """

    subtype: ClassVar[str] = "commands_changed"

    commands: list[Any] = field(default_factory=list)
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class ControlRequestProgressMessage(_SystemView):
    """``system/control_request_progress``: progress for a long-running client-originated
    control_request (currently only side_question), correlated by request_id. status 'started' means
    the worker accepted the request and launched the work; 'api_retry' carries the same retry
    counters as SDKAPIRetryMessage and is present only for that status.
    """

    subtype: ClassVar[str] = "control_request_progress"

    request_id: str = ""
    """request_id of the in-flight control_request this progress belongs to."""
    status: str = ""
    attempt: float | None = None
    max_retries: float | None = None
    retry_delay_ms: float | None = None
    error_status: float | None = None
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class ElicitationCompleteMessage(_SystemView):
    """``system/elicitation_complete``: emitted when an MCP server confirms that a URL-mode elicitation
    is complete.
    """

    subtype: ClassVar[str] = "elicitation_complete"

    mcp_server_name: str = ""
    elicitation_id: str = ""
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class FilesPersistedMessage(_SystemView):
    """``system/files_persisted``."""

    subtype: ClassVar[str] = "files_persisted"

    files: list[Any] = field(default_factory=list)
    failed: list[Any] = field(default_factory=list)
    processed_at: str = ""
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class HookProgressMessage(_SystemView):
    """``system/hook_progress``."""

    subtype: ClassVar[str] = "hook_progress"

    hook_id: str = ""
    hook_name: str = ""
    hook_event: str = ""
    stdout: str = ""
    stderr: str = ""
    output: str = ""
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class HookResponseMessage(_SystemView):
    """``system/hook_response``."""

    subtype: ClassVar[str] = "hook_response"

    hook_id: str = ""
    hook_name: str = ""
    hook_event: str = ""
    output: str = ""
    stdout: str = ""
    stderr: str = ""
    exit_code: float | None = None
    outcome: str = ""
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class HookStartedMessage(_SystemView):
    """``system/hook_started``."""

    subtype: ClassVar[str] = "hook_started"

    hook_id: str = ""
    hook_name: str = ""
    hook_event: str = ""
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class LocalCommandOutputMessage(_SystemView):
    """``system/local_command_output``: output from a local slash command (e.g. /voice, /usage)."""

    subtype: ClassVar[str] = "local_command_output"

    content: str = ""
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class MemoryRecallMessage(_SystemView):
    """``system/memory_recall``: emitted when the memory recall supervisor surfaces relevant memories
    into the turn.
    """

    subtype: ClassVar[str] = "memory_recall"

    mode: str = ""
    """How memories were surfaced: 'select' returns full file bodies chosen by the parallel selector;
    'synthesize' returns a Sonnet-authored paragraph distilled from many tiny memories.
    """
    memories: list[Any] = field(default_factory=list)
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class ModelRefusalFallbackMessage(_SystemView):
    """``system/model_refusal_fallback``: emitted when the primary model ends the stream with
    stop_reason "refusal" and the turn is retried once on a fallback model (direction: "retry").
    """

    subtype: ClassVar[str] = "model_refusal_fallback"

    trigger: str = ""
    direction: str = ""
    scope: str | None = None
    """'session': the main thread fell back and the session model is swapped. 'local': a subagent /
    side-question (/btw) / background fork fell back — only that response came from the fallback
    model and the session model is unchanged. Absent from older CLIs (treat as 'session').
    """
    original_model: str = ""
    fallback_model: str = ""
    request_id: str | None = None
    api_refusal_category: str | None = None
    """The refusal category ('cyber', 'bio', …): stop_details.category from the refused API response
    (client lane), or the fallback block's server-gated trigger.category (server lane). Open string
    — new categories ship on the wire ahead of schema updates. null when neither source carried a
    category (normal, not an error). Absent when emitted by an older CLI.
    """
    api_refusal_explanation: str | None = None
    """stop_details.explanation from the refused API response (client lane only — the server-lane
    trigger carries no explanation). Unstable human prose — display only, never parse. null/absent
    when the response carried none, and always null on server-lane banners.
    """
    retracted_message_uuids: list[str] | None = None
    """Wire uuids of the messages this fallback retracted — the refused partial as the consumer
    received it (one uuid per normalized SDK message; multi-block messages carry per-block derived
    uuids) plus any tombstoned tool_results. Emitted AFTER the retraction, so this is a resolution-
    time eviction signal: remove these messages from transcript state on receipt. Eviction is
    idempotent — unknown or already-removed uuids are a no-op. Absent when emitted by an older CLI.
    """
    refused_user_message_uuid: str | None = None
    """UUID of the user message the refused request was for — the rewind target and composer prefill
    for edit-and-retry. This is the message's own uuid as delivered on the replay ack (not a per-
    block normalized uuid). null when the refused turn was not human-authored (e.g. a background
    task notification or auto-continuation — nothing to edit-and-retry) or otherwise cannot be
    identified; absent from older CLIs.
    """
    content: str = ""
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class ModelRefusalNoFallbackMessage(_SystemView):
    """``system/model_refusal_no_fallback``: emitted when the model ends the stream with stop_reason
    "refusal" and no retry runs: no fallback model is configured, or per-category routing declined
    the retry (the mapped fallback target is unresolvable, or CLAUDE_CODE_REFUSAL_FALLBACK_CATCH_ALL
    is explicitly disabled and the refusal category has no fallback map entry).
    """

    subtype: ClassVar[str] = "model_refusal_no_fallback"

    original_model: str = ""
    request_id: str | None = None
    api_refusal_category: str | None = None
    api_refusal_explanation: str | None = None
    refused_user_message_uuid: str | None = None
    content: str = ""
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class NotificationMessage(_SystemView):
    """``system/notification``: loop-side text notification."""

    subtype: ClassVar[str] = "notification"

    key: str = ""
    text: str = ""
    priority: str = ""
    color: str | None = None
    timeout_ms: float | None = None
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class PermissionDeniedMessage(_SystemView):
    """``system/permission_denied``: emitted when a tool call is auto-denied without an interactive
    permission prompt (e.g. auto-mode classifier, dontAsk mode, headless-agent auto-deny, or a deny
    rule).
    """

    subtype: ClassVar[str] = "permission_denied"

    tool_name: str = ""
    tool_use_id: str = ""
    agent_id: str | None = None
    """Subagent ID when the denied tool call originated inside a subagent. Mirrors can_use_tool for
    host-side routing.
    """
    decision_reason_type: str | None = None
    """Discriminator from PermissionDecisionReason (e.g. 'classifier', 'asyncAgent', 'mode', 'rule').
    """
    decision_reason: str | None = None
    """Human-readable reason from the deciding component, when available."""
    message: str = ""
    """The rejection message returned to the model in the tool_result."""
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class PluginInstallMessage(_SystemView):
    """``system/plugin_install``: headless plugin installation progress. installed/failed carry a per-
    marketplace name.
    """

    subtype: ClassVar[str] = "plugin_install"

    status: str = ""
    name: str | None = None
    error: str | None = None
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class SessionStateChangedMessage(_SystemView):
    """``system/session_state_changed``: mirrors notifySessionStateChanged. 'idle' fires after
    heldBackResult flushes and the bg-agent do-while exits — authoritative turn-over signal.
    """

    subtype: ClassVar[str] = "session_state_changed"

    state: str = ""
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class SessionWritesLostMessage(_SystemView):
    """``system/session_writes_lost``: the CLI could not save lines of a session transcript, changes to
    ~/.claude.json, or both, because the disk was full or its quota was used up.
    """

    subtype: ClassVar[str] = "session_writes_lost"

    error_code: str = ""
    """Why the writes failed. 'ENOSPC': the disk was full. 'EDQUOT': the disk quota was used up. When
    both kinds of write were lost for different reasons, the transcript's. More codes may be added.
    """
    lost: list[Any] = field(default_factory=list)
    """What was not saved. 'transcript': lines of a session transcript, so resuming a session in
    transcript_session_ids may miss part of its conversation. 'global_config': changes this run made
    to ~/.claude.json. Never empty. More values may be added.
    """
    transcript_session_ids: list[str] | None = None
    """The sessions whose transcripts lost lines, in the order each first lost one. Present only when
    'transcript' is listed; never empty. Usually session_id alone. A CLI that started a new session
    after the loss, as /clear does, lists the earlier session, and lists session_id only if that
    session lost lines too.
    """
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class ThinkingTokensMessage(_SystemView):
    """``system/thinking_tokens``: live thinking-token estimate, digested from
    thinking_delta.estimated_tokens during the redacted-thinking phase (where the API otherwise
    streams only pings). estimated_tokens is the running total for the current thinking block;
    estimated_tokens_delta is the increment carried by this frame.
    """

    subtype: ClassVar[str] = "thinking_tokens"

    estimated_tokens: float = 0
    estimated_tokens_delta: float = 0
    user_message_uuid: str | None = None
    """Client uuid of the user message that triggered this turn (submitMessage options.uuid), stamped
    on every thinking_tokens frame of a headless (stream-json / Agent SDK) turn so a consumer can
    attribute thinking progress to the send it answers before any reply frame arrives. On a
    synthetic/scheduled (meta) turn it names the last user message folded into the turn so far once
    one has been, else the turn's own uuid when the host vouches it is the client event's own
    (delivered content such as a Slack owner ping). Absent on turns that neither had a client uuid
    nor folded a user message in, on Remote Control (interactive terminal) sessions, and from older
    producers.
    """
    uuid: str = ""
    session_id: str = ""


@dataclass(frozen=True)
class WorkerShuttingDownMessage(_SystemView):
    """``system/worker_shutting_down``: emitted by the bridge on opt-in graceful worker teardown (only
    when the teardown caller supplied a reason), before the heartbeat stops, so remote clients can
    show why the worker went away instead of waiting for heartbeat timeout.
    """

    subtype: ClassVar[str] = "worker_shutting_down"

    reason: str = ""
    """Short snake_case reason set by the host CLI (not user input), e.g. 'host_exit',
    'remote_control_disabled'.
    """
    uuid: str = ""
    session_id: str = ""


__all__ += [
    "BackgroundTasksChangedMessage",
    "CommandsChangedMessage",
    "ControlRequestProgressMessage",
    "ElicitationCompleteMessage",
    "FilesPersistedMessage",
    "HookProgressMessage",
    "HookResponseMessage",
    "HookStartedMessage",
    "LocalCommandOutputMessage",
    "MemoryRecallMessage",
    "ModelRefusalFallbackMessage",
    "ModelRefusalNoFallbackMessage",
    "NotificationMessage",
    "PermissionDeniedMessage",
    "PluginInstallMessage",
    "SessionStateChangedMessage",
    "SessionWritesLostMessage",
    "ThinkingTokensMessage",
    "WorkerShuttingDownMessage",
]
# --- written by scripts/ts_types.py: end ---
