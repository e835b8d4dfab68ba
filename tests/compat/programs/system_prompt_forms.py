"""Every form of system_prompt; the model's requests show what each sends."""

import asyncio
from pathlib import Path

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query

Path("prompt.md").write_text("You answer in French.\n")

FORMS = [
    ("none", None),
    ("empty string", ""),
    ("string", "You are terse."),
    ("preset", {"type": "preset", "preset": "claude_code"}),
    ("preset + append", {"type": "preset", "preset": "claude_code", "append": "Always sign with -- C."}),
    ("preset without dynamic sections", {"type": "preset", "preset": "claude_code", "exclude_dynamic_sections": True}),
    ("file", {"type": "file", "path": "prompt.md"}),
]


async def main():
    for label, form in FORMS:
        options = ClaudeAgentOptions() if form is None else ClaudeAgentOptions(system_prompt=form)
        async for message in query(prompt=f"Form: {label}", options=options):
            if isinstance(message, ResultMessage):
                print(label, "->", message.subtype)


asyncio.run(main())
