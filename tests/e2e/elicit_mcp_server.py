"""A bare stdio MCP server whose one tool asks the user for input
(``elicitation/create``) and returns the answer it got."""

import json
import sys


def send(m):
    sys.stdout.write(json.dumps(m) + "\n")
    sys.stdout.flush()


pending = None
for line in sys.stdin:
    m = json.loads(line)
    if m.get("method") == "initialize":
        send(
            {
                "jsonrpc": "2.0",
                "id": m["id"],
                "result": {
                    "protocolVersion": m["params"]["protocolVersion"],
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "asker", "version": "1"},
                },
            }
        )
    elif m.get("method") == "tools/list":
        send(
            {
                "jsonrpc": "2.0",
                "id": m["id"],
                "result": {
                    "tools": [
                        {
                            "name": "ask",
                            "description": "Ask the user",
                            "inputSchema": {"type": "object", "properties": {}},
                        }
                    ]
                },
            }
        )
    elif m.get("method") == "tools/call":
        pending = m["id"]
        send(
            {
                "jsonrpc": "2.0",
                "id": "elicit-1",
                "method": "elicitation/create",
                "params": {
                    "message": "What is your name?",
                    "requestedSchema": {
                        "type": "object",
                        "properties": {"name": {"type": "string"}},
                        "required": ["name"],
                    },
                },
            }
        )
    elif m.get("id") == "elicit-1":
        send(
            {
                "jsonrpc": "2.0",
                "id": pending,
                "result": {"content": [{"type": "text", "text": "elicitation answer: " + json.dumps(m.get("result"))}]},
            }
        )
    elif "id" in m and "method" in m:
        send({"jsonrpc": "2.0", "id": m["id"], "result": {}})
