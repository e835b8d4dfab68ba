"""What the TypeScript SDK offers is reachable from Python, or left out
with a reason: checked against the record ``scripts/ts_surface.py`` keeps
(``tests/fixtures/ts_surface.json``, rewritten by ``make bump``). A name a
newer TypeScript SDK adds fails here, by name, until it is offered or
listed below."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from claude_wrap import HOOK_EVENTS, ClaudeAgentOptions, ClaudeSDKClient

RECORD = json.loads((Path(__file__).parent.parent / "fixtures" / "ts_surface.json").read_text())

# TypeScript name -> our name, where ours is not its snake_case (mostly the official Python name).
RENAMED = {
    "additionalDirectories": "add_dirs",
    "continue": "continue_conversation",
    "pathToClaudeCodeExecutable": "cli_path",
    "spawnClaudeCodeProcess": "transport",
    "supportedModels": "list_models",
    "mcpServerStatus": "get_mcp_status",
    "streamInput": "query",  # an async iterable of messages, as the official package takes it
    "close": "disconnect",
}
# TypeScript names with no Python form, and why.
LEFT_OUT = {
    "abortController": "cancel the task or scope instead (anyio); a cancelled run stops its binary",
    "executable": "a JavaScript runtime to start the binary with",
    "executableArgs": "arguments for that JavaScript runtime",
    "mcpServersDelivery": "MCP configs always go in a private 0600 file, never the command line",
    "pluginDelivery": "plugins are paths on the command line; nothing secret travels with them",
    "usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET": "marked unstable by its authors",
}


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


# Where a TypeScript option is a parameter of query() / ClaudeSDKClient here.
PARAMETERS = {"transport"}
OPTIONS = {f.name for f in dataclasses.fields(ClaudeAgentOptions)} | PARAMETERS
METHODS = {name for name in dir(ClaudeSDKClient) if callable(getattr(ClaudeSDKClient, name))}


def _missing(names: list[str], available: set[str]) -> list[str]:
    return [n for n in names if n not in LEFT_OUT and RENAMED.get(n, snake(n)) not in available]


def test_every_option_of_the_typescript_sdk_is_an_option_here_or_left_out_with_a_reason() -> None:
    missing = _missing(RECORD["options"], OPTIONS)
    assert missing == [], f"TypeScript SDK {RECORD['version']} options with no Python form: {missing}"


def test_every_query_method_is_a_client_method_here_or_left_out_with_a_reason() -> None:
    missing = _missing(RECORD["query_methods"], METHODS)
    assert missing == [], f"TypeScript SDK {RECORD['version']} Query methods with no Python form: {missing}"


def test_every_hook_event_is_known() -> None:
    assert [e for e in RECORD["hook_events"] if e not in HOOK_EVENTS] == []


def test_the_tables_name_only_what_the_record_holds() -> None:
    recorded = {*RECORD["options"], *RECORD["query_methods"]}
    assert set(RENAMED) <= recorded and set(LEFT_OUT) <= recorded
    assert not set(RENAMED) & set(LEFT_OUT)


def test_the_record_parses_what_it_should() -> None:
    # The parser of scripts/ts_surface.py on a type body with the shapes sdk.d.ts uses.
    import importlib.util

    spec = importlib.util.spec_from_file_location("ts_surface", Path(__file__).parents[2] / "scripts" / "ts_surface.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    body = """
    /** a comment with { braces } and a: colon */
    cwd?: string;
    stderr?: (data: string) => void;
    env?: Record<string, string | undefined>;
    systemPrompt?: string | string[] | {
        type: 'custom';
        prompt: string;
    };
    readonly title?: string;
    interrupt(): Promise<void>;
    """
    assert module.members(body) == ["cwd", "stderr", "env", "systemPrompt", "title", "interrupt"]
