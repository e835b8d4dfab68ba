"""A warm pool: binaries started and initialized before the prompts come,
so each prompt pays only for its own turn.

    python examples/warm_pool.py

Three questions are answered concurrently from a pool of two members; the
pool starts a new member whenever one is taken.
"""

from __future__ import annotations

import anyio

from claude_wrap import ClaudeAgentOptions, ClaudePool, ResultMessage

QUESTIONS = [
    "What is the capital of France? One word.",
    "What is the capital of Japan? One word.",
    "What is the capital of Peru? One word.",
]


async def main() -> None:
    answers: dict[str, str] = {}
    async with ClaudePool(ClaudeAgentOptions(max_turns=1), size=2) as pool:

        async def ask(question: str) -> None:
            async for message in pool.query(prompt=question):
                if isinstance(message, ResultMessage):
                    answers[question] = message.result or ""

        async with anyio.create_task_group() as tg:
            for question in QUESTIONS:
                tg.start_soon(ask, question)
    for question in QUESTIONS:
        print(f"{question} -> {answers[question]}")


if __name__ == "__main__":
    anyio.run(main)
