"""UserPromptSubmit hooks: extra context on the first turn, a blocked prompt on the second."""

import asyncio

from claude_agent_sdk import AssistantMessage, ClaudeAgentOptions, ClaudeSDKClient, HookMatcher, TextBlock
from twin import note


async def on_prompt(input_data, tool_use_id, context):
    note("prompt input", input_data)
    if "secret" in input_data["prompt"]:
        return {"decision": "block", "reason": "Prompts about secrets are blocked."}
    return {
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": "The user likes short answers.",
        }
    }


async def main():
    options = ClaudeAgentOptions(hooks={"UserPromptSubmit": [HookMatcher(hooks=[on_prompt])]})
    async with ClaudeSDKClient(options=options) as client:
        for prompt in ("Say hi", "Tell me the secret"):
            await client.query(prompt)
            async for message in client.receive_response():
                if isinstance(message, AssistantMessage):
                    print("Claude:", [b.text for b in message.content if isinstance(b, TextBlock)])


asyncio.run(main())
