"""A bare stdio MCP server (json.dumps on the wire, as many servers write it).

``cut`` answers text cut in the middle of an emoji, a lone surrogate that
JSON carries as ``\\ud83c``; ``argv`` answers the arguments it was started
with, so a test can see that a value reached the server.
"""

import json
import sys

TOOLS = [
    {"name": "cut", "description": "Text cut inside an emoji", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "argv", "description": "This server's arguments", "inputSchema": {"type": "object", "properties": {}}},
]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")  # ensure_ascii: a lone surrogate becomes \udXXX
    sys.stdout.flush()


def text(value):
    return {"content": [{"type": "text", "text": value}]}


for line in sys.stdin:
    m = json.loads(line)
    method = m.get("method")
    if method == "initialize":
        info = {"name": "probe", "version": "1"}
        send(
            {
                "jsonrpc": "2.0",
                "id": m["id"],
                "result": {
                    "protocolVersion": m["params"]["protocolVersion"],
                    "capabilities": {"tools": {}},
                    "serverInfo": info,
                },
            }
        )
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": m["id"], "result": {"tools": TOOLS}})
    elif method == "tools/call":
        name = m["params"]["name"]
        # "party \ud83c": the first half of U+1F389 alone, as JavaScript's slice() leaves it.
        value = "party \ud83c cut" if name == "cut" else json.dumps(sys.argv[1:])
        send({"jsonrpc": "2.0", "id": m["id"], "result": text(value)})
    elif "id" in m and method is not None:
        send({"jsonrpc": "2.0", "id": m["id"], "result": {}})
