"""``@tool``: declaring Python functions as the tools of an in-process MCP server.

A tool declared here shows the model the same schema, and its handler gets
the same arguments, as on the official package. ``input_schema`` may be

* a JSON Schema dict (a string ``"type"`` and a ``"properties"`` key): sent
  as it is;
* any other dict, of ``{name: python type}``: an object whose every name is
  required, each type converted as ``_type_schema`` says (``Optional[T]``
  is ``T``; ``Annotated[T, "text"]`` adds a description; types it does not
  know become strings);
* a ``TypedDict`` class: an object of its keys, the required ones sorted;
* anything else (a plain class, a dataclass, ``None``): an object without
  properties.

Arguments are checked against that schema (``_mcp.json_schema``) and then
handed to the handler exactly as the model sent them: ``15`` stays an int
even where the schema says ``float``.

Our one extension: a pydantic model class as ``input_schema`` sends the
model's full JSON Schema and hands the handler a validated instance (with
pydantic's conversions). pydantic is imported for that case only
(``_mcp.tool_models``).
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, TypeVar, Union

from claude_wrap._mcp.inputs import InputSpec, ToolInputError
from claude_wrap._mcp.json_schema import validation_message

if sys.version_info >= (3, 11):
    from typing import get_type_hints as _type_hints, is_typeddict as _is_typeddict
else:  # 3.10's typing knows neither typing_extensions' TypedDicts nor NotRequired
    from typing_extensions import get_type_hints as _type_hints, is_typeddict as _is_typeddict

__all__ = [
    "SdkMcpTool",
    "ToolAnnotations",
    "input_spec",
    "lax_bool",
    "tool",
    "wire_annotations",
]

T = TypeVar("T")


# -- annotations -------------------------------------------------------------------------------

_HINTS = ("title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
_TRUE_WORDS = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE_WORDS = frozenset({"0", "off", "f", "false", "n", "no"})


def lax_bool(value: Any, what: str) -> bool:
    """``value`` as a bool, taking what the official package's pydantic models take."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in _TRUE_WORDS | _FALSE_WORDS:
        return value.lower() in _TRUE_WORDS
    raise ValueError(f"{what} must be a boolean, got {value!r}")


def _hint(name: str, value: Any) -> bool | None:
    return None if value is None else lax_bool(value, f"ToolAnnotations {name}")


def _size(value: Any) -> int | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        return int(value)
    raise ValueError(f"ToolAnnotations maxResultSizeChars must be an integer, got {value!r}")


def _pick(wire: Any, snake: Any) -> Any:
    return wire if wire is not None else snake  # given both, the wire name wins


class ToolAnnotations:
    """Hints about a tool, shown to the binary with it; the official package's class.

    Every hint takes either spelling, ``ToolAnnotations(readOnlyHint=True)``
    or ``ToolAnnotations(read_only_hint=True)``, and reads back in both.
    ``title``, ``readOnlyHint``, ``destructiveHint``, ``idempotentHint`` and
    ``openWorldHint`` travel as the MCP tool ``annotations``.
    ``maxResultSizeChars`` is the size, in characters, up to which the binary
    keeps the tool's result inline instead of saving it to a file and showing
    a preview; it travels in the tool's ``_meta``. Other keywords are kept as
    attributes and not sent, as on the official package.
    """

    title: str | None
    readOnlyHint: bool | None  # noqa: N815 - the wire spelling, as in MCP
    destructiveHint: bool | None  # noqa: N815
    idempotentHint: bool | None  # noqa: N815
    openWorldHint: bool | None  # noqa: N815
    maxResultSizeChars: int | None  # noqa: N815

    def __init__(
        self,
        *,
        title: str | None = None,
        readOnlyHint: bool | None = None,  # noqa: N803
        destructiveHint: bool | None = None,  # noqa: N803
        idempotentHint: bool | None = None,  # noqa: N803
        openWorldHint: bool | None = None,  # noqa: N803
        maxResultSizeChars: int | None = None,  # noqa: N803
        **data: Any,
    ) -> None:
        if title is not None and not isinstance(title, str):
            raise ValueError(f"ToolAnnotations title must be a string, got {title!r}")
        # The official signature, then the snake_case spellings this class
        # also takes (they arrive among the extra keywords).
        self.title = title
        self.readOnlyHint = _hint("readOnlyHint", _pick(readOnlyHint, data.pop("read_only_hint", None)))
        self.destructiveHint = _hint("destructiveHint", _pick(destructiveHint, data.pop("destructive_hint", None)))
        self.idempotentHint = _hint("idempotentHint", _pick(idempotentHint, data.pop("idempotent_hint", None)))
        self.openWorldHint = _hint("openWorldHint", _pick(openWorldHint, data.pop("open_world_hint", None)))
        self.maxResultSizeChars = _size(_pick(maxResultSizeChars, data.pop("max_result_size_chars", None)))
        self._extra = dict(data)
        for key, value in data.items():
            setattr(self, key, value)

    @property
    def read_only_hint(self) -> bool | None:
        return self.readOnlyHint

    @property
    def destructive_hint(self) -> bool | None:
        return self.destructiveHint

    @property
    def idempotent_hint(self) -> bool | None:
        return self.idempotentHint

    @property
    def open_world_hint(self) -> bool | None:
        return self.openWorldHint

    @property
    def max_result_size_chars(self) -> int | None:
        return self.maxResultSizeChars

    def _values(self) -> dict[str, Any]:
        named = {key: getattr(self, key) for key in (*_HINTS, "maxResultSizeChars")}
        return {key: value for key, value in {**named, **self._extra}.items() if value is not None}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolAnnotations):
            return NotImplemented
        return self._values() == other._values()

    # Mutable, so unhashable, like the official package's model.
    __hash__: ClassVar[None] = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ToolAnnotations({', '.join(f'{k}={v!r}' for k, v in self._values().items())})"


_SNAKE_HINTS = {"read_only_hint": "readOnlyHint", "destructive_hint": "destructiveHint",
                "idempotent_hint": "idempotentHint", "open_world_hint": "openWorldHint"}  # fmt: skip


def wire_annotations(value: Any) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """``(annotations, _meta)`` of a tool's ``tools/list`` entry, as the official package sends them.

    ``value`` is a ``ToolAnnotations``, an ``mcp.types.ToolAnnotations``, a
    dict of hints in either spelling, or ``None``. Only the MCP hints are
    sent as annotations; the size limit goes into ``_meta``, and only from
    an object that has it as an attribute (a dict's is dropped, as there).
    """
    if value is None:
        return None, None
    if isinstance(value, ToolAnnotations):
        notes, size = value, value.maxResultSizeChars
    elif isinstance(value, Mapping):
        known = {key: value[key] for key in (*_HINTS, *_SNAKE_HINTS) if key in value}
        notes, size = ToolAnnotations(**known), None
    elif callable(getattr(value, "model_dump", None)):  # an mcp (pydantic) ToolAnnotations
        dumped = value.model_dump(by_alias=True, exclude_none=True)
        notes = ToolAnnotations(**{key: dumped[key] for key in _HINTS if key in dumped})
        size = _size(getattr(value, "maxResultSizeChars", None))
    else:
        raise TypeError(f"annotations must be a ToolAnnotations or a dict of hints, got {type(value).__name__}")
    hints = {key: getattr(notes, key) for key in _HINTS if getattr(notes, key) is not None}
    return hints, None if size is None else {"anthropic/maxResultSizeChars": size}


# -- input schemas -----------------------------------------------------------------------------


def _type_schema(tp: Any) -> dict[str, Any]:
    """A Python type as JSON Schema, the way the official package converts it."""
    origin = typing.get_origin(tp)
    if getattr(origin, "_name", None) in ("NotRequired", "Required", "ReadOnly"):
        return _type_schema(typing.get_args(tp)[0])
    if origin is typing.Annotated:
        base, *metadata = typing.get_args(tp)
        schema = _type_schema(base)
        text = next((item for item in metadata if isinstance(item, str)), None)
        if text is not None:
            schema["description"] = text
        return schema
    if tp is str:
        return {"type": "string"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is bool:
        return {"type": "boolean"}
    origin = getattr(tp, "__origin__", None)
    if origin is Union or isinstance(tp, types.UnionType):
        present = [arg for arg in tp.__args__ if arg is not type(None)]
        if len(present) == 1:
            return _type_schema(present[0])
        return {"anyOf": [_type_schema(arg) for arg in present]}
    if origin is list:
        args = getattr(tp, "__args__", None)
        return {"type": "array", "items": _type_schema(args[0])} if args else {"type": "array"}
    if origin is dict or tp is dict:
        return {"type": "object"}
    if tp is list:
        return {"type": "array"}
    if _is_typeddict(tp):
        return _typeddict_schema(tp)
    return {"type": "string"}


def _typeddict_schema(td: Any) -> dict[str, Any]:
    properties = {key: _type_schema(hint) for key, hint in _type_hints(td, include_extras=True).items()}
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    required = getattr(td, "__required_keys__", set(properties))
    if required:
        schema["required"] = sorted(required)
    return schema


def input_json_schema(input_schema: Any) -> dict[str, Any]:
    """The JSON Schema the model sees for ``input_schema`` (pydantic models aside)."""
    if isinstance(input_schema, dict):
        if "type" in input_schema and "properties" in input_schema and isinstance(input_schema["type"], str):
            return input_schema
        properties = {name: _type_schema(tp) for name, tp in input_schema.items()}
        return {"type": "object", "properties": properties, "required": list(properties)}
    if _is_typeddict(input_schema):
        return _typeddict_schema(input_schema)
    return {"type": "object", "properties": {}}


def _checked(schema: dict[str, Any]) -> Callable[[dict[str, Any]], Any]:
    def parse(arguments: dict[str, Any]) -> Any:
        message = validation_message(schema, arguments)
        if message is not None:
            raise ToolInputError(f"Input validation error: {message}")
        return arguments

    return parse


def _is_model(input_schema: Any) -> bool:
    pydantic = sys.modules.get("pydantic")  # a model class means pydantic is already loaded
    return pydantic is not None and isinstance(input_schema, type) and issubclass(input_schema, pydantic.BaseModel)


def input_spec(input_schema: Any) -> InputSpec:
    """The ``InputSpec`` of any ``input_schema`` the official package accepts, or a pydantic model."""
    if _is_model(input_schema):
        from claude_wrap._mcp.tool_models import model_input_spec

        return model_input_spec(input_schema)
    schema = input_json_schema(input_schema)
    return InputSpec(schema, _checked(schema))


# -- tools -------------------------------------------------------------------------------------


@dataclasses.dataclass
class SdkMcpTool(Generic[T]):
    """One tool of an in-process MCP server (what ``@tool`` returns)."""

    name: str
    description: str
    input_schema: Any
    handler: Callable[[T], Any]
    annotations: Any = None
    """A ``ToolAnnotations``, an ``mcp.types.ToolAnnotations``, a dict of hints, or ``None``."""
    search_hint: str | None = None
    """Words the binary's tool search matches this tool by, while it is deferred (as TypeScript's ``searchHint``)."""
    always_load: bool = False
    """Offer this tool to the model from the first turn, never deferred behind tool search
    (as TypeScript's ``alwaysLoad``)."""


def tool(
    name: str,
    description: str,
    input_schema: Any,
    annotations: ToolAnnotations | Mapping[str, Any] | Any = None,
    *,
    search_hint: str | None = None,
    always_load: bool = False,
) -> Callable[[Callable[[Any], Any]], SdkMcpTool[Any]]:
    """Declare a Python function as a tool for ``create_sdk_mcp_server``.

    Example::

        @tool("add", "Add two numbers", {"a": float, "b": float})
        async def add(args):
            return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}

    ``input_schema`` is a dict of ``{name: type}``, a ``TypedDict``, a JSON
    Schema dict, or (our extension) a pydantic model class; see the module
    docstring for the schema each becomes. The handler gets the arguments as
    the model sent them, once they fit the schema (a pydantic model's
    handler gets a validated instance). It returns ``{"content": [...],
    "is_error": bool}`` with MCP ``text``, ``image``, ``resource_link`` and
    text ``resource`` blocks; arguments that do not fit the schema, and an
    exception the handler raises, reach the model as an error result.

    The binary defers MCP tools behind its tool search: the model sees
    their names and loads a schema when it needs one. ``always_load=True``
    offers this tool's schema from the first request; ``search_hint`` gives
    the search words to find it by (both as the TypeScript SDK's ``tool()``
    extras, sent in the tool's ``_meta``).

    Our extensions: the handler may be a plain function (it runs in a
    worker thread), and may return a string (one text block), ``None`` (no
    content) or any other value (sent as JSON text).
    """

    def decorator(handler: Callable[[Any], Any]) -> SdkMcpTool[Any]:
        return SdkMcpTool(name=name, description=description, input_schema=input_schema, handler=handler,
                          annotations=annotations, search_hint=search_hint, always_load=always_load)  # fmt: skip

    return decorator
