"""The synchronous API, for scripts and notebooks: no async, no event loop.

    python examples/sync_script.py

claude_wrap.sync has query() and ClaudeSDKClient with plain calls and plain
iterators; the async core runs on a private loop in a helper thread.
"""

from __future__ import annotations

from claude_wrap import AssistantMessage, ClaudeAgentOptions, ResultMessage, TextBlock
from claude_wrap.sync import ClaudeSDKClient, query


def text_of(message: object) -> str:
    if isinstance(message, AssistantMessage):
        return "".join(block.text for block in message.content if isinstance(block, TextBlock))
    return ""


def main() -> None:
    options = ClaudeAgentOptions(allowed_tools=["Bash"], max_turns=5)
    for message in query(prompt="How many lines does notes.txt have?", options=options):
        if text := text_of(message):
            print(text)
        elif isinstance(message, ResultMessage):
            print(f"[{message.subtype}]")

    with ClaudeSDKClient(options) as client:
        for prompt in ["Name one fruit.", "Name another one."]:
            client.query(prompt)
            for message in client.receive_response():
                if text := text_of(message):
                    print(f"{prompt} -> {text}")


if __name__ == "__main__":
    main()
