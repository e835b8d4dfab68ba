"""A Transport written against the official interface (connect/write/read_messages/close/is_ready/end_input)."""

import asyncio
import json
import shutil

import anyio
from anyio.streams.text import TextReceiveStream
from claude_agent_sdk import ResultMessage, Transport, query
from twin import note


class PipeTransport(Transport):
    """Runs `claude` from PATH itself, as apps do to run it in a container or sandbox."""

    def __init__(self):
        self._process = None
        self.calls = []

    async def connect(self):
        self.calls.append("connect")
        command = [
            shutil.which("claude"),
            "--output-format",
            "stream-json",
            "--verbose",
            "--input-format",
            "stream-json",
            "--system-prompt",
            "",
        ]
        self._process = await anyio.open_process(command, stdin=-1, stdout=-1)

    async def write(self, data: str):
        self.calls.append("write")
        await self._process.stdin.send(data.encode())

    async def read_messages(self):
        buffer = ""
        async for chunk in TextReceiveStream(self._process.stdout):
            buffer += chunk
            while "\n" in buffer:
                line, buffer = buffer.split("\n", 1)
                if line.strip():
                    yield json.loads(line)

    async def close(self):
        self.calls.append("close")
        if self._process is not None and self._process.returncode is None:
            self._process.terminate()
            await self._process.wait()

    def is_ready(self):
        return self._process is not None

    async def end_input(self):
        self.calls.append("end_input")
        await self._process.stdin.aclose()


async def main():
    transport = PipeTransport()
    try:
        async for message in query(prompt="Hello through my transport", transport=transport):
            if isinstance(message, ResultMessage):
                print("result:", message.subtype, message.result)
    except Exception as exc:
        note("raised", exc)
    note("transport calls", sorted(set(transport.calls)))


asyncio.run(main())
