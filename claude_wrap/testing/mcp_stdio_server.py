"""A small external MCP server over stdio, built on claude_wrap's own JSON-RPC code.

Run it as a subprocess of the binary to test ``stdio`` MCP configs without
the ``mcp`` package::

    ClaudeAgentOptions(mcp_servers={
        "ext": {"type": "stdio", "command": sys.executable,
                "args": ["-m", "claude_wrap.testing.mcp_stdio_server"]},
    })

It offers ``echo`` (``{"text": str}`` → the text), ``add`` (``{"a", "b"}``
numbers → their sum) and ``whoami`` (→ ``"pid <n>"``, proving the call
crossed a process boundary). ``serve_stdio(server)`` serves any
``SdkMcpServer`` the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import anyio

from claude_wrap._mcp.server import SdkMcpServer, ServerConnection
from claude_wrap._mcp.tools import tool

__all__ = ["demo_server", "serve_stdio"]


def demo_server(name: str = "ext") -> SdkMcpServer:
    """The server ``python -m claude_wrap.testing.mcp_stdio_server`` runs."""

    @tool("echo", "Return the text unchanged", {"text": str})
    async def echo(args: dict[str, Any]) -> str:
        return str(args["text"])

    @tool("add", "Add two numbers", {"a": float, "b": float}, annotations={"readOnlyHint": True})
    def add(args: dict[str, Any]) -> str:
        total = args["a"] + args["b"]
        return str(int(total) if float(total).is_integer() else total)

    @tool("whoami", "The process id of this server", {})
    async def whoami(args: dict[str, Any]) -> str:
        return f"pid {os.getpid()}"

    return SdkMcpServer(name, "1.0.0", [echo, add, whoami])


async def serve_stdio(server: SdkMcpServer) -> None:
    """Serve ``server`` as newline-delimited JSON-RPC on stdin/stdout until EOF.

    Each request runs as its own task, so slow tools do not hold up others
    (or ``notifications/cancelled`` for them).
    """
    conn = ServerConnection()
    stdin = anyio.wrap_file(sys.stdin.buffer)
    write_lock = anyio.Lock()

    async def write(message: dict[str, Any]) -> None:
        data = (json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8")
        async with write_lock:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()

    async def answer(message: dict[str, Any]) -> None:
        reply = await server.handle(message, conn)
        if reply is not None:
            await write(reply)

    async with anyio.create_task_group() as tg:
        async for line in stdin:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError:
                await write({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
                continue
            if isinstance(message, dict):
                tg.start_soon(answer, message)
        # stdin ended: the client is gone, so nobody waits for answers.
        tg.cancel_scope.cancel()


def main(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m claude_wrap.testing.mcp_stdio_server``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--name", default="ext", help="the server name it reports (default: ext)")
    args = parser.parse_args(argv)
    anyio.run(serve_stdio, demo_server(args.name))


if __name__ == "__main__":
    main()
