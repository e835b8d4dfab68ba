"""Structured output into a pydantic model: the model's final answer is
checked against the class's JSON Schema and arrives as an instance.

    python examples/structured_output.py
"""

from __future__ import annotations

import anyio
from pydantic import BaseModel, Field

from claude_wrap import ClaudeAgentOptions, ResultMessage, StructuredOutputError, query


class FileInfo(BaseModel):
    name: str
    purpose: str


class ProjectSummary(BaseModel):
    name: str
    files: list[FileInfo]
    python_files: int = Field(ge=0)


async def main() -> None:
    options = ClaudeAgentOptions(output_type=ProjectSummary, allowed_tools=["Read", "Glob", "Bash"], max_turns=10)
    try:
        async for message in query(prompt="Summarise the project in this directory.", options=options):
            if isinstance(message, ResultMessage) and isinstance(message.structured_output, ProjectSummary):
                summary = message.structured_output
                print(f"{summary.name}: {summary.python_files} Python files")
                for file in summary.files:
                    print(f"  {file.name}: {file.purpose}")
    except StructuredOutputError as exc:  # the answer did not fit the model
        print(f"unusable answer {exc.raw!r}: {exc}")


if __name__ == "__main__":
    anyio.run(main)
