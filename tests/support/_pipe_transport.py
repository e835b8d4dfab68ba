"""A custom ``Transport`` written the way users write them for the official
package: it starts the binary itself (as one would in a container or a
sandbox) and moves parsed JSON dicts.

The file is run unchanged under both packages; only the package it imports
differs (``SDK_PACKAGE``: ``claude_wrap`` or ``claude_agent_sdk``), as only
the import line differs for a user who switches. Run as a script, it plays
a scenario with a hook and ``can_use_tool`` through ``query()`` and
``ClaudeSDKClient`` and prints one JSON line of what happened.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import AsyncIterator
from subprocess import PIPE
from typing import Any

import anyio

sdk: Any = importlib.import_module(os.environ.get("SDK_PACKAGE", "claude_wrap"))


class PipeTransport(sdk.Transport):  # type: ignore[misc]
    """Runs ``argv`` and speaks stream-json over its stdin and stdout."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: str) -> None:
        self._argv = argv
        self._env = env
        self._cwd = cwd
        self._process: Any = None
        self._ready = False
        self.writes: list[str] = []
        self.closed = False

    async def connect(self) -> None:
        self._process = await anyio.open_process(self._argv, stdin=PIPE, stdout=PIPE, env=self._env, cwd=self._cwd)
        self._ready = True

    async def write(self, data: str) -> None:
        self.writes.append(data)
        await self._process.stdin.send(data.encode())

    async def read_messages(self) -> AsyncIterator[dict[str, Any]]:
        pending = b""
        async for chunk in self._process.stdout:
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if line.strip():
                    yield json.loads(line)

    async def end_input(self) -> None:
        await self._process.stdin.aclose()

    async def close(self) -> None:
        self._ready = False
        self.closed = True
        if self._process is None:
            return
        with anyio.move_on_after(5):  # it exits by itself once its input is closed
            await self._process.stdin.aclose()
            await self._process.wait()
        if self._process.returncode is None:
            self._process.kill()
            with anyio.move_on_after(5):
                await self._process.wait()

    def is_ready(self) -> bool:
        return self._ready


def binary_argv(cli: str) -> list[str]:
    """What the transport runs: the command line is the transport's to choose."""
    return [
        cli,
        "--output-format", "stream-json",
        "--verbose",
        "--input-format", "stream-json",
        "--permission-prompt-tool", "stdio",  # can_use_tool needs the prompts on the control channel
        "--setting-sources", "",
        "--system-prompt", "",
    ]  # fmt: skip


def summary(message: Any) -> list[Any]:
    """A message in a form both packages produce alike (no ids, no timings)."""
    if isinstance(message, sdk.AssistantMessage):
        return ["assistant", [getattr(b, "text", None) or getattr(b, "name", None) for b in message.content]]
    if isinstance(message, sdk.UserMessage):
        content = message.content
        if isinstance(content, list):
            return ["user", [str(getattr(b, "content", "")) for b in content]]
        return ["user", content]
    if isinstance(message, sdk.ResultMessage):
        return ["result", message.subtype, message.is_error, message.result]
    if isinstance(message, sdk.SystemMessage):
        return ["system", message.subtype]
    return [type(message).__name__]


def scenario_options(log: list[Any], **fields: Any) -> Any:
    """A PreToolUse hook and ``can_use_tool``, both writing to ``log``."""

    async def before_bash(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        log.append(["hook", hook_input["hook_event_name"], hook_input["tool_name"]])
        return {}

    async def may_use(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
        log.append(["can_use_tool", tool_name, tool_input.get("command")])
        return sdk.PermissionResultAllow()

    return sdk.ClaudeAgentOptions(
        hooks={"PreToolUse": [sdk.HookMatcher(matcher="Bash", hooks=[before_bash])]},
        can_use_tool=may_use,
        **fields,
    )


async def play(cli: str, env: dict[str, str], cwd: str) -> dict[str, Any]:
    """One ``query()`` run and one ``ClaudeSDKClient`` turn over a ``PipeTransport`` each."""
    seen: dict[str, Any] = {}
    log: list[Any] = []
    transport = PipeTransport(binary_argv(cli), env, cwd)
    messages = [
        summary(m) async for m in sdk.query(prompt="run it", options=scenario_options(log), transport=transport)
    ]
    seen["query"] = {"messages": messages, "log": log, "closed": transport.closed}

    log = []
    transport = PipeTransport(binary_argv(cli), env, cwd)
    async with sdk.ClaudeSDKClient(scenario_options(log), transport=transport) as client:
        await client.query("run it again")
        messages = [summary(m) async for m in client.receive_response()]
    seen["client"] = {"messages": messages, "log": log, "closed": transport.closed}
    return seen


if __name__ == "__main__":
    config = json.loads(sys.argv[1])
    print(json.dumps(anyio.run(play, config["cli"], config["env"], config["cwd"])))
