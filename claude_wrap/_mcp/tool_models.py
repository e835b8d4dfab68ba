"""pydantic model classes as tool inputs: our extension to ``@tool``.

The tool shows the model the model class's JSON Schema, and its handler
gets a validated instance, converted by pydantic (``"2"`` becomes ``2`` for
an ``int`` field). Imported only when such a tool is served, so pydantic
stays out of every other program.
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.json_schema import GenerateJsonSchema

from claude_wrap._mcp.inputs import InputSpec, ToolInputError

__all__ = ["model_input_spec"]


class _Schema(GenerateJsonSchema):
    """pydantic's generator without a ``title`` on every property."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def _inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """Replace ``$ref``s by their definitions, unless a definition refers to itself."""
    defs = schema.get("$defs")
    if not isinstance(defs, dict):
        return schema

    class _Cycle(Exception):
        pass

    def walk(node: Any, stack: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [walk(item, stack) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref[len("#/$defs/") :]
            if name in stack:
                raise _Cycle
            target = walk(defs[name], (*stack, name))
            rest = {k: walk(v, stack) for k, v in node.items() if k != "$ref"}
            return {**target, **rest}
        return {k: walk(v, stack) for k, v in node.items()}

    try:
        body = {k: v for k, v in schema.items() if k != "$defs"}
        return typing.cast("dict[str, Any]", walk(body, ()))
    except _Cycle:
        return schema


def _summary(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err.get("loc", ())) or "(arguments)"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def model_input_spec(model: type[BaseModel]) -> InputSpec:
    """The schema of ``model`` (``$ref``s inlined where that terminates), and its validation."""
    schema = _inline_refs(model.model_json_schema(schema_generator=_Schema))
    schema.pop("title", None)
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})

    def parse(arguments: dict[str, Any]) -> Any:
        try:
            return model.model_validate(arguments)
        except ValidationError as exc:
            raise ToolInputError(f"Input validation error: {_summary(exc)}") from None

    return InputSpec(schema, parse)
