"""The inputs and outputs of the binary's built-in tools, typed.

Written by ``scripts/ts_types.py`` from the TypeScript SDK 0.3.333
(``sdk-tools.d.ts``); do not edit by hand: ``make bump`` rewrites it.

The model writes the inputs, so a value may not fit its type: read
them as what the binary asks for, and check what a guard relies on.
An output is the ``tool_use_result`` of the ``UserMessage`` that
carries the tool's result (and a PostToolUse hook's ``tool_response``).
"""

# No ``from __future__ import annotations``: TypedDict reads NotRequired
# from evaluated annotations, so each class comes after the ones it uses.
from typing import Any, Literal

from typing_extensions import NotRequired, TypeAlias, TypedDict

__all__ = [
    "BUILTIN_TOOL_INPUTS",
    "BUILTIN_TOOL_OUTPUTS",
    "AgentInput",
    "AgentOutput",
    "ArtifactInput",
    "ArtifactOutput",
    "AskUserQuestionInput",
    "AskUserQuestionOutput",
    "BashInput",
    "BashOutput",
    "ClaudeDesignInput",
    "ClaudeDesignOutput",
    "CronCreateInput",
    "CronCreateOutput",
    "CronDeleteInput",
    "CronDeleteOutput",
    "CronListInput",
    "CronListOutput",
    "EnterPlanModeInput",
    "EnterPlanModeOutput",
    "EnterWorktreeInput",
    "EnterWorktreeOutput",
    "ExitPlanModeInput",
    "ExitPlanModeOutput",
    "ExitWorktreeInput",
    "ExitWorktreeOutput",
    "FileEditInput",
    "FileEditOutput",
    "FileReadInput",
    "FileReadOutput",
    "FileWriteInput",
    "FileWriteOutput",
    "GlobInput",
    "GlobOutput",
    "GrepInput",
    "GrepOutput",
    "ListMcpResourcesInput",
    "ListMcpResourcesOutput",
    "McpInput",
    "McpOutput",
    "MonitorInput",
    "MonitorOutput",
    "NotebookEditInput",
    "NotebookEditOutput",
    "OfferChromeSetupInput",
    "OfferChromeSetupOutput",
    "ProjectsInput",
    "ProjectsOutput",
    "ProposeGoalInput",
    "ProposeGoalOutput",
    "ProposeSkillsInput",
    "ProposeSkillsOutput",
    "PushNotificationInput",
    "PushNotificationOutput",
    "ReadMcpResourceDirInput",
    "ReadMcpResourceDirOutput",
    "ReadMcpResourceInput",
    "ReadMcpResourceOutput",
    "ReadNotificationsInput",
    "ReadNotificationsOutput",
    "RefreshMcpToolsInput",
    "RefreshMcpToolsOutput",
    "RemoteTriggerInput",
    "RemoteTriggerOutput",
    "ReportFindingsInput",
    "ReportFindingsOutput",
    "ScheduleWakeupInput",
    "ScheduleWakeupOutput",
    "SendFeedbackInput",
    "SendFeedbackOutput",
    "ShowOnboardingRolePickerInput",
    "ShowOnboardingRolePickerOutput",
    "TaskCreateInput",
    "TaskCreateOutput",
    "TaskGetInput",
    "TaskGetOutput",
    "TaskListInput",
    "TaskListOutput",
    "TaskStopInput",
    "TaskStopOutput",
    "TaskUpdateInput",
    "TaskUpdateOutput",
    "TodoWriteInput",
    "TodoWriteOutput",
    "WebFetchInput",
    "WebFetchOutput",
    "WebSearchInput",
    "WebSearchOutput",
    "WorkflowInput",
    "WorkflowOutput",
]


class AgentInput(TypedDict):
    """The input of the ``Agent`` tool."""

    description: str
    """A short (3-5 word) description of the task"""
    prompt: str
    """The task for the agent to perform"""
    subagent_type: NotRequired[str]
    """The type of specialized agent to use for this task"""
    model: NotRequired[Literal["sonnet", "opus", "haiku", "fable"]]
    """Optional model override for this agent. Takes precedence over the agent definition's model
    frontmatter and the configured default subagent model. If omitted, uses the agent definition's
    model, else the default (inherits from the parent unless a default subagent model is
    configured). Ignored for subagent_type: "fork" — forks always inherit the parent model.
    """
    effort: NotRequired[Literal["low", "medium", "high", "xhigh", "max"]]
    """Reasoning effort for this agent. Set this ONLY when the user, or instructions such as CLAUDE.md
    or a skill, explicitly ask that this agent or delegated work run at a specific effort level,
    never on your own judgment; otherwise omit it and the agent runs at its usual effort. Ignored
    for subagent_type: "fork": a fork runs at your own effort.
    """
    run_in_background: NotRequired[bool]
    """Agents run in the background by default; you will be notified when one completes. Set to false
    only when your very next action depends on this agent's result and nothing else could usefully
    happen while it runs — otherwise leave it in the background so the user can hand you other work.
    """
    name: NotRequired[str]
    """Name for the spawned agent. Makes it addressable via SendMessage({to: name}) while running.
    """
    team_name: NotRequired[str]
    """Deprecated; ignored. The session has a single implicit team."""
    mode: NotRequired[Literal["acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"]]
    """Deprecated; ignored. Subagents inherit the parent session's permission mode; agent-definition
    frontmatter may override it.
    """
    isolation: NotRequired[Literal["worktree", "remote"]]
    """Isolation mode. "worktree" creates a temporary git worktree so the agent works on an isolated
    copy of the repo. "remote" launches the agent in a remote cloud environment (always runs in
    background; availability is gated).
    """


class BashInput(TypedDict):
    """The input of the ``Bash`` tool."""

    command: str
    """The command to execute"""
    timeout: NotRequired[float]
    """Optional timeout in milliseconds (max 600000 for a foreground command)"""
    description: NotRequired[str]
    """Clear, concise description of what this command does in active voice. Never use words like
    "complex" or "risk" in the description - just describe what it does.

    Say what the command does in plain words: do not echo the command's text, its flags, or file
    paths - the user reads this description, often without seeing the command.

    For simple commands (git, npm, standard CLI tools), keep it brief (5-10 words):
    - ls → "List files in current directory"
    - git status → "Show working tree status"
    - npm install → "Install package dependencies"

    For commands that are harder to parse at a glance (piped commands, obscure flags, etc.), add enough context to clarify what it does:
    - find . -name "*.tmp" -exec rm {} \\; → "Find and delete all .tmp files recursively"
    - git reset --hard origin/main → "Discard all local changes and match remote main"
    - curl -s url | jq '.data[]' → "Fetch JSON from URL and extract data array elements"
    """
    run_in_background: NotRequired[bool]
    """Set to true to run this command in the background. With it, `timeout` limits how long the
    command may run in the background before it is stopped (default 1800000 ms, max 7200000 ms).
    """
    dangerouslyDisableSandbox: NotRequired[bool]
    """Set this to true to dangerously override sandbox mode and run commands without sandboxing."""


class ExitPlanModeAllowedPrompt(TypedDict):
    tool: Literal["Bash"]
    """The tool this prompt applies to"""
    prompt: str
    """Semantic description of the action, e.g. "run tests", "install dependencies" """


class ExitPlanModeInput(TypedDict):
    """The input of the ``ExitPlanMode`` tool.

    Keys not listed here are allowed too.
    """

    allowedPrompts: NotRequired[list[ExitPlanModeAllowedPrompt]]
    """Deprecated: no longer used."""


class FileEditInput(TypedDict):
    """The input of the ``Edit`` tool."""

    file_path: str
    """The absolute path to the file to modify"""
    old_string: str
    """The text to replace"""
    new_string: str
    """The text to replace it with (must be different from old_string)"""
    replace_all: NotRequired[bool]
    """Replace all occurrences of old_string (default false)"""


class FileReadInput(TypedDict):
    """The input of the ``Read`` tool."""

    file_path: str
    """The absolute path to the file to read"""
    offset: NotRequired[float]
    """The line number to start reading from. Only provide if the file is too large to read at once
    """
    limit: NotRequired[float]
    """The number of lines to read. Only provide if the file is too large to read at once."""
    pages: NotRequired[str]
    """Page range for PDF files (e.g., "1-5", "3", "10-20"). Only applicable to PDF files. Maximum 20
    pages per request.
    """
    allow_large: NotRequired[bool]
    """Set to true to read a text file, or a line range of one, that is over the usual size limits, up
    to what still fits in your context. Only use this when you genuinely need all of it or the user
    asked for the whole file; otherwise read it in parts with offset and limit, or search it.
    """


class FileWriteInput(TypedDict):
    """The input of the ``Write`` tool."""

    file_path: str
    """The absolute path to the file to write (must be absolute, not relative)"""
    content: str
    """The content to write to the file"""


class GlobInput(TypedDict):
    """The input of the ``Glob`` tool."""

    pattern: str
    """The glob pattern to match files against"""
    path: NotRequired[str]
    """The directory to search in. If not specified, the current working directory will be used.
    IMPORTANT: Omit this field to use the default directory. DO NOT enter "undefined" or "null" -
    simply omit it for the default behavior. Must be a valid directory path if provided.
    """


_GrepInputKeys = TypedDict(
    "_GrepInputKeys",
    {
        "-B": NotRequired[float],
        "-A": NotRequired[float],
        "-C": NotRequired[float],
        "-n": NotRequired[bool],
        "-i": NotRequired[bool],
        "-o": NotRequired[bool],
    },
)


class GrepInput(_GrepInputKeys):
    """The input of the ``Grep`` tool.

    Also: ``-B``, ``-A``, ``-C``, ``-n``, ``-i``, ``-o``.
    """

    pattern: str
    """The regular expression pattern to search for in file contents"""
    path: NotRequired[str]
    """File or directory to search in (rg PATH). Defaults to current working directory."""
    glob: NotRequired[str]
    """Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}") - maps to rg --glob"""
    output_mode: NotRequired[Literal["content", "files_with_matches", "count"]]
    """Output mode: "content" shows matching lines (supports -A/-B/-C context, -n line numbers,
    head_limit), "files_with_matches" shows file paths (supports head_limit), "count" shows match
    counts (supports head_limit). Defaults to "files_with_matches".
    """
    context: NotRequired[float]
    """Number of lines to show before and after each match (rg -C). Requires output_mode: "content",
    ignored otherwise.
    """
    type: NotRequired[str]
    """File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than
    include for standard file types.
    """
    head_limit: NotRequired[float]
    """Limit output to first N lines/entries, equivalent to "| head -N". Works across all output modes:
    content (limits output lines), files_with_matches (limits file paths), count (limits count
    entries). Defaults to 250 when unspecified. Pass 0 for unlimited (use sparingly — large result
    sets waste context).
    """
    offset: NotRequired[float]
    """Skip first N lines/entries before applying head_limit, equivalent to "| tail -n +N | head -N".
    Works across all output modes. Defaults to 0.
    """
    multiline: NotRequired[bool]
    """Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-
    dotall). Default: false.
    """


class TaskStopInput(TypedDict):
    """The input of the ``TaskStop`` tool."""

    task_id: NotRequired[str]
    """The ID of the background task to stop. Agent-team teammates and named background agents are also
    accepted by agent ID or name.
    """
    shell_id: NotRequired[str]
    """Deprecated: use task_id instead"""


class ListMcpResourcesInput(TypedDict):
    """The input of the ``ListMcpResourcesTool`` tool."""

    server: NotRequired[str]
    """Optional server name to filter resources by"""


class RefreshMcpToolsInput(TypedDict):
    """The input of the ``RefreshMcpTools`` tool."""

    server: NotRequired[str]
    """Optional server name: refresh only this server. Omit to refresh all connected servers."""


class McpInput(TypedDict):
    """The input of an MCP tool.

    Keys not listed here are allowed too.
    """


class NotebookEditInput(TypedDict):
    """The input of the ``NotebookEdit`` tool."""

    notebook_path: str
    """The absolute path to the Jupyter notebook file to edit (must be absolute, not relative)"""
    cell_id: NotRequired[str]
    """The ID of the cell to edit. When inserting a new cell, the new cell will be inserted after the
    cell with this ID, or at the beginning if not specified.
    """
    new_source: str
    """The new source for the cell"""
    cell_type: NotRequired[Literal["code", "markdown"]]
    """The type of the cell (code or markdown). If not specified, it defaults to the current cell type.
    If using edit_mode=insert, this is required.
    """
    edit_mode: NotRequired[Literal["replace", "insert", "delete"]]
    """The type of edit to make (replace, insert, delete). Defaults to replace."""


class ReadMcpResourceDirInput(TypedDict):
    """The input of the ``ReadMcpResourceDirTool`` tool."""

    server: str
    """The MCP server name"""
    uri: str
    """The directory resource URI to list"""


class ReadMcpResourceInput(TypedDict):
    """The input of the ``ReadMcpResourceTool`` tool."""

    server: str
    """The MCP server name"""
    uri: str
    """The resource URI to read"""


class ReportFindingsFinding(TypedDict):
    file: str
    """Repo-relative path of the file the finding is in"""
    line: NotRequired[float]
    """1-indexed line the finding anchors to"""
    summary: str
    """Statement of the defect"""
    short_summary: NotRequired[str]
    """Compressed label for compact UI (≤60 chars): the claim alone, no rationale or consequence clause
    """
    failure_scenario: str
    """Concrete inputs/state → wrong output/crash"""
    category: NotRequired[str]
    """Short kebab-case slug of the finding type, e.g. "correctness", "simplification", "efficiency",
    "test-coverage"
    """
    severity: NotRequired[Literal["important", "pre_existing", "nit"]]
    """Set when the review instructions ask for it. important: a bug the change adds or makes worse;
    pre_existing: a bug that was there before the change; nit: a minor issue
    """
    verdict: NotRequired[Literal["CONFIRMED", "PLAUSIBLE"]]
    """Set when a verify pass ran; absent on inline-only reviews"""
    outcome: NotRequired[Literal["fixed", "skipped", "no_change_needed"]]
    """Set ONLY when re-reporting after applying fixes: what happened to this finding"""


class ReportFindingsInput(TypedDict):
    """The input of the ``ReportFindings`` tool."""

    level: NotRequired[Literal["low", "medium", "high", "xhigh", "max"]]
    """Effort level the review ran at"""
    findings: list[ReportFindingsFinding]
    """Verified findings, most-severe first; empty if none survived"""


class TodoWriteTodo(TypedDict):
    content: str
    status: Literal["pending", "in_progress", "completed"]
    activeForm: str


class TodoWriteInput(TypedDict):
    """The input of the ``TodoWrite`` tool."""

    todos: list[TodoWriteTodo]
    """The updated todo list"""


class WebFetchInput(TypedDict):
    """The input of the ``WebFetch`` tool."""

    url: str
    """The URL to fetch content from"""
    prompt: str
    """The prompt to run on the fetched content"""
    offset: NotRequired[float]
    """Character position in the page text to start reading from. Use it to read on through a page too
    long for one call, with the value the previous result gave.
    """


class WebSearchInput(TypedDict):
    """The input of the ``WebSearch`` tool."""

    query: str
    """The search query to use"""
    allowed_domains: NotRequired[list[str]]
    """Only include search results from these domains"""
    blocked_domains: NotRequired[list[str]]
    """Never include search results from these domains"""


class AskUserQuestionQuestionOption(TypedDict):
    label: str
    """The display text for this option that the user will see and select. Should be concise (1-5
    words) and clearly describe the choice.
    """
    description: str
    """Explanation of what this option means or what will happen if chosen. Useful for providing
    context about trade-offs or implications.
    """
    preview: NotRequired[str]
    """Optional preview content rendered when this option is focused. Use for mockups, code snippets,
    or visual comparisons that help users compare options. See the tool description for the expected
    content format.
    """


class AskUserQuestionQuestion(TypedDict):
    question: str
    """The complete question to ask the user. Should be clear, specific, and end with a question mark.
    Example: "Which library should we use for date formatting?" If multiSelect is true, phrase it
    accordingly, e.g. "Which features do you want to enable?"
    """
    header: str
    """Very short label displayed as a chip/tag (max 12 chars). Examples: "Auth method", "Library",
    "Approach".
    """
    options: list[AskUserQuestionQuestionOption]
    """The available choices for this question. Must have 2-4 options. Each option should be a
    distinct, mutually exclusive choice (unless multiSelect is enabled). There should be no 'Other'
    option, that will be provided automatically.
    """
    multiSelect: bool
    """Set to true to allow the user to select multiple options instead of just one. Use when choices
    are not mutually exclusive.
    """


class AskUserQuestionAnnotations(TypedDict):
    preview: NotRequired[str]
    """The preview content of the selected option, if the question used previews."""
    notes: NotRequired[str]
    """Free-text notes the user added to their selection."""


class AskUserQuestionMetadata(TypedDict):
    source: NotRequired[str]
    """Optional identifier for the source of this question (e.g., "remember" for /remember command).
    Used for analytics tracking.
    """


class AskUserQuestionInput(TypedDict):
    """The input of the ``AskUserQuestion`` tool."""

    questions: list[AskUserQuestionQuestion]
    """Questions to ask the user (1-4 questions)"""
    answers: NotRequired[dict[str, str]]
    """User answers collected by the permission component"""
    annotations: NotRequired[dict[str, AskUserQuestionAnnotations]]
    """Optional per-question annotations from the user (e.g., notes on preview selections). Keyed by
    question text.
    """
    metadata: NotRequired[AskUserQuestionMetadata]
    """Optional metadata for tracking and analytics purposes. Not displayed to user."""


class SendFeedbackInput(TypedDict):
    """The input of the ``SendFeedback`` tool."""

    type: Literal["bug", "idea", "missing_capability"]
    """What kind of feedback this is."""
    title: str
    """Short, specific one-line summary of the issue."""
    details: str
    """Labeled bullets, in order: **What happened:** (observed vs. expected, exact error text if
    short); **What the user said:** (quoted, or "User didn't comment; observed by the model.");
    **Repro:** (minimal steps); **Evidence:** (request IDs, timestamps, paths, versions; omit if
    none); optionally a final **Cause:** only if verified in-session. One to three lines per bullet.
    No narrative paragraphs, no speculation, no secrets.
    """
    area: NotRequired[str]
    """Optional short tag naming the part of Claude Code this is about (e.g. "hooks config", "/help",
    "file editing"). Leave blank if unclear.
    """
    failure_mode: NotRequired[
        Literal[
            "instruction_following",
            "destructive_actions",
            "code_quality",
            "repetition_and_looping",
            "model_regression",
            "overconfidence_and_hallucination",
            "context_and_memory",
            "overeager",
            "over_correction",
            "stopping_short",
            "dispute_or_decline",
            "subagent_overspawn",
            "tone_or_preachiness",
            "excessive_questions",
            "unwanted_scope",
            "other",
        ]
    ]
    """When the report is about MODEL BEHAVIOR (not a product bug), the closest failure mode, or
    `other` when it is a model-behavior issue that fits no listed value. Omit only when the report
    is a product/tool bug with no model-behavior component.
    """
    task_category: NotRequired[Literal["code_edit", "debug", "explain", "plan", "shell", "search", "review", "other"]]
    """What kind of task the session was doing when the issue occurred, or `other` when it is a clear
    task that fits no listed value. Omit only if genuinely unclear.
    """


class ClaudeDesignInput(TypedDict):
    """The input of the ``ClaudeDesign`` tool."""

    operation: str
    """Claude Design action to perform. Call with "list" first to discover the available operations and
    their argument schemas.
    """
    arguments: dict[str, Any]
    """Action input object (server-validated). Pass {} for operations that take no input."""


class ProjectsInput(TypedDict):
    """The input of the ``Projects`` tool."""

    method: Literal[
        "project_info",
        "project_read",
        "project_search",
        "project_write",
        "project_delete",
        "project_memory_list",
        "project_memory_read",
    ]
    path: NotRequired[str]
    """project_read/project_write/project_delete: doc path. project_write: an existing path is replaced
    in place; a new bare filename (no "/") is namespaced to "claude/<name>". project_memory_read:
    memory file path as listed by project_memory_list.
    """
    content: NotRequired[str]
    """project_write: inline doc text. Mutually exclusive with local_path. Use local_path for anything
    you have on disk.
    """
    local_path: NotRequired[str]
    """project_write: a file inside the working directory to upload. The tool reads, encodes, and
    uploads directly — contents never enter your context. Mutually exclusive with content.
    """
    present_to_user: NotRequired[bool]
    """project_write: true marks this doc as the file the user needs to see — the deliverable they
    asked for or must act on. Defaults to false; leave it unset for routine saves, notes, and bulk
    writes.
    """
    query: NotRequired[str]
    """project_search: knowledge-base query"""
    n: NotRequired[float]
    """project_search: number of hits (default 5)"""


class EnterPlanModeInput(TypedDict):
    """The input of the ``EnterPlanMode`` tool."""


class TaskCreateInput(TypedDict):
    """The input of the ``TaskCreate`` tool."""

    subject: str
    """A brief title for the task"""
    description: str
    """What needs to be done"""
    activeForm: NotRequired[str]
    """Present continuous form shown in spinner when in_progress (e.g., "Running tests")"""
    metadata: NotRequired[dict[str, Any]]
    """Arbitrary metadata to attach to the task"""


class TaskGetInput(TypedDict):
    """The input of the ``TaskGet`` tool."""

    taskId: str
    """The ID of the task to retrieve"""


class TaskUpdateInput(TypedDict):
    """The input of the ``TaskUpdate`` tool."""

    taskId: str
    """The ID of the task to update"""
    subject: NotRequired[str]
    """New subject for the task"""
    description: NotRequired[str]
    """New description for the task"""
    activeForm: NotRequired[str]
    """Present continuous form shown in spinner when in_progress (e.g., "Running tests")"""
    status: NotRequired[Literal["deleted"] | Literal["pending", "in_progress", "completed"]]
    """New status for the task"""
    addBlocks: NotRequired[list[str]]
    """Task IDs that this task blocks"""
    addBlockedBy: NotRequired[list[str]]
    """Task IDs that block this task"""
    owner: NotRequired[str]
    """New owner for the task"""
    metadata: NotRequired[dict[str, Any]]
    """Metadata keys to merge into the task. Set a key to null to delete it."""


class TaskListInput(TypedDict):
    """The input of the ``TaskList`` tool."""


class WorkflowInput(TypedDict):
    """The input of the ``Workflow`` tool."""

    script: NotRequired[str]
    """Self-contained workflow script. Must begin with `export const meta = { name, description, phases
    }` (pure literal, no computed values) followed by the script body using
    agent()/parallel()/pipeline()/phase().
    """
    name: NotRequired[str]
    """Name of a predefined workflow (built-in or from .claude/workflows/). Resolves to a self-
    contained script.
    """
    description: NotRequired[str]
    """Ignored — set the workflow description in the script's `meta` block."""
    title: NotRequired[str]
    """Ignored — set the workflow title in the script's `meta` block."""
    args: NotRequired[dict[str, Any]]
    """Optional input value exposed to the script as the global `args`, verbatim. Pass arrays/objects
    as actual JSON values, NOT as a JSON-encoded string — a stringified list breaks
    `args.filter`/`args.map` in the script. Use for parameterized named workflows (e.g. a research
    question).
    """
    scriptPath: NotRequired[str]
    """Path to a workflow script file on disk. Every Workflow invocation persists its script under the
    session directory and returns the path in the tool result. To iterate, edit that file with
    Write/Edit and re-invoke Workflow with the same `scriptPath` instead of re-sending the full
    script. Takes precedence over `script` and `name`.
    """
    resumeFromRunId: NotRequired[str]
    """Run ID of a prior Workflow invocation to resume from. The cache is positional: agent() calls
    replay from cache up to the first call that failed, no longer matches the earlier run (edited,
    added, removed or reordered) or never started in it; that call and every call after it run
    again, even when their own (prompt, opts) are unchanged. A call a usage limit refused, or one
    still running when the run stopped, usually runs again without ending reuse: finished calls
    after it still come from cache. Same-session only. Stop the prior run first (TaskStop) before
    resuming.
    """


class CronCreateInput(TypedDict):
    """The input of the ``CronCreate`` tool."""

    cron: str
    """Standard 5-field cron expression in local time: "M H DoM Mon DoW" (e.g. "* /5 * * * *" = every 5
    minutes, "30 14 28 2 *" = Feb 28 at 2:30pm local once).
    """
    prompt: str
    """The prompt to enqueue at each fire time."""
    recurring: NotRequired[bool]
    """true (default) = fire on every cron match until deleted or auto-expired after 30 days. false =
    fire once at the next match, then auto-delete. Use false for "remind me at X" one-shot requests
    with pinned minute/hour/dom/month.
    """
    durable: NotRequired[bool]
    """true = persist to .claude/scheduled_tasks.json and survive restarts (the result says Session-
    only if the job could not be saved). false (default) = in-memory only, dies when this Claude
    session ends. Use true only when the user asks the task to survive across sessions.
    """


class CronDeleteInput(TypedDict):
    """The input of the ``CronDelete`` tool."""

    id: str
    """Job ID returned by CronCreate."""


class CronListInput(TypedDict):
    """The input of the ``CronList`` tool."""


class ScheduleWakeupInput(TypedDict):
    """The input of the ``ScheduleWakeup`` tool."""

    delaySeconds: NotRequired[float]
    """Seconds from now to wake up. Clamped to [60, 3600] by the runtime. Required unless `stop` is
    true.
    """
    reason: NotRequired[str]
    """One short sentence explaining the chosen delay. Goes to telemetry and is shown to the user. Be
    specific. Required unless `stop` is true.
    """
    prompt: NotRequired[str]
    """The /loop input to fire on wake-up. Pass the same /loop input verbatim each turn so the next
    firing re-enters the skill and continues the loop. For autonomous /loop (no user prompt), pass
    the literal sentinel `<<autonomous-loop-dynamic>>` instead (the dynamic-pacing variant, not the
    CronCreate-mode `<<autonomous-loop>>`). Required unless `stop` is true.
    """
    stop: NotRequired[bool]
    """Set to true to end the dynamic loop immediately instead of scheduling another wakeup. When true,
    all other fields are ignored and no further wakeups fire.
    """
    noop: NotRequired[bool]
    """true = nothing changed (you checked and there is nothing to report). false = something happened
    worth keeping (edited a file, posted a message, advanced state, surfaced a finding). Consecutive
    noop:true ticks are collapsed in the user's terminal view and tracked as a streak. Required
    unless `stop` is true.
    """


class RemoteTriggerInput(TypedDict):
    """The input of the ``RemoteTrigger`` tool."""

    action: Literal["list", "get", "create", "update", "run", "create_webhook_trigger", "list_runs", "get_run_log"]
    trigger_id: NotRequired[str]
    """Required for get, update, run, and list_runs"""
    session_id: NotRequired[str]
    """Required for get_run_log: a run session id (cse_… or session_…, from list_runs)"""
    cursor: NotRequired[str]
    """The next_cursor from the previous page of the same listing (list_runs with the same trigger_id,
    or get_run_log with the same session_id), passed back unchanged. Not an offset, a count or an
    event number.
    """
    body: NotRequired[dict[str, Any]]
    """Required for create and update; optional for run"""


class ShowOnboardingRolePickerInput(TypedDict):
    """The input of the ``ShowOnboardingRolePicker`` tool."""


class OfferChromeSetupInput(TypedDict):
    """The input of the ``OfferChromeSetup`` tool."""

    reason: NotRequired[str]
    """A short phrase naming what the task needs the user's own browser for."""


class ReadNotificationsInput(TypedDict):
    """The input of the ``ReadNotifications`` tool."""


class MonitorWs(TypedDict):
    url: str
    protocols: NotRequired[list[str]]


class MonitorInput(TypedDict):
    """The input of the ``Monitor`` tool."""

    description: str
    """Short human-readable description of what you are monitoring (shown in notifications)."""
    timeout_ms: float
    """Kill the monitor after this deadline. Default 300000ms. Deadlines above 1800000ms are capped to
    1800000ms. You are notified at expiry and can re-arm.
    """
    command: NotRequired[str]
    """Shell command or script. Each stdout line is an event; exit ends the watch."""
    ws: NotRequired[MonitorWs]
    """WebSocket to open. Each text frame is an event; binary frames are reported as a placeholder
    line. Socket close ends the watch. Cannot be combined with command.
    """


class ProposeSkillsProposalEdit(TypedDict):
    old_string: str
    """Text to replace. It must occur exactly once in that SKILL.md"""
    new_string: str
    """Text to put in its place"""


class ProposeSkillsProposal(TypedDict):
    name: str
    """kebab-case skill slug; must not contain "claude" or "anthropic"; at most 64 characters for a new
    skill
    """
    kind: Literal["new", "improvement"]
    target: NotRequired[str]
    """Name of the existing skill to update. Required when kind is 'improvement'; omit for 'new'."""
    description: str
    """One short sentence saying when to use this skill: aim for under 200 characters, never more than
    1024, and no angle brackets. Shown on the review card and saved as the skill's description,
    which is what decides when the skill is used. For an improvement, reuse the existing skill's
    description unless the change alters when the skill applies.
    """
    evidence: NotRequired[list[str]]
    """memory file paths where this procedure was observed"""
    edits: NotRequired[list[ProposeSkillsProposalEdit]]
    """For an improvement, in place of skillMd: your changes to the skill's SKILL.md, applied in order.
    They apply to that file as it is now, not to an earlier proposal of yours. The card shows the
    whole updated file. The name and description come from the fields above, not from the
    frontmatter.
    """
    skillMd: NotRequired[str]
    """For a new skill or a full rewrite. The complete SKILL.md exactly as it should be saved:
    frontmatter plus the full body. When the user saves, the body below the frontmatter becomes the
    skill's entire instructions and the name and description come from the fields above; other
    frontmatter keys are not kept. For an improvement this replaces the existing skill's SKILL.md
    entirely, so read that skill's current SKILL.md first and include everything worth keeping, not
    only the changes.
    """


class ProposeSkillsInput(TypedDict):
    """The input of the ``propose_skills`` tool."""

    proposals: list[ProposeSkillsProposal]


class ProposeGoalInput(TypedDict):
    """The input of the ``SetGoal`` tool."""

    condition: str
    """The completion condition to set, written so a separate evaluator can verify it from the
    conversation (e.g. "all tests in test/auth pass (bun test exits 0)"). At most 500 characters —
    the user must be able to read the whole condition in the approval dialog.
    """
    ask_user: NotRequired[bool]
    """Whether to ask the user for approval before the goal is set. Defaults to true — an approval
    dialog is shown. Set false ONLY when the user's own words in this conversation stated this
    outcome as what they want; the goal is then set directly, with a visible notice in the
    transcript, and the user can clear it with /goal clear. While a goal is active the dialog is
    shown whatever this says.
    """


class ArtifactInput(TypedDict):
    """The input of the ``Artifact`` tool."""

    action: NotRequired[
        Literal[
            "publish",
            "list",
            "read",
            "list_types",
            "watch",
            "unwatch",
            "status",
            "upload_asset",
            "list_assets",
            "read_asset",
            "delete_asset",
            "pin",
            "unpin",
        ]
    ]
    """Omit (or 'publish') to publish file_path. 'list' enumerates artifacts — the user's own by
    default, see `scope`; only `limit`, `scope` and `page_token` may accompany it. 'read' returns
    the content of the published artifact at `url` (raw HTML for the user's own; an isolated
    summary, steered by the optional `prompt`, for one someone else owns, though a page published in
    this session's own Slack channel can come back in full as untrusted content) — see **Calls**.
    'watch', 'unwatch', and 'status' manage live-update subscriptions through which a session keeps
    track of new versions of an artifact published elsewhere, and those aren't available in this
    session: 'watch' only reports that — this session does not keep track of new versions — and
    'status' lists this session's artifact watches (pass `url` to check one). 'upload_asset' adds
    one local media, PDF, font, or text file to an existing artifact — pass `url` and `file_path`
    (or `file_paths` for several in one call). 'list_assets' lists the files in an artifact's asset
    store (pass `url`; `after` continues a listing), 'read_asset' saves one of them to a local file
    named by its id (pass `url` and `asset_id`, optionally `out_dir`), and 'delete_asset'
    permanently removes one (pass `url` and `asset_id`). See **Artifact assets** above. 'pin' adds
    the artifact at `url` to the user's pinned list in their claude.ai sidebar and 'unpin' removes
    it (nothing else may accompany either) — private to the user, reversible, and no change to who
    can see the artifact.
    """
    file_path: NotRequired[str]
    """Path to the .html file to render. Required to publish (the default action). Use a short,
    distinctive basename — it is the last-resort title when the HTML has no <title> and no `title`
    parameter is given. For 'upload_asset', the local image, video, PDF, font, stylesheet (CSS),
    script (JS), or text (CSV, Markdown, JSON, plain text) file to upload.
    """
    favicon: NotRequired[str]
    """Deprecated; omit it. Use `icon`."""
    icon: NotRequired[str]
    """One short generic word for the artifact's browser-tab icon, such as chart, calendar, recipe,
    code or map — a plain signifier, not a product or brand name. Include it on every page's first
    publish; omit when republishing to keep the current icon, and pass a new one only when the user
    asks.
    """
    limit: NotRequired[float]
    """list only: maximum artifacts to return (default 25)."""
    page_token: NotRequired[str]
    """list only: the `next_page_token` a listing of the same scope gave, to list the artifacts after
    it.
    """
    scope: NotRequired[Literal["mine", "shared", "all"]]
    """list only: 'mine' (default) lists artifacts the user owns; 'shared' lists artifacts other people
    shared with the user; 'all' lists both. Rows are labeled (mine)/(shared) whenever scope is not
    'mine'.
    """
    title: NotRequired[str]
    """Title for the artifact — the name shown in the browser tab and gallery. A short, distinctive
    noun-phrase name — not a generic label, a summary, or a name with an appended explainer. Prefer
    a <title> tag at the top of the HTML itself; this parameter fills in only when the file lacks
    one in the first 8KB of the file, and never overrides the tag. HTML publishes only — Markdown
    pages keep their filename identity. Content always comes from file_path — there is no inline
    content parameter.
    """
    description: NotRequired[str]
    """One-sentence subtitle shown on the gallery card. Say what the page is or does."""
    label: NotRequired[str]
    """A short name for this publish, max 60 chars (e.g. "Draft to legal"). Optional — a few words, not
    a description.
    """
    url: NotRequired[str]
    """An existing artifact's claude.ai link (claude.ai/artifact/{id} or
    claude.ai/code/artifact/{uuid}; a chat, project or session link is not one) to update in place.
    Pass whenever the user wants to update an artifact this conversation did not publish — "update
    my artifact", "keep the same link", a pasted artifact URL — and find the URL with action: "list"
    or ask the user for the link if you don't have it; without this, the publish creates a separate
    artifact instead of updating the existing one. Omit for new artifacts and same-conversation
    redeploys. Must be an artifact the user owns or was given edit access to (a read of it says
    "writer"). Before publishing to an artifact this conversation has neither read nor published,
    read it (action: "read") and build on what comes back; a publish sent without that read is
    refused. A refusal that hands you the live version counts as that read: merge your edits into
    that version and publish that; never resend the refused content unchanged. For 'read' and the
    other url-addressed actions: the artifact to act on.
    """
    prompt: NotRequired[str]
    """read only: what to extract from an artifact shared with the user — its content reaches you as an
    isolated summary answering this. Ignored for artifacts the user owns and for a page published in
    this session's own Slack channel (raw content is returned); optional.
    """
    force: NotRequired[bool]
    """Last-resort overwrite that DISCARDS the newer published version's page — another session's
    publish, or someone's save from a page that can publish new versions of itself. On a conflict
    the fix is to merge your changes onto the newer content (handed to you in the rejection, or re-
    read) and publish again — not force. Pass force:true only when the user has explicitly said to
    discard that specific version; never to get past a conflict on your own judgment. The tracked
    baseVersion is still sent; with force:true the server treats it as informational and overwrites,
    unless it refuses force over a version saved from inside the page. Omit (or false) so a
    concurrent write conflicts instead of being silently clobbered.
    """
    pin: NotRequired[bool]
    """publish only: true also pins the published artifact to the user's claude.ai sidebar once it is
    published — pass it only when the user asked for that; a pin that fails never fails the publish
    (the result says so).
    """
    out_dir: NotRequired[str]
    """read_asset: directory to save into — default: this artifact’s folder in your scratchpad
    directory, where saving needs no approval and which you can Read from. read_asset names the file
    by the asset id plus the extension for its type; saving to any directory other than the default
    is an ordinary file save the user may be asked to approve.
    """
    file_paths: NotRequired[list[str]]
    """upload_asset: several local image, video, PDF, font, stylesheet or script files in place of
    `file_path`, up to 25 in one call, all into the artifact that `url` names; one approval covers
    the call, and the result lists each file's id and url, or why it was not uploaded. A CSV,
    Markdown, JSON or plain-text file, a symbolic or hard link, and a file outside the working
    directory each go in a call of their own with `file_path`.
    """
    asset_id: NotRequired[str]
    """read_asset and delete_asset: the asset's id (32 hex characters), from a list_assets or
    upload_asset result.
    """
    after: NotRequired[str]
    """list_assets only: the `next` value from a previous list_assets result, to continue that listing.
    """
    capabilities: NotRequired[dict[str, Any]]
    """Runtime capabilities this page declares, as {name: config}. The control plane is the authority
    on valid names and config shapes. An empty object clears any previously stored declaration; omit
    the field on a redeploy to carry the stored declaration forward unchanged. Before declaring any
    capability, load the `artifact-capabilities` skill for the current contract and per-capability
    guidance.
    """
    contract: NotRequired[Literal["latest"] | str]
    """The artifact's runtime version. Omit to keep its current version (the default); 'latest' to
    upgrade; a specific version to pin or roll back. Changing it changes how the published page
    behaves — pass only when the author explicitly intends the change, never as a side effect of
    editing.
    """


class PushNotificationInput(TypedDict):
    """The input of the ``PushNotification`` tool."""

    message: str
    """The notification body. Keep it under 200 characters; mobile OSes truncate."""
    status: NotRequired[Literal["proactive"]]


class EnterWorktreeInput(TypedDict):
    """The input of the ``EnterWorktree`` tool."""

    name: NotRequired[str]
    """Optional name for a new worktree. Each "/"-separated segment may contain only letters, digits,
    dots, underscores, and dashes; max 64 chars total. A random name is generated if not provided.
    Mutually exclusive with `path`.
    """
    path: NotRequired[str]
    """Path to an existing worktree to switch into instead of creating a new one. Must appear in `git
    worktree list` for the current repo — or, on first entry from the launch directory, for a repo
    nested inside it (multi-repo workspace). Mutually exclusive with `name`.
    """


class ExitWorktreeInput(TypedDict):
    """The input of the ``ExitWorktree`` tool."""

    action: Literal["keep", "remove"]
    """"keep" leaves the worktree and branch on disk; "remove" deletes the worktree and, unless a hook
    made it or git refuses, its branch.
    """
    discard_changes: NotRequired[bool]
    """Required true when action is "remove" and the worktree has uncommitted files or unmerged
    commits. The tool will refuse and list them otherwise. It also removes the worktree under any
    task still running there, so set it only after the user has confirmed.
    """


class AgentOutputCompletedContentItem(TypedDict):
    type: Literal["text"]
    text: str
    citations: NotRequired[list[Any] | None]


class AgentOutputCompletedUsageServerToolUse(TypedDict):
    web_search_requests: float
    web_fetch_requests: float


class AgentOutputCompletedUsageCacheCreation(TypedDict):
    ephemeral_1h_input_tokens: float
    ephemeral_5m_input_tokens: float


class AgentOutputCompletedUsageOutputTokensDetails(TypedDict):
    thinking_tokens: NotRequired[float | None]


class AgentOutputCompletedUsage(TypedDict):
    input_tokens: float
    output_tokens: float
    cache_creation_input_tokens: float | None
    cache_read_input_tokens: float | None
    server_tool_use: AgentOutputCompletedUsageServerToolUse | None
    service_tier: str | None
    cache_creation: AgentOutputCompletedUsageCacheCreation | None
    inference_geo: NotRequired[str | None]
    speed: NotRequired[str | None]
    iterations: NotRequired[Any]
    output_tokens_details: NotRequired[AgentOutputCompletedUsageOutputTokensDetails | None]
    fallback_credit: NotRequired[Any]


class AgentOutputCompletedToolStats(TypedDict):
    readCount: float
    searchCount: float
    bashCount: float
    editFileCount: float
    linesAdded: float
    linesRemoved: float
    otherToolCount: float
    frameCount: NotRequired[float]


class AgentOutputCompleted(TypedDict):
    agentId: str
    agentType: NotRequired[str]
    content: list[AgentOutputCompletedContentItem]
    resolvedModel: NotRequired[str]
    modelsUsed: NotRequired[list[str]]
    totalToolUseCount: float
    totalDurationMs: float
    totalTokens: float
    usage: AgentOutputCompletedUsage
    toolsUsed: NotRequired[list[str]]
    toolStats: NotRequired[AgentOutputCompletedToolStats]
    status: Literal["completed"]
    prompt: str
    worktreePath: NotRequired[str]
    worktreeBranch: NotRequired[str]


class AgentOutputAsyncLaunched(TypedDict):
    status: Literal["async_launched"]
    isAsync: NotRequired[Literal[True]]
    agentId: str
    """The ID of the async agent"""
    description: str
    """The description of the task"""
    resolvedModel: NotRequired[str]
    """Model in use at the backgrounding transition (a pre-background swap is reflected here)"""
    modelsUsed: NotRequired[list[str]]
    """Ordered distinct models used before backgrounding (length > 1 means a mid-run swap)"""
    prompt: str
    """The prompt for the agent"""
    outputFile: str
    """Path to the output file for checking agent progress"""
    canReadOutputFile: NotRequired[bool]
    """Whether the calling agent has Read/Bash tools to check progress"""


class AgentOutputRemoteLaunched(TypedDict):
    status: Literal["remote_launched"]
    taskId: str
    """The ID of the remote agent task"""
    sessionUrl: str
    """The URL of the cloud session"""
    description: str
    """The description of the task"""
    prompt: str
    """The prompt for the agent"""
    outputFile: str
    """Path to the output file for checking agent progress"""


class BashOutputGitOperationCommit(TypedDict):
    sha: str
    kind: Literal["committed", "amended", "cherry-picked"]
    branch: NotRequired[str]


class BashOutputGitOperationPush(TypedDict):
    branch: str


class BashOutputGitOperationBranch(TypedDict):
    ref: str
    action: Literal["merged", "rebased"]


class BashOutputGitOperationPr(TypedDict):
    number: float
    url: NotRequired[str]
    action: Literal[
        "created",
        "edited",
        "merged",
        "commented",
        "closed",
        "reopened",
        "ready",
        "draft",
        "auto-merge-enabled",
        "auto-merge-disabled",
    ]
    changed: NotRequired[bool]
    """false when gh answered that it had nothing to do (the PR already was merged, queued, closed,
    open, ready or draft), so the command did not perform the action; absent otherwise
    """


class BashOutputGitOperation(TypedDict):
    commit: NotRequired[BashOutputGitOperationCommit]
    push: NotRequired[BashOutputGitOperationPush]
    branch: NotRequired[BashOutputGitOperationBranch]
    pr: NotRequired[BashOutputGitOperationPr]


class BashOutput(TypedDict):
    """The output of the ``Bash`` tool."""

    stdout: str
    """The standard output of the command"""
    stderr: str
    """The standard error output of the command"""
    rawOutputPath: NotRequired[str]
    """Path to raw output file for large MCP tool outputs"""
    interrupted: bool
    """Whether the command was interrupted"""
    isImage: NotRequired[bool]
    """Flag to indicate if stdout contains image data"""
    backgroundTaskId: NotRequired[str]
    """ID of the background task if command is running in background"""
    backgroundedByUser: NotRequired[bool]
    """True if the user manually backgrounded the command with Ctrl+B"""
    timedOutAfterMs: NotRequired[float]
    """Set when the command hit its timeout and was auto-backgrounded; the timeout value in ms"""
    backgroundCwdHint: NotRequired[str]
    """Model-facing note that the session cwd was not changed by a backgrounded command containing a
    directory-change builtin (cd/pushd/popd/chdir)
    """
    backgroundEndsWithFinalResponse: NotRequired[Literal[True]]
    """True when this backgrounded command is terminated at its caller's final response, so no
    completion notification can follow (a synchronous subagent's command, or a headless session that
    takes no further input and is not waiting for background commands); absent when the command
    survives
    """
    backgroundWakesOwner: NotRequired[Literal[True]]
    """True when the subagent that owns this backgrounded command parks for its end and is woken by it
    """
    dangerouslyDisableSandbox: NotRequired[bool]
    """Flag to indicate if sandbox mode was overridden"""
    returnCodeInterpretation: NotRequired[str]
    """Semantic interpretation for non-error exit codes with special meaning"""
    noOutputExpected: NotRequired[bool]
    """Whether the command is expected to produce no output on success"""
    structuredContent: NotRequired[list[Any]]
    """Structured content blocks"""
    persistedOutputPath: NotRequired[str]
    """Path to the persisted full output in tool-results dir (set when output is too large for inline)
    """
    persistedOutputSize: NotRequired[float]
    """Total size of the output in bytes (set when output is too large for inline)"""
    staleReadFileStateHint: NotRequired[str]
    """Model-facing note listing readFileState entries whose mtime bumped during this command (set when
    WRITE_COMMAND_MARKERS matches)
    """
    ghRateLimitHint: NotRequired[str]
    """Model-facing system-reminder appended when a gh command reports a GitHub API rate-limit error
    """
    gitOperation: NotRequired[BashOutputGitOperation]
    """Structured classification of git/gh operations detected in this command
    (commit/push/merge/rebase/PR). Client-facing — lets clients render git activity without re-
    parsing stdout; not surfaced to the model.
    """


class ExitPlanModeOutput(TypedDict):
    """The output of the ``ExitPlanMode`` tool."""

    plan: str | None
    """The plan that was presented to the user"""
    isAgent: bool
    filePath: NotRequired[str]
    """The file path where the plan was saved"""
    hasTaskTool: NotRequired[bool]
    """Whether the Agent tool is available in the current context"""
    planWasEdited: NotRequired[bool]
    """True when the user edited the plan (CCR web UI or Ctrl+G); determines whether the plan is echoed
    back in tool_result
    """
    awaitingLeaderApproval: NotRequired[bool]
    """When true, the teammate has sent a plan approval request to the team leader"""
    requestId: NotRequired[str]
    """Unique identifier for the plan approval request"""


class FileEditOutputStructuredPatchItem(TypedDict):
    oldStart: float
    oldLines: float
    newStart: float
    newLines: float
    lines: list[str]


class FileEditOutputGitDiff(TypedDict):
    filename: str
    status: Literal["modified", "added"]
    additions: float
    deletions: float
    changes: float
    patch: str
    repository: NotRequired[str | None]
    """GitHub owner/repo when available"""


class FileEditOutput(TypedDict):
    """The output of the ``Edit`` tool."""

    filePath: str
    """The file path that was edited"""
    oldString: str
    """The original string that was replaced"""
    newString: str
    """The new string that replaced it"""
    originalFile: str | None
    """The original file contents before editing"""
    structuredPatch: list[FileEditOutputStructuredPatchItem]
    """Diff patch showing the changes"""
    userModified: bool
    """Whether the user modified the proposed changes"""
    replaceAll: bool
    """Whether all occurrences were replaced"""
    gitDiff: NotRequired[FileEditOutputGitDiff]
    staged: NotRequired[bool]
    """True when the edit was held for the machine owner to review instead of written; the file is
    unchanged
    """


class FileReadOutputTextFile(TypedDict):
    filePath: str
    """The path to the file that was read"""
    content: str
    """The content of the file"""
    numLines: float
    """Number of lines in the returned content"""
    startLine: float
    """The starting line number"""
    totalLines: float
    """Total number of lines in the file"""
    truncatedByTokenCap: NotRequired[bool]
    """True when a whole-file read was auto-paginated because it exceeded the token cap (the content is
    a partial first page). A programmatic signal for internal consumers; survives output
    reconstruction (unlike the render-time banner).
    """


class FileReadOutputTextArtifactRead(TypedDict):
    slug: str
    ver: str


class FileReadOutputText(TypedDict):
    type: Literal["text"]
    file: FileReadOutputTextFile
    artifactRead: NotRequired[FileReadOutputTextArtifactRead]
    """Set when this Read completed a saved Artifact source file: the Artifact and the version of it
    that now counts as viewed.
    """


class FileReadOutputImageFileDimensions(TypedDict):
    originalWidth: NotRequired[float]
    """Original image width in pixels"""
    originalHeight: NotRequired[float]
    """Original image height in pixels"""
    displayWidth: NotRequired[float]
    """Displayed image width in pixels (after resizing)"""
    displayHeight: NotRequired[float]
    """Displayed image height in pixels (after resizing)"""


class FileReadOutputImageFile(TypedDict):
    base64: str
    """Base64-encoded image data"""
    type: Literal["image/jpeg", "image/png", "image/gif", "image/webp"]
    """The MIME type of the image"""
    originalSize: float
    """Original file size in bytes"""
    dimensions: NotRequired[FileReadOutputImageFileDimensions]
    """Image dimension info for coordinate mapping"""


class FileReadOutputImage(TypedDict):
    type: Literal["image"]
    file: FileReadOutputImageFile


class FileReadOutputNotebookFile(TypedDict):
    filePath: str
    """The path to the notebook file"""
    cells: list[Any]
    """Array of notebook cells"""


class FileReadOutputNotebook(TypedDict):
    type: Literal["notebook"]
    file: FileReadOutputNotebookFile


class FileReadOutputPdfFile(TypedDict):
    filePath: str
    """The path to the PDF file"""
    base64: str
    """Base64-encoded PDF data"""
    originalSize: float
    """Original file size in bytes"""


class FileReadOutputPdf(TypedDict):
    type: Literal["pdf"]
    file: FileReadOutputPdfFile


class FileReadOutputPartsFile(TypedDict):
    filePath: str
    """The path to the PDF file"""
    originalSize: float
    """Original file size in bytes"""
    count: float
    """Number of pages extracted"""
    outputDir: str
    """Directory containing extracted page images"""


class FileReadOutputPartsPage(TypedDict):
    base64: str
    """Base64-encoded page image; empty when the page could not be processed"""
    mediaType: Literal["image/jpeg", "image/png", "image/gif", "image/webp"]
    """The MIME type of the image"""
    error: NotRequired[str]
    """Why the page could not be processed as an image; set only when base64 is empty"""


class FileReadOutputParts(TypedDict):
    type: Literal["parts"]
    file: FileReadOutputPartsFile
    firstPage: NotRequired[float]
    """Document page number of the first extracted page (1 when no range was requested); labels the
    page images in the model-facing tool_result
    """
    pages: NotRequired[list[FileReadOutputPartsPage]]
    """Extracted page images, in page order. Present only transiently in-process: the page image bytes
    are delivered solely as image blocks in the model-facing tool_result content and are not
    retained on the tool_use_result, so this key is absent on the emitted/persisted result
    """


class FileWriteOutput(TypedDict):
    """The output of the ``Write`` tool."""

    type: Literal["create", "update"]
    """Whether a new file was created or an existing file was updated"""
    filePath: str
    """The path to the file that was written"""
    content: str
    """The content that was written to the file"""
    structuredPatch: list[FileEditOutputStructuredPatchItem]
    """Diff patch showing the changes (empty when nothing changed, the diff timed out, or — with
    originalFile null on an update — the previous content was too large to diff)
    """
    originalFile: str | None
    """The original file content before the write (null for new files, or when the previous content was
    too large to include)
    """
    gitDiff: NotRequired[FileEditOutputGitDiff]
    userModified: NotRequired[bool]
    """True when the user edited the proposed content in the permission dialog before accepting"""
    staged: NotRequired[bool]
    """True when the write was held for the machine owner to review instead of written; the file is
    unchanged
    """


class GlobOutput(TypedDict):
    """The output of the ``Glob`` tool."""

    durationMs: float
    """Time taken to execute the search in milliseconds"""
    numFiles: float
    """Number of file paths returned (after any truncation)"""
    filenames: list[str]
    """Array of file paths that match the pattern"""
    truncated: bool
    """Whether results were truncated (limited to 100 files)"""
    totalMatches: NotRequired[float]
    """Total number of matching files before truncation. A lower bound when countIsComplete is false.
    Absent on results persisted by CLI versions predating this field.
    """
    countIsComplete: NotRequired[bool]
    """Whether totalMatches is the exact total (true) or a floor because the underlying search
    truncated its own output (false). Absent on results persisted by CLI versions predating this
    field.
    """
    timedOut: NotRequired[bool]
    """True when the time limit stopped the search after these paths were read, so more matches may
    exist. Absent otherwise.
    """


class GrepOutput(TypedDict):
    """The output of the ``Grep`` tool."""

    mode: NotRequired[Literal["content", "files_with_matches", "count"]]
    numFiles: float
    filenames: list[str]
    content: NotRequired[str]
    numLines: NotRequired[float]
    numMatches: NotRequired[float]
    totalFiles: NotRequired[float]
    totalLines: NotRequired[float]
    appliedLimit: NotRequired[float]
    appliedOffset: NotRequired[float]
    timedOut: NotRequired[bool]


class TaskStopOutput(TypedDict):
    """The output of the ``TaskStop`` tool."""

    message: str
    """Status message about the operation"""
    task_id: str
    """The ID of the task that was stopped"""
    task_type: str
    """The type of the task that was stopped"""
    command: NotRequired[str]
    """The command or description of the stopped task"""


class ListMcpResourcesOutputItem(TypedDict):
    uri: str
    """Resource URI"""
    name: str
    """Resource name"""
    mimeType: NotRequired[str]
    """MIME type of the resource"""
    description: NotRequired[str]
    """Resource description"""
    server: str
    """Server that provides this resource"""


class RefreshMcpToolsOutputItem(TypedDict):
    server: str
    """Server name"""
    status: Literal["refreshed", "error", "not_connected"]
    """refreshed: tool list re-queried and applied. error: the re-query failed and the previous tool
    set was kept. not_connected: the server has no live connection to query (this tool never dials).
    """
    toolCount: NotRequired[float]
    """Number of tools now available from this server"""
    added: NotRequired[list[str]]
    """Tool names this refresh added"""
    removed: NotRequired[list[str]]
    """Tool names this refresh removed"""
    error: NotRequired[str]
    """Why the refresh failed or the server was unavailable"""


class McpOutputItem(TypedDict):
    """Keys not listed here are allowed too."""

    type: str


class NotebookEditOutput(TypedDict):
    """The output of the ``NotebookEdit`` tool."""

    new_source: str
    """The new source code that was written to the cell"""
    old_source: NotRequired[str]
    """The previous cell source (replace/delete only). Enables cell-relative diff rendering without re-
    reading the notebook.
    """
    cell_id: NotRequired[str]
    """The ID of the cell that was edited"""
    cell_type: Literal["code", "markdown"]
    """The type of the cell"""
    language: str
    """The programming language of the notebook"""
    edit_mode: str
    """The edit mode that was used"""
    error: NotRequired[str]
    """Error message if the operation failed"""
    notebook_path: str
    """The path to the notebook file"""
    original_file: str
    """The original notebook content before modification"""
    updated_file: str
    """The updated notebook content after modification"""


class ReadMcpResourceDirOutputResource(TypedDict):
    uri: str
    """Child resource URI"""
    name: str
    """Child resource name"""
    mimeType: NotRequired[str]
    """Child MIME type"""


class ReadMcpResourceDirOutput(TypedDict):
    """The output of the ``ReadMcpResourceDirTool`` tool."""

    resources: list[ReadMcpResourceDirOutputResource]
    """Direct children of the directory resource. Subdirectories appear with mimeType
    "inode/directory".
    """
    error: NotRequired[str]
    """Human-readable error when the server could not list the directory"""


class ReadMcpResourceOutputContent(TypedDict):
    uri: str
    """Resource URI"""
    mimeType: NotRequired[str]
    """MIME type of the content"""
    text: NotRequired[str]
    """Text content of the resource"""
    blobSavedTo: NotRequired[str]
    """Path where binary blob content was saved"""


class ReadMcpResourceOutput(TypedDict):
    """The output of the ``ReadMcpResourceTool`` tool."""

    contents: list[ReadMcpResourceOutputContent]
    error: NotRequired[str]
    """Human-readable error when the server could not read the resource"""


class ReportFindingsOutput(TypedDict):
    """The output of the ``ReportFindings`` tool."""

    count: float
    """Number of findings reported"""
    level: NotRequired[Literal["low", "medium", "high", "xhigh", "max"]]
    """Effort level the review ran at"""
    findings: list[ReportFindingsFinding]
    """Echoed for the result body"""


class TodoWriteOutput(TypedDict):
    """The output of the ``TodoWrite`` tool."""

    oldTodos: list[TodoWriteTodo]
    """The todo list before the update"""
    newTodos: list[TodoWriteTodo]
    """The todo list after the update"""


class WebFetchOutputArtifactRead(TypedDict):
    slug: str
    ver: NotRequired[str]
    seeded: NotRequired[Literal[False]]


class WebFetchOutput(TypedDict):
    """The output of the ``WebFetch`` tool."""

    bytes: float
    """Size of the fetched content in bytes"""
    code: float
    """HTTP response code"""
    codeText: str
    """HTTP response code text"""
    result: str
    """Processed result from applying the prompt to the content"""
    durationMs: float
    """Time taken to fetch and process the content"""
    url: str
    """The URL that was fetched"""
    artifactRead: NotRequired[WebFetchOutputArtifactRead]


class WebSearchOutputResultContentItem(TypedDict):
    title: str
    """The title of the search result"""
    url: str
    """The URL of the search result"""
    snippet: NotRequired[str]
    """Page text. PostToolUse hooks get it; tool_use_result does not."""


class WebSearchOutputResult(TypedDict):
    tool_use_id: str
    """ID of the tool use"""
    content: list[WebSearchOutputResultContentItem]
    """Array of search hits"""


class WebSearchOutput(TypedDict):
    """The output of the ``WebSearch`` tool."""

    query: str
    """The search query that was executed"""
    results: list[WebSearchOutputResult | str]
    """Search results and/or text commentary from the model"""
    durationSeconds: float
    """Time taken to complete the search operation"""
    searchCount: NotRequired[float]
    """Number of web searches performed"""


class AskUserQuestionOutputAnnotations(TypedDict):
    preview: NotRequired[str]
    """The preview content of the selected option, if the question used previews."""
    notes: NotRequired[str]
    """Free-text notes the user added to their selection."""
    unanswered: NotRequired[Literal["skipped", "replied_in_chat", "dismissed"]]
    """How the question went unanswered: 'skipped' (the user skipped it), 'replied_in_chat' (the user
    sent a chat message instead), or 'dismissed' (the user closed the card). With 'skipped', or with
    the text '[No preference]' in `answers`, the model reads that the question got no answer; it
    does not see the other values, so put the text it should read in `answers`. Absent when the
    question was answered, and also when the answering client did not report it (in a session that
    does not advertise ask_user_question_unanswered_v1, from an older client, or in an older
    transcript): then only the text in `answers` says how it ended. Treat any other value as absent.
    """


class AskUserQuestionOutput(TypedDict):
    """The output of the ``AskUserQuestion`` tool."""

    questions: list[AskUserQuestionQuestion]
    """The questions that were asked"""
    answers: dict[str, str]
    """The answers provided by the user (question text -> answer string; multi-select answers are
    comma-separated)
    """
    response: NotRequired[str]
    """Freeform text the user typed instead of selecting a structured option"""
    annotations: NotRequired[dict[str, AskUserQuestionOutputAnnotations]]
    """Optional per-question annotations from the user (e.g., notes on preview selections). Keyed by
    question text.
    """
    afkTimeoutMs: NotRequired[float]
    """Set when the dialog auto-resolved after this many milliseconds of idle (user away from
    keyboard). Absent on every human-resolved path.
    """


class SendFeedbackOutput(TypedDict):
    """The output of the ``SendFeedback`` tool."""

    success: bool
    message: str


class EnterWorktreeOutput(TypedDict):
    """The output of the ``EnterWorktree`` tool."""

    worktreePath: str
    worktreeBranch: NotRequired[str]
    message: str


class ExitWorktreeOutput(TypedDict):
    """The output of the ``ExitWorktree`` tool."""

    action: Literal["keep", "remove"]
    originalCwd: str
    worktreePath: str
    worktreeBranch: NotRequired[str]
    tmuxSessionName: NotRequired[str]
    discardedFiles: NotRequired[float]
    discardedCommits: NotRequired[float]
    message: str


class TaskCreateOutputTask(TypedDict):
    id: str
    subject: str
    description: NotRequired[str]
    """The task's description as saved. It can differ from the tool_use input if Claude Code corrects a
    malformed call or a PreToolUse hook changes the input. Absent in results from older Claude Code
    versions.
    """


class TaskCreateOutput(TypedDict):
    """The output of the ``TaskCreate`` tool."""

    task: TaskCreateOutputTask


class TaskGetOutputTask(TypedDict):
    id: str
    subject: str
    description: str
    status: Literal["pending", "in_progress", "completed"]
    blocks: list[str]
    blockedBy: list[str]


class TaskGetOutput(TypedDict):
    """The output of the ``TaskGet`` tool."""

    task: TaskGetOutputTask | None


_TaskUpdateOutputStatusChangeKeys = TypedDict("_TaskUpdateOutputStatusChangeKeys", {"from": str})


class TaskUpdateOutputStatusChange(_TaskUpdateOutputStatusChangeKeys):
    """Also: ``from``."""

    to: str


class TaskUpdateOutput(TypedDict):
    """The output of the ``TaskUpdate`` tool."""

    success: bool
    taskId: str
    updatedFields: list[str]
    error: NotRequired[str]
    statusChange: NotRequired[TaskUpdateOutputStatusChange]


class TaskListOutputTask(TypedDict):
    id: str
    subject: str
    status: Literal["pending", "in_progress", "completed"]
    owner: NotRequired[str]
    blockedBy: list[str]


class TaskListOutput(TypedDict):
    """The output of the ``TaskList`` tool."""

    tasks: list[TaskListOutputTask]


class ArtifactOutput1Stored(TypedDict):
    contract: str
    preferredContract: NotRequired[str]
    capabilities: NotRequired[dict[str, Any]]
    carried: NotRequired[bool]
    read: NotRequired[str]


class ArtifactOutput1(TypedDict):
    url: str
    path: str
    artifact_id: NotRequired[str]
    title: NotRequired[str]
    version: NotRequired[str]
    capabilities: NotRequired[Any]
    stored: NotRequired[ArtifactOutput1Stored]
    warnings: NotRequired[list[str]]
    publishesRemaining: NotRequired[float]
    publishesResetAt: NotRequired[float]
    contract: NotRequired[str]
    updated: NotRequired[bool]
    owned: NotRequired[bool]
    icon: NotRequired[str]
    faviconSent: NotRequired[Literal[True]]
    iconDropped: NotRequired[Literal[True]]
    audience: NotRequired[str]
    folder_audience: NotRequired[Literal["others", "unknown"]]
    seq: NotRequired[float]
    unchanged: NotRequired[Literal[True]]
    liveSubscription: NotRequired[str]
    pinned: NotRequired[bool]


class ArtifactOutput2Artifact(TypedDict):
    title: str
    url: str
    favicon: NotRequired[str]
    updatedAt: NotRequired[str]
    rel: NotRequired[Literal["mine", "shared"]]
    external: NotRequired[Literal[True]]
    role: NotRequired[Literal["editor", "commenter", "reader", "viewer"]]
    outsidersMayHaveWritten: NotRequired[Literal[True]]
    listedKind: NotRequired[str]
    pinned: NotRequired[bool]


class ArtifactOutput2(TypedDict):
    artifacts: list[ArtifactOutput2Artifact]
    truncated: NotRequired[bool]
    total: NotRequired[float]
    total_at_least: NotRequired[Literal[True]]
    next_page_token: NotRequired[str]
    pins_enabled: NotRequired[bool]
    scope: NotRequired[Literal["shared", "all"]]
    external_listed: NotRequired[Literal[True]]


class ArtifactOutput3Read(TypedDict):
    url: str
    bytes: float
    code: float
    codeText: str
    result: str
    durationMs: float
    title: NotRequired[str]


class ArtifactOutput3(TypedDict):
    read: ArtifactOutput3Read
    owned: NotRequired[bool]
    artifactRead: NotRequired[WebFetchOutputArtifactRead]


class ArtifactOutput4Watch(TypedDict):
    url: str
    watching: bool
    outcome: str
    reason: NotRequired[str]
    durable_skip_reason: NotRequired[str]
    task_id: NotRequired[str]
    since: NotRequired[float]
    token_expires_at: NotRequired[float]
    rail: NotRequired[str]
    trigger_id: NotRequired[str]
    durable_since: NotRequired[str]
    status: NotRequired[float]
    detail: NotRequired[str]
    note: NotRequired[str]
    events: NotRequired[list[str]]


class ArtifactOutput4(TypedDict):
    watch: ArtifactOutput4Watch


class ArtifactOutput5Unwatch(TypedDict):
    url: str
    was_watching: bool


class ArtifactOutput5(TypedDict):
    unwatch: ArtifactOutput5Unwatch


class ArtifactOutput6Watche1(TypedDict):
    url: str
    task_id: str
    since: float
    explicit: bool
    connected: bool
    connecting: NotRequired[bool]
    token_expires_at: float
    armed_via: NotRequired[str]


class ArtifactOutput6WatcheDurableWake(TypedDict):
    url: str
    rail: Literal["durable_wake"]
    trigger_id: str
    since: str
    events: NotRequired[list[str]]
    restored: NotRequired[bool]


class ArtifactOutput6WatcheLiveStopped(TypedDict):
    url: str
    rail: Literal["live_stopped"]
    since: NotRequired[float]
    explicit: NotRequired[bool]
    armed_via: NotRequired[str]
    stop_kind: str


class ArtifactOutput6Arm(TypedDict):
    url: str
    rail: NotRequired[str]
    state: str
    reconnect: NotRequired[bool]
    failures: NotRequired[float]
    max_failures: NotRequired[float]
    next_in_s: NotRequired[float]
    last_failure: NotRequired[str]
    reason: NotRequired[str]
    detail: NotRequired[str]
    server_message: NotRequired[str]
    at: NotRequired[float]


class ArtifactOutput6(TypedDict):
    watches: list[ArtifactOutput6Watche1 | ArtifactOutput6WatcheDurableWake | ArtifactOutput6WatcheLiveStopped]
    filter_url: NotRequired[str]
    arms: NotRequired[list[ArtifactOutput6Arm]]


class ArtifactOutput7Written(TypedDict):
    url: str


class ArtifactOutput7AssetUpload(TypedDict):
    id: str
    url: str
    size_bytes: float
    content_type: str
    sha256: NotRequired[str]
    file_name: str


class ArtifactOutput7(TypedDict):
    written: NotRequired[ArtifactOutput7Written]
    owned: NotRequired[bool]
    asset_upload: ArtifactOutput7AssetUpload


class ArtifactOutput8AssetUploadsResultUploaded(TypedDict):
    file_path: str
    status: Literal["uploaded"]
    id: str
    url: str
    size_bytes: float
    content_type: str
    sha256: NotRequired[str]
    file_name: str


class ArtifactOutput8AssetUploadsResult2(TypedDict):
    file_path: str
    status: Literal["failed", "not_attempted"]
    reason: str
    message: str
    may_be_stored: NotRequired[Literal[True]]


class ArtifactOutput8AssetUploads(TypedDict):
    url: str
    results: list[ArtifactOutput8AssetUploadsResultUploaded | ArtifactOutput8AssetUploadsResult2]


class ArtifactOutput8(TypedDict):
    written: NotRequired[ArtifactOutput7Written]
    owned: NotRequired[bool]
    asset_uploads: ArtifactOutput8AssetUploads


class ArtifactOutput9AssetListAsset(TypedDict):
    id: str
    url: str
    content_type: str
    size_bytes: float
    sha256: NotRequired[str]
    created_at: str


class ArtifactOutput9AssetListUsage(TypedDict):
    files: float
    bytes: float
    max_files: float
    max_bytes: float


class ArtifactOutput9AssetList(TypedDict):
    url: str
    assets: list[ArtifactOutput9AssetListAsset]
    usage: ArtifactOutput9AssetListUsage
    next: NotRequired[str]
    cowritten: NotRequired[Literal[True]]
    outside_writer: NotRequired[Literal[True]]


class ArtifactOutput9(TypedDict):
    asset_list: ArtifactOutput9AssetList


class ArtifactOutput10AssetRead(TypedDict):
    id: str
    path: str
    size_bytes: float
    content_type: str
    sha256: str
    cowritten: NotRequired[Literal[True]]
    outside_writer: NotRequired[Literal[True]]
    public_read: NotRequired[Literal[True]]
    foreign: NotRequired[Literal[True]]


class ArtifactOutput10(TypedDict):
    asset_read: ArtifactOutput10AssetRead


class ArtifactOutput11AssetDelete(TypedDict):
    id: str
    deleted: bool


class ArtifactOutput11(TypedDict):
    written: NotRequired[ArtifactOutput7Written]
    owned: NotRequired[bool]
    asset_delete: ArtifactOutput11AssetDelete


class ArtifactOutput12Pin(TypedDict):
    action: Literal["pin", "unpin"]
    url: str
    pinned: bool
    title: NotRequired[str]


class ArtifactOutput12(TypedDict):
    pin: ArtifactOutput12Pin


class RemoteTriggerOutput(TypedDict):
    """The output of the ``RemoteTrigger`` tool."""

    status: float
    json: str
    summary: NotRequired[str]


class ShowOnboardingRolePickerOutput(TypedDict):
    """The output of the ``ShowOnboardingRolePicker`` tool."""

    role: NotRequired[str]
    dismissed: NotRequired[bool]


class OfferChromeSetupOutput(TypedDict):
    """The output of the ``OfferChromeSetup`` tool."""

    outcome: Literal["connected", "not_now", "no_attempt_yet"]


class ReadNotificationsOutputNotification(TypedDict):
    notification_id: str
    """Server-assigned stable id — the dedup key across redeliveries."""
    origin: str
    """Server-attested source token: "github_webhook" | "trigger_fire" | "mcp_send_message" (open set;
    unknown well-formed tokens pass through verbatim, off-grammar values coerce to "unknown").
    """
    queued_at: str
    """RFC3339 timestamp of when the backend queued it."""
    content: str
    """Verbatim notification body."""
    arrived_at: NotRequired[str]
    """RFC3339 timestamp, by this machine's clock, of when the notification reached this session's
    queue. Missing from results saved before this field existed.
    """


class ReadNotificationsOutput(TypedDict):
    """The output of the ``ReadNotifications`` tool."""

    notifications: list[ReadNotificationsOutputNotification]
    remaining: float
    """Notifications still queued after this drain (drains are size-budgeted); call the tool again to
    read them.
    """
    read_at: NotRequired[str]
    """RFC3339 timestamp, by this machine's clock, of when this call read the queue. Missing from
    results saved before this field existed.
    """


class ScheduleWakeupOutput(TypedDict):
    """The output of the ``ScheduleWakeup`` tool."""

    scheduledFor: float
    """Epoch ms timestamp when the next wakeup will fire"""
    clampedDelaySeconds: float
    """Actual delay used after clamping to runtime bounds"""
    wasClamped: bool
    """True if the requested delaySeconds was outside [60, 3600]"""
    stopped: NotRequired[bool]
    """True when the model ended the loop via `stop: true`"""
    cancelledWakeups: NotRequired[float]
    """How many pending dynamic-loop wakeups stop:true cancelled. 0 means nothing was pending — a
    recurring /loop cron is not cancelled by stop:true.
    """


class MonitorOutput(TypedDict):
    """The output of the ``Monitor`` tool."""

    taskId: str
    """ID of the background monitor task."""
    timeoutMs: float
    """Timeout deadline in milliseconds (0 when persistent)."""
    persistent: NotRequired[bool]
    """No timeout — runs until TaskStop or session end."""
    keptInSandboxByCheck: NotRequired[bool]
    """True when the command ran in the sandbox only because its permission check relied on the
    sandbox; the settings would otherwise have exempted it.
    """


class ProposeSkillsOutput(TypedDict):
    """The output of the ``propose_skills`` tool."""

    proposalCount: float
    """Number of proposals shown on the review card"""


class ProposeGoalOutput(TypedDict):
    """The output of the ``SetGoal`` tool."""

    condition: str
    """The condition shown to the user for approval, or set directly"""
    askUser: bool
    """Whether the user was asked for approval (true) or the goal was set directly (false)"""


class EnterPlanModeOutput(TypedDict):
    """The output of the ``EnterPlanMode`` tool."""

    message: str
    """Confirmation that plan mode was entered"""


class WorkflowOutput(TypedDict):
    """The output of the ``Workflow`` tool."""

    status: Literal["async_launched", "remote_launched"]
    taskId: str
    taskType: NotRequired[Literal["local_workflow", "remote_agent"]]
    """TaskType of the registered background task — 'local_workflow' for in-process runs,
    'remote_agent' when remote:true dispatches to CCR. Set on all new writes; absent only on
    transcripts written before this field existed.
    """
    workflowName: NotRequired[str]
    """meta.name from the workflow script — same value as task_started.workflow_name. Set on all new
    writes; absent only on transcripts written before this field existed.
    """
    runId: NotRequired[str]
    """Local workflow run identifier for resumeFromRunId. Absent for remote_launched (the CCR session
    URL is the resume handle there) and on transcripts written before this field existed.
    """
    summary: NotRequired[str]
    transcriptDir: NotRequired[str]
    """Directory where subagent transcripts are written during execution"""
    scriptPath: NotRequired[str]
    """Path to the persisted workflow script for this invocation. Editable via Write/Edit; pass back as
    `scriptPath` to re-run without resending the script.
    """
    sessionUrl: NotRequired[str]
    """CCR session URL when status is remote_launched"""
    warning: NotRequired[str]
    """Non-blocking heads-up (e.g. local git state diverges from the pushed branch the cloud session
    will clone)
    """
    error: NotRequired[str]
    """Set if syntax check failed"""


class CronCreateOutputOtherOneShot(TypedDict):
    id: str
    humanSchedule: str
    prompt: str


class CronCreateOutput(TypedDict):
    """The output of the ``CronCreate`` tool."""

    id: str
    humanSchedule: str
    recurring: bool
    durable: NotRequired[bool]
    nextFireAt: NotRequired[float]
    """Epoch ms of the job's next run, the scheduler's per-job offset included"""
    maxAgeMs: NotRequired[float]
    """Age at which a recurring job ends; 0 = never"""
    otherOneShots: NotRequired[list[CronCreateOutputOtherOneShot]]
    """Other session-only one-shot tasks that have yet to fire"""


class CronDeleteOutput(TypedDict):
    """The output of the ``CronDelete`` tool."""

    id: str
    endedLoopWakeup: NotRequired[Literal[True]]


class CronListOutputJob(TypedDict):
    id: str
    cron: str
    humanSchedule: str
    prompt: str
    recurring: NotRequired[bool]
    durable: NotRequired[bool]
    nextFireAt: NotRequired[float]
    """Epoch ms of the job's next run, the scheduler's per-job offset included"""


class CronListOutput(TypedDict):
    """The output of the ``CronList`` tool."""

    jobs: list[CronListOutputJob]


class PushNotificationOutput(TypedDict):
    """The output of the ``PushNotification`` tool."""

    message: str
    pushSent: NotRequired[bool]
    localSent: NotRequired[bool]
    disabledReason: NotRequired[Literal["config_off", "user_present", "no_transport"]]
    sentAt: NotRequired[str]
    """ISO timestamp captured at tool execution on the emitting process. Optional — resumed sessions
    replay pre-sentAt outputs verbatim.
    """


class ClaudeDesignOutput(TypedDict):
    """The output of the ``ClaudeDesign`` tool."""

    operation: str
    content: list[dict[str, Any]]
    isError: NotRequired[bool]


class ProjectsOutputProjectInfoDoc(TypedDict):
    path: str
    created_at: str | None


class ProjectsOutputProjectInfoFile(TypedDict):
    path: str
    file_kind: str
    created_at: str | None


class ProjectsOutputProjectInfoSyncSource(TypedDict):
    type: str | None
    config: dict[str, Any]


class ProjectsOutputProjectInfoKnowledge(TypedDict):
    knowledge_size: float
    max_knowledge_size: float


class ProjectsOutputProjectInfo(TypedDict):
    method: Literal["project_info"]
    notice: NotRequired[str]
    name: str
    description: str
    instructions: str
    docs: list[ProjectsOutputProjectInfoDoc]
    files: NotRequired[list[ProjectsOutputProjectInfoFile]]
    sync_sources: NotRequired[list[ProjectsOutputProjectInfoSyncSource]]
    knowledge: ProjectsOutputProjectInfoKnowledge


class ProjectsOutputProjectRead(TypedDict):
    method: Literal["project_read"]
    notice: NotRequired[str]
    path: str
    file_kind: NotRequired[str]
    content: NotRequired[str]
    local_file: NotRequired[str]
    created_at: str | None


class ProjectsOutputProjectSearchHit(TypedDict):
    name: NotRequired[str]
    doc_uuid: NotRequired[str]
    text: NotRequired[str]
    image_attached: NotRequired[bool]
    page: NotRequired[float]


class ProjectsOutputProjectSearch(TypedDict):
    method: Literal["project_search"]
    notice: NotRequired[str]
    rag: bool
    hits: NotRequired[list[ProjectsOutputProjectSearchHit]]
    docs: NotRequired[list[str]]


class ProjectsOutputProjectWrite(TypedDict):
    method: Literal["project_write"]
    notice: NotRequired[str]
    path: str
    doc_uuid: str
    replaced: bool
    present_to_user: NotRequired[bool]
    local_path: NotRequired[str]


class ProjectsOutputProjectDelete(TypedDict):
    method: Literal["project_delete"]
    notice: NotRequired[str]
    path: str
    deleted: bool


class ProjectsOutputProjectMemoryListFile(TypedDict):
    path: str
    size_bytes: float
    updated_at: str | None
    truncated: bool


class ProjectsOutputProjectMemoryList(TypedDict):
    method: Literal["project_memory_list"]
    notice: NotRequired[str]
    files: list[ProjectsOutputProjectMemoryListFile]
    truncated: bool


class ProjectsOutputProjectMemoryRead(TypedDict):
    method: Literal["project_memory_read"]
    notice: NotRequired[str]
    path: str
    content: NotRequired[str]
    local_file: NotRequired[str]
    size_bytes: float
    updated_at: str | None
    truncated: bool


AgentOutput: TypeAlias = AgentOutputCompleted | AgentOutputAsyncLaunched | AgentOutputRemoteLaunched
"""The output of the ``Agent`` tool."""


FileReadOutput: TypeAlias = (
    FileReadOutputText | FileReadOutputImage | FileReadOutputNotebook | FileReadOutputPdf | FileReadOutputParts
)
"""The output of the ``Read`` tool."""


ListMcpResourcesOutput: TypeAlias = list[ListMcpResourcesOutputItem]
"""The output of the ``ListMcpResourcesTool`` tool."""


RefreshMcpToolsOutput: TypeAlias = list[RefreshMcpToolsOutputItem]
"""The output of the ``RefreshMcpTools`` tool."""


McpOutput: TypeAlias = str | list[McpOutputItem] | dict[str, Any]
"""The output of an MCP tool."""


ArtifactOutput: TypeAlias = (
    ArtifactOutput1
    | ArtifactOutput2
    | ArtifactOutput3
    | ArtifactOutput4
    | ArtifactOutput5
    | ArtifactOutput6
    | ArtifactOutput7
    | ArtifactOutput8
    | ArtifactOutput9
    | ArtifactOutput10
    | ArtifactOutput11
    | ArtifactOutput12
)
"""The output of the ``Artifact`` tool."""


ProjectsOutput: TypeAlias = (
    ProjectsOutputProjectInfo
    | ProjectsOutputProjectRead
    | ProjectsOutputProjectSearch
    | ProjectsOutputProjectWrite
    | ProjectsOutputProjectDelete
    | ProjectsOutputProjectMemoryList
    | ProjectsOutputProjectMemoryRead
)
"""The output of the ``Projects`` tool."""


BUILTIN_TOOL_INPUTS: dict[str, type[Any]] = {
    "Agent": AgentInput,
    "Artifact": ArtifactInput,
    "AskUserQuestion": AskUserQuestionInput,
    "Bash": BashInput,
    "ClaudeDesign": ClaudeDesignInput,
    "CronCreate": CronCreateInput,
    "CronDelete": CronDeleteInput,
    "CronList": CronListInput,
    "Edit": FileEditInput,
    "EnterPlanMode": EnterPlanModeInput,
    "EnterWorktree": EnterWorktreeInput,
    "ExitPlanMode": ExitPlanModeInput,
    "ExitWorktree": ExitWorktreeInput,
    "Glob": GlobInput,
    "Grep": GrepInput,
    "ListMcpResourcesTool": ListMcpResourcesInput,
    "Monitor": MonitorInput,
    "NotebookEdit": NotebookEditInput,
    "OfferChromeSetup": OfferChromeSetupInput,
    "Projects": ProjectsInput,
    "propose_skills": ProposeSkillsInput,
    "PushNotification": PushNotificationInput,
    "Read": FileReadInput,
    "ReadMcpResourceDirTool": ReadMcpResourceDirInput,
    "ReadMcpResourceTool": ReadMcpResourceInput,
    "ReadNotifications": ReadNotificationsInput,
    "RefreshMcpTools": RefreshMcpToolsInput,
    "RemoteTrigger": RemoteTriggerInput,
    "ReportFindings": ReportFindingsInput,
    "ScheduleWakeup": ScheduleWakeupInput,
    "SendFeedback": SendFeedbackInput,
    "SetGoal": ProposeGoalInput,
    "ShowOnboardingRolePicker": ShowOnboardingRolePickerInput,
    "TaskCreate": TaskCreateInput,
    "TaskGet": TaskGetInput,
    "TaskList": TaskListInput,
    "TaskStop": TaskStopInput,
    "TaskUpdate": TaskUpdateInput,
    "TodoWrite": TodoWriteInput,
    "WebFetch": WebFetchInput,
    "WebSearch": WebSearchInput,
    "Workflow": WorkflowInput,
    "Write": FileWriteInput,
}
"""Built-in tool name → the type of its input."""


BUILTIN_TOOL_OUTPUTS: dict[str, Any] = {
    "Agent": AgentOutput,
    "Artifact": ArtifactOutput,
    "AskUserQuestion": AskUserQuestionOutput,
    "Bash": BashOutput,
    "ClaudeDesign": ClaudeDesignOutput,
    "CronCreate": CronCreateOutput,
    "CronDelete": CronDeleteOutput,
    "CronList": CronListOutput,
    "Edit": FileEditOutput,
    "EnterPlanMode": EnterPlanModeOutput,
    "EnterWorktree": EnterWorktreeOutput,
    "ExitPlanMode": ExitPlanModeOutput,
    "ExitWorktree": ExitWorktreeOutput,
    "Glob": GlobOutput,
    "Grep": GrepOutput,
    "ListMcpResourcesTool": ListMcpResourcesOutput,
    "Monitor": MonitorOutput,
    "NotebookEdit": NotebookEditOutput,
    "OfferChromeSetup": OfferChromeSetupOutput,
    "Projects": ProjectsOutput,
    "propose_skills": ProposeSkillsOutput,
    "PushNotification": PushNotificationOutput,
    "Read": FileReadOutput,
    "ReadMcpResourceDirTool": ReadMcpResourceDirOutput,
    "ReadMcpResourceTool": ReadMcpResourceOutput,
    "ReadNotifications": ReadNotificationsOutput,
    "RefreshMcpTools": RefreshMcpToolsOutput,
    "RemoteTrigger": RemoteTriggerOutput,
    "ReportFindings": ReportFindingsOutput,
    "ScheduleWakeup": ScheduleWakeupOutput,
    "SendFeedback": SendFeedbackOutput,
    "SetGoal": ProposeGoalOutput,
    "ShowOnboardingRolePicker": ShowOnboardingRolePickerOutput,
    "TaskCreate": TaskCreateOutput,
    "TaskGet": TaskGetOutput,
    "TaskList": TaskListOutput,
    "TaskStop": TaskStopOutput,
    "TaskUpdate": TaskUpdateOutput,
    "TodoWrite": TodoWriteOutput,
    "WebFetch": WebFetchOutput,
    "WebSearch": WebSearchOutput,
    "Workflow": WorkflowOutput,
    "Write": FileWriteOutput,
}
"""Built-in tool name → the type of its output."""
