"""The model's AskUserQuestion tool against the real binary: typed questions
in, answers out to the model, failures as error results, never a hang."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _e2e import Options, bash, run, tool_results

from claude_wrap import (
    PermissionResultAllow,
    PermissionResultDeny,
    ToolPermissionContext,
    UserQuestion,
    UserQuestionOption,
    answer_user_questions,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

QUESTIONS = {
    "questions": [
        {
            "question": "Which database should we use?",
            "header": "Database",
            "multiSelect": False,
            "options": [
                {"label": "Postgres", "description": "relational"},
                {"label": "SQLite", "description": "embedded"},
            ],
        },
        {
            "question": "Which features do you want?",
            "header": "Features",
            "multiSelect": True,
            "options": [
                {"label": "Auth", "description": "log-in"},
                {"label": "Search", "description": "full text"},
                {"label": "Export", "description": "CSV"},
            ],
        },
    ]
}


def ask() -> Reply:
    return Reply.tool_use("AskUserQuestion", QUESTIONS)


def result_text(model: ScriptedModel, index: int) -> str:
    """The tool_result the model got in its ``index``-th request."""
    last = model.main_requests[index].messages[-1]
    return json.dumps([block for block in last["content"] if block.get("type") == "tool_result"])


async def test_answers_reach_the_model_and_can_use_tool_keeps_other_tools(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    asked: list[tuple[list[UserQuestion], ToolPermissionContext]] = []
    permission_asked: list[str] = []

    async def on_user_question(questions: list[UserQuestion], context: ToolPermissionContext) -> Any:
        asked.append((questions, context))
        return {"Which database should we use?": "SQLite", "Which features do you want?": ["Auth", "Export"]}

    async def can_use_tool(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        permission_asked.append(tool_name)
        return PermissionResultDeny(message="no shell in this test")

    scripted_model.add(ask(), bash("touch never.txt"), Reply.text("done"))
    messages = await run("plan it", make_options(on_user_question=on_user_question, can_use_tool=can_use_tool))

    [(questions, context)] = asked
    assert questions == [
        UserQuestion(
            "Which database should we use?",
            "Database",
            (UserQuestionOption("Postgres", "relational"), UserQuestionOption("SQLite", "embedded")),
            multi_select=False,
        ),
        UserQuestion(
            "Which features do you want?",
            "Features",
            (
                UserQuestionOption("Auth", "log-in"),
                UserQuestionOption("Search", "full text"),
                UserQuestionOption("Export", "CSV"),
            ),
            multi_select=True,
        ),
    ]
    assert context.tool_use_id
    # the answers, as the model reads them
    answered = result_text(scripted_model, 1)
    assert '\\"Which database should we use?\\"=\\"SQLite\\"' in answered
    assert '\\"Which features do you want?\\"=\\"Auth, Export\\"' in answered
    assert '"is_error"' not in answered
    # can_use_tool never saw the question, and still decided the other tool
    assert permission_asked == ["Bash"]
    assert "no shell in this test" in result_text(scripted_model, 2)
    assert not (workdir / "never.txt").exists()
    assert messages[-1].result == "done"


async def test_raising_callback_is_an_error_result_and_the_turn_goes_on(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    async def on_user_question(questions: list[UserQuestion], context: ToolPermissionContext) -> Any:
        raise RuntimeError("the form crashed")

    async def can_use_tool(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        return PermissionResultAllow()

    scripted_model.add(ask(), Reply.text("carrying on"))
    messages = await run("plan it", make_options(on_user_question=on_user_question, can_use_tool=can_use_tool))

    [result] = tool_results(messages)
    assert result.is_error
    assert "on_user_question raised RuntimeError: the form crashed" in str(result.content)
    assert messages[-1].result == "carrying on"


async def test_an_answer_to_a_question_not_asked_is_an_error_result(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    async def on_user_question(questions: list[UserQuestion], context: ToolPermissionContext) -> Any:
        return {"Which colour?": "Blue"}  # the binary alone would say "did not answer"

    scripted_model.add(ask(), Reply.text("ok"))
    messages = await run("plan it", make_options(on_user_question=on_user_question, can_use_tool=_allow))

    [result] = tool_results(messages)
    assert result.is_error and "which was not asked" in str(result.content)


async def _allow(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
    return PermissionResultAllow()


async def test_without_any_callback_the_tool_is_off_and_nothing_hangs(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(ask(), Reply.text("fine"))
    messages = await run("plan it", make_options(), limit=30)

    offered = [tool["name"] for tool in scripted_model.main_requests[0].body.get("tools", [])]
    assert "AskUserQuestion" not in offered
    [result] = tool_results(messages)
    assert result.is_error and "No such tool available: AskUserQuestion" in str(result.content)
    assert messages[-1].result == "fine"


async def test_can_use_tool_alone_gets_the_raw_call(scripted_model: ScriptedModel, make_options: Options) -> None:
    seen: list[str] = []

    async def can_use_tool(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> Any:
        seen.append(tool_name)
        if len(seen) == 1:
            return PermissionResultAllow()  # no answers: the model hears none were given
        return answer_user_questions(tool_input, {"Which database should we use?": "Postgres"})

    scripted_model.add(ask(), ask(), Reply.text("ok"))
    await run("plan it", make_options(can_use_tool=can_use_tool), limit=30)

    assert seen == ["AskUserQuestion", "AskUserQuestion"]
    assert "The user did not answer the questions." in result_text(scripted_model, 1)
    assert '\\"Which database should we use?\\"=\\"Postgres\\"' in result_text(scripted_model, 2)


async def test_on_user_question_alone_turns_the_tool_on(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    async def on_user_question(questions: list[UserQuestion], context: ToolPermissionContext) -> Any:
        return {"Which database should we use?": "Postgres"}

    options = make_options(on_user_question=on_user_question)
    assert "--permission-prompt-tool" in options.explain().argv
    scripted_model.add(ask(), bash("touch refused.txt"), Reply.text("ok"))
    await run("plan it", options)

    assert '\\"Which database should we use?\\"=\\"Postgres\\"' in result_text(scripted_model, 1)
    # no can_use_tool: other prompts get the refusal a host without prompts gets
    refused = result_text(scripted_model, 2)
    assert '"is_error": true' in refused and "needs approval" in refused
    assert not (workdir / "refused.txt").exists()
