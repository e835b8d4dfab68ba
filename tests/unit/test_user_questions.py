"""AskUserQuestion answers: typed parsing and the checks that keep a wrong
answer from reaching the model as "the user did not answer"."""

from __future__ import annotations

from typing import Any

import pytest

from claude_wrap import ClaudeAgentOptions, PermissionResultAllow, UserQuestion, answer_user_questions, user_questions

INPUT: dict[str, Any] = {
    "questions": [
        {"question": "One?", "header": "1", "multiSelect": False, "options": [{"label": "a", "description": "A"}]},
        {
            "question": "Many?",
            "header": "2",
            "multiSelect": True,
            "options": [{"label": "x"}, {"label": "y", "preview": "p"}],
        },
    ]
}


def test_questions_are_typed_and_keep_the_raw_entry() -> None:
    one, many = user_questions(INPUT)
    assert (one.question, one.header, one.multi_select, one.options[0].description) == ("One?", "1", False, "A")
    assert many.multi_select and [o.label for o in many.options] == ["x", "y"] and many.options[1].preview == "p"
    assert many.raw == INPUT["questions"][1]
    with pytest.raises(TypeError):
        user_questions({})
    with pytest.raises(TypeError):
        UserQuestion.from_dict({"header": "no question"})


def test_answers_go_into_updated_input() -> None:
    result = answer_user_questions(INPUT, {"One?": "a", "Many?": ["x", "y"]})
    assert isinstance(result, PermissionResultAllow)
    assert result.updated_input == {**INPUT, "answers": {"One?": "a", "Many?": "x, y"}}
    # free text is fine; empty answers are left out (the question is unanswered)
    assert answer_user_questions(INPUT, {"One?": "something else", "Many?": []}).updated_input == {
        **INPUT,
        "answers": {"One?": "something else"},
    }


@pytest.mark.parametrize(
    ("answers", "error", "match"),
    [
        ({"Other?": "a"}, ValueError, "was not asked"),
        ({"One?": ["a", "b"]}, ValueError, "not multi-select"),
        ({"One?": 3}, TypeError, "string or a list of strings"),
        (["a"], TypeError, "mapping"),
    ],
)
def test_wrong_answers_are_loud(answers: Any, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        answer_user_questions(INPUT, answers)


def test_option_excludes_a_permission_prompt_tool() -> None:
    async def answer(questions: Any, context: Any) -> Any:
        return {}

    with pytest.raises(ValueError, match="on_user_question"):
        ClaudeAgentOptions(on_user_question=answer, permission_prompt_tool_name="mcp__p__ask")
