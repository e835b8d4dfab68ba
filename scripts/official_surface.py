"""Record the public surface of an installed official ``claude-agent-sdk``.

Writes ``tests/fixtures/official_surface.json``: the names exported by
``claude_agent_sdk`` and ``claude_agent_sdk.types``, the fields of
``ClaudeAgentOptions``, the public methods of ``ClaudeSDKClient`` and the
fields of the message and result types. ``tests/unit/test_surface.py`` checks
that ``claude_wrap`` offers all of them, so switching packages stays a change
of import line. Run it with the interpreter that has the official package::

    make official                                     # build/official-venv, once
    build/official-venv/bin/python scripts/official_surface.py
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "official_surface.json"

# Classes whose fields users read; a field missing here breaks their code.
FIELD_CLASSES = [
    "AssistantMessage",
    "UserMessage",
    "SystemMessage",
    "ResultMessage",
    "StreamEvent",
    "TaskStartedMessage",
    "TaskProgressMessage",
    "TaskNotificationMessage",
    "TaskUpdatedMessage",
    "HookEventMessage",
    "MirrorErrorMessage",
    "RateLimitEvent",
    "ConversationResetMessage",
    "TextBlock",
    "ThinkingBlock",
    "ToolUseBlock",
    "ToolResultBlock",
    "ServerToolUseBlock",
    "ServerToolResultBlock",
    "ToolPermissionContext",
    "PermissionResultAllow",
    "PermissionResultDeny",
    "PermissionUpdate",
    "HookMatcher",
    "AgentDefinition",
    "SdkMcpTool",
    "SDKSessionInfo",
    "SessionMessage",
    "DeferredToolUse",
]


def _fields(obj: Any) -> list[str]:
    if dataclasses.is_dataclass(obj):
        return [f.name for f in dataclasses.fields(obj)]
    return list(getattr(obj, "__annotations__", {}))


def main() -> None:
    import claude_agent_sdk as sdk
    import claude_agent_sdk.types as types

    typing_names = set(dir(__import__("typing"))) | {"dataclass", "field", "replace", "sys", "warnings", "Path"}
    surface = {
        "version": getattr(sdk, "__version__", "?"),
        "top": sorted(sdk.__all__),
        "types": sorted(n for n in dir(types) if not n.startswith("_") and n not in typing_names),
        "options": [f.name for f in dataclasses.fields(sdk.ClaudeAgentOptions)],
        "client": sorted(n for n in dir(sdk.ClaudeSDKClient) if not n.startswith("_")),
        "fields": {name: _fields(getattr(sdk, name)) for name in FIELD_CLASSES if hasattr(sdk, name)},
    }
    OUT.write_text(json.dumps(surface, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} from claude-agent-sdk {surface['version']}", file=sys.stderr)


if __name__ == "__main__":
    main()
