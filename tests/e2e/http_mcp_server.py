"""A bare MCP server over streamable HTTP on 127.0.0.1, in a thread.

Its URL carries ``?access_token=...`` (as some hosted MCP servers take
their credential): every request must bring the token, and its one tool,
``whoami``, says whether it did, so a test sees the URL reached the server
whole.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


class HttpMcpServer:
    """``with HttpMcpServer(token) as server:`` serves at ``server.url``."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.requests: list[str] = []  # JSON-RPC methods, in order
        self.refused = 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _reply(self, status: int, body: Any = None) -> None:
                data = b"" if body is None else json.dumps(body).encode()
                self.send_response(status)
                if body is not None:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # no server-initiated stream
                self._reply(405)

            def do_DELETE(self) -> None:
                self._reply(200)

            def do_POST(self) -> None:
                message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
                token = parse_qs(urlsplit(self.path).query).get("access_token", [""])[0]
                if token != owner.token:
                    owner.refused += 1
                    self._reply(401, {"error": "bad token"})
                    return
                method = message.get("method")
                owner.requests.append(method)
                if "id" not in message:
                    self._reply(202)  # a notification
                elif method == "initialize":
                    info = {"name": "web", "version": "1"}
                    result = {
                        "protocolVersion": message["params"]["protocolVersion"],
                        "capabilities": {"tools": {}},
                        "serverInfo": info,
                    }
                    self._reply(200, {"jsonrpc": "2.0", "id": message["id"], "result": result})
                elif method == "tools/list":
                    tool = {
                        "name": "whoami",
                        "description": "Who is calling",
                        "inputSchema": {"type": "object", "properties": {}},
                    }
                    self._reply(200, {"jsonrpc": "2.0", "id": message["id"], "result": {"tools": [tool]}})
                elif method == "tools/call":
                    text = {"type": "text", "text": "caller holds the token"}
                    self._reply(200, {"jsonrpc": "2.0", "id": message["id"], "result": {"content": [text]}})
                else:
                    self._reply(200, {"jsonrpc": "2.0", "id": message["id"], "result": {}})

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/mcp?access_token={self.token}"

    def __enter__(self) -> HttpMcpServer:  # noqa: PYI034 - typing.Self needs 3.11
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
