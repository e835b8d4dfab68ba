"""``@tool``: Python functions as MCP tools, with typed, validated inputs.

``input_schema`` may be

* a dict of ``{parameter: python type}``: every key is required unless its
  type is ``Optional[...]``; the handler gets the validated dict;
* a ``TypedDict`` class: required keys as the class declares them; the
  handler gets the validated dict;
* a pydantic model class: the handler gets a validated model instance;
* a raw JSON Schema dict (it has a string ``"type"`` or ``"properties"``):
  checked by our own small validator (``_json_schema``); the handler gets
  the arguments as sent.

``Annotated[T, "text"]`` anywhere in a dict or ``TypedDict`` becomes that
value's ``description``. Types become JSON Schema through pydantic, with
``$ref``s inlined where that terminates (recursive types keep ``$defs``).
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import json
import typing
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Generic, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.json_schema import GenerateJsonSchema
from typing_extensions import NotRequired, Required, TypedDict, is_typeddict

from ._json_schema import schema_errors

__all__ = ["SdkMcpTool", "ToolAnnotations", "ToolInputError", "tool", "tool_result"]

T = TypeVar("T")

ToolHandler = Callable[[Any], Union[Awaitable[Any], Any]]


class ToolAnnotations(BaseModel):
    """Hints about a tool's behaviour, passed to the binary with the tool.

    Accepts camelCase (``readOnlyHint``) and snake_case (``read_only_hint``).
    ``maxResultSizeChars`` raises the binary's limit on how much of the
    result it keeps inline; it travels in the tool's ``_meta`` as
    ``anthropic/maxResultSizeChars``, the rest as MCP tool ``annotations``.
    """

    model_config = ConfigDict(extra="allow", populate_by_name=True, frozen=True)

    title: str | None = None
    readOnlyHint: bool | None = Field(default=None, alias="read_only_hint")
    destructiveHint: bool | None = Field(default=None, alias="destructive_hint")
    idempotentHint: bool | None = Field(default=None, alias="idempotent_hint")
    openWorldHint: bool | None = Field(default=None, alias="open_world_hint")
    maxResultSizeChars: int | None = Field(default=None, alias="max_result_size_chars", gt=0)

    def wire(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """``(annotations, _meta)`` as they go into ``tools/list``."""
        values = self.model_dump(exclude_none=True, by_alias=False)
        meta: dict[str, Any] = {}
        limit = values.pop("maxResultSizeChars", None)
        if limit is not None:
            meta["anthropic/maxResultSizeChars"] = limit
        return values, meta


class ToolInputError(ValueError):
    """The arguments the model sent do not fit the tool's input schema."""


# -- input schemas --------------------------------------------------------------------


class _Description:
    """``Annotated`` metadata that sets the JSON Schema ``description``."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> dict[str, Any]:
        schema: dict[str, Any] = handler(core_schema)
        schema["description"] = self.text
        return schema


class _Schema(GenerateJsonSchema):
    """pydantic's generator without a ``title`` on every property."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def _with_descriptions(tp: Any, seen: dict[int, Any]) -> Any:
    """``tp`` with every ``Annotated[..., "text"]`` turned into a description.

    Rebuilds the generic aliases and ``TypedDict``s on the way; pydantic
    models are left alone (their fields take ``Field(description=...)``).
    """
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        base, *meta = typing.get_args(tp)
        extras = tuple(_Description(m) if isinstance(m, str) else m for m in meta)
        return typing.Annotated[(_with_descriptions(base, seen),) + extras]
    if is_typeddict(tp):
        return _rebuild_typeddict(tp, seen)
    if origin is None or origin is typing.Literal:
        return tp
    args = typing.get_args(tp)
    if not args:
        return tp
    new_args = tuple(_with_descriptions(a, seen) if a is not Ellipsis else a for a in args)
    if origin in (Union, _union_type()):
        return Union[new_args]
    if origin in (Required, NotRequired):
        return origin[new_args[0]]
    try:
        return origin[new_args]
    except TypeError:  # an alias we cannot rebuild: keep it as written
        return tp


# The functional form, typed loosely: mypy only accepts literal TypedDict definitions.
_typeddict: Any = TypedDict


def _rebuild_typeddict(td: Any, seen: dict[int, Any]) -> Any:
    if id(td) in seen:
        return seen[id(td)]
    hints = typing.get_type_hints(td, include_extras=True)
    required = set(getattr(td, "__required_keys__", hints))
    fields: dict[str, Any] = {}
    for key, hint in hints.items():
        is_required = key in required
        # Under ``from __future__ import annotations`` the class cannot see
        # NotRequired[...] in its string annotations, so trust the resolved hint.
        if typing.get_origin(hint) in (Required, NotRequired):
            is_required = typing.get_origin(hint) is Required
            hint = typing.get_args(hint)[0]
        hint = _with_descriptions(hint, seen)
        fields[key] = Required[hint] if is_required else NotRequired[hint]
    rebuilt = _typeddict(td.__name__, fields)
    rebuilt.__doc__ = td.__doc__
    seen[id(td)] = rebuilt
    return rebuilt


def _is_optional(tp: Any) -> bool:
    if typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return type(None) in typing.get_args(tp) if typing.get_origin(tp) in (Union, _union_type()) else tp is None


def _union_type() -> Any:
    import types

    return getattr(types, "UnionType", Union)


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
            name = ref[len("#/$defs/"):]
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


def _looks_like_json_schema(schema: Mapping[str, Any]) -> bool:
    return isinstance(schema.get("type"), str) or isinstance(schema.get("properties"), Mapping) or any(
        isinstance(k, str) and k.startswith("$") for k in schema
    )


@dataclasses.dataclass(frozen=True)
class InputSpec:
    """A tool's JSON Schema and the function that checks arguments against it."""

    schema: dict[str, Any]
    validate: Callable[[dict[str, Any]], Any]


def _pydantic_errors(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err.get("loc", ())) or "(arguments)"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def _from_adapter(adapter: TypeAdapter[Any], build: Callable[[Any], Any] | None = None) -> InputSpec:
    schema = _inline_refs(adapter.json_schema(schema_generator=_Schema))
    schema.pop("title", None)
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})

    def validate(arguments: dict[str, Any]) -> Any:
        try:
            return adapter.validate_python(arguments)
        except ValidationError as exc:
            raise ToolInputError(_pydantic_errors(exc)) from None

    return InputSpec(schema, validate)


def input_spec(input_schema: Any) -> InputSpec:
    """Turn any accepted ``input_schema`` form into an ``InputSpec``."""
    if input_schema is None:
        return InputSpec({"type": "object", "properties": {}}, lambda arguments: arguments)
    if isinstance(input_schema, type) and issubclass(input_schema, BaseModel):
        return _from_adapter(TypeAdapter(input_schema))
    if is_typeddict(input_schema):
        return _from_adapter(TypeAdapter(_rebuild_typeddict(input_schema, {})))
    if isinstance(input_schema, Mapping):
        if _looks_like_json_schema(input_schema):
            schema = dict(input_schema)

            def validate(arguments: dict[str, Any]) -> Any:
                errors = schema_errors(schema, arguments)
                if errors:
                    raise ToolInputError("; ".join(errors))
                return arguments

            return InputSpec(schema, validate)
        seen: dict[int, Any] = {}
        fields = {
            str(key): NotRequired[_with_descriptions(tp, seen)]
            if _is_optional(tp)
            else Required[_with_descriptions(tp, seen)]
            for key, tp in input_schema.items()
        }
        return _from_adapter(TypeAdapter(_typeddict("Arguments", fields)))
    raise TypeError(
        "input_schema must be a dict of {name: type}, a TypedDict, a pydantic model or a JSON Schema dict; "
        f"got {input_schema!r}"
    )


# -- tools -------------------------------------------------------------------------------


@dataclasses.dataclass
class SdkMcpTool(Generic[T]):
    """One tool of an in-process MCP server (what ``@tool`` returns)."""

    name: str
    description: str
    input_schema: Any
    handler: Callable[[T], Any]
    annotations: ToolAnnotations | None = None
    _spec: InputSpec | None = dataclasses.field(default=None, init=False, repr=False, compare=False)

    @property
    def spec(self) -> InputSpec:
        """The JSON Schema and validator, built on first use and kept."""
        if self._spec is None:
            self._spec = input_spec(self.input_schema)
        return self._spec

    def wire(self) -> dict[str, Any]:
        """This tool as an entry of ``tools/list``."""
        entry: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "inputSchema": self.spec.schema,
        }
        if self.annotations is not None:
            annotations, meta = self.annotations.wire()
            if annotations:
                entry["annotations"] = annotations
                if "title" in annotations:
                    entry["title"] = annotations["title"]
            if meta:
                entry["_meta"] = meta
        return entry


def tool(
    name: str,
    description: str,
    input_schema: Any,
    annotations: ToolAnnotations | Mapping[str, Any] | None = None,
) -> Callable[[Callable[[Any], Any]], SdkMcpTool[Any]]:
    """Declare a Python function (sync or async) as an MCP tool.

    Example::

        @tool("add", "Add two numbers", {"a": float, "b": float})
        async def add(args):
            return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}

    The handler returns ``{"content": [...], "is_error": bool}`` (text, image,
    audio, resource and resource_link blocks, MCP style), or any other value,
    which is sent as text (strings as they are, the rest as JSON). Async
    handlers run on the event loop; sync handlers run in a worker thread so a
    slow one does not stall the session. The schema is checked here, so a
    malformed one fails at import time rather than mid-run.
    """
    notes = ToolAnnotations.model_validate(dict(annotations)) if isinstance(annotations, Mapping) else annotations

    def decorator(handler: Callable[[Any], Any]) -> SdkMcpTool[Any]:
        made = SdkMcpTool(name=name, description=description, input_schema=input_schema, handler=handler, annotations=notes)
        made.spec  # noqa: B018 - fail early on an unusable schema
        return made

    return decorator


# -- results -------------------------------------------------------------------------------


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return str(value)


def _block(item: Any) -> dict[str, Any]:
    if isinstance(item, str):
        return {"type": "text", "text": item}
    if isinstance(item, BaseModel):
        item = item.model_dump(mode="json", by_alias=True, exclude_none=True)
    if not isinstance(item, Mapping) or not isinstance(item.get("type"), str):
        raise TypeError(f"content blocks are dicts with a 'type', got {item!r}")
    block = dict(item)
    if "mime_type" in block and "mimeType" not in block:
        block["mimeType"] = block.pop("mime_type")  # accept the Python spelling
    return block


def tool_result(value: Any) -> dict[str, Any]:
    """A handler's return value as an MCP ``CallToolResult`` dict."""
    if isinstance(value, Mapping) and "content" in value:
        content = value["content"]
        blocks = [_block(item) for item in (content if isinstance(content, list) else [content])]
        result: dict[str, Any] = {"content": blocks}
        if value.get("is_error") or value.get("isError"):
            result["isError"] = True
        for key in ("structuredContent", "_meta"):
            if key in value:
                result[key] = value[key]
        return result
    if value is None:
        return {"content": []}
    if isinstance(value, str):
        return {"content": [{"type": "text", "text": value}]}
    text = json.dumps(value, default=_jsonable, ensure_ascii=False)
    return {"content": [{"type": "text", "text": text}]}


async def run_handler(handler: Callable[[Any], Any], arguments: Any) -> Any:
    """Call a sync or async tool handler; sync ones go to a worker thread."""
    if inspect.iscoroutinefunction(handler) or inspect.iscoroutinefunction(getattr(handler, "__call__", None)):
        return await handler(arguments)
    import anyio.to_thread

    result = await anyio.to_thread.run_sync(handler, arguments, abandon_on_cancel=True)
    if inspect.isawaitable(result):
        result = await result
    return result
