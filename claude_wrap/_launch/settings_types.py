"""The keys of a Claude Code settings file, typed.

Written by ``scripts/ts_types.py`` from the TypeScript SDK 0.3.333
(``sdk.d.ts``); do not edit by hand: ``make bump`` rewrites it.
"""

# No ``from __future__ import annotations``: TypedDict reads NotRequired
# from evaluated annotations, so each class comes after the ones it uses.
from typing import Any, Literal

from typing_extensions import NotRequired, TypedDict

__all__ = ["Settings"]


class SettingsPolicyHelper(TypedDict):
    path: str
    """Absolute path to the helper executable"""
    timeoutMs: NotRequired[float]
    refreshIntervalMs: NotRequired[float]


class SettingsFileSuggestion(TypedDict):
    type: Literal["command"]
    command: str


class SettingsAttribution(TypedDict):
    """Keys not listed here are allowed too."""

    commit: NotRequired[str]
    """Attribution text for git commits, including any trailers. Empty string hides attribution."""
    pr: NotRequired[str]
    """Attribution text for pull request descriptions. Empty string hides attribution."""
    sessionUrl: NotRequired[bool]
    """Whether to append the claude.ai session link to commits and PRs created from web or Remote
    Control sessions (default: true). Set to false to omit the Claude-Session trailer and PR-body
    link.
    """


class SettingsAttributionProjectPolicy(TypedDict):
    default: NotRequired[str]
    """The Project used when neither CLAUDE_CODE_ATTRIBUTION_PROJECT nor attributionProject names one:
    its ID, starting with "claude_proj_" or "chan_", or the UUID of a "claude_proj_" Project. Behind
    a Claude apps gateway that reports usage by group, a group name instead.
    """


class SettingsPermissions(TypedDict):
    """Keys not listed here are allowed too."""

    allow: NotRequired[list[str]]
    """List of permission rules for allowed operations"""
    deny: NotRequired[list[str]]
    """List of permission rules for denied operations"""
    ask: NotRequired[list[str]]
    """List of permission rules that should always prompt for confirmation"""
    defaultMode: NotRequired[Literal["acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"]]
    """Default permission mode when Claude Code needs access ('manual' is accepted as an alias for
    'default')
    """
    disableBypassPermissionsMode: NotRequired[Literal["disable"]]
    """Disable the ability to bypass permission prompts"""
    blockReadsOutsideWorkingDirectories: NotRequired[bool]
    """Refuse file-tool reads (Read, Grep, Glob, LSP) outside the working directories in every
    permission mode; true in any settings source wins. No allow rule lifts it. Also binds shell
    commands: one that names a path outside them is asked about in every mode, and the sandbox,
    where it is on, denies such reads. Also set when the user picks "block" on the one-time auto-
    mode prompt for a read outside the working directories.
    """
    blockWritesOutsideWorkingDirectories: NotRequired[bool]
    """Refuse file-tool writes (Write, Edit, NotebookEdit) outside the working directories in every
    permission mode; true in any settings source wins. No allow rule lifts it. Files that Claude
    Code keeps for the session are not refused: its plan files, scratchpad and background job
    folder, and the auto-memory of this project, unless a repository settings file points it
    elsewhere (a setting of the program that starts Claude Code can narrow this and the working
    directories). Nothing runs them unless the model asks. Also refuses file-tool writes to Claude
    Code settings files, inside the working directories too, and takes EnterWorktree and
    ExitWorktree, which move the working directory, out of the tools on offer (a setting of the
    program that starts Claude Code can keep them). Does not limit shell commands, MCP tools, the
    programs that hooks run, or the memory tools. Cloud sessions (Claude Code on the web), whose
    file tools run in a container that is itself the boundary, may not apply it.
    """
    blockReadsExemptPaths: NotRequired[list[str]]
    """For the program that starts Claude Code: read only from --settings and from settings that
    program sends while the session runs; ignored in user, project, local and managed settings.
    Absolute paths, each a folder with all below it or one file, that
    blockReadsOutsideWorkingDirectories lets through beside the working directories. It allows
    nothing: an allow rule, the permission mode or the user still decides each read, as with that
    setting off, and a shell command that hands such a path to a program is still asked about unless
    a Read allow rule covers it. The paths do not become working directories, so
    blockWritesOutsideWorkingDirectories refuses writes to them, and they are not told to MCP
    servers or to the model. Each path counts as written: a link in it is not followed and a pattern
    is not expanded, so list every spelling that a read may arrive by. Ignored: an entry that starts
    with ~, has a ".." segment or has white space at either end (as written or once normalized), a
    relative or network path, and the root of a filesystem. Does not change what sandboxed commands
    may read (sandbox.filesystem.allowRead does).
    """
    workingDirectoriesAsGiven: NotRequired[list[str]]
    """For the program that starts Claude Code: read only from --settings and from settings that
    program sends while the session runs; ignored in user, project, local and managed settings.
    Absolute paths of working directories, each spelled exactly as it is passed, letter case
    included (the session folder, --add-dir, permissions.additionalDirectories). To decide what lies
    inside a listed working directory, Claude Code takes it as written and follows no link at it, so
    a link that later stands in its place gives the file tools no access to where the link leads.
    List real paths: the files of a listed path that runs through a link count as outside the
    working directories, because where they really are lies outside it. List a mapped network drive
    by its drive-letter path: Claude Code still derives the UNC form of that path by itself and adds
    it, as for any mapped drive. A file path that is itself spelled as a UNC path is judged as
    written, so a link on the share is not seen by that spelling. It adds no working directory and
    allows nothing. Once listed, a path stays so until the process ends, also if later settings
    leave it out. Ignored: an entry that is not already normalized (a relative path, one that starts
    with ~, a ".." segment, a separator at its end unless it is a filesystem root, forward slashes
    on Windows, white space at either end). Does not change what sandboxed commands may write.
    """
    workingDirectoriesExclude: NotRequired[list[str]]
    """For the program that starts Claude Code: read only from --settings and from settings that
    program sends while the session runs; ignored in user, project, local and managed settings.
    Absolute paths, each a folder with all below it or one file, that
    blockReadsOutsideWorkingDirectories, blockFileToolReadsOutsideWorkingDirectories and
    blockWritesOutsideWorkingDirectories count as outside every working directory that holds them. A
    path is refused if it, or where its links lead, lies in a listed path, in any letter case, or
    above one that no Read deny rule covers (a Grep or Glob rooted there would walk into it; a deny
    rule keeps those two out, unless a "!" rule is also in force); for a search the path judged is
    its root, not each file found below it. Still let through: a working directory, or for reads a
    path of blockReadsExemptPaths, that is the listed path or lies inside it, and the files that
    Claude Code keeps for the session. It allows nothing, binds what those three settings bind, and
    does nothing with all of them off. Each path counts as written: a link in it is not followed, so
    list every spelling. Once listed, a path stays listed for the life of the process. Ignored: a
    relative path, and one that starts with ~, has a ".." segment or has white space at either end.
    Does not change what sandboxed commands may read or write.
    """
    disableAutoMode: NotRequired[Literal["disable"]]
    """Disable auto mode"""
    denyInsteadOfPrompting: NotRequired[bool]
    """Never wait for a person to answer a tool permission prompt: a call that would prompt is denied
    at once, the model is told, and the turn carries on. This is what --permission-prompts none does
    for -p, in every kind of session, subagents and agent teams included. Allow rules, the
    permission mode, auto mode's classifier and PermissionRequest hooks decide first, as they do
    without it; it only ever denies, and allows nothing. Claude's questions and plan mode's tools
    are not offered to the model, and an MCP server's request for input is cancelled unless an
    Elicitation hook answers it. An app or script that answers prompts through canUseTool or
    --permission-prompt-tool is not asked either: answer from a PermissionRequest hook instead. Read
    from user settings, --settings and managed settings; project and local settings are ignored, and
    true in any of those sources wins.
    """
    additionalDirectories: NotRequired[list[str]]
    """Additional directories to include in the permission scope"""


class SettingsModelPickerOption(TypedDict):
    model: str
    """Model to select, taken verbatim: an alias ("opus"), an Anthropic model ID, or a provider-format
    ID (Vertex, Bedrock, gateway). Same values --model accepts.
    """
    label: NotRequired[str]
    """Row title. Defaults to the model name."""
    description: NotRequired[str]
    """Row subtitle. Defaults to a generic description."""
    behavesAs: NotRequired[str]
    """For a model this version of Claude Code does not know: the ID of a model it does know (e.g.
    "claude-opus-4-8") whose client-side handling — prompt profile, capability and effort defaults —
    applies to it. Changes neither the row's label nor the model ID sent. Without it, a model-
    catalog row for a model this version does not know is not offered until Claude Code is updated.
    """


class SettingsModelPicker(TypedDict):
    options: list[SettingsModelPickerOption]
    """Rows to show in the /model picker, in order."""
    replaceBuiltInOptions: NotRequired[bool]
    """When true, the picker shows only the Default row and these options — the built-in lineup,
    gateway-discovered models and ANTHROPIC_CUSTOM_MODEL_OPTION are hidden. When false or unset,
    these options are added after the built-in lineup.
    """


class SettingsModelPricingOverrides(TypedDict):
    input: float
    output: float
    cacheRead: float
    cacheWrite: float


class SettingsModelPricing(TypedDict):
    multiplier: NotRequired[float]
    overrides: NotRequired[dict[str, SettingsModelPricingOverrides]]


class SettingsAllowedMcpServer(TypedDict):
    serverName: NotRequired[str]
    """Name of the MCP server that users are allowed to configure"""
    serverCommand: NotRequired[list[str]]
    """Command array [command, ...args] to match exactly for allowed stdio servers

    \\@minItems 1
    """
    serverUrl: NotRequired[str]
    """URL pattern with wildcard support (e.g., "https://*.example.com/*") for allowed remote MCP
    servers
    """


class SettingsDeniedMcpServer(TypedDict):
    serverName: NotRequired[str]
    """Name of the MCP server that is explicitly blocked"""
    serverCommand: NotRequired[list[str]]
    """Command array [command, ...args] to match exactly for blocked stdio servers

    \\@minItems 1
    """
    serverUrl: NotRequired[str]
    """URL pattern with wildcard support (e.g., "https://*.example.com/*") for blocked remote MCP
    servers. A pattern with no query also blocks the URL with any query, or with a trailing slash
    added or, if its path has no wildcard, removed.
    """


_SettingsHookHookCommandKeys = TypedDict(
    "_SettingsHookHookCommandKeys", {"if": NotRequired[str], "async": NotRequired[bool]}
)


class SettingsHookHookCommand(_SettingsHookHookCommandKeys):
    """Also: ``if``, ``async``."""

    type: Literal["command"]
    """Shell command hook type"""
    command: str
    """Shell command to execute"""
    args: NotRequired[list[str]]
    """Argument list for exec form. When present, `command` is resolved as an executable and spawned
    directly with these arguments — no shell. Path placeholders like ${CLAUDE_PLUGIN_ROOT} are
    substituted per-element as plain strings, so paths with quotes, $, or backticks never reach a
    shell parser. When absent, `command` runs through a shell (bash on POSIX, PowerShell on Windows
    without Git Bash).
    """
    shell: NotRequired[Literal["bash", "powershell"]]
    """Shell interpreter. 'bash' uses your $SHELL (bash/zsh/sh); 'powershell' uses pwsh. Defaults to
    bash (powershell on Windows without Git Bash).
    """
    timeout: NotRequired[float]
    """Timeout in seconds for this specific command"""
    onFailure: NotRequired[Literal["continue", "block"]]
    """What a failure of this hook does: it could not start (a missing script or plugin directory),
    timed out, exited with a code other than 0 or 2, or printed JSON that is invalid or fails
    validation. 'continue' (default): the failure is reported and the action goes ahead. 'block':
    the failure counts as exit code 2, so the action the event guards (a tool call, a permission
    request, a prompt) is blocked. Ignored for async hooks and on Stop, SubagentStop, TaskCompleted
    and TeammateIdle.
    """
    statusMessage: NotRequired[str]
    """Custom status message to display in spinner while hook runs"""
    once: NotRequired[bool]
    """If true, hook runs once and is removed after execution"""
    asyncRewake: NotRequired[bool]
    """If true, hook runs in background and wakes the model on exit code 2 (blocking error). Implies
    async.
    """


_SettingsHookHookPromptKeys = TypedDict("_SettingsHookHookPromptKeys", {"if": NotRequired[str]})


class SettingsHookHookPrompt(_SettingsHookHookPromptKeys):
    """Also: ``if``."""

    type: Literal["prompt"]
    """LLM prompt hook type"""
    prompt: str
    """Prompt to evaluate with LLM. Use $ARGUMENTS placeholder for hook input JSON."""
    timeout: NotRequired[float]
    """Timeout in seconds for this specific prompt evaluation"""
    model: NotRequired[str]
    """Model to use for this prompt hook (e.g., "claude-sonnet-5"). If not specified, uses the default
    small fast model.
    """
    continueOnBlock: NotRequired[bool]
    """Sets the continue value for the decision:"block" produced when ok is false. Default false (turn
    ends). Whether continue:true lets the turn proceed depends on the event's decision:"block"
    semantics. On PostToolUse, the reason is fed back to Claude and the turn continues.
    """
    statusMessage: NotRequired[str]
    """Custom status message to display in spinner while hook runs"""
    once: NotRequired[bool]
    """If true, hook runs once and is removed after execution"""


_SettingsHookHookAgentKeys = TypedDict("_SettingsHookHookAgentKeys", {"if": NotRequired[str]})


class SettingsHookHookAgent(_SettingsHookHookAgentKeys):
    """Also: ``if``."""

    type: Literal["agent"]
    """Agentic verifier hook type"""
    prompt: str
    """Prompt describing what to verify (e.g. "Verify that unit tests ran and passed."). Use $ARGUMENTS
    placeholder for hook input JSON.
    """
    timeout: NotRequired[float]
    """Timeout in seconds for agent execution (default 60)"""
    model: NotRequired[str]
    """Model to use for this agent hook (e.g., "claude-sonnet-5"). If not specified, uses Haiku."""
    statusMessage: NotRequired[str]
    """Custom status message to display in spinner while hook runs"""
    once: NotRequired[bool]
    """If true, hook runs once and is removed after execution"""


_SettingsHookHookHttpKeys = TypedDict("_SettingsHookHookHttpKeys", {"if": NotRequired[str]})


class SettingsHookHookHttp(_SettingsHookHookHttpKeys):
    """Also: ``if``."""

    type: Literal["http"]
    """HTTP hook type"""
    url: str
    """URL to POST the hook input JSON to"""
    timeout: NotRequired[float]
    """Timeout in seconds for this specific request"""
    onFailure: NotRequired[Literal["continue", "block"]]
    """What a failure of this hook does: it could not start (a missing script or plugin directory),
    timed out, exited with a code other than 0 or 2, or printed JSON that is invalid or fails
    validation. 'continue' (default): the failure is reported and the action goes ahead. 'block':
    the failure counts as exit code 2, so the action the event guards (a tool call, a permission
    request, a prompt) is blocked. Ignored for async hooks and on Stop, SubagentStop, TaskCompleted
    and TeammateIdle.
    """
    headers: NotRequired[dict[str, str]]
    """Additional headers to include in the request. Values may reference environment variables using
    $VAR_NAME or ${VAR_NAME} syntax (e.g., "Authorization": "Bearer $MY_TOKEN"). Only variables
    listed in allowedEnvVars will be interpolated. Content-Length and Transfer-Encoding given here
    are ignored: Claude Code works out the request's length from its body.
    """
    allowedEnvVars: NotRequired[list[str]]
    """Explicit list of environment variable names that may be interpolated in header values. Only
    variables listed here will be resolved; all other $VAR references are left as empty strings.
    Required for env var interpolation to work.
    """
    statusMessage: NotRequired[str]
    """Custom status message to display in spinner while hook runs"""
    once: NotRequired[bool]
    """If true, hook runs once and is removed after execution"""


_SettingsHookHookMcpToolKeys = TypedDict("_SettingsHookHookMcpToolKeys", {"if": NotRequired[str]})


class SettingsHookHookMcpTool(_SettingsHookHookMcpToolKeys):
    """Also: ``if``."""

    type: Literal["mcp_tool"]
    """MCP tool hook type"""
    server: str
    """Name of an already-configured MCP server to invoke"""
    tool: str
    """Name of the tool on that server to call"""
    input: NotRequired[dict[str, Any]]
    """Arguments passed to the MCP tool. String values support ${path} interpolation from the hook
    input JSON (e.g. "${tool_input.file_path}").
    """
    timeout: NotRequired[float]
    """Timeout in seconds for this specific tool call"""
    onFailure: NotRequired[Literal["continue", "block"]]
    """What happens when this hook's call fails: its MCP server is not connected or not signed in, the
    call times out or returns an error, or the tool answers with JSON that fails validation.
    'continue' (default): the failure is reported and the action goes ahead. 'block': the action the
    event guards (a tool call, a permission request, a prompt) is blocked each time, for as long as
    the call fails. With 'block', the tool must answer with a hook's JSON output, with {} or with
    nothing: plain text, an image, or JSON that holds none of a hook output's fields, or only
    'reason', also counts as a failure. That does not hold on PreCompact and WorktreeCreate, where
    plain text is the hook's answer, or on events whose block stops nothing. Any other value reads
    as 'block'. Ignored on Setup, SessionStart, Stop, SubagentStop, TaskCompleted and TeammateIdle.
    """
    statusMessage: NotRequired[str]
    """Custom status message to display in spinner while hook runs"""
    once: NotRequired[bool]
    """If true, hook runs once and is removed after execution"""


class SettingsHook(TypedDict):
    matcher: NotRequired[str]
    """String pattern to match (e.g. tool names like "Write")"""
    hooks: list[
        SettingsHookHookCommand
        | SettingsHookHookPrompt
        | SettingsHookHookAgent
        | SettingsHookHookHttp
        | SettingsHookHookMcpTool
    ]
    """List of hooks to execute when the matcher matches"""


class SettingsWorktree(TypedDict):
    symlinkDirectories: NotRequired[list[str]]
    """Directories to symlink from main repository to worktrees to avoid disk bloat. Must be explicitly
    configured - no directories are symlinked by default. Common examples: "node_modules", ".cache",
    ".bin"
    """
    sparsePaths: NotRequired[list[str]]
    """Directories to include when creating worktrees, via git sparse-checkout (cone mode).
    Dramatically faster in large monorepos — only the listed paths are written to disk.
    """
    baseRef: NotRequired[Literal["fresh", "head"]]
    """Which ref new worktrees branch from. 'fresh' (default) branches from origin/<default-branch> for
    a clean tree. 'head' branches from your current local HEAD so unpushed commits and feature-
    branch state are present. Applies to --worktree, EnterWorktree, and agent isolation.
    """
    bgIsolation: NotRequired[Literal["worktree", "none"]]
    """Isolation mode for background sessions in this repo. 'worktree' (default) blocks Edit/Write in
    the main checkout until EnterWorktree is called. 'none' lets background jobs edit the working
    copy directly.
    """
    location: NotRequired[str]
    """Directory under which Claude Code Desktop creates the worktrees of SSH sessions that run on this
    machine (an absolute path or one starting with ~/), instead of <project>/.claude/worktrees. Read
    by the desktop app from the SSH host user settings; a location chosen in the desktop app's SSH
    connection settings takes precedence. The CLI (--worktree, EnterWorktree, agent isolation) does
    not read it yet.
    """


class SettingsStatusLine(TypedDict):
    type: Literal["command"]
    command: str
    padding: NotRequired[float]
    refreshInterval: NotRequired[float]
    """Re-run the status line command every N seconds in addition to event-driven updates"""
    hideVimModeIndicator: NotRequired[bool]
    """Hide the built-in `-- INSERT --` / `-- VISUAL --` indicator below the prompt. Use this when your
    status line script renders `vim.mode` itself.
    """


class SettingsFooterLinksRegexeRegex(TypedDict):
    """Keys not listed here are allowed too."""

    type: Literal["regex"]
    """Config variant. This client understands "regex": matches turn output and builds a URL from named
    capture groups. Entries with other variants are preserved but skipped at runtime.
    """
    pattern: str
    """Regex matched against turn output (tool results and assistant text)"""
    url: str
    """Link target. {name} placeholders are filled from named regex capture groups, e.g. (?<id>...) ->
    {id}. Values are URL-encoded; the origin must be literal in the template. The scheme must be
    https, http, or a recognized editor or workspace deep-link scheme: vscode, vscode-insiders,
    cursor, windsurf, zed, jetbrains, idea, slack, linear, notion, figma.
    """
    label: NotRequired[str]
    """Badge text. {name} placeholders filled from named capture groups; defaults to the full match.
    """


class SettingsFooterLinksRegexe2(TypedDict):
    """Keys not listed here are allowed too."""

    type: str
    """Config variant discriminator for entries this client does not understand; the entry is preserved
    as-is and skipped at runtime.
    """


class SettingsExtraKnownMarketplacesSourceUrl(TypedDict):
    source: Literal["url"]
    url: str
    """Direct URL to marketplace.json file"""
    headers: NotRequired[dict[str, str]]
    """Custom HTTP headers (e.g., for authentication)"""
    headersHelper: NotRequired[str]
    """Command that prints a JSON object of HTTP headers (e.g. a short-lived auth token). Its output
    overrides `headers` and, like `headers`, is inherited by same-origin archive downloads from this
    marketplace. Runs from a fixed directory (the Claude config home, never the session's), so give
    a bare command found via PATH or an absolute path; it is re-run on later refreshes of this
    marketplace.
    """


class SettingsExtraKnownMarketplacesSourceGithub(TypedDict):
    source: Literal["github"]
    repo: str
    """GitHub repository in owner/repo format. ONLY in the managed-settings policy lists
    (strictKnownMarketplaces / blockedMarketplaces) the owner-wildcard form "owner/*" matches every
    repository under exactly that owner. Everywhere else (marketplace add, extraKnownMarketplaces,
    known_marketplaces.json) the value must name a single repository — a wildcard is taken literally
    and fails to clone.
    """
    ref: NotRequired[str]
    """Git branch, tag or full commit id to use (e.g., "main", "v1.0.0"). Defaults to repository
    default branch. A full commit id (40 or 64 lowercase hex digits) holds the marketplace at that
    commit: refreshes and auto-updates do not move it. A branch or tag of the repository must hold
    the commit. Plugins listed with a remote source follow that source unless they name a `sha`.
    Reserved Anthropic marketplace names do not accept a commit id.
    """
    path: NotRequired[str]
    """Path to marketplace.json within repo (defaults to .claude-plugin/marketplace.json)"""
    sparsePaths: NotRequired[list[str]]
    """Directories to include via git sparse-checkout (cone mode). Use for monorepos where the
    marketplace lives in a subdirectory. Example: [".claude-plugin", "plugins"]. If omitted, the
    full repository is cloned.
    """
    skipLfs: NotRequired[bool]
    """Has no effect; accepted so existing settings keep working. Claude Code's own git never downloads
    Git LFS content: LFS-tracked files in the marketplace repository are checked out as pointer
    files whether or not this is set, and adding or updating the marketplace says how many were. To
    fetch their content, run `git lfs pull` in the marketplace's checkout under
    ~/.claude/plugins/marketplaces/.
    """


class SettingsExtraKnownMarketplacesSourceGit(TypedDict):
    source: Literal["git"]
    url: str
    """Full git repository URL"""
    ref: NotRequired[str]
    """Git branch, tag or full commit id to use (e.g., "main", "v1.0.0"). Defaults to repository
    default branch. A full commit id (40 or 64 lowercase hex digits) holds the marketplace at that
    commit: refreshes and auto-updates do not move it. A branch or tag of the repository must hold
    the commit. Plugins listed with a remote source follow that source unless they name a `sha`.
    Reserved Anthropic marketplace names do not accept a commit id.
    """
    path: NotRequired[str]
    """Path to marketplace.json within repo (defaults to .claude-plugin/marketplace.json)"""
    sparsePaths: NotRequired[list[str]]
    """Directories to include via git sparse-checkout (cone mode). Use for monorepos where the
    marketplace lives in a subdirectory. Example: [".claude-plugin", "plugins"]. If omitted, the
    full repository is cloned.
    """
    skipLfs: NotRequired[bool]
    """Has no effect; accepted so existing settings keep working. Claude Code's own git never downloads
    Git LFS content: LFS-tracked files in the marketplace repository are checked out as pointer
    files whether or not this is set, and adding or updating the marketplace says how many were. To
    fetch their content, run `git lfs pull` in the marketplace's checkout under
    ~/.claude/plugins/marketplaces/.
    """


class SettingsExtraKnownMarketplacesSourceNpm(TypedDict):
    source: Literal["npm"]
    package: str
    """npm package containing marketplace.json (e.g. "\\@acme/claude-marketplace"). A scope wildcard
    such as "\\@acme/*" still parses in a managed list, so a list that holds one stays valid, but it
    matches no marketplace package.
    """
    version: NotRequired[str]
    """Version or range to fetch (e.g. "1.4.0", "^1.4"); defaults to the latest dist-tag"""
    registry: NotRequired[str]
    """Registry URL. When adding a marketplace: a one-off registry override (otherwise your npm
    configuration decides). Under allowManagedPermissionRulesOnly, an npm marketplace keeps plugin
    allowed-tools only when both the entry and the registration pin this same registry.
    """


class SettingsExtraKnownMarketplacesSourceFile(TypedDict):
    source: Literal["file"]
    path: str
    """Local file path to marketplace.json"""


class SettingsExtraKnownMarketplacesSourceDirectory(TypedDict):
    source: Literal["directory"]
    path: str
    """Local directory containing .claude-plugin/marketplace.json"""


class SettingsExtraKnownMarketplacesSourceSkillsDir(TypedDict):
    source: Literal["skills-dir"]


class SettingsExtraKnownMarketplacesSourceHostPattern(TypedDict):
    source: Literal["hostPattern"]
    hostPattern: str
    """Regex pattern to match the host/domain extracted from any marketplace source type. For github
    sources, matches against github.com. For git sources (SSH or HTTPS), extracts the hostname from
    the URL. Use in strictKnownMarketplaces to allow all marketplaces from a specific host (e.g.,
    "^github\\.mycompany\\.com$").
    """


class SettingsExtraKnownMarketplacesSourcePathPattern(TypedDict):
    source: Literal["pathPattern"]
    pathPattern: str
    """Regex pattern matched against the .path field of file and directory sources. Use in
    strictKnownMarketplaces to allow filesystem-based marketplaces alongside hostPattern
    restrictions for network sources. Use ".*" to allow all filesystem paths, or a narrower pattern
    (e.g., "^/opt/approved/") to restrict to specific directories.
    """


class SettingsExtraKnownMarketplacesSourceSettingsPluginSourceNpm(TypedDict):
    source: Literal["npm"]
    package: str
    """Package name (or url, or local path, or anything else that can be passed to `npm` as a package)
    """
    version: NotRequired[str]
    """Specific version or version range (e.g., ^1.0.0, ~2.1.0)"""
    registry: NotRequired[str]
    """Custom NPM registry URL (defaults to using system default, likely npmjs.org)"""


class SettingsExtraKnownMarketplacesSourceSettingsPluginSourceUrl(TypedDict):
    source: Literal["url"]
    url: str
    """Full git repository URL (https:// or git\\@)"""
    ref: NotRequired[str]
    """Git branch or tag to use (e.g., "main", "v1.0.0"). Defaults to repository default branch."""
    sha: NotRequired[str]
    """Specific commit SHA to use"""


class SettingsExtraKnownMarketplacesSourceSettingsPluginSourceGithub(TypedDict):
    source: Literal["github"]
    repo: str
    """GitHub repository in owner/repo format"""
    ref: NotRequired[str]
    """Git branch or tag to use (e.g., "main", "v1.0.0"). Defaults to repository default branch."""
    sha: NotRequired[str]
    """Specific commit SHA to use"""


class SettingsExtraKnownMarketplacesSourceSettingsPluginSourceGitSubdir(TypedDict):
    source: Literal["git-subdir"]
    url: str
    """Git repository: GitHub owner/repo shorthand, https://, or git\\@ URL"""
    path: str
    """Subdirectory within the repo containing the plugin (e.g., "tools/claude-plugin"). Checked out
    sparsely — over https or ssh as a partial clone (--filter=tree:0) — to minimize bandwidth for
    monorepos.
    """
    ref: NotRequired[str]
    """Git branch or tag to use (e.g., "main", "v1.0.0"). Defaults to repository default branch."""
    sha: NotRequired[str]
    """Specific commit SHA to use"""


class SettingsExtraKnownMarketplacesSourceSettingsPluginSourceArchive(TypedDict):
    source: Literal["archive"]
    url: str
    """HTTPS URL of a zip archive containing the plugin. The plugin root (the directory holding
    .claude-plugin/) may be at the top of the archive or nested one directory deep — a single
    wrapping directory is stripped.
    """
    sha256: NotRequired[str]
    """SHA-256 digest of the archive. When set, every download is verified against it and the install
    is refused on mismatch. It also serves as the version identity when neither plugin.json nor the
    marketplace entry declares a `version`. Recommended. Note the update signal is the version
    string (plugin.json version, else the entry version, else this digest) — changing only the
    digest while a version is declared does not trigger an update.
    """


class SettingsExtraKnownMarketplacesSourceSettingsPluginSourceCommand(TypedDict):
    source: Literal["command"]
    command: str
    """Shell command that prints the absolute path of the plugin directory on stdout (exactly one line)
    and exits 0. It must leave a complete plugin in that directory before exiting; the directory is
    copied into the plugin cache, so the printed path may change between runs (it is re-resolved on
    every install and update, and once per session in the background). Runs through the platform
    shell (sh on macOS/Linux, cmd.exe on Windows) from the user's home directory with Claude Code's
    subprocess environment.
    """
    timeout: NotRequired[float]
    """Seconds to wait for the command before giving up (default: 60)"""
    mode: NotRequired[Literal["copy", "link"]]
    """copy (default): the printed directory is copied into the plugin cache and content-hashed, so it
    may be deleted afterwards. link: the cache entry links to the printed directory in place (no
    copy, no size limit; macOS/Linux) — for large exports; the directory must then stay valid while
    Claude Code runs, and a different printed path is what signals new content.
    """


class SettingsExtraKnownMarketplacesSourceSettingsPluginSourceUnsupported(TypedDict):
    source: Literal["unsupported"]
    error: NotRequired[str]


class SettingsExtraKnownMarketplacesSourceSettingsPlugin(TypedDict):
    name: str
    """Plugin name as it appears in the target repository"""
    source: (
        str
        | SettingsExtraKnownMarketplacesSourceSettingsPluginSourceNpm
        | SettingsExtraKnownMarketplacesSourceSettingsPluginSourceUrl
        | SettingsExtraKnownMarketplacesSourceSettingsPluginSourceGithub
        | SettingsExtraKnownMarketplacesSourceSettingsPluginSourceGitSubdir
        | SettingsExtraKnownMarketplacesSourceSettingsPluginSourceArchive
        | SettingsExtraKnownMarketplacesSourceSettingsPluginSourceCommand
        | SettingsExtraKnownMarketplacesSourceSettingsPluginSourceUnsupported
    )
    """Where to fetch the plugin from. Must be a remote source — relative paths have no marketplace
    repository to resolve against. Under allowManagedPermissionRulesOnly, a settings marketplace
    keeps its plugins' allowed-tools only when every npm entry here pins a `registry` on a bare
    package name; unpinned, the package resolves through the member's own npm config, and a non-bare
    spelling (an `npm:` alias, a `name\\@range`, a URL or git spec) packs as an exotic spec the pin
    does not bind — either way the marketplace vouches no tool grants.
    """
    description: NotRequired[str]
    version: NotRequired[str]
    strict: NotRequired[bool]
    engines: NotRequired[dict[str, Any]]
    """Versions of its hosts this plugin runs on. "claude-code" is a semver range (e.g. ">=2.1.320"):
    outside it, the plugin is not installed, updated or loaded. Other keys are ignored.
    """
    headers: NotRequired[dict[str, str]]
    """HTTP headers sent when downloading this entry's `archive` source."""
    headersHelper: NotRequired[str]
    """Command that prints a JSON object of HTTP headers for downloading this entry's `archive` source.
    Runs only when a user explicitly installs or updates this plugin. Unlike a catalog entry, an
    entry written here does not need `strict: false`: it is declared in a settings file, which has
    no manifest fields to inline. A declaration in project settings is not operator-authored, so
    request-routing and client-identity header names are still filtered there. Use an absolute path.
    """


class SettingsExtraKnownMarketplacesSourceSettingsOwner(TypedDict):
    name: str
    """Display name of the plugin author or organization"""
    email: NotRequired[str]
    """Contact email for support or feedback"""
    url: NotRequired[str]
    """Website, GitHub profile, or organization URL"""


class SettingsExtraKnownMarketplacesSourceSettings(TypedDict):
    source: Literal["settings"]
    name: str
    """Marketplace name. Must match the extraKnownMarketplaces key (enforced); the synthetic manifest
    is written under this name. Same validation as PluginMarketplaceSchema plus reserved-name
    rejection — validateOfficialNameSource runs after the disk write, too late to clean up.
    """
    plugins: list[SettingsExtraKnownMarketplacesSourceSettingsPlugin]
    """Plugin entries declared inline in settings.json"""
    owner: NotRequired[SettingsExtraKnownMarketplacesSourceSettingsOwner]


class SettingsExtraKnownMarketplaces(TypedDict):
    source: (
        SettingsExtraKnownMarketplacesSourceUrl
        | SettingsExtraKnownMarketplacesSourceGithub
        | SettingsExtraKnownMarketplacesSourceGit
        | SettingsExtraKnownMarketplacesSourceNpm
        | SettingsExtraKnownMarketplacesSourceFile
        | SettingsExtraKnownMarketplacesSourceDirectory
        | SettingsExtraKnownMarketplacesSourceSkillsDir
        | SettingsExtraKnownMarketplacesSourceHostPattern
        | SettingsExtraKnownMarketplacesSourcePathPattern
        | SettingsExtraKnownMarketplacesSourceSettings
    )
    """Where to fetch the marketplace from"""
    installLocation: NotRequired[str]
    """Local cache path where marketplace manifest is stored (auto-generated if not provided)"""
    autoUpdate: NotRequired[bool]
    """Whether to automatically update this marketplace and its installed plugins on startup"""
    pluginDigests: NotRequired[dict[str, list[str]]]
    """Deprecated and ignored: settings that hold it still load. A plugin takes the organization tier
    when managed settings enable it and declare its marketplace with a remote source.
    """


class SettingsSandboxNetworkTlsTerminate(TypedDict):
    caCertPath: NotRequired[str]
    caKeyPath: NotRequired[str]


class SettingsSandboxNetwork(TypedDict):
    allowedDomains: NotRequired[list[str]]
    """Domains sandboxed commands may reach without a prompt (wildcards such as *.example.com
    supported). Merged with WebFetch(domain:…) allow rules and across settings sources. When managed
    settings or a --settings file set allowUnsandboxedCommands: false, or managed settings set
    network.allowManagedDomainsOnly: true, values from project settings (.claude/settings.json and
    .claude/settings.local.json) are ignored. With network.allowManagedDomainsOnly, only managed
    settings supply it.
    """
    deniedDomains: NotRequired[list[str]]
    """Domains that are always blocked, even if matched by allowedDomains. Supports the same wildcard
    syntax as allowedDomains. Merged from all settings sources regardless of
    allowManagedDomainsOnly.
    """
    strictAllowlist: NotRequired[bool]
    """When true, the sandbox runtime deterministically denies hosts not in allowedDomains instead of
    prompting. Enforced for sandboxed commands only — in-process tools such as WebFetch are not
    gated by this setting. Only honored from user, managed/policy, or CLI (--settings) settings —
    project settings (.claude/settings.json and .claude/settings.local.json) are ignored, and while
    it is on their allowedDomains and WebFetch(domain:…) allow rules are left out of the allowlist.
    """
    allowManagedDomainsOnly: NotRequired[bool]
    """When true (and set in managed settings), only allowedDomains and WebFetch(domain:...) allow
    rules from managed settings are respected. User, project, local, and flag settings domains are
    ignored. Denied domains are still respected from all sources.
    """
    allowUnixSockets: NotRequired[list[str]]
    """macOS only: Unix socket paths to allow. Ignored on Linux (seccomp cannot filter by path). Merged
    across settings sources. When managed settings or a --settings file set
    allowUnsandboxedCommands: false, or managed settings set network.allowManagedDomainsOnly: true,
    values from project settings (.claude/settings.json and .claude/settings.local.json) are
    ignored.
    """
    allowAllUnixSockets: NotRequired[bool]
    """If true, allow all Unix sockets (disables blocking on both platforms). When managed settings or
    a --settings file set allowUnsandboxedCommands: false, or managed settings set
    network.allowManagedDomainsOnly: true, true from project settings (.claude/settings.json and
    .claude/settings.local.json) is ignored (false there still applies).
    """
    allowLocalBinding: NotRequired[bool]
    """macOS only: If true, sandboxed commands can bind to localhost ports. When managed settings or a
    --settings file set allowUnsandboxedCommands: false, or managed settings set
    network.allowManagedDomainsOnly: true, true from project settings (.claude/settings.json and
    .claude/settings.local.json) is ignored (false there still applies).
    """
    allowMachLookup: NotRequired[list[str]]
    """macOS only: Additional XPC/Mach service names to allow looking up. Supports trailing-wildcard
    prefix matching (e.g., "com.apple.CoreSimulator.*"). Needed for tools that communicate via XPC
    such as the iOS Simulator or Playwright. Each entry lets sandboxed commands reach services
    outside the sandbox, and the sandbox does not confine what those services do for them. Merged
    across settings sources. When managed settings or a --settings file set
    allowUnsandboxedCommands: false, or managed settings set network.allowManagedDomainsOnly: true,
    values from project settings (.claude/settings.json and .claude/settings.local.json) are
    ignored.
    """
    httpProxyPort: NotRequired[float]
    """Local TCP port of your own HTTP proxy for sandboxed traffic, used instead of the proxy Claude
    Code runs. When managed settings or a --settings file set allowUnsandboxedCommands: false,
    network.deniedDomains or a WebFetch(domain:…) deny rule, when managed settings set
    network.allowManagedDomainsOnly: true, or when managed, --settings or user settings set
    network.strictAllowlist: true, values from project settings (.claude/settings.json and
    .claude/settings.local.json) are ignored. With network.allowManagedDomainsOnly, only managed
    settings may set it.
    """
    socksProxyPort: NotRequired[float]
    """Local TCP port of your own SOCKS5 proxy for sandboxed traffic, used instead of the proxy Claude
    Code runs. When managed settings or a --settings file set allowUnsandboxedCommands: false,
    network.deniedDomains or a WebFetch(domain:…) deny rule, when managed settings set
    network.allowManagedDomainsOnly: true, or when managed, --settings or user settings set
    network.strictAllowlist: true, values from project settings (.claude/settings.json and
    .claude/settings.local.json) are ignored. With network.allowManagedDomainsOnly, only managed
    settings may set it.
    """
    tlsTerminate: NotRequired[SettingsSandboxNetworkTlsTerminate]
    """[EXPERIMENTAL] Enable in-process TLS termination so the per-request filter can see HTTPS request
    bodies. Provide a CA cert+key, or omit both to have sandbox-runtime generate an ephemeral one
    for the session. On native Windows an ephemeral CA cannot pass the sandbox trust check, so
    omitting the paths uses a persistent CA managed by the sandbox runtime (set up and trusted via
    /sandbox install); configured paths are passed to the sandbox runtime verbatim, which rejects a
    bad or incomplete pair at sandbox initialization. Only honored from user, managed/policy, or CLI
    (`--settings`) settings — project settings (.claude/settings.json and
    .claude/settings.local.json) are ignored.
    """


class SettingsSandboxFilesystem(TypedDict):
    allowWrite: NotRequired[list[str]]
    """Additional paths to allow writing within the sandbox. Merged with paths from Edit(...) allow
    permission rules. When managed settings or a --settings file set allowUnsandboxedCommands:
    false, or managed settings set network.allowManagedDomainsOnly: true, values from project
    settings (.claude/settings.json and .claude/settings.local.json) are ignored. When managed
    settings or a --settings file set filesystem.denyRead, a Read(…) deny rule or a
    credentials.files entry (deny or mask), a value from project settings (.claude/settings.json and
    .claude/settings.local.json) under or equal to a denied path, or spelled as a glob or a network
    path (UNC or automount), is ignored. A value inside a directory sandboxed commands can already
    write is re-checked before every command and dropped once it has been re-pointed into a denied
    read path.
    """
    denyWrite: NotRequired[list[str]]
    """Additional paths to deny writing within the sandbox. Merged with paths from Edit(...) deny
    permission rules.
    """
    denyRead: NotRequired[list[str]]
    """Additional paths to deny reading within the sandbox. Merged with paths from Read(...) deny
    permission rules.
    """
    allowRead: NotRequired[list[str]]
    """Paths to re-allow reading within denyRead regions. Takes precedence over denyRead for matching
    paths. When managed settings or a --settings file set allowUnsandboxedCommands: false,
    filesystem.denyRead, a Read(…) deny rule or a credentials.files entry (deny or mask), or managed
    settings set network.allowManagedDomainsOnly: true, a value from project settings
    (.claude/settings.json and .claude/settings.local.json) that would re-open a path managed,
    --settings or user settings deny reading is ignored, as is one spelled as a glob or a network
    path (UNC or automount); one carving out of the project's own denyRead still applies. A value
    inside a directory sandboxed commands can write is re-checked before every command and dropped
    once it has been re-pointed into a denied path.
    """
    allowManagedReadPathsOnly: NotRequired[bool]
    """When true (set in managed settings), only allowRead paths from policySettings are used."""
    disabled: NotRequired[bool]
    """macOS and Linux/WSL only: skip filesystem isolation entirely while keeping network and seccomp
    isolation. Ignored on native Windows, where the sandboxed process runs as a separate user with
    no inherent rights, so skipping the filesystem rules would withhold every access grant rather
    than loosen them — filesystem isolation stays on there. Sandboxed commands get unrestricted
    read/write access to the host filesystem; network egress is still confined to
    network.allowedDomains. Intended for deployments whose goal is egress control rather than
    filesystem containment. Does not change Bash prompting: sandbox.autoAllowBashIfSandboxed is
    independent and still defaults to false, so sandboxed commands keep going through the permission
    flow unless it is set to true. Drops the read protection from filesystem.denyRead and
    credentials.files deny entries for sandboxed commands, since both are enforced by the filesystem
    layer this turns off; credentials.files mask entries (sentinel binds) and credentials.envVars
    deny/mask are unaffected. Only honored from user, managed/policy, or CLI (`--settings`) settings
    — project settings (.claude/settings.json and .claude/settings.local.json) are ignored. If
    managed settings configure sandbox.filesystem at all, or list any sandbox.credentials.files deny
    entry, only managed settings can set this: an admin who deployed filesystem restrictions must
    not have them switched off by a user-writable file. (sandbox.credentials.envVars and
    credentials.files mask entries do not pin it — env scrubbing and sentinel binds are independent
    of the filesystem layer and survive this setting.) When unset, filesystem isolation stays on.
    """


class SettingsSandboxCredentialsFile(TypedDict):
    path: str
    """Path to a credential file or directory. Same resolution as sandbox.filesystem.* paths: absolute,
    ~ expanded, or relative to the settings file root (project root for project settings, ~/.claude
    for user settings).
    """
    mode: Literal["deny", "mask"]
    """Access mode for this path. `deny` blocks reads inside the sandbox; `mask` shows sandboxed
    commands a sentinel-substituted copy (whole-file, or only the spans captured by `extract`) and
    the host proxy swaps sentinel→real on egress to `injectHosts`. On macOS and Windows `mask`
    currently degrades to `deny`.
    """
    extract: NotRequired[str]
    """Optional regex for structured masking when mode is `mask`. Applied globally to the file; capture
    group 1 of each match is a credential value, and only those captured spans are replaced with
    sentinels — the rest of the file is preserved so a tool that parses it (.netrc, JSON, YAML)
    still succeeds. Without `extract`, the entire file content is replaced with one sentinel (whole-
    file masking, suited to single-secret files). If the regex matches nothing, behavior is governed
    by `onExtractNoMatch` (default `warn`). Accepted but ignored for `deny`.
    """
    onExtractNoMatch: NotRequired[Literal["warn", "deny", "error"]]
    """What to do when `extract` matches nothing in the file — or, with `decode`, when no candidate
    survives verification. `warn` (default) emits a stderr warning and leaves the file readable as-
    is inside the sandbox (fail-open, for credentials that may be legitimately absent); `deny`
    degrades the entry to mode `deny` so the file is unreadable (fail-closed) — under
    `sandbox.filesystem.disabled` it is treated as `error`, since read-denies are dropped in that
    mode; `error` aborts at sandbox setup so nothing runs until the config is fixed. Only meaningful
    when mode is `mask` and `extract` or `decode` is set; accepted but ignored otherwise.
    """
    decode: NotRequired[Literal["jwt"]]
    """Optional encoded-credential format for `mask` mode. `jwt`: candidates are located with a built-
    in JWT regex (or the explicit `extract` pattern, if set), verified to actually be JWTs before
    masking, and replaced with a structurally valid fake JWT so client-side token parsing inside the
    sandbox keeps working. If no candidate verifies, behavior is governed by `onExtractNoMatch`
    (default `warn`). Accepted but ignored for `deny`.
    """
    maskClaims: NotRequired[list[str]]
    """Names of top-level payload claims to mask inside each decoded value, instead of replacing the
    whole token. Each named claim present with a string value gets its own sentinel and the token is
    rebuilt around the modified payload; all other claims are preserved so a tool that decodes the
    token and reads a non-secret claim keeps working. Requires `decode`. If no named claim matches
    in any verified token, behavior is governed by `onExtractNoMatch` (default `warn`). Only
    meaningful when mode is `mask`; accepted but ignored for `deny`.
    """
    maskDuplicates: NotRequired[bool]
    """If true, verbatim occurrences of each captured credential value outside the regex-matched spans
    are also replaced with the corresponding sentinel — for a secret repeated where the regex does
    not reach (e.g. pasted into a comment). Matches raw substrings, so short or common values may
    corrupt unrelated content; intended for long, high-entropy secrets. Defaults to false. Only
    meaningful when mode is `mask` and `extract` or `decode` is set; accepted but ignored otherwise.
    """
    injectHosts: NotRequired[list[str]]
    """Optional narrowing of where the proxy substitutes this credential. Only meaningful when mode is
    `mask`; accepted but ignored for `deny`. If unset, defaults to `network.allowedDomains` — the
    credential is injected at every reachable host. Each entry must be reachable via
    `network.allowedDomains` (sandbox-runtime validates this).
    """


class SettingsSandboxCredentialsEnvVar(TypedDict):
    name: str
    """Environment variable name."""
    mode: Literal["deny", "mask"]
    """Access mode for this environment variable. `deny` unsets the variable for sandboxed commands;
    `mask` shows sandboxed commands a sentinel value and the host proxy swaps sentinel→real on
    egress to `injectHosts`.
    """
    extract: NotRequired[str]
    """Optional regex for structured masking when mode is `mask`. Applied globally to the value;
    capture group 1 of each match is a credential value, and only those captured spans are replaced
    with sentinels — the rest of the value is preserved so a tool that parses it (a `DATABASE_URL`
    connection string, a composite `KEY:SECRET` pair) still succeeds inside the sandbox. Without
    `extract`, the entire value is replaced with one sentinel (whole-value masking, suited to bare
    tokens). If the regex matches nothing, behavior is governed by `onExtractNoMatch` (default
    `warn`). Cannot be combined with `decode` (the decode path never consults it). Accepted but
    ignored for `deny`.
    """
    onExtractNoMatch: NotRequired[Literal["warn", "deny", "error"]]
    """What to do when `extract` matches nothing in the value. `warn` (default) emits a stderr warning
    and lets the variable pass through unmasked (fail-open, for credentials that may be legitimately
    absent); `deny` unsets the variable inside the sandbox (fail-closed); `error` aborts at sandbox
    setup so nothing runs until the config is fixed. Only meaningful when mode is `mask` and
    `extract` is set without `decode`. On a mask entry with `decode`, the runtime takes the decode
    path and never consults this field, so a fail-closed setting cannot be honored — `deny` and
    `error` are rejected there; only `warn` is accepted. In all other shapes the field is accepted
    but ignored.
    """
    decode: NotRequired[Literal["jwt"]]
    """Optional encoded-credential format for `mask` mode. `jwt`: the variable's whole value is
    verified to actually be a JWT and replaced with a structurally valid fake JWT so client-side
    token parsing inside the sandbox keeps working; the proxy swaps the whole fake token on egress.
    If the value does not verify, the variable is left unmasked with a stderr warning (fail-open).
    Cannot be combined with `extract` — the decode path never consults it. Accepted but ignored for
    `deny`.
    """
    maskClaims: NotRequired[list[str]]
    """Names of top-level payload claims to mask inside the decoded value, instead of replacing the
    whole token. Each named claim present with a string value gets its own sentinel and the token is
    rebuilt around the modified payload; all other claims are preserved so claim-reading clients
    keep working. Requires `decode`. If no named claim matches, the variable is left unmasked with a
    stderr warning (fail-open). Only meaningful when mode is `mask`; accepted but ignored for
    `deny`.
    """
    injectHosts: NotRequired[list[str]]
    """Optional narrowing of where the proxy substitutes this credential. Only meaningful when mode is
    `mask`; accepted but ignored for `deny`. If unset, defaults to `network.allowedDomains` — the
    credential is injected at every reachable host. A masked AWS secret key that signs requests is
    the exception: with no list it is never injected. Each entry must be reachable via
    `network.allowedDomains` (sandbox-runtime validates this).
    """


class SettingsSandboxCredentialsAwsPair(TypedDict):
    accessKeyIdVar: str
    """Name of the masked env var holding the AWS access key id."""
    secretAccessKeyVar: str
    """Name of the masked env var holding the AWS secret access key."""
    sessionTokenVar: NotRequired[str]
    """Optional name of the masked env var holding the AWS session token (temporary credentials). When
    set, the proxy sends the real token as x-amz-security-token on re-signed requests and adds it to
    the signed header set if the client did not.
    """


class SettingsSandboxCredentialsSigv4(TypedDict):
    streaming: NotRequired[Literal["deny", "passthrough"]]
    """Policy for aws-chunked streaming uploads (x-amz-content-sha256: STREAMING-*): per-chunk
    signatures chain off the seed signature, so re-signing would require rewriting the body. `deny`
    (default) fails closed with a 403; `passthrough` forwards the request unre-signed (the upstream
    will reject its signature).
    """
    presigned: NotRequired[Literal["deny", "passthrough"]]
    """Policy for presigned URLs (X-Amz-Algorithm/X-Amz-Signature in the query, no Authorization
    header): the signature lives in the URL itself. `deny` (default) or `passthrough`.
    """
    sigv4a: NotRequired[Literal["deny", "passthrough"]]
    """Policy for SigV4A (AWS4-ECDSA-P256-SHA256) asymmetric signatures: there is no shared-key HMAC to
    recompute. `deny` (default) or `passthrough`.
    """


class SettingsSandboxCredentials(TypedDict):
    files: NotRequired[list[SettingsSandboxCredentialsFile]]
    """Credential files or directories to protect. `deny` blocks reads inside the sandbox; `mask`
    substitutes a sentinel inside the sandbox (whole-file, or per-`extract` capture) and injects the
    real value at the proxy. On macOS and Windows `mask` degrades to `deny`.
    """
    envVars: NotRequired[list[SettingsSandboxCredentialsEnvVar]]
    """Environment variables to protect. `deny` unsets the variable for sandboxed commands; `mask`
    substitutes a sentinel inside the sandbox and injects the real value at the proxy.
    """
    allowPlaintextInject: NotRequired[bool]
    """Allow sentinel→real substitution on the plain-HTTP proxy path. Defaults to false: without TLS
    termination the upstream identity is unverified and the credential travels in cleartext. Set
    only for trusted-network test fixtures. Only honored from user, managed/policy, or CLI
    (`--settings`) settings — project settings (.claude/settings.json and
    .claude/settings.local.json) are ignored.
    """
    awsPairs: NotRequired[list[SettingsSandboxCredentialsAwsPair]]
    """Explicit groupings of masked env vars into AWS credential pairs for SigV4 re-signing, for non-
    standard variable names. The conventional AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY /
    AWS_SESSION_TOKEN trio is paired automatically when masked. Only honored from user,
    managed/policy, or CLI (`--settings`) settings — project settings (.claude/settings.json and
    .claude/settings.local.json) are ignored. A member is only usable when its env var is forwarded
    as a whole-value `mask` entry (an entry carrying `extract` or `decode` does not qualify — re-
    signing needs the whole real value). A pair whose key id or secret member is unusable never re-
    signs: it is dropped, unless it names a conventional AWS variable, in which case it is forwarded
    as an inert suppressor so implicit auto-pairing stays overridden. A pair whose ONLY unusable
    member is the session token still re-signs, without an x-amz-security-token (temporary-
    credential requests fail upstream until the entry is fixed).
    """
    sigv4: NotRequired[SettingsSandboxCredentialsSigv4]
    """Policies for AWS SigV4 request shapes the proxy cannot re-sign (streaming, presigned, sigv4a)
    when they reference a masked credential pair: `deny` (default) or `passthrough`. Only honored
    from user, managed/policy, or CLI (`--settings`) settings — project settings
    (.claude/settings.json and .claude/settings.local.json) are ignored.
    """


class SettingsSandboxRipgrep(TypedDict):
    command: str
    args: NotRequired[list[str]]


class SettingsSandbox(TypedDict):
    """Keys not listed here are allowed too."""

    enabled: NotRequired[bool]
    """Run Bash commands inside the sandbox. Default: false. When managed settings or a --settings file
    set allowUnsandboxedCommands: false, or managed settings set network.allowManagedDomainsOnly:
    true, and managed, --settings or user settings set true, false from project settings
    (.claude/settings.json and .claude/settings.local.json) is ignored (true there still applies).
    """
    failIfUnavailable: NotRequired[bool]
    """Exit with an error at startup if sandbox.enabled is true but the sandbox cannot start (missing
    dependencies or unsupported platform). When false (default), a warning is shown and commands run
    unsandboxed. Intended for managed-settings deployments that require sandboxing as a hard gate. A
    Claude Code on the web, scheduled-task or Cowork cloud session (Anthropic's cloud container,
    which has no command sandbox) starts anyway with a warning: the container isolates it, and the
    sandbox.filesystem and sandbox.network rules in settings are not enforced there. When managed
    settings or a --settings file set allowUnsandboxedCommands: false, or managed settings set
    network.allowManagedDomainsOnly: true, and managed, --settings or user settings set true, false
    from project settings (.claude/settings.json and .claude/settings.local.json) is ignored (true
    there still applies).
    """
    autoAllowBashIfSandboxed: NotRequired[bool]
    """macOS and Linux/WSL only: approve a Bash command that will run inside the sandbox without a
    permission prompt, unless a deny rule, a command-specific ask rule or a safety check stops it.
    Default: false, so sandboxed commands go through the same permission flow as any other command.
    Has no effect on native Windows.
    """
    allowUnsandboxedCommands: NotRequired[bool]
    """Allow commands to run outside the sandbox via the dangerouslyDisableSandbox parameter. When
    false, the dangerouslyDisableSandbox parameter is completely ignored and all commands must run
    sandboxed. Default: true. A false in managed, --settings or user settings holds whatever project
    settings (.claude/settings.json and .claude/settings.local.json) say (false there still
    applies).
    """
    network: NotRequired[SettingsSandboxNetwork]
    filesystem: NotRequired[SettingsSandboxFilesystem]
    credentials: NotRequired[SettingsSandboxCredentials]
    ignoreViolations: NotRequired[dict[str, list[str]]]
    """Sandbox violations to leave unreported: a map of command patterns ("*" for every command) to the
    filesystem paths whose violations are ignored. Merged across settings sources. When managed
    settings or a --settings file set allowUnsandboxedCommands: false, or managed settings set
    network.allowManagedDomainsOnly: true, values from project settings (.claude/settings.json and
    .claude/settings.local.json) are ignored.
    """
    enableWeakerNestedSandbox: NotRequired[bool]
    """Linux only: Run without the fresh /proc mount, for hosts such as unprivileged Docker containers
    that cannot create one. **Reduces security** — the host /proc stays readable by sandboxed
    commands. Default: false. When managed settings or a --settings file set
    allowUnsandboxedCommands: false, or managed settings set network.allowManagedDomainsOnly: true,
    true from project settings (.claude/settings.json and .claude/settings.local.json) is ignored
    (false there still applies).
    """
    allowNestedUserNamespaces: NotRequired[bool]
    """Linux/WSL only: Let sandboxed commands create user namespaces of their own, which the sandbox
    refuses by default. Needed by tools that sandbox themselves that way, such as Chromium's and
    Electron's sandbox, a nested bubblewrap, and `unshare`. **Removes code-execution isolation** —
    in any folder a hostile command may write, it can then bypass filesystem.denyWrite,
    filesystem.denyRead, credentials.files entries and the paths the sandbox always write-protects
    (such as .claude/settings.json, git hooks and git config), and so plant code that later runs
    outside the sandbox; while autoAllowBashIfSandboxed is on, the command that plants it needs no
    approval. Default: false. Only honored from user, managed/policy, or CLI (--settings) settings —
    true from project settings (.claude/settings.json and .claude/settings.local.json) is ignored
    (false there still applies).
    """
    enableWeakerNetworkIsolation: NotRequired[bool]
    """macOS only: Allow access to com.apple.trustd.agent in the sandbox. Needed for Go-based CLI tools
    (gh, gcloud, terraform, etc.) to verify TLS certificates when using httpProxyPort with a MITM
    proxy and custom CA. **Reduces security** — opens a potential data exfiltration vector through
    the trustd service. Default: false. When managed settings or a --settings file set
    allowUnsandboxedCommands: false, or managed settings set network.allowManagedDomainsOnly: true,
    true from project settings (.claude/settings.json and .claude/settings.local.json) is ignored
    (false there still applies).
    """
    allowAppleEvents: NotRequired[bool]
    """macOS only: Allow sandboxed commands to send Apple Events (and look up the appleeventsd Mach
    service). Needed for `open`, `osascript`, and browser-based auth flows that open URLs. **Removes
    code-execution isolation** — sandboxed commands can launch other applications unsandboxed with
    no user prompt, and can script running apps (e.g. Terminal) subject to the user's per-app TCC
    automation consent. Only honored from user, managed/policy, or CLI (--settings) settings —
    project settings (.claude/settings.json and .claude/settings.local.json) are ignored. Default:
    false
    """
    excludedCommands: NotRequired[list[str]]
    """Command patterns (Bash permission-rule syntax) for commands to run outside the sandbox. An entry
    takes a call out of the sandbox only when every command in the call matches an entry: in a Bash
    pipe or a chain such as `a && b`, each part needs its own match. Some calls stay sandboxed
    whatever the entries, such as one with a `cd`, a command substitution, or a redirect other than
    a file-descriptor duplication like `2>&1`, a heredoc included. A convenience, not a security
    boundary: excluded commands still go through the permission flow. Merged across settings
    sources. When managed settings or a --settings file set allowUnsandboxedCommands: false, or
    managed settings set network.allowManagedDomainsOnly: true, values from project settings
    (.claude/settings.json and .claude/settings.local.json) are ignored.
    """
    ripgrep: NotRequired[SettingsSandboxRipgrep]
    """Custom ripgrep configuration for bundled ripgrep support. Only honored from user,
    managed/policy, or CLI (--settings) settings — project settings (.claude/settings.json and
    .claude/settings.local.json) are ignored.
    """
    bwrapPath: NotRequired[str]
    """Linux/WSL only: Absolute path to the bwrap (bubblewrap) binary. Overrides auto-detection via
    PATH. Only honored from admin-controlled managed settings.
    """
    socatPath: NotRequired[str]
    """Linux/WSL only: Absolute path to the socat binary used for the sandbox network proxy. Overrides
    auto-detection via PATH. Only honored from admin-controlled managed settings.
    """


class SettingsSpinnerVerbs(TypedDict):
    mode: Literal["append", "replace"]
    verbs: list[str]


class SettingsSpinnerTipsOverride(TypedDict):
    """Keys not listed here are allowed too."""

    excludeDefault: NotRequired[bool]
    tips: NotRequired[list[str | dict[str, Any]]]
    tipsFile: NotRequired[str]
    """Absolute or ~/ local path to a JSON file holding an array of tips (same shapes as `tips`);
    honored from user, --settings and on-disk managed settings only. Read once per CLI process
    (restart to pick up edits).
    """
    label: NotRequired[str]
    """Prefix shown before your tips in the spinner (default "Tip")"""


class SettingsSpellcheck(TypedDict):
    """Keys not listed here are allowed too."""

    enabled: NotRequired[bool]
    """Turn on spell checking of the prompt input (default: false)"""
    checker: NotRequired[str]
    """Which spell checker to run: "aspell", "hunspell", "ispell", or "auto" (default) for the first of
    those found on PATH
    """
    language: NotRequired[str]
    """Dictionary to use, passed to the checker as-is (aspell --lang, hunspell -d, ispell -d), e.g.
    "en_GB"; names are checker-specific (letters, digits and _ - . , only). Default: the checker's
    own default
    """
    color: NotRequired[str]
    """Color of misspelled words (they are also underlined): a terminal color name such as "red" or
    "magenta", "#rrggbb", "rgb(r,g,b)", "ansi256(n)" or "ansi:<name>". Default: the theme's error
    color
    """


class SettingsModelSettings(TypedDict):
    """Keys not listed here are allowed too."""

    effortLevel: NotRequired[Literal["low", "medium", "high", "xhigh"]]
    """Persisted effort level for this model."""
    maxEffortLevel: NotRequired[Literal["low", "medium", "high", "xhigh", "max"]]
    """Maximum effort level for this model. Within one settings file it replaces the top-level
    maxEffortLevel for the model ("max" exempts it); across settings files the lowest applicable
    value wins. Keyed like effortLevel: the canonical model name also matches its dated, [1m],
    Bedrock and Vertex spellings.
    """
    autoCompactWindow: NotRequired[Literal["auto"] | float]
    """Auto-compact window for this model, in tokens (at least 100000), or "auto" for the window tuned
    for the model. Within one settings file it replaces the top-level autoCompactWindow for the
    model. /autocompact saves here. The canonical model name as key also matches its dated, [1m],
    Bedrock and Vertex spellings.
    """


class SettingsPluginConfigs1(TypedDict):
    mcpServers: NotRequired[dict[str, dict[str, str | float | bool | list[str]]]]
    """User configuration values for MCP servers keyed by server name"""
    options: NotRequired[dict[str, str | float | bool | list[str]]]
    """Non-sensitive option values from plugin manifest userConfig, keyed by option name. Sensitive
    values go to secure storage instead.
    """


class SettingsRemote(TypedDict):
    defaultEnvironmentId: NotRequired[str]
    """Default environment ID to use for cloud sessions"""


class SettingsVoice(TypedDict):
    enabled: NotRequired[bool]
    mode: NotRequired[Literal["hold", "tap"]]
    """'hold' (default): hold to talk. 'tap': tap to start, tap to stop+submit."""
    autoSubmit: NotRequired[bool]
    """Submit the prompt when hold-to-talk is released (hold mode only)"""


class SettingsAllowedChannelPlugin(TypedDict):
    marketplace: str
    plugin: str


class SettingsSshConfig(TypedDict):
    id: str
    """Unique identifier for this SSH config. Used to match configs across settings sources."""
    name: str
    """Display name for the SSH connection"""
    sshHost: str
    """SSH host in format "user\\@hostname" or "hostname", or a host alias from ~/.ssh/config"""
    sshPort: NotRequired[float]
    """SSH port (default: 22)"""
    sshIdentityFile: NotRequired[str]
    """Path to SSH identity file (private key)"""
    startDirectory: NotRequired[str]
    """Default working directory on the remote host. Supports tilde expansion (e.g. ~/projects). If not
    specified, defaults to the remote user home directory. Can be overridden by the [dir] positional
    argument in `claude ssh <config> [dir]`.
    """


class SettingsAutoMode(TypedDict):
    allow: NotRequired[list[str]]
    """Rules for the auto mode classifier allow section. Include the literal string "$defaults" to
    inherit the built-in rules at that position.
    """
    soft_deny: NotRequired[list[str]]
    """Rules for the auto mode classifier SOFT BLOCK section — destructive/irreversible actions that
    user intent can clear. Include the literal string "$defaults" to inherit the built-in rules at
    that position.
    """
    hard_deny: NotRequired[list[str]]
    """Rules for the auto mode classifier HARD BLOCK section — security boundaries that user intent
    does NOT clear. Include the literal string "$defaults" to inherit the built-in rules at that
    position.
    """
    environment: NotRequired[list[str]]
    """Entries for the auto mode classifier environment section. Include the literal string "$defaults"
    to inherit the built-in entries at that position.
    """
    classifyAllShell: NotRequired[bool]
    """When true, every Bash/PowerShell allow rule is suspended while auto mode is active so all shell
    commands are routed through the classifier (higher safety, more classifier calls). Default:
    false.
    """


_SettingsKeys = TypedDict("_SettingsKeys", {"$schema": NotRequired[str]})


class Settings(_SettingsKeys):
    """A settings file's keys (``settings=`` takes a path, JSON text or one of these).

    Also: ``$schema``.

    Keys not listed here are allowed too.
    """

    apiKeyHelper: NotRequired[str]
    """Path to a script that outputs authentication values"""
    proxyAuthHelper: NotRequired[str]
    """Shell command that outputs a Proxy-Authorization header value (EAP)"""
    awsCredentialExport: NotRequired[str]
    """Path to a script that exports AWS credentials"""
    awsAuthRefresh: NotRequired[str]
    """Path to a script that refreshes AWS authentication"""
    gcpAuthRefresh: NotRequired[str]
    """Command to refresh GCP authentication (e.g., gcloud auth application-default login)"""
    processWrapper: NotRequired[str]
    """Corporate launcher argv prefix for the background-agent supervisor, the sessions and workers it
    hosts, and the other covered background processes listed in the Claude Code corporate-launcher
    documentation. Equivalent to the CLAUDE_CODE_PROCESS_WRAPPER environment variable, which takes
    precedence when set. Honored from managed settings, a --settings/SDK-supplied settings file, and
    user settings, in that precedence order; project and local settings are ignored.
    """
    policyHelper: NotRequired[SettingsPolicyHelper]
    """Executable that computes managed settings at startup. Honored only from admin-controlled policy
    sources.
    """
    fileSuggestion: NotRequired[SettingsFileSuggestion]
    """Custom file suggestion configuration for \\@ mentions"""
    respectGitignore: NotRequired[bool]
    """Whether file picker should respect .gitignore files (default: true). Note: .ignore files are
    always respected.
    """
    cleanupPeriodDays: NotRequired[float]
    """Number of days to retain chat transcripts before automatic cleanup (default: 30). Minimum 1. Use
    a large value for long retention; use --no-session-persistence to disable transcript writes
    entirely. Cleanup deletes data only on this computer, not anything stored by Anthropic.
    """
    desktopSessionCleanupPeriodDays: NotRequired[float]
    """Retention ceiling in days for session transcripts created or last written by a desktop-host
    surface (Claude Desktop, Cowork), which are otherwise exempt from the cleanupPeriodDays sweep. 0
    (the default) means no ceiling: such transcripts are kept until deleted another way. Unlike
    cleanupPeriodDays, 0 is allowed because this setting never disables writes — it only bounds an
    exemption from deletion. The ceiling is a hard cap: it also bounds an active archive grace, so
    the grace window of a release marker never keeps files past the ceiling. Ignored when
    cleanupPeriodDays is managed by org policy. A ceiling at or below cleanupPeriodDays effectively
    disables the exemption: those transcripts age out on the regular cleanupPeriodDays schedule, so
    the effective retention is whichever of the two periods is longer. Cleanup deletes data only on
    this computer, not anything stored by Anthropic.
    """
    syncClaudeAiSkills: NotRequired[bool]
    """Set to false to turn off syncing of the skills you have enabled on claude.ai. In your user
    settings (or managed settings): nothing more is downloaded, previously synced skills
    (~/.claude/skills/synced) can no longer be run, are hidden from every session started
    afterwards, and are moved to ~/.claude/skills/.trash at the next launch (deleted after
    cleanupPeriodDays; re-downloaded, not restored, if you re-enable). In
    .claude/settings.local.json or --settings: downloads stop and synced skills are blocked and
    hidden for sessions in that workspace or invocation only (nothing is moved). Not read from
    project settings (.claude/settings.json). Only false is honored — the feature is enabled server-
    side for your account, so setting true does not turn it on early. While it is on, synced skills
    are available in every session, re-synced about every 10 minutes while a session is in use and a
    quarter as often otherwise, and removed when you disable them on claude.ai. Only applies when
    signed in with your Claude account.
    """
    syncClaudeAiPlugins: NotRequired[bool]
    """Set to false to turn off syncing of the plugins you have enabled on claude.ai. In your user
    settings (or managed settings): nothing more is downloaded, previously synced plugins
    (~/.claude/plugins/synced) are hidden from every session started afterwards and moved to
    ~/.claude/plugins/.trash at the next launch (deleted after cleanupPeriodDays; re-downloaded, not
    restored, if you re-enable). In .claude/settings.local.json or --settings: downloads stop and
    synced plugins are hidden for sessions in that workspace or invocation only (nothing is moved).
    Not read from project settings (.claude/settings.json). Only false is honored — the feature is
    enabled server-side for your account, so setting true does not turn it on early. While it is on,
    synced plugins load in every session like plugins you installed yourself (a plugin you installed
    with the same name takes precedence), are re-synced at each launch, and are removed when you
    disable them on claude.ai. Only applies when signed in with your Claude account.
    """
    skillListingMaxDescChars: NotRequired[float]
    """Per-skill description character cap in the skill listing sent to Claude (default: 1536).
    Descriptions longer than this are truncated. Raise to opt in to higher per-turn context cost.
    """
    skillListingBudgetFraction: NotRequired[float]
    """Fraction of the context window (in characters) reserved for the skill listing sent to Claude
    (default: 0.01 = 1%). When the listing exceeds this, descriptions are shortened to fit. Raise to
    opt in to higher per-turn context cost.
    """
    wslInheritsWindowsSettings: NotRequired[bool]
    """When set to true in either admin-only Windows source — the HKLM SOFTWARE/Policies/ClaudeCode
    registry key or C:/Program Files/ClaudeCode/managed-settings.json — WSL reads managed settings
    from the full Windows policy chain (HKLM, C:/Program Files/ClaudeCode via DrvFs, HKCU) in
    addition to /etc/claude-code. Windows sources take priority. The flag is also required in HKCU
    itself for HKCU policy to apply on WSL (double opt-in: admin enables the chain, user confirms
    HKCU). On native Windows the flag has no effect.
    """
    env: NotRequired[dict[str, str]]
    """Environment variables to set for Claude Code sessions"""
    attribution: NotRequired[bool | SettingsAttribution]
    """Customize attribution text for commits and PRs. Each field defaults to the standard Claude Code
    attribution if not set. Set to false to hide all attribution, the same as { "commit": "", "pr":
    "", "sessionUrl": false }. Setting it to true is the same as leaving it out. Older Claude Code
    versions reject true or false here, so use the object form in settings files shared across
    versions.
    """
    attributionProject: NotRequired[str]
    """The claude.ai Project this session names for your organization's usage reports: the Project's
    ID, starting with "claude_proj_" or "chan_", or the UUID of a "claude_proj_" Project. An empty
    string names none and stops lower-precedence files from naming one; the organization default
    still applies. A Project is sent only when Claude Code uses your claude.ai login, connects
    directly to the Anthropic API, is not in a cloud session, and CLAUDE_CODE_ATTRIBUTION_HEADER is
    not 0. CLAUDE_CODE_ATTRIBUTION_PROJECT takes precedence over it. Set in managed settings, it
    overrides people's own settings files. A project's .claude/settings.json and settings.local.json
    count only once the folder is trusted; for runs in a folder nobody has trusted, such as CI, use
    CLAUDE_CODE_ATTRIBUTION_PROJECT. Behind a Claude apps gateway that reports usage by group, name
    one of your groups instead, such as "payments"; CLAUDE_CODE_ATTRIBUTION_HEADER does not affect
    that.
    """
    attributionProjectPolicy: NotRequired[SettingsAttributionProjectPolicy]
    """Your organization's default for attributionProject. Only honored from managed settings (server-
    managed, MDM / OS policy, or managed-settings.json); ignored in user, project, local and
    --settings sources.
    """
    includeCoAuthoredBy: NotRequired[bool]
    """Deprecated: Use attribution instead. Whether to include Claude's co-authored by attribution in
    commits and PRs (defaults to true)
    """
    includeGitInstructions: NotRequired[bool]
    """Include built-in commit and PR workflow instructions in Claude's system prompt (default: true)
    """
    permissions: NotRequired[SettingsPermissions]
    """Tool usage permissions configuration"""
    model: NotRequired[str]
    """Override the default model used by Claude Code"""
    fallbackModel: NotRequired[list[str]]
    """Fallback model(s) tried in order when the primary model is overloaded or unavailable. Each
    element accepts a model name or alias; "default" expands to the default model. CLI --fallback-
    model takes precedence.
    """
    availableModels: NotRequired[list[str]]
    """Allowlist of models that users can select. Accepts family aliases ("opus" allows any opus
    version), version prefixes ("opus-4-5" allows that version and any model ID that extends it, so
    "claude-opus-5" also allows "claude-opus-5-5"), and full model IDs. An entry with a path before
    the model ID (a gateway route such as "route/claude-opus-5") does not allow the plain ID
    ("claude-opus-5"): list the plain ID too if some sessions send requests directly to the
    Anthropic API. If undefined, all models are available. If empty array, only the default model is
    available. Typically set in managed settings by enterprise administrators.
    """
    enforceAvailableModels: NotRequired[bool]
    """When true and availableModels is a non-empty array, the Default model selection is also
    constrained: if the default model for the user tier is not in availableModels, Default resolves
    to the first allowed availableModels entry instead. Has no effect when availableModels is unset
    or an empty array. Typically set in managed settings by enterprise administrators.
    """
    availableModelsMatch: NotRequired[Literal["prefix", "exact"]]
    """How availableModels entries match model IDs. "prefix" (the default) lets an entry also allow any
    model ID that extends it, so "claude-opus-5" allows "claude-opus-5-5". "exact" keeps that
    matching but stops a model ID entry from allowing other versions: "claude-opus-5" allows Opus 5
    and its dated and -fast IDs, but not Opus 5.5 or a later release until it is listed, and a
    -latest ID needs a -latest entry. Family aliases ("opus") still allow the whole family; aliases
    whose model depends on the release or settings (best, opusplan, default) are ignored. With
    "exact" and a list that names at least one model, the Default option also uses only a listed
    model; if none can be used, Claude Code will not start. Haiku background models, and hooks and
    other helper requests that pick their own model, are not restricted (deniedModels covers them;
    allowManagedHooksOnly limits hooks). Read from managed settings only.
    """
    deniedModels: NotRequired[list[str]]
    """Models users cannot select, even when availableModels allows them. A family alias ("opus")
    blocks that family. A model ID blocks that version in every spelling: dates, -fast and provider
    prefixes are ignored, so "claude-opus-5-5" blocks every Opus 5.5 ID but not Opus 5. An ID with
    no minor version ("claude-opus-5") also blocks later minor versions, as it allows them in
    availableModels. Aliases whose model depends on the release or settings (best, opusplan,
    default) are ignored. The Default option steps down past a blocked model; if the Default has no
    allowed model to step down to, Claude Code will not start. Read from managed settings only.
    """
    modelOverrides: NotRequired[dict[str, str]]
    """Override mapping from Anthropic model ID (e.g. "claude-opus-4-6") to provider-specific model ID
    (e.g. a Bedrock inference profile ARN). Typically set in managed settings by enterprise
    administrators.
    """
    modelPicker: NotRequired[SettingsModelPicker]
    """Curate the /model picker: an ordered list of models with your own labels, independent of the
    built-in lineup and of Claude Code releases. availableModels still applies to these rows.
    Honored from managed, --settings/SDK, and user settings only (not from a project checkout); the
    highest-precedence of those that defines modelPicker wins outright (no merging across sources).
    Typically set in managed settings by enterprise administrators.
    """
    modelPricing: NotRequired[SettingsModelPricing]
    """Price usage at your organization's contracted rates instead of list price. Affects every spend
    figure Claude Code reports — /cost, the status line, the SDK total_cost_usd, --max-budget-usd,
    and the OpenTelemetry cost metric and events — which remain USD estimates, not an invoice (the
    per-Mtok price labels in /model stay at list). "overrides" maps a model ID to its USD-per-
    million-token rates (input, output, cacheRead, cacheWrite — all four required, each 0 to 10000;
    cacheWrite prices both 5-minute and 1-hour cache writes). A matching row is charged exactly as
    written; fast-mode and US-data-residency surcharges are not added on top. A key Claude Code
    itself uses for a built-in model — its ID such as "claude-sonnet-4-6", or its first-party,
    Bedrock (any or no region prefix), Vertex or Foundry ID — covers every dated and provider form
    of that model; any other key — a gateway model alias, or a spelling Claude Code does not itself
    use — matches that model ID only (case-insensitive), and such an exact match wins over a built-
    in row. On Bedrock an application inference profile is matched by its backing model. An invalid
    row or multiplier is reported and skipped; the rest still apply. "multiplier" in (0, 10] scales
    every computed cost, overridden or not (0.85 = 85% of the price, 1.2 = 120%). Only honored from
    managed settings (server-managed, MDM / OS policy, or managed-settings.json), or — when none of
    those sets it — when supplied by a host application that manages the model provider; ignored in
    user, project, local and --settings sources.
    """
    enableAllProjectMcpServers: NotRequired[bool]
    """Whether to automatically approve all MCP servers in the project"""
    enabledMcpjsonServers: NotRequired[list[str]]
    """List of approved MCP servers from .mcp.json"""
    disabledMcpjsonServers: NotRequired[list[str]]
    """List of rejected MCP servers from .mcp.json"""
    disableClaudeAiConnectors: NotRequired[bool]
    """When true in any settings source, claude.ai MCP cloud connectors are not auto-fetched or
    connected, and a claudeai-proxy server passed explicitly (e.g. via --mcp-config or the SDK
    mcpServers option) does not connect either. Where a managed or served source sets it, the
    connectors that the desktop app's Code tab hands to a session do not connect either, from the
    app version that shows them as turned off. Any-source-true wins: a project can opt out, but a
    project-level false cannot override a user-level true.
    """
    skillOverrides: NotRequired[dict[str, Literal["on", "name-only", "user-invocable-only", "off"]]]
    """Per-skill listing overrides keyed by skill name. "name-only" lists the skill without its
    description; "user-invocable-only" hides it from the model but keeps /name; "off" hides it from
    both. Absent = on.
    """
    disableBundledSkills: NotRequired[bool]
    """Disable the skills and workflows that ship with Claude Code: bundled skills and workflows are
    removed entirely; built-in slash commands stay typable but are hidden from the model. Plugins,
    .claude/skills/, and .claude/commands/ are unaffected. Equivalent to
    CLAUDE_CODE_DISABLE_BUNDLED_SKILLS=1.
    """
    managedMcpServers: NotRequired[dict[str, dict[str, Any]]]
    """MCP servers the organization provides to every user, keyed by server name, each with the
    .mcp.json entry shape; only "http" and "sse" servers are accepted (nothing that names a program
    to run, no ${VAR} references). Honored from managed settings only; users cannot remove them,
    deniedMcpServers still applies, and they need no allowedMcpServers entry. Not read in Claude
    Desktop's Code tab on a third-party deployment or in Cowork sessions, where Claude Desktop
    supplies and locks the session's MCP servers itself.
    """
    allowedMcpServers: NotRequired[list[SettingsAllowedMcpServer]]
    """Enterprise allowlist of the MCP servers users may use. Governs servers users add (user, project
    and local config, --mcp-config, agent frontmatter, plugins, claude.ai connectors); servers the
    organization itself delivers (managedMcpServers, and managed-mcp.json entries with no ${VAR} in
    their command, args, url or header values) are allowed without being listed; a managed-mcp.json
    entry with ${VAR} in any of those must match this list. An entry found only in a project's
    .claude/settings.json or .claude/settings.local.json can admit a server the organization
    provides (managed-mcp.json, managedMcpServers, or a plugin that managed settings list in
    enabledPlugins) but can't keep one out. If undefined, all servers are allowed. If empty array,
    users can use no servers of their own. Denylist takes precedence - if a server is on both lists,
    it is denied.
    """
    deniedMcpServers: NotRequired[list[SettingsDeniedMcpServer]]
    """Enterprise denylist of MCP servers that are explicitly blocked. If a server is on the denylist,
    it will be blocked across all scopes including enterprise. An entry found only in a project's
    .claude/settings.json or .claude/settings.local.json does not apply to a server the organization
    provides (managed-mcp.json, managedMcpServers, or a plugin that managed settings list in
    enabledPlugins). Denylist takes precedence over allowlist - if a server is on both lists, it is
    denied.
    """
    hooks: NotRequired[dict[str, list[SettingsHook]]]
    """Custom commands to run before/after tool executions"""
    worktree: NotRequired[SettingsWorktree]
    """Git worktree configuration: the CLI --worktree flag, EnterWorktree and agent isolation, plus the
    location Claude Code Desktop uses for SSH-session worktrees on this machine.
    """
    disableAllHooks: NotRequired[bool]
    """Disable all hooks and statusLine execution: the hooks defined in settings files and by installed
    plugins. Features built into Claude Code are not hooks in this sense and keep working; each has
    its own switch.
    """
    disableReplyCheck: NotRequired[bool]
    """Disable the reply check in Claude Tag sessions on a self-hosted runner. The check re-prompts
    Claude, at most four times a turn, when a turn ends without a call to one of Claude Tag's reply
    tools. It is not a hook, so disableAllHooks does not affect it. Disabling it also stops two
    messages to Claude that Anthropic's service can request for such a session: a nudge after a long
    stretch of work with no visible update, and a reminder added to prompts. Claude Code's built-in
    reminder to give progress updates, on models that have it, is then no longer held back. Set it
    in managed settings; false there keeps the check on. Everywhere else it is ignored and the check
    stays on. Has no effect on sessions that Anthropic hosts.
    """
    disableAgentView: NotRequired[bool]
    """Disable agent view (`claude agents`, `--bg`, /background, the on-demand daemon). Typically set
    in managed settings. Equivalent to CLAUDE_CODE_DISABLE_AGENT_VIEW=1.
    """
    disableRemoteControl: NotRequired[bool]
    """Disable Remote Control (claude.ai/code, `claude remote-control`, `--remote-control`/`--rc`,
    auto-start, and the in-session toggle). Typically set in managed settings.
    """
    disableWorkflows: NotRequired[bool]
    """Disable the Workflows feature. Code Review on pull requests and /ultrareview run in Anthropic's
    cloud and are not stopped by this setting, except an /ultrareview that has to restart partway
    through. A machine that runs a review itself refuses it when that machine's own administrator
    set this, or CLAUDE_CODE_DISABLE_WORKFLOWS in an `env` block, in its managed settings (MDM, the
    managed-settings file or an administrator's policy helper). Set in the environment before Claude
    Code starts, CLAUDE_CODE_DISABLE_WORKFLOWS disables Workflows. Beyond the cases above it stops a
    review only when the review's own session starts with it set.
    """
    disableArtifact: NotRequired[bool]
    """Deprecated: use enableArtifact: false. Still honored — true turns Artifacts off; false is
    ignored.
    """
    enableArtifact: NotRequired[bool]
    """Turn Artifacts on or off. Off in any of managed, --settings, or user settings wins; project and
    local settings can only turn it off. Unset defaults to on once the feature is available.
    """
    enableWorkflows: NotRequired[bool]
    """Enable or disable the Workflows feature for this user. Unset = default by plan once the feature
    is available.
    """
    workflowSizeGuideline: NotRequired[Literal["unrestricted", "small", "medium", "large"]]
    """Advisory size guideline for the dynamic workflows Claude writes: "small" aims for fewer than 5
    agents, "medium" fewer than 10, "large" fewer than 50, and "unrestricted" sends no guideline.
    Unset defaults to "medium", or "small" on Pro plans. A value here — including from managed
    settings — takes precedence over the "Dynamic workflow size" choice in /config, and that /config
    row is hidden while a settings file provides the key. This is a guideline, not an enforced
    limit.
    """
    workflowKeywordTriggerEnabled: NotRequired[bool]
    """Enable the "ultracode" keyword trigger: including the keyword in a prompt opts that turn into
    the Workflow tool. Set to false to disable the trigger. Default: true.
    """
    disableSkillShellExecution: NotRequired[bool]
    """Disable inline shell execution in skills and custom slash commands from user, project, or plugin
    sources. Commands are replaced with a placeholder instead of being run.
    """
    disableWindowsBashCommandSplit: NotRequired[bool]
    """Windows only. Set to true to keep every Bash command in a single argument to bash, so that
    endpoint security tools that match text in process command lines see it whole. Otherwise Claude
    Code may split a long command over several arguments. With true, a command of about 7,000
    characters or more, or fewer if it is full of quotes, may reach bash cut short, and then usually
    fails with a syntax error. Only honored from managed settings; ignored in user, project, local
    and --settings sources.
    """
    defaultShell: NotRequired[Literal["bash", "powershell"]]
    """Default shell for input-box ! commands. Defaults to 'bash' on all platforms (no Windows auto-
    flip).
    """
    bashEditDiffEnabled: NotRequired[bool]
    """Whether the Bash tool shows a diff of the files a Bash command changed (PostToolUse Bash hooks
    get the changed-file list in tool_response). Set to false to turn that off. Default: off, except
    in auto and bypassPermissions modes when the Bash tool handles file edits or the model's
    configuration turns it on. Only user, flag or policy settings can turn it on in other modes.
    """
    bashOutputMaxChars: NotRequired[float]
    """How many characters of a successful Bash or PowerShell command's output Claude receives inline
    (default 30000; values clamp to 4000-128000). Output past this is saved to a file and Claude
    receives a short preview plus the path. When set, this also replaces BASH_MAX_OUTPUT_LENGTH,
    which on its own only sizes the read-back window.
    """
    taskOutputMaxChars: NotRequired[float]
    """Deprecated: no longer has any effect (the TaskOutput tool was removed). Read a background task's
    output file with the Read tool instead.
    """
    respondToBashCommands: NotRequired[bool]
    """Whether Claude responds after an input-box ! bash command runs. Set to false to add the command
    output to context without a response. Default: true.
    """
    allowManagedHooksOnly: NotRequired[bool]
    """When true (and set in managed settings), only hooks from managed settings and from plugins that
    managed settings enable run. User, project, and local hooks and the hooks of plugins the user
    installed are ignored. Features built into Claude Code are not hooks in this sense and keep
    working.
    """
    allowedHttpHookUrls: NotRequired[list[str]]
    """Allowlist of URL patterns that HTTP hooks may target. Supports * as a wildcard (e.g.
    "https://hooks.example.com/*"). When set, HTTP hooks with non-matching URLs are blocked. If
    undefined, all URLs are allowed. If empty array, no HTTP hooks are allowed. Arrays merge across
    settings sources (same semantics as allowedMcpServers). Where managed settings do not set this
    list, a list in any other settings file does not apply to hooks that managed settings define, or
    that come from a plugin they enable from a local folder they name.
    """
    httpHookAllowedEnvVars: NotRequired[list[str]]
    """Allowlist of environment variable names HTTP hooks may interpolate into headers. When set, each
    hook's effective allowedEnvVars is the intersection with this list. If undefined, no restriction
    is applied. Arrays merge across settings sources (same semantics as allowedMcpServers). Where
    managed settings do not set this list, a list in any other settings file does not apply to hooks
    that managed settings define, or that come from a plugin they enable from a local folder they
    name.
    """
    allowManagedPermissionRulesOnly: NotRequired[bool]
    """When true (and set in managed settings), permission rules from user, project, local, and
    --settings files and allow rules from --allowedTools are ignored; only managed settings can add
    allow rules through settings. The allowed-tools frontmatter of skills and custom commands from
    user, project, and --add-dir sources, and of plugins no managed setting vouches for, is ignored
    too. Plugins keep theirs only on an admin-backed channel: host-delivered --plugin-dir plugins
    (in Claude Desktop, only while this is not set by the organization's own managed settings), the
    official marketplace registered from its unpinned anthropics source, claude.ai-synced plugins
    Anthropic attests, the saved login organization's claude.ai-hosted marketplaces, marketplaces
    whose registered source managed extraKnownMarketplaces declares or an exact or owner-pinned
    (owner/*) strictKnownMarketplaces entry names at the path it pins (an npm marketplace source
    only when the registration and the declared entry pin the same registry, and a settings
    marketplace source only when every nested npm plugin entry pins one on a bare package name —
    unpinned, the package resolves through the member's own npm config, and a non-bare spelling
    packs as an exotic spec the pin does not bind, so nothing an entry names is what was fetched)
    (host and path patterns and enabledPlugins ids do not vouch); managed and bundled skills keep
    theirs. --disallowedTools, skill disallowed-tools, and other deny and ask rules from the command
    line or the current session still apply.
    """
    allowManagedMcpServersOnly: NotRequired[bool]
    """When true (and set in managed settings), allowedMcpServers is only read from managed settings.
    deniedMcpServers still merges from all sources, so users can deny servers for themselves, in
    user settings for a server the organization provides. Users can still add their own MCP servers,
    but only the admin-defined allowlist applies.
    """
    desktopMcpServersListScope: NotRequired[str]
    """Claude desktop app only. Where your allow list and deny list apply to MCP servers added in the
    Claude desktop app. "code" (default): Your allow list also governs MCP servers added in the
    Claude desktop app, in local Code tab sessions and the Artifact pane. "all": Same as "code".
    Your allow list and deny list also govern MCP servers in the app's config file (Settings >
    Developer > Edit config), in every tab (including Chat and Cowork) and when the app sends them
    to an SSH host. "off": Your allow list doesn't govern MCP servers added in the Claude desktop
    app. Read only from managed settings. Any other value counts as `all`. Where sources are merged
    or mixed, `off` counts as `all`. Leave the key out, or set it only in the managed source that
    holds your list. `deniedMcpServers` applies in local Code tab sessions and the Artifact pane
    with every value. MCP servers that the app sends to SSH hosts are governed by these lists, and
    by `strictPluginOnlyCustomization` for MCP, only with `all`, and not by older versions of the
    app. The Claude Code CLI reads nothing from this key, but written alone in a higher managed
    source it makes that source lead, and Claude Code skips the managed sources beneath it. Write it
    only beside the list it scopes.
    """
    allowAllClaudeAiMcps: NotRequired[bool]
    """When true (and set in managed settings), claude.ai cloud MCP connectors load alongside managed-
    mcp.json instead of being suppressed by its exclusive-control lockdown. Default off preserves
    the lockdown. Read from managed settings only.
    """
    allowClaudeInChromeWithManagedMcp: NotRequired[bool]
    """When true (and set in device managed settings: MDM, the managed-settings.json file, or a policy
    helper those configure), the built-in Claude in Chrome MCP server can run alongside managed-
    mcp.json instead of being blocked by its exclusive-control lockdown. deniedMcpServers and the
    organization's Claude in Chrome setting still block it. Default off preserves the lockdown.
    """
    strictPluginOnlyCustomization: NotRequired[bool | list[Literal["skills", "agents", "hooks", "mcp"]]]
    """When set in managed settings, blocks non-plugin customization sources for the listed surfaces.
    Array form locks specific surfaces (e.g. ["skills", "hooks"]); `true` locks all four; `false` is
    an explicit no-op. Blocked: ~/.claude/{surface}/, .claude/{surface}/ (project), settings.json
    hooks, .mcp.json. NOT blocked: managed (policySettings) sources, plugin-provided customizations.
    Composes with strictKnownMarketplaces for end-to-end admin control — plugins gated by
    marketplace allowlist, everything else blocked here.
    """
    statusLine: NotRequired[SettingsStatusLine]
    """Custom status line display configuration"""
    prUrlTemplate: NotRequired[str]
    """URL template for PR links in the footer link badges and inline messages. The detected git PR is
    rendered as the first footer-link badge. Placeholders: {host} {owner} {repo} {number} {url}.
    Example: "https://reviews.example.com/{owner}/{repo}/pull/{number}"
    """
    footerLinksRegexes: NotRequired[list[SettingsFooterLinksRegexeRegex | SettingsFooterLinksRegexe2]]
    """Extra clickable footer badges that appear when a regex matches turn output (tool results and
    assistant responses). Read from user, flag, and managed settings only; ignored in project
    .claude/settings.json and local .claude/settings.local.json. At most 5 badges render; the oldest
    is displaced by newer matches and /clear removes them. Use to surface IDs printed by project
    CLIs as session links.
    """
    subagentStatusLine: NotRequired[SettingsFileSuggestion]
    """Deprecated: still works, and will stop working in a future release. Custom per-subagent status
    line shown in the agent panel; receives row context as JSON on stdin
    """
    enabledPlugins: NotRequired[dict[str, list[str] | bool | dict[str, Any]]]
    """Enabled plugins using plugin-id\\@marketplace-id format. Example: { "formatter\\@anthropic-
    tools": true }. Only true turns on a marketplace plugin: a list of versions is accepted but
    leaves it off. Settings precedence is user < project < local < flag < policy, so to disable a
    plugin that project settings enable, set it to false in .claude/settings.local.json — setting
    false in ~/.claude/settings.json is overridden by the project.
    """
    prependPlugins: NotRequired[list[str]]
    """Managed plugins (plugin\\@marketplace ids that managed enabledPlugins sets true) whose hooks run
    first, outermost, in the listed order: the first id listed sees every event before any other
    plugin and every result after it. Managed plugins from a local folder or a remote marketplace
    managed settings name, and not listed here or in appendPlugins, follow the listed ones; user,
    project and marketplace plugins come after those; then appendPlugins; then the built-in plugins.
    The bundled cc-plugin-sec-default\\@builtin seats itself outermost (on a machine with managed
    settings and for Team and Enterprise organizations) unless this list is set, in which case list
    it where it should sit or leave it out. Name it there as sec-default\\@builtin, the id every
    release reads, for as long as any machine in the organization may run a release from before its
    rename; a release that knows the new id reads either. Any other id that is not an enabled
    managed plugin is skipped; an id listed in both keys is prepended. Only honored from managed
    settings (or, on a machine with none, from user settings for your own plugins); ignored in
    project, local and --settings sources.
    """
    appendPlugins: NotRequired[list[str]]
    """Managed plugins (plugin\\@marketplace ids that managed enabledPlugins sets true) whose hooks run
    last among plugins, innermost, in the listed order: the last id listed sits just above the
    built-in plugins and sees each event as every other plugin left it. Only honored from managed
    settings (or, on a machine with none, from user settings for your own plugins); ignored in
    project, local and --settings sources.
    """
    extraKnownMarketplaces: NotRequired[dict[str, SettingsExtraKnownMarketplaces]]
    """Additional marketplaces to make available for this repository. Typically used in repository
    .claude/settings.json to ensure team members have required plugin sources.
    """
    additionalMarketplaces: NotRequired[dict[str, SettingsExtraKnownMarketplaces]]
    """Alias for extraKnownMarketplaces: this key is read exactly as if it were spelled
    extraKnownMarketplaces. Do not set both in one file — if both appear, this key is ignored with a
    warning. Claude Code may rewrite this key as extraKnownMarketplaces when it updates the file.
    Clients older than this alias ignore it, so prefer extraKnownMarketplaces while older Claude
    Code versions still share the same settings.
    """
    strictKnownMarketplaces: NotRequired[
        list[
            SettingsExtraKnownMarketplacesSourceUrl
            | SettingsExtraKnownMarketplacesSourceGithub
            | SettingsExtraKnownMarketplacesSourceGit
            | SettingsExtraKnownMarketplacesSourceNpm
            | SettingsExtraKnownMarketplacesSourceFile
            | SettingsExtraKnownMarketplacesSourceDirectory
            | SettingsExtraKnownMarketplacesSourceSkillsDir
            | SettingsExtraKnownMarketplacesSourceHostPattern
            | SettingsExtraKnownMarketplacesSourcePathPattern
            | SettingsExtraKnownMarketplacesSourceSettings
        ]
    ]
    """Enterprise strict list of allowed marketplace sources. When set in managed settings, ONLY these
    sources can be added as marketplaces. Entries match exactly, except that a github entry may use
    the owner-wildcard form {"source":"github","repo":"owner/*"} to allow every repository under
    that owner. The check happens BEFORE downloading, so blocked sources never touch the filesystem.
    Note: this is a policy gate only — it does NOT register marketplaces. To pre-register allowed
    marketplaces for users, also set extraKnownMarketplaces.
    """
    allowedMarketplaces: NotRequired[
        list[
            SettingsExtraKnownMarketplacesSourceUrl
            | SettingsExtraKnownMarketplacesSourceGithub
            | SettingsExtraKnownMarketplacesSourceGit
            | SettingsExtraKnownMarketplacesSourceNpm
            | SettingsExtraKnownMarketplacesSourceFile
            | SettingsExtraKnownMarketplacesSourceDirectory
            | SettingsExtraKnownMarketplacesSourceSkillsDir
            | SettingsExtraKnownMarketplacesSourceHostPattern
            | SettingsExtraKnownMarketplacesSourcePathPattern
            | SettingsExtraKnownMarketplacesSourceSettings
        ]
    ]
    """Alias for strictKnownMarketplaces (managed settings only): this key is read exactly as if it
    were spelled strictKnownMarketplaces. Do not set both in one file — if both appear, this key is
    ignored with a warning. Clients older than this alias ignore it, so keep using
    strictKnownMarketplaces when the allowlist must also bind older Claude Code versions.
    """
    blockedMarketplaces: NotRequired[
        list[
            SettingsExtraKnownMarketplacesSourceUrl
            | SettingsExtraKnownMarketplacesSourceGithub
            | SettingsExtraKnownMarketplacesSourceGit
            | SettingsExtraKnownMarketplacesSourceNpm
            | SettingsExtraKnownMarketplacesSourceFile
            | SettingsExtraKnownMarketplacesSourceDirectory
            | SettingsExtraKnownMarketplacesSourceSkillsDir
            | SettingsExtraKnownMarketplacesSourceHostPattern
            | SettingsExtraKnownMarketplacesSourcePathPattern
            | SettingsExtraKnownMarketplacesSourceSettings
        ]
    ]
    """Enterprise blocklist of marketplace sources. When set in managed settings, these sources are
    blocked from being added as marketplaces. Entries match exactly, except that a github entry may
    use the owner-wildcard form {"source":"github","repo":"owner/*"} to block every repository under
    that owner, and an entry naming a branch or tag in `ref` also blocks every full commit id in
    that repository. The check happens BEFORE downloading, so blocked sources never touch the
    filesystem.
    """
    disableCommandPluginSources: NotRequired[bool]
    """Controls the `command` plugin source, whose plugin directory is produced by running a
    marketplace-declared command on this machine. true: command-sourced plugins are never installed,
    updated, or re-resolved (the command never runs). false: explicitly allowed. Unset: follows
    allowManagedHooksOnly — an org that restricts hook execution to managed settings gets command
    sources disabled too. Only honored from managed settings.
    """
    disableSideloadFlags: NotRequired[bool]
    """When true (and set in managed settings), rejects the --plugin-dir, --plugin-url, --agents, and
    non-sdk --mcp-config CLI flags at startup. Closes the CLI-flag bypass of
    strictKnownMarketplaces. Pair with allowedMcpServers for per-server MCP control; this setting
    does not gate other MCP entry points (SDK setMcpServers, claude mcp add, .mcp.json). Also blocks
    surfaces that spawn the CLI with these flags internally (see settings documentation). Only
    honored from managed settings; ignored in user/project/local settings.
    """
    pluginSuggestionMarketplaces: NotRequired[list[str]]
    """Marketplace names whose plugins may surface as contextual install suggestions (relevance-based
    tips). No marketplace-declared suggestions surface without this allowlist; the built-in tips for
    Anthropic's own plugins are unaffected. Only honored when set in managed settings (policy
    scope); the key is ignored in user, project, and local settings. A name only takes effect when
    the marketplace is registered on the machine AND its registered source is also declared in
    managed settings, either as the extraKnownMarketplaces entry for that name or as an entry of
    strictKnownMarketplaces. A marketplace registered from a different source under an allowlisted
    name is ignored. The official marketplace is exempt from the source requirement: allowlisting
    its name alone suffices, since that name can only register from the official Anthropic source.
    """
    forceLoginMethod: NotRequired[Literal["claudeai", "console", "gateway"]]
    """Force a specific login method: "claudeai" for a Claude subscription (individual, Team, or
    Enterprise plans), "console" for Console billing, "gateway" for the Cloud gateway OIDC device
    flow
    """
    forceLoginGatewayUrl: NotRequired[str]
    """Cloud gateway URL to pre-fill during login, alongside forceLoginMethod: "gateway". Honored from
    admin-controlled managed settings (MDM / managed-settings.json / policy helper) and, on a
    machine with none of those, from your own user settings; ignored in project, local, flag, and
    remote-delivered settings.
    """
    gatewayInternalNetworks: NotRequired[list[str]]
    """IPv4 CIDR blocks (at most 4, each /8 to /32, not overlapping) your Cloud gateway sits in: the
    public block your organization numbers its internal network from, which lets /login reach a
    gateway there. A block must lie entirely outside private space, where /login accepts a gateway
    without this key. /login accepts a gateway inside a listed block over a direct connection only,
    and only when this machine's own address on that connection is inside the same block, so /login
    must happen from a machine whose own address is inside the block (not through a proxy, VPN pool,
    container or NAT segment outside it). A bar against copied settings files, not proof of
    location. Honored only from admin-controlled managed settings (MDM / managed-settings.json /
    policy helper); ignored in user, project, and remote-delivered settings.
    """
    parentSettingsBehavior: NotRequired[Literal["first-wins", "merge"]]
    """Controls whether the SDK parent tier (Options.managedSettings / --managed-settings) layers under
    this admin tier. "first-wins" (the default, except in a gateway session Claude Desktop's Code
    tab launched, where "merge" is): parent is dropped — admin tiers are the only policy source.
    "merge": parent's restrictive-only-filtered settings union under the admin winner. Has no effect
    when no admin tier exists (parent applies as the sole policy tier, still filtered restrictive-
    only).
    """
    managedSourcesBehavior: NotRequired[Literal["first-wins", "merge"]]
    """Controls how the managed settings sources compose. "first-wins" (default): the highest-priority
    source present (server-managed > MDM (managed plist / HKLM) > managed-settings.json) is the
    managed tier alone. "merge": every present source deep-merges with fixed precedence server-
    managed > MDM > managed-settings.json — scalars take the highest source's value (a restrictive
    boolean or enum — the allowManaged*Only locks, the disable* switches, the sandbox lock family —
    takes the strictest value any source sets) and arrays union, except fallbackModel, the
    restriction allowlists allowedMcpServers, allowedProviders, availableModels,
    strictKnownMarketplaces and allowedChannelPlugins, and sandbox.credentials.awsPairs and
    sandbox.ripgrep (the highest source that sets one owns it whole), modelOverrides (the whole map
    of the highest source that sets it, dropped when that source sits below the one that sets
    availableModels), managedMcpServers (server names union; a name set by two sources takes the
    higher source's whole entry), and the keys taken from the highest source only: the auth pins
    forceLoginOrgUUID, forceLoginMethod, forceLoginGatewayUrl and gatewayInternalNetworks,
    allowNestedModelAccessUnderForceLogin, the credential helpers apiKeyHelper, awsAuthRefresh,
    awsCredentialExport, gcpAuthRefresh, otelHeadersHelper and proxyAuthHelper, modelPicker,
    permissions.defaultMode, parentSettingsBehavior and the policyHelper configuration (env keeps
    its own per-key union). In both modes, a forceLoginOrgUUID, or a forceLoginMethod of claudeai or
    console, that this machine's own MDM policy or managed settings file sets applies ahead of
    server-managed settings. Honored only from the highest-priority source present; enable it only
    when every lower source is admin-controlled, since lower sources then contribute entries such as
    permissions.allow. HKCU and --managed-settings never take part in the merge.
    """
    forceLoginOrgUUID: NotRequired[str | list[str]]
    """Organization UUID to require for OAuth login. Accepts a single UUID string or an array of UUIDs
    (any one is permitted). When set in managed settings, login fails if the authenticated account
    does not belong to a listed organization.
    """
    allowNestedModelAccessUnderForceLogin: NotRequired[bool]
    """Self-hosted runner hosts only. Set to true to let a Claude Code started by a runner session's
    command use the runner's model access (--nested-model-access) when this machine's managed
    settings set forceLoginOrgUUID or forceLoginMethod. It asks the runner which organization the
    session owner's sign-in belongs to, and stops if the pin does not permit it or the runner does
    not answer. Without this key it is left signed out. Any program on the machine can pretend to be
    the runner, so with this key the pin is not a security boundary: set it on runner hosts only,
    never in a profile that reaches people's own computers. Honored only from this machine's own
    administrator sources (MDM, the managed settings file, or a policy helper that they name);
    ignored in server-managed, user, project, local and --settings sources.
    """
    allowedProviders: NotRequired[
        list[
            Literal["anthropic", "customEndpoint", "bedrock", "vertex", "foundry", "anthropicAws", "mantle", "gateway"]
        ]
    ]
    """Managed settings only (managed-settings.json, MDM, or server-managed). The API providers Claude
    Code may use on this machine: "anthropic" (the Anthropic API on Anthropic's own host, via a
    claude.ai or Console sign-in or an API key; pair it with forceLoginMethod / forceLoginOrgUUID to
    require a sign-in), "bedrock", "vertex", "foundry", "anthropicAws", "mantle" (each meaning that
    provider's own service: its regional, FIPS, private-endpoint and sovereign-cloud hosts),
    "customEndpoint" (the Anthropic API or a cloud provider's API sent to some other host —
    ANTHROPIC_BASE_URL, that provider's ANTHROPIC_*_BASE_URL, a Foundry resource name that is not a
    bare name, or for Bedrock the AWS SDK's AWS_ENDPOINT_URL[_BEDROCK[_RUNTIME]] — such as an LLM
    gateway; admitted only for the value pinned in the "env" block of the same managed source), or
    "gateway" (the Cloud gateway sign-in). A session on a provider that is not listed is refused at
    startup, at login, and when it next contacts the API, with a message naming what selected the
    provider and the entry that would allow it. Under a list, where first-party traffic goes
    (ANTHROPIC_BASE_URL, a gateway sign-in) is honored only when the same managed source pins it in
    "env" (or forceLoginGatewayUrl), and a claude ssh tunnel into the machine is refused. A cloud
    provider's credential and tenancy variables, and the network path and TLS trust (HTTPS_PROXY,
    NODE_EXTRA_CA_CERTS, CLAUDE_CODE_CERT_STORE), are not judged by this list; set those for the
    fleet in the managed "env" block, whose values replace the user's. To route Bedrock through a
    gateway for a fleet, pin ANTHROPIC_BEDROCK_BASE_URL there (it is what the clients use, ahead of
    an endpoint_url in ~/.aws/config, which this list does not judge); the AWS SDK's
    AWS_ENDPOINT_URL* pins only sanction where the SDK's own clients go and never stand in for the
    "bedrock" entry. Unset allows every provider; an empty array allows none. Only a list in
    managed-settings.json or MDM is enforcement on the machine: it cannot be widened or hidden by
    server-managed settings and reaches every session. A list set only in the admin console reaches
    only sessions that fetch your server-managed settings — not a session on a cloud provider,
    another organization or a non-Anthropic ANTHROPIC_BASE_URL, one authenticating only with
    apiKeyHelper or ANTHROPIC_AUTH_TOKEN, a Pro/Max/Ultra login, --bare without an API key, or a
    first launch before the fetch lands — all conditions the user controls. Versions that predate
    this setting ignore it; pair it with a minimum-version policy on a mixed fleet. 'claude auth
    status' reports the Anthropic API as apiProvider "firstParty".
    """
    forceRemoteSettingsRefresh: NotRequired[bool]
    """When set in managed settings, the CLI blocks startup until remote managed settings are freshly
    fetched, and exits if the fetch fails
    """
    otelHeadersHelper: NotRequired[str]
    """Path to a script that outputs OpenTelemetry headers"""
    outputStyle: NotRequired[str]
    """Controls the output style for assistant responses"""
    viewMode: NotRequired[Literal["default", "verbose", "focus"]]
    """Default transcript view mode on startup"""
    language: NotRequired[str]
    """Preferred language for Claude responses and voice dictation (e.g., "japanese", "spanish")"""
    skipWebFetchPreflight: NotRequired[bool]
    """Skip the WebFetch blocklist check for enterprise environments with restrictive security policies
    """
    sandbox: NotRequired[SettingsSandbox]
    feedbackSurveyRate: NotRequired[float]
    """Probability (0–1) that the session quality survey appears when eligible. 0.05 is a reasonable
    starting point.
    """
    feedbackDrafts: NotRequired[Literal["notify", "quiet", "off"]]
    """Model-drafted feedback (the SendFeedback tool). "notify" (default) shows a one-line notice when
    a draft is queued; "quiet" shows only the footer counter; "off" disables the tool entirely so
    drafts are never queued.
    """
    spinnerTipsEnabled: NotRequired[bool]
    """Whether to show tips in the spinner"""
    spinnerVerbs: NotRequired[SettingsSpinnerVerbs]
    """Customize spinner verbs. mode: "append" adds verbs to defaults, "replace" uses only your verbs.
    """
    spinnerTipsOverride: NotRequired[SettingsSpinnerTipsOverride]
    """Add your organization's own tips to the spinner tip rotation. tips: strings or {id, text,
    cooldownSessions?, priority?} objects; tipsFile: a JSON file of the same; label: prefix shown
    before your tips; excludeDefault: if true, only show your tips (default: false).
    """
    syntaxHighlightingDisabled: NotRequired[bool]
    """Whether to disable syntax highlighting in diffs"""
    maxProseWidth: NotRequired[float]
    """Maximum width, in terminal columns, of the prose in Claude's responses (paragraphs, headings,
    lists, blockquotes). In a wider terminal the prose wraps at this width while tables and code
    blocks keep the full width; only the display wraps, the response text itself gains no line
    breaks. Minimum 40. Unset (the default) uses the full terminal width.
    """
    spellcheck: NotRequired[SettingsSpellcheck]
    """Underline misspelled words in the prompt input as you type, using an installed aspell, hunspell
    or ispell (off unless "enabled" is true; does nothing if none is installed). Read from user,
    flag and managed settings only (the whole block from the highest-precedence of those applies);
    ignored in project .claude/settings.json and .claude/settings.local.json.
    """
    terminalTitleFromRename: NotRequired[bool]
    """Whether /rename updates the terminal tab title (defaults to true). Set to false to keep auto-
    generated topic titles.
    """
    promptCacheTtl: NotRequired[Literal["5m", "1h"]]
    """Prompt cache TTL for the main conversation (interactive, -p and SDK turns, plus the helpers that
    run inline with it): "5m" or "1h". Unset = automatic: 1 hour on a Claude subscription within its
    usage limits, 5 minutes on an API key, Bedrock, Vertex or Foundry. 1-hour cache writes are
    billed at a higher rate; the cache stays warm across longer breaks. The
    CLAUDE_CODE_PROMPT_CACHE_TTL environment variable takes precedence.
    """
    subagentPromptCacheTtl: NotRequired[Literal["5m", "1h"]]
    """Prompt cache TTL for everything outside the main conversation — subagents, workflows, background
    and helper requests: "5m" or "1h". Unset = automatic (5 minutes unless
    ENABLE_PROMPT_CACHING_1H=1). The CLAUDE_CODE_SUBAGENT_PROMPT_CACHE_TTL environment variable
    takes precedence.
    """
    alwaysThinkingEnabled: NotRequired[bool]
    """When false, thinking is disabled. When absent or true, thinking is enabled automatically for
    supported models.
    """
    effortLevel: NotRequired[Literal["low", "medium", "high", "xhigh"]]
    """Persisted effort level for supported models."""
    maxEffortLevel: NotRequired[Literal["low", "medium", "high", "xhigh", "max"]]
    """Maximum effort level. Anything above it (an /effort or /model pick, --effort,
    CLAUDE_CODE_EFFORT_LEVEL, a model default) is clamped to it, on every provider including
    Bedrock, Vertex and Foundry. Combines with an organization's per-model effort cap by taking the
    lower of the two; across settings files the lowest value wins, and
    modelSettings.<model>.maxEffortLevel replaces it per model. Enforced client-side: an effort
    supplied through CLAUDE_CODE_EXTRA_BODY is not clamped.
    """
    modelSettings: NotRequired[dict[str, SettingsModelSettings]]
    """Per-model settings keyed by canonical model name."""
    ultracode: NotRequired[bool]
    """Enable ultracode for the session: standing dynamic-workflow orchestration at any effort level.
    Session-scoped — typically provided via --settings or the apply_flag_settings control request;
    interactive toggles never persist it. Requires workflows to be enabled and a model that supports
    ultracode.
    """
    autoCompactWindow: NotRequired[float]
    """Auto-compact window size"""
    advisorModel: NotRequired[str]
    """Advisor model for the server-side advisor tool."""
    fastMode: NotRequired[bool]
    """When true, fast mode is enabled. When absent or false, fast mode is off. On Vertex a saved value
    is ignored: use /fast each session.
    """
    fastModePerSessionOptIn: NotRequired[bool]
    """When true, fast mode does not persist across sessions. Each session starts with fast mode off.
    """
    promptSuggestionEnabled: NotRequired[bool]
    """When false, prompt suggestions are disabled. When absent or true, prompt suggestions are
    enabled.
    """
    emojiCompletionEnabled: NotRequired[bool]
    """When false, the :emoji: shortcode typeahead (the suggestion popup and the :name: inline
    replacement) is disabled. When absent or true, it is enabled.
    """
    showClearContextOnPlanAccept: NotRequired[bool]
    """When true, the plan-approval dialog offers a "clear context" option. Defaults to false."""
    askUserQuestionTimeout: NotRequired[Literal["60s", "5m", "10m", "never"]]
    """Idle time before Claude's questions in the terminal auto-continue with any answers selected so
    far. When unset, the terminal does not auto-continue. The Claude desktop and web apps show
    Claude's questions in their own interface and may move on from some unanswered ones after a wait
    the app sets. Claude is then told that nobody answered and uses its best judgment. In sessions
    that read this setting, only "never" stops the apps from moving on. Leaving it unset does not.
    Cloud sessions and Cowork tasks do not read your user settings file (~/.claude/settings.json),
    and managed settings do not reach all of them. This setting is ignored in a project's settings
    files.
    """
    dialogExpiry: NotRequired[Literal["60s", "5m", "10m", "never"]]
    """Max time a permission/user dialog forwarded to a remote client stays parked awaiting an answer,
    and how long a HELD cross-session message awaits approval, before either resolves to its safe
    no-action default (cancelled / dropped-with-denial). Defaults to 5m to match the long-standing
    remote-dialog deadline; "never" disables the deadline. Local-only permission prompts (no remote
    client) are unaffected. The CLAUDE_CODE_USER_DIALOG_TIMEOUT_MS env var, when set, overrides
    this. Read from trusted sources only (never a checked-in repo settings file).
    """
    agent: NotRequired[str]
    """Name of an agent (built-in or custom) to use for the main thread. Applies the agent's system
    prompt, tool restrictions, and model.
    """
    companyAnnouncements: NotRequired[list[str]]
    """Company announcements to display at startup (one will be randomly selected if multiple are
    provided)
    """
    pluginConfigs: NotRequired[dict[str, SettingsPluginConfigs1 | dict[str, Any]]]
    """Per-plugin configuration including MCP server user configs, keyed by plugin ID
    (plugin\\@marketplace format)
    """
    remote: NotRequired[SettingsRemote]
    """Cloud session configuration"""
    autoUpdatesChannel: NotRequired[Literal["latest", "stable", "rc"]]
    """Release channel for auto-updates (latest or stable)"""
    minimumVersion: NotRequired[str]
    """Minimum version to stay on - prevents downgrades when switching to stable channel"""
    requiredMinimumVersion: NotRequired[str]
    """Minimum Claude Code version required to start. If the running version is older, Claude Code
    exits at startup with instructions to update. Only enforced from managed (policy) settings.
    """
    requiredMaximumVersion: NotRequired[str]
    """Maximum Claude Code version allowed to start. If the running version is newer, Claude Code exits
    at startup with instructions to install an approved version. Only enforced from managed (policy)
    settings.
    """
    downloadsMirrorUrl: NotRequired[str]
    """Anthropic-run mirror from which native installs download Claude Code releases (claude install,
    claude update, and auto-updates), instead of https://downloads.claude.ai. Must be exactly
    https://claude.fedstart.com/claude-downloads (Claude for Government). Any other value stops
    installs and updates with an error. CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC normally turns
    auto-updates off, but not with this mirror set. Only read from managed (policy) settings.
    """
    plansDirectory: NotRequired[str]
    """Custom directory for plan files, relative to project root. If not set, defaults to
    ~/.claude/plans/
    """
    tui: NotRequired[Literal["default", "fullscreen"]]
    """Terminal UI renderer. "fullscreen" uses the flicker-free alt-screen renderer with virtualized
    scrollback (equivalent to CLAUDE_CODE_NO_FLICKER=1). "default" uses the classic main-screen
    renderer.
    """
    voice: NotRequired[SettingsVoice]
    """Voice mode settings (hold-to-talk / tap-to-toggle dictation)"""
    channelsEnabled: NotRequired[bool]
    """Managed-org opt-in for channel notifications (MCP servers with the claude/channel capability
    pushing inbound messages). claude.ai Teams/Enterprise: default off. Console: default on unless
    managed settings exist. Set true to allow; users then select servers via --channels.
    """
    allowedChannelPlugins: NotRequired[list[SettingsAllowedChannelPlugin]]
    """Managed-org allowlist of channel plugins. When set, replaces the default Anthropic allowlist —
    admins decide which plugins may push inbound messages. Undefined falls back to the default.
    Requires channelsEnabled: true.
    """
    prefersReducedMotion: NotRequired[bool]
    """Reduce or disable animations for accessibility (spinner shimmer, flash effects, etc.)"""
    timeFormat: NotRequired[Literal["auto", "12-hour", "24-hour", "24-hour-utc"] | str]
    """Clock format for times shown in the UI: "auto" (default, follows the locale), "12-hour",
    "24-hour", "24-hour-utc" ("18:05Z"), or a strftime pattern such as "%H:%M" (any value containing
    "%"; other values read as "auto"). A pattern replaces the time everywhere; message timestamps
    show only the pattern, so include %Y-%m-%d for the date. /config offers the presets; a pattern
    is set here.
    """
    timeZone: NotRequired[str]
    """IANA time zone for times shown in the UI, e.g. "UTC" or "Europe/Dublin". Default: the system
    time zone. An unknown name falls back to the system time zone.
    """
    autoMemoryEnabled: NotRequired[bool]
    """Enable auto-memory for this project. When false, Claude will not read from or write to the auto-
    memory directory.
    """
    autoMemoryDirectory: NotRequired[str]
    """Custom directory path for auto-memory storage. Supports ~/ prefix for home directory expansion.
    Ignored if set in projectSettings (checked-in .claude/settings.json) for security. When unset,
    defaults to ~/.claude/projects/<sanitized-cwd>/memory/.
    """
    autoDreamEnabled: NotRequired[bool]
    """Enable background memory consolidation (auto-dream). When set, overrides the server-side
    default.
    """
    showThinkingSummaries: NotRequired[bool]
    """Request API-side thinking summaries and show them in the conversation and in the transcript view
    (ctrl+o). Set explicitly to override the default for your install.
    """
    skipDangerousModePermissionPrompt: NotRequired[bool]
    """Whether the user has accepted the bypass permissions mode dialog"""
    disableAutoMode: NotRequired[Literal["disable"]]
    """Disable auto mode"""
    sshConfigs: NotRequired[list[SettingsSshConfig]]
    """SSH connection configurations for remote environments. Typically set in managed settings by
    enterprise administrators to pre-configure SSH connections for team members.
    """
    sshHostCommands: NotRequired[list[Any]]
    """SSH connections in Claude Desktop whose host comes from a command. A list of entries, each with
    `id`, `name` and `command`, and optionally `sshIdentityFile` and `startDirectory`. Desktop runs
    `command` on this computer when you create the connection or another host for it, not each time
    you connect. `command` is a program name or absolute path (single-quote a path with spaces),
    then plain arguments. Nothing else can be quoted. For pipes, variables or a leading `~`, use a
    script. On Windows, the program must be a full path from a drive letter, such as
    `C:/tools/acme.exe`, ending in `.exe`, `.cmd` or `.bat`. Quoted paths and Windows need Claude
    Desktop v4.16336.0 or later. The command must print only the host on standard output: `host` or
    `user\\@host` on one line, or a JSON object with `sshHost` and, optionally, `sshPort` and
    `startDirectory`. Desktop reads this key only from user settings and from this computer's
    managed settings. Claude Code itself does not use it.
    """
    claudeMd: NotRequired[str]
    """CLAUDE.md-style instructions injected as organization-managed memory. Only honored from
    managed/policy settings.
    """
    claudeMdExcludes: NotRequired[list[str]]
    """Glob patterns or absolute paths of CLAUDE.md files to exclude from loading. Patterns are matched
    against absolute file paths using picomatch. Only applies to User, Project, and Local memory
    types (Managed/policy files cannot be excluded). Examples: "/home/user/monorepo/CLAUDE.md", "**
    /code/CLAUDE.md", "** /some-dir/.claude/rules/**"
    """
    pluginTrustMessage: NotRequired[str]
    """Custom message to append to the plugin trust warning shown before installation. Only read from
    policy settings (managed-settings.json / MDM). Useful for enterprise administrators to add
    organization-specific context (e.g., "All plugins from our internal marketplace are vetted and
    approved.").
    """
    theme: NotRequired[
        Literal["auto", "dark", "light", "light-daltonized", "dark-daltonized", "light-ansi", "dark-ansi"] | str
    ]
    """Color theme for the UI"""
    editorMode: NotRequired[Literal["normal", "vim"]]
    """Key binding mode for the prompt input"""
    keybindingFlavor: NotRequired[Literal["classic", "readline"]]
    """Deprecated: no longer has any effect. The prompt's word-editing keys always follow Bash
    (readline) conventions.
    """
    vimInsertModeRemaps: NotRequired[dict[str, Any]]
    """Vim INSERT-mode key-sequence remaps, e.g. {"jj": "<Esc>"}. Each key is exactly two printable
    characters typed in sequence; "<Esc>" (return to NORMAL mode) is the only supported target.
    Applies when editorMode is "vim".
    """
    verbose: NotRequired[bool]
    """Show full tool output instead of truncated summaries"""
    preferredNotifChannel: NotRequired[
        Literal["auto", "iterm2", "terminal_bell", "iterm2_with_bell", "kitty", "ghostty", "notifications_disabled"]
    ]
    """Preferred OS notification channel"""
    autoCompactEnabled: NotRequired[bool]
    """Automatically compact conversation when context fills"""
    precomputeCompactionEnabled: NotRequired[bool]
    """Precompute the compaction summary in the background before it is needed. Only applies when auto-
    compact is on.
    """
    idleCompaction: NotRequired[bool]
    """Set to false to stop Claude Code from compacting a long conversation while the session is idle.
    Defaults to true.
    """
    switchModelsOnFlag: NotRequired[bool]
    """When safeguards flag a message, automatically switch to a different model to keep chatting. When
    off, your session will pause instead.
    """
    autoContinueAtUsageLimit: NotRequired[bool]
    """When a claude.ai usage limit stops your session, wait for the limit to reset and continue the
    task automatically. When off, the limit dialog offers the wait as a choice instead.
    """
    autoScrollEnabled: NotRequired[bool]
    """Auto-scroll the conversation view to bottom (fullscreen mode only)"""
    wheelScrollAccelerationEnabled: NotRequired[bool]
    """Ramp mouse-wheel scroll speed during fast scrolls (fullscreen mode only)"""
    fileCheckpointingEnabled: NotRequired[bool]
    """Snapshot files before edits so /rewind can restore them. In a session an SDK starts, only an
    administrator's false applies
    """
    showTurnDuration: NotRequired[bool]
    """Show "Cooked for Nm Ns" after each assistant turn"""
    showMessageTimestamps: NotRequired[bool]
    """Stamp each message with its arrival time"""
    terminalProgressBarEnabled: NotRequired[bool]
    """Emit OSC 9;4 progress sequences during long operations"""
    todoFeatureEnabled: NotRequired[bool]
    """Enable the todo / task tracking panel"""
    teammateMode: NotRequired[Literal["auto", "tmux", "iterm2", "in-process"]]
    """How spawned teammates execute (tmux, iterm2, in-process, auto)"""
    remoteControlAtStartup: NotRequired[bool]
    """Start Remote Control bridge automatically each session"""
    isolatePeerMachines: NotRequired[bool]
    """Require explicit approval before SendMessage can reach a peer session on another machine via
    Remote Control
    """
    daemonColdStart: NotRequired[Literal["transient", "ask"]]
    """When no background service is running: 'transient' spawns one for this login session; 'ask'
    offers to install it persistently
    """
    crossSessionInbound: NotRequired[Literal["accept", "hold", "refuse"]]
    """Inbound cross-session peer messages (SendMessage from your other sessions): 'accept' delivers
    them, 'hold' parks them for your review without letting Claude act, 'refuse' opts this session
    out. An explicit value always wins. Unset (mode parity): a message auto-delivers only when the
    sending session's permission-mode class matches yours (bypass↔bypass or prompting↔prompting); a
    mismatched sender's message is held for your approval; a sender that asserts no class is held
    only while this session bypasses permission prompts.
    """
    autoUploadSessions: NotRequired[bool]
    """Mirror local sessions to claude.ai as view-only (no remote control)"""
    inputNeededNotifEnabled: NotRequired[bool]
    """Push to mobile when a permission prompt or question is waiting"""
    agentPushNotifEnabled: NotRequired[bool]
    """Allow Claude to push proactive mobile notifications"""
    skipAutoPermissionPrompt: NotRequired[bool]
    """Whether the user has accepted the auto mode opt-in dialog"""
    useAutoModeDuringPlan: NotRequired[bool]
    """Whether plan mode uses auto mode semantics when auto mode is available (default: true)"""
    autoMode: NotRequired[SettingsAutoMode]
    """Auto mode classifier prompt customization"""
    disableDeepLinkRegistration: NotRequired[Literal["disable"]]
    """Prevent claude-cli:// protocol handler registration with the OS"""
    voiceEnabled: NotRequired[bool]
    """Enable voice mode (hold-to-talk dictation)"""
    defaultView: NotRequired[Literal["chat", "transcript"]]
    """Default transcript view: chat (SendUserMessage checkpoints only) or transcript (full)"""
