"""The synchronous API in a plain script."""

from __future__ import annotations

from claude_wrap import AssistantMessage, ClaudeAgentOptions, TextBlock
from claude_wrap.sync import ClaudeSDKClient, query


def main() -> None:
    options = ClaudeAgentOptions(max_turns=1)
    for message in query(prompt="Hello", options=options):
        if isinstance(message, AssistantMessage):
            print([b.text for b in message.content if isinstance(b, TextBlock)])
    with ClaudeSDKClient(options) as client:
        client.query("Read setup.py")
        for reply in client.receive_response():
            print(type(reply).__name__)


if __name__ == "__main__":
    main()
