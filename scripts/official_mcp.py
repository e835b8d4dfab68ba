"""Record how the official package's in-process MCP servers answer the binary.

Runs every exchange of ``tests/support/_mcp_cases.py`` through the official
package's own control-request handler (the code that answers the binary's
``mcp_message`` requests) and writes each reply to
``tests/fixtures/official_mcp.json``. ``tests/unit/test_mcp_official.py``
then checks that claude_wrap answers the same messages the same way: the
same tool schemas in ``tools/list``, the same arguments reaching the
handlers, the same results and errors. Run it again with the interpreter
that has the official package after upgrading it::

    <official venv>/bin/python scripts/official_mcp.py
"""

from __future__ import annotations

import json
import logging
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "official_mcp.json"


class _Capture:
    """Stands in for the transport: keeps what would go to the binary."""

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []

    async def write(self, data: str) -> None:
        self.lines.append(json.loads(data))


async def _exchange(sdk: Any, cases: Any, name: str) -> list[dict[str, Any]]:
    from claude_agent_sdk._internal.query import Query

    group, messages = cases.EXCHANGES[name]
    instances = {key: config["instance"] for key, config in cases.servers(sdk, group).items()}
    transport = _Capture()
    query = Query(transport, True, sdk_mcp_servers=instances)
    server = cases.EXCHANGE_SERVER[name]
    out = []
    try:
        for number, message in enumerate(messages):
            request = {"subtype": "mcp_message", "server_name": server, "message": message}
            await query._handle_control_request(
                {"type": "control_request", "request_id": str(number), "request": request}
            )
            reply = transport.lines.pop()["response"]
            reply.pop("request_id")
            out.append({"message": message, "reply": reply})
    finally:
        for bridge in query._sdk_mcp_bridges.values():
            await bridge.aclose()
    return out


def main() -> None:
    import anyio
    import claude_agent_sdk as sdk

    sys.path.insert(0, str(ROOT / "tests" / "support"))
    import _mcp_cases as cases

    logging.disable(logging.WARNING)  # the official package warns about dropped blocks

    async def record() -> dict[str, Any]:
        return {name: await _exchange(sdk, cases, name) for name in cases.EXCHANGES}

    data = {
        "recorded_with": {
            "claude-agent-sdk": metadata.version("claude-agent-sdk"),
            "mcp": metadata.version("mcp"),
            "python": "{}.{}".format(*sys.version_info),
        },
        "exchanges": anyio.run(record),
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {sum(len(v) for v in data['exchanges'].values())} replies")


if __name__ == "__main__":
    main()
