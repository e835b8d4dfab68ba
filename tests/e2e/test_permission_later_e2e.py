"""``can_use_tool`` answering later (``ANSWER_LATER`` then
``client.answer_permission``), the context's ``request_id``, and the
TypeScript fields of an answer, against the real binary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options, bash, tool_results, turn
from typing_extensions import Self

from claude_wrap import (
    ANSWER_LATER,
    ClaudeSDKClient,
    CLIConnectionError,
    PermissionResultAllow,
    PermissionResultDeny,
    ToolPermissionContext,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


class Prompts:
    """A host UI's queue of permission prompts: the callback only files each one."""

    def __init__(self) -> None:
        self.send, self.receive = anyio.create_memory_object_stream[ToolPermissionContext](10)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.send.close()
        self.receive.close()

    async def can_use_tool(self, tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        await self.send.send(context)
        return ANSWER_LATER


async def answering(client: ClaudeSDKClient, prompts: Prompts, result: Any, prompt: str) -> list[Any]:
    """One turn, with each prompt answered from another task once it is filed."""
    answered: list[ToolPermissionContext] = []

    async def answer_each() -> None:
        async for context in prompts.receive:
            answered.append(context)
            await client.answer_permission(str(context.request_id), result)

    async with anyio.create_task_group() as tg:
        tg.start_soon(answer_each)
        messages = await turn(client, prompt)
        tg.cancel_scope.cancel()
    assert answered and all(c.request_id for c in answered)
    return messages


async def test_a_prompt_answered_later_allows_or_denies_the_tool(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    with Prompts() as prompts:
        await allow_then_deny(scripted_model, make_options, prompts)
    assert (workdir / "allowed.txt").exists() and not (workdir / "denied.txt").exists()


async def allow_then_deny(scripted_model: ScriptedModel, make_options: Options, prompts: Prompts) -> None:
    scripted_model.add(bash("touch allowed.txt"), Reply.text("ran"), bash("touch denied.txt"), Reply.text("refused"))
    async with ClaudeSDKClient(make_options(can_use_tool=prompts.can_use_tool)) as client:
        first = await answering(client, prompts, PermissionResultAllow(decision_classification="user_permanent"), "a")
        second = await answering(client, prompts, PermissionResultDeny(message="not today"), "b")
    assert first[-1].result == "ran" and second[-1].result == "refused"
    assert "not today" in str(tool_results(second)[0].content)


async def read_all(client: ClaudeSDKClient) -> None:
    async for _ in client.receive_response():
        pass


async def test_a_prompt_never_answered_is_denied_when_the_session_closes(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(bash("touch never.txt"), Reply.text("never"))
    with Prompts() as prompts:
        async with ClaudeSDKClient(make_options(can_use_tool=prompts.can_use_tool)) as client:
            await client.query("go")
            async with anyio.create_task_group() as tg:
                tg.start_soon(read_all, client)  # reading brings the binary's requests in
                with anyio.fail_after(60):
                    context = await prompts.receive.receive()
                tg.cancel_scope.cancel()  # the reader walks away; the prompt still waits
    with pytest.raises(CLIConnectionError):  # the client is closed: nothing waits any more
        await client.answer_permission(str(context.request_id), PermissionResultAllow())
    assert not (workdir / "never.txt").exists()


async def test_a_later_answer_is_bounded_by_callback_timeout(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(bash("touch late.txt"), Reply.text("gave up"))
    with Prompts() as prompts:
        async with ClaudeSDKClient(make_options(can_use_tool=prompts.can_use_tool, callback_timeout=0.5)) as client:
            messages = await turn(client, "go")
            context = prompts.receive.receive_nowait()
            with pytest.raises(LookupError):  # it was denied already
                await client.answer_permission(str(context.request_id), PermissionResultAllow())
    assert not (workdir / "late.txt").exists()
    assert messages[-1].result == "gave up" and tool_results(messages)[0].is_error


async def test_an_answer_names_its_tool_use_and_how_it_was_decided(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    async def allow(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        return PermissionResultAllow(tool_use_id=context.tool_use_id, decision_classification="user_temporary")

    scripted_model.add(bash("touch classified.txt"), Reply.text("ok"))
    async with ClaudeSDKClient(make_options(can_use_tool=allow)) as client:
        with pytest.raises(LookupError):
            await client.answer_permission("no-such-request", PermissionResultAllow())
        messages = await turn(client, "go")
    assert (workdir / "classified.txt").exists() and messages[-1].result == "ok"
