"""A conversation over several turns with one binary: ClaudeSDKClient.

    python examples/multi_turn_client.py

Each query() adds a turn to the same session, so the model remembers the
earlier ones; receive_response() reads up to the turn's ResultMessage.
"""

from __future__ import annotations

import anyio

from claude_wrap import AssistantMessage, ClaudeAgentOptions, ClaudeSDKClient, ResultMessage, TextBlock

PROMPTS = [
    "My favourite colour is teal. Just say OK.",
    "What is my favourite colour?",
]


async def main() -> None:
    async with ClaudeSDKClient(ClaudeAgentOptions(max_turns=3)) as client:
        for prompt in PROMPTS:
            print(f"> {prompt}")
            await client.query(prompt)
            async for message in client.receive_response():
                if isinstance(message, AssistantMessage):
                    print("".join(b.text for b in message.content if isinstance(b, TextBlock)))
                elif isinstance(message, ResultMessage):
                    print(f"  (turn done: {message.subtype}, session {message.session_id})")


if __name__ == "__main__":
    anyio.run(main)
