"""@tool: annotations, the pydantic-model extension, result shapes, the schema checker.

Schemas, arguments and results for the forms the official package accepts
are compared with its own answers in tests/unit/test_mcp_official.py; this
file covers what that comparison cannot: the objects users hold, our
extensions, and edges of the checker.
"""

from __future__ import annotations

import dataclasses
import enum
import subprocess
import sys
from typing import Any, Optional

import pytest
from pydantic import BaseModel, Field

from claude_wrap import SdkMcpTool, ToolAnnotations, tool
from claude_wrap._mcp.inputs import ToolInputError
from claude_wrap._mcp.json_schema import validation_message
from claude_wrap._mcp.server import tool_result
from claude_wrap._mcp.tools import input_json_schema, input_spec, wire_annotations


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


def test_tool_keeps_what_it_was_given() -> None:
    notes = ToolAnnotations(readOnlyHint=True)

    async def handler(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": []}

    made = tool("t", "d", {"a": float}, annotations=notes)(handler)
    assert made == SdkMcpTool(name="t", description="d", input_schema={"a": float}, handler=handler, annotations=notes)
    # The official fields, in order (positional construction works the same),
    # then the TypeScript SDK's tool() extras.
    assert [f.name for f in dataclasses.fields(SdkMcpTool)] == [
        "name",
        "description",
        "input_schema",
        "handler",
        "annotations",
        "search_hint",
        "always_load",
    ]
    hinted = tool("t", "d", {}, search_hint="words", always_load=True)(handler)
    assert (hinted.search_hint, hinted.always_load, made.search_hint, made.always_load) == ("words", True, None, False)


def test_annotations_take_both_spellings_and_read_back_in_both() -> None:
    camel = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False,
                            title="T", maxResultSizeChars=500)  # fmt: skip
    snake = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False,
                            title="T", max_result_size_chars=500)  # fmt: skip
    assert camel == snake
    assert (snake.readOnlyHint, snake.read_only_hint, snake.destructive_hint, snake.maxResultSizeChars) == (
        True,
        True,
        False,
        500,
    )
    assert ToolAnnotations(readOnlyHint=True, read_only_hint=False).readOnlyHint is True  # the wire name wins
    assert ToolAnnotations(readOnlyHint="yes", maxResultSizeChars=10.0) == ToolAnnotations(
        readOnlyHint=True, maxResultSizeChars=10
    )  # type: ignore[arg-type]
    extra = ToolAnnotations(custom="x")
    assert extra.custom == "x" and extra != ToolAnnotations()  # type: ignore[attr-defined]
    assert repr(ToolAnnotations(readOnlyHint=True, title="T")) == "ToolAnnotations(title='T', readOnlyHint=True)"
    with pytest.raises(ValueError, match="readOnlyHint must be a boolean"):
        ToolAnnotations(readOnlyHint="maybe")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="maxResultSizeChars must be an integer"):
        ToolAnnotations(maxResultSizeChars=1.5)  # type: ignore[arg-type]


def test_annotations_on_the_wire() -> None:
    import mcp.types

    notes = ToolAnnotations(read_only_hint=True, title="T", maxResultSizeChars=500, custom=1)
    assert wire_annotations(notes) == ({"title": "T", "readOnlyHint": True}, {"anthropic/maxResultSizeChars": 500})
    assert wire_annotations(ToolAnnotations()) == ({}, None)
    assert wire_annotations(None) == (None, None)
    # A dict's size limit is dropped, as on the official package.
    assert wire_annotations({"read_only_hint": True, "maxResultSizeChars": 9, "x": 1}) == ({"readOnlyHint": True}, None)
    assert wire_annotations(mcp.types.ToolAnnotations(destructive_hint=True)) == ({"destructiveHint": True}, None)
    with pytest.raises(TypeError, match="annotations must be"):
        wire_annotations("read-only")


def test_json_schema_dicts_are_sent_as_they_are() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "number"}},
        "required": ["a"],
        "additionalProperties": False,
    }
    assert input_json_schema(schema) is schema
    spec = input_spec(schema)
    assert spec.parse({"a": 2}) == {"a": 2}
    with pytest.raises(
        ToolInputError, match=r"^Input validation error: Additional properties are not allowed \('b' was unexpected\)$"
    ):
        spec.parse({"a": 2, "b": 1})


def test_pydantic_model_extension_gives_a_validated_instance_and_a_full_schema() -> None:
    spec = input_spec(Shape)
    props = spec.schema["properties"]
    assert props["name"] == {"type": "string", "description": "what to call it"}
    assert props["color"]["enum"] == ["red", "blue"]
    assert props["points"]["items"]["properties"]["x"] == {"type": "integer"}
    assert spec.schema["required"] == ["name", "color", "points"]
    assert "$defs" not in spec.schema and "title" not in spec.schema
    shape = spec.parse({"name": "tri", "color": "blue", "points": [{"x": "1"}]})
    assert isinstance(shape, Shape) and shape.points[0] == Point(x=1, y=0) and shape.color is Color.BLUE
    with pytest.raises(ToolInputError, match=r"^Input validation error: color: Input should be 'red' or 'blue'"):
        spec.parse({"name": "tri", "color": "green", "points": []})


def test_recursive_model_keeps_defs() -> None:
    class Node(BaseModel):
        value: int
        children: list[Node] = []

    spec = input_spec(Node)
    assert "$defs" in spec.schema or "$ref" in str(spec.schema)
    assert spec.parse({"value": 1, "children": [{"value": 2}]}).children[0].value == 2


def test_other_return_values_are_our_extension() -> None:
    assert tool_result("plain") == {"content": [{"type": "text", "text": "plain"}], "isError": False}
    assert tool_result(None) == {"content": [], "isError": False}
    assert tool_result(5) == {"content": [{"type": "text", "text": "5"}], "isError": False}
    assert tool_result({"content": [], "is_error": "true"}) == {"content": [], "isError": True}
    assert tool_result([1, Color.RED, Point(x=1)])["content"][0]["text"] == '[1, "red", {"x": 1, "y": 0}]'
    with pytest.raises(ValueError, match="text content 'text' must be a string"):
        tool_result({"content": [{"type": "text", "text": 5}]})
    with pytest.raises(ValueError, match="is_error must be a boolean"):
        tool_result({"content": [], "is_error": None})


@pytest.mark.parametrize(
    ("schema", "value", "message"),
    [
        ({"type": "integer"}, 1.0, None),
        ({"type": "integer"}, True, "True is not of type 'integer'"),
        ({"enum": [1]}, True, "True is not one of [1]"),
        ({"uniqueItems": True}, [1, True, 1.0], "[1, True, 1.0] has non-unique elements"),
        ({"uniqueItems": True}, [{"a": [1]}, {"a": [True]}], None),
        (
            {"$defs": {"N": {"type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}}}, "$ref": "#/$defs/N"},
            {"n": {"n": {"n": 1}}},
            "1 is not of type 'object'",
        ),
        ({"type": "object", "properties": {"self": {"$ref": "#"}}}, {"self": {"self": 2}}, "2 is not of type 'object'"),
        (
            {"contains": {"type": "string"}, "maxContains": 1},
            ["a", "b"],
            "Too many items match the given schema (expected at most 1)",
        ),
        (
            {"contains": {"type": "string"}, "minContains": 2},
            ["a", 1],
            "Too few items match the given schema (expected at least 2 but only 1 matched)",
        ),
        ({"minProperties": 2}, {"a": 1}, "{'a': 1} does not have enough properties"),
        ({"maxProperties": 0}, {"a": 1}, "{'a': 1} is expected to be empty"),
        ({"dependentSchemas": {"a": {"required": ["b"]}}}, {"a": 1}, "'b' is a required property"),
        ({"multipleOf": 0.01}, 1e308, "1e+308 is not a multiple of 0.01"),
    ],
)
def test_checker_edges(schema: dict[str, Any], value: Any, message: str | None) -> None:
    assert validation_message(schema, value) == message


def test_a_reference_to_nowhere_reads_as_the_official_error() -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": "#/definitions/x"}}}
    assert validation_message(schema, {}) is None  # only reached when ``a`` is there
    with pytest.raises(Exception) as caught:
        validation_message(schema, {"a": 1})
    assert str(caught.value) == f"PointerToNowhere: '/definitions/x' does not exist within {schema!r}"


def test_declaring_tools_imports_nothing_heavy_and_serving_them_no_pydantic_or_mcp() -> None:
    code = """if True:
        import sys, anyio
        from typing import Annotated, TypedDict
        from claude_wrap import ToolAnnotations, create_sdk_mcp_server, tool

        class Args(TypedDict):
            a: Annotated[float, "a number"]

        @tool("t", "d", Args, annotations=ToolAnnotations(readOnlyHint=True, maxResultSizeChars=9))
        async def t(args):
            return {"content": [{"type": "text", "text": repr(args)}]}

        @tool("u", "d", {"type": "object", "properties": {"b": {"type": "string"}}})
        async def u(args):
            return "ok"

        server = create_sdk_mcp_server("s", tools=[t, u])["instance"]
        heavy = ("pydantic", "mcp", "mcp_types", "jsonschema")
        print(sorted(m for m in sys.modules if m.split(".")[0] in heavy))
        from claude_wrap._mcp.server import ServerConnection
        conn = ServerConnection(ready=True)
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": {"a": 1}}}
        reply = anyio.run(server.handle, call, conn)
        assert reply["result"]["content"][0]["text"] == "{'a': 1}", reply
        # The first call checks its arguments with jsonschema, as the official package does.
        print(sorted(m for m in sys.modules if m.split(".")[0] in heavy[:3]))
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]", "[]"]
