"""What apps do with messages: dataclasses.asdict / replace / fields, vars(), assignment, equality, pickling."""

import asyncio
import dataclasses
import json
import pickle

from claude_agent_sdk import AssistantMessage, ResultMessage, TextBlock, query
from twin import note


def attempt(label, action):
    try:
        note(label, action())
    except Exception as exc:
        note(label, exc)


async def main():
    messages = [m async for m in query(prompt="Say hello")]
    assistant = next(m for m in messages if isinstance(m, AssistantMessage))
    result = next(m for m in messages if isinstance(m, ResultMessage))
    block = assistant.content[0]

    attempt("is_dataclass", lambda: [dataclasses.is_dataclass(m) for m in messages])
    attempt("fields of the result", lambda: [f.name for f in dataclasses.fields(result)])
    attempt("asdict of the block", lambda: dataclasses.asdict(block))
    attempt("asdict json keys", lambda: sorted(json.loads(json.dumps(dataclasses.asdict(assistant), default=str))))
    attempt("replace text", lambda: dataclasses.replace(block, text="patched"))
    attempt("vars of the block", lambda: vars(block))

    def assign():
        block.text = "assigned"
        return block.text

    attempt("assignment", assign)
    attempt("equality", lambda: TextBlock(text="x") == TextBlock(text="x"))
    attempt("hashable", lambda: isinstance(hash(TextBlock(text="x")), int))
    attempt("pickle round trip", lambda: pickle.loads(pickle.dumps(result)) == result)
    attempt("repr of a block", lambda: repr(TextBlock(text="x")))
    attempt("construct positionally", lambda: TextBlock("positional"))


asyncio.run(main())
