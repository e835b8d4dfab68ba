"""A multi-turn client: two turns, an interrupt, the session id."""

from __future__ import annotations

import anyio

from claude_wrap import AssistantMessage, ClaudeAgentOptions, ClaudeSDKClient, ResultMessage, TextBlock


async def main() -> str | None:
    options = ClaudeAgentOptions(max_turns=3, permission_mode="acceptEdits", system_prompt="Be brief.")
    session: str | None = None
    async with ClaudeSDKClient(options=options) as client:
        for prompt in ("Remember the number 7.", "Which number did I say?"):
            await client.query(prompt)
            async for message in client.receive_response():
                if isinstance(message, AssistantMessage):
                    print("".join(b.text for b in message.content if isinstance(b, TextBlock)))
                elif isinstance(message, ResultMessage):
                    session = message.session_id
        await client.interrupt()
    return session


if __name__ == "__main__":
    print(anyio.run(main))
