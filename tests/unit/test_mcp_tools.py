"""@tool: schemas from Python types, argument validation, result shapes."""

from __future__ import annotations

import enum
from typing import Annotated, Any, Optional

import pytest
from pydantic import BaseModel, Field
from typing_extensions import NotRequired, TypedDict

from claude_wrap import SdkMcpTool, ToolAnnotations, tool
from claude_wrap._json_schema import schema_errors
from claude_wrap._mcp_tools import ToolInputError, input_spec, tool_result


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Point(BaseModel):
    x: int
    y: int = 0


class Shape(BaseModel):
    name: str = Field(description="what to call it")
    color: Color
    points: list[Point]
    label: Optional[str] = None


class Address(TypedDict):
    street: Annotated[str, "street and number"]


class Person(TypedDict):
    name: Annotated[str, "full name"]
    age: NotRequired[int]
    home: Address


def test_dict_of_types_schema_descriptions_and_optional_keys() -> None:
    spec = input_spec(
        {
            "a": float,
            "n": Annotated[int, "how many"],
            "tags": list[Annotated[str, "a tag"]],
            "note": Optional[str],
            "color": Color,
        }
    )
    assert spec.schema == {
        "type": "object",
        "properties": {
            "a": {"type": "number"},
            "n": {"type": "integer", "description": "how many"},
            "tags": {"type": "array", "items": {"type": "string", "description": "a tag"}},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "color": {"enum": ["red", "blue"], "title": "Color", "type": "string"},
        },
        "required": ["a", "n", "tags", "color"],
    }
    value = spec.validate({"a": 1, "n": "3", "tags": ["x"], "color": "red"})
    assert value == {"a": 1.0, "n": 3, "tags": ["x"], "color": Color.RED}
    with pytest.raises(ToolInputError, match=r"a: Field required"):
        spec.validate({"n": 1, "tags": [], "color": "red"})
    with pytest.raises(ToolInputError, match=r"color: Input should be 'red' or 'blue'"):
        spec.validate({"a": 1, "n": 1, "tags": [], "color": "green"})


def test_typeddict_keeps_required_keys_and_nested_descriptions() -> None:
    spec = input_spec(Person)
    assert spec.schema["required"] == ["name", "home"]
    props = spec.schema["properties"]
    assert props["name"] == {"type": "string", "description": "full name"}
    assert props["home"]["properties"]["street"] == {"type": "string", "description": "street and number"}
    assert "$defs" not in spec.schema  # inlined
    assert spec.validate({"name": "Ada", "home": {"street": "1 Loop"}}) == {"name": "Ada", "home": {"street": "1 Loop"}}
    with pytest.raises(ToolInputError, match="home.street"):
        spec.validate({"name": "Ada", "home": {}})


def test_pydantic_model_gives_an_instance_and_a_full_schema() -> None:
    spec = input_spec(Shape)
    props = spec.schema["properties"]
    assert props["name"] == {"type": "string", "description": "what to call it"}
    assert props["color"]["enum"] == ["red", "blue"]
    assert props["points"]["items"]["properties"]["x"] == {"type": "integer"}
    assert props["label"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    assert spec.schema["required"] == ["name", "color", "points"]
    shape = spec.validate({"name": "tri", "color": "blue", "points": [{"x": 1}]})
    assert isinstance(shape, Shape) and shape.points[0] == Point(x=1, y=0) and shape.color is Color.BLUE


def test_recursive_model_keeps_defs() -> None:
    class Node(BaseModel):
        value: int
        children: list[Node] = []

    spec = input_spec(Node)
    assert "$defs" in spec.schema or "$ref" in str(spec.schema)
    assert spec.validate({"value": 1, "children": [{"value": 2}]}).children[0].value == 2


def test_raw_json_schema_is_passed_through_and_validated_by_our_subset() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "number"}, "mode": {"enum": ["x", "y"]}},
        "required": ["a"],
    }
    spec = input_spec(schema)
    assert spec.schema == schema
    assert spec.validate({"a": 2, "extra": True}) == {"a": 2, "extra": True}  # unchanged
    with pytest.raises(ToolInputError, match=r"\$.a: expected number, got string"):
        spec.validate({"a": "two"})
    with pytest.raises(ToolInputError, match=r"missing required property 'a'"):
        spec.validate({})


def test_bad_input_schema_fails_at_decoration() -> None:
    with pytest.raises(TypeError, match="input_schema must be"):

        @tool("t", "d", 42)
        async def handler(args: Any) -> Any:
            return None


def test_annotations_reach_the_wire_in_both_spellings() -> None:
    @tool(
        "t",
        "d",
        {},
        annotations=ToolAnnotations(read_only_hint=True, openWorldHint=False, title="Tee", maxResultSizeChars=500_000),
    )
    async def t(args: Any) -> Any:
        return None

    @tool("u", "d", {}, annotations={"destructiveHint": True})
    async def u(args: Any) -> Any:
        return None

    assert isinstance(t, SdkMcpTool)
    assert t.wire() == {
        "name": "t",
        "description": "d",
        "title": "Tee",
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"title": "Tee", "readOnlyHint": True, "openWorldHint": False},
        "_meta": {"anthropic/maxResultSizeChars": 500_000},
    }
    assert u.wire()["annotations"] == {"destructiveHint": True}
    assert "_meta" not in u.wire()


def test_tool_result_shapes() -> None:
    image = {"type": "image", "data": "AAA=", "mime_type": "image/png"}
    assert tool_result({"content": [{"type": "text", "text": "hi"}, image], "is_error": True}) == {
        "content": [{"type": "text", "text": "hi"}, {"type": "image", "data": "AAA=", "mimeType": "image/png"}],
        "isError": True,
    }
    assert tool_result("plain") == {"content": [{"type": "text", "text": "plain"}]}
    assert tool_result(5) == {"content": [{"type": "text", "text": "5"}]}
    assert tool_result({"a": [1, Color.RED]}) == {"content": [{"type": "text", "text": '{"a": [1, "red"]}'}]}
    assert tool_result(Point(x=1)) == {"content": [{"type": "text", "text": '{"x": 1, "y": 0}'}]}
    assert tool_result(None) == {"content": []}
    with pytest.raises(TypeError, match="content blocks"):
        tool_result({"content": [{"text": "no type"}]})


@pytest.mark.parametrize(
    ("schema", "value", "error"),
    [
        ({"type": "integer"}, 1.5, "expected integer, got number"),
        ({"type": "integer"}, True, "expected integer, got boolean"),
        ({"type": ["string", "null"]}, 3, "expected string or null, got integer"),
        ({"type": "string", "nullable": True}, None, None),
        ({"type": "array", "items": {"type": "string"}}, ["a", 1], "$[1]: expected string"),
        ({"type": "object", "additionalProperties": False}, {"x": 1}, "unexpected property 'x'"),
        ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, 2, None),
        ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, [], "matches none of the anyOf"),
        ({"oneOf": [{"type": "number"}, {"type": "integer"}]}, 2, "matches 2 of the oneOf"),
        ({"const": "a"}, "b", 'expected "a"'),
        ({"type": "string", "maxLength": 2}, "abc", "allows at most 2 characters"),
        ({"type": "number", "minimum": 0}, -1, "must be >= 0"),
        ({"$defs": {"P": {"type": "integer"}}, "$ref": "#/$defs/P"}, "x", "expected integer"),
        ({"$ref": "#/$defs/missing"}, 1, "cannot be resolved"),
        ({"not": {"type": "null"}}, None, "must not match"),
    ],
)
def test_json_schema_subset(schema: dict[str, Any], value: Any, error: str | None) -> None:
    errors = schema_errors(schema, value)
    if error is None:
        assert errors == []
    else:
        assert errors and error in errors[0], errors
