"""can_use_tool: a changed input, and a session rule that stops the next question."""

import asyncio
from pathlib import Path

from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    PermissionResultAllow,
    PermissionUpdate,
    TextBlock,
)
from claude_agent_sdk.types import PermissionRuleValue
from twin import note


async def decide(tool_name, tool_input, context):
    note("asked", {"tool_name": tool_name, "input": tool_input, "suggestions": context.suggestions})
    changed = dict(tool_input, command=tool_input["command"].replace("draft", "final"))
    rule = PermissionUpdate(
        type="addRules",
        rules=[PermissionRuleValue(tool_name="Bash", rule_content="echo:*")],
        behavior="allow",
        destination="session",
    )
    return PermissionResultAllow(updated_input=changed, updated_permissions=[rule])


async def main():
    async with ClaudeSDKClient(ClaudeAgentOptions(can_use_tool=decide)) as client:
        await client.query("Echo a draft, then echo again")
        async for message in client.receive_response():
            if isinstance(message, AssistantMessage):
                print([b.text for b in message.content if isinstance(b, TextBlock)])
    print("local settings written:", Path(".claude/settings.local.json").exists())


asyncio.run(main())
