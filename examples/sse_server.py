"""A web endpoint that streams an agent's work as server-sent events.

    python examples/sse_server.py        # serves http://127.0.0.1:8000 (PORT to change)
    curl -N 'http://127.0.0.1:8000/ask?prompt=What+is+in+this+directory%3F'

GET /ask?prompt=... answers with text/event-stream: "text" events as the
model writes, a "tool" event per tool call with its complete input, and one
"result" event at the end. A browser reads it with EventSource. A client
that goes away ends the stream, and with it the run: the binary and
everything it started are stopped.

It is built on Starlette and uvicorn; a FastAPI route (FastAPI is Starlette
underneath) returns the same StreamingResponse.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from claude_wrap import ClaudeAgentOptions, ResultMessage, StreamAccumulator, TextChunk, ToolCall, query

OPTIONS = ClaudeAgentOptions(include_partial_messages=True, allowed_tools=["Read", "Glob", "Bash"], max_turns=10)


def event(name: str, data: object) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


async def agent_events(prompt: str) -> AsyncIterator[str]:
    shown = StreamAccumulator()  # each piece of text once, streamed or not
    async for message in query(prompt=prompt, options=OPTIONS):
        for item in shown.feed(message):
            if isinstance(item, TextChunk):
                yield event("text", {"text": item.text})
            elif isinstance(item, ToolCall):
                yield event("tool", {"name": item.name, "input": item.input})
        if isinstance(message, ResultMessage):
            yield event(
                "result", {"outcome": message.outcome, "text": message.result, "cost_usd": message.total_cost_usd}
            )


async def ask(request: Request) -> Response:
    prompt = request.query_params.get("prompt", "").strip()
    if not prompt:
        return PlainTextResponse("missing ?prompt=\n", status_code=400)
    return StreamingResponse(
        agent_events(prompt), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
    )


app = Starlette(routes=[Route("/ask", ask)])

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(os.environ.get("PORT", "8000")))
