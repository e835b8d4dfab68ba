"""In-process MCP servers and the JSON-RPC the binary sends them, for both packages.

``scripts/official_mcp.py`` runs every exchange below on the official
package and records what the binary would get back
(``tests/fixtures/official_mcp.json``); ``tests/unit/test_mcp_official.py``
runs the same exchanges on claude_wrap and compares. So everything here is
written against the API both packages share: ``tool``,
``create_sdk_mcp_server`` and ``ToolAnnotations``, taken from ``sdk``.
"""

# No ``from __future__ import annotations``: the TypedDicts below must see
# ``NotRequired`` itself to know their optional keys, on both packages.
import dataclasses
import enum
import typing
from collections.abc import Callable
from typing import Annotated, Any, Literal, Optional, Union

from typing_extensions import NotRequired, ReadOnly, Required, TypedDict

PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgAAAAAgABVKJPXQAAAABJRU5ErkJggg=="


class Color(enum.Enum):
    RED = "red"


class Address(typing.TypedDict):
    street: Annotated[str, "street and number"]
    zip: NotRequired[str]


class Person(typing.TypedDict):
    name: Annotated[str, "full name"]
    age: NotRequired[int]
    home: Address
    tags: list[str]
    pet: "Optional[Pet]"


class Pet(typing.TypedDict, total=False):
    kind: Required[Literal["cat", "dog"]]
    legs: int


class Partial(typing.TypedDict, total=False):
    a: int
    b: Required[Optional[str]]


# typing_extensions' own TypedDict class, which typing.is_typeddict does not
# recognise on Python 3.11 and 3.12: the official package then sends an
# object without properties.
class ExtPerson(TypedDict):
    name: Annotated[str, "full name"]
    nick: ReadOnly[str]


class Plain:
    """A class that is neither a TypedDict nor a model."""

    x: int
    y: str


@dataclasses.dataclass
class Point:
    x: int
    y: int = 0


# input_schema -> what a tool declared with it is called.
SCHEMAS: dict[str, Any] = {
    "floats": {"a": float, "b": float},
    "primitives": {"s": str, "i": int, "f": float, "b": bool},
    "containers": {
        "l": list,
        "li": list[int],
        "tl": typing.List[str],  # noqa: UP006 - the old spelling on purpose
        "lo": list[Optional[int]],
        "d": dict,
        "dsi": dict[str, int],
        "td": typing.Dict[str, int],  # noqa: UP006
    },
    "unions": {
        "o": Optional[int],
        "p": Union[int, None],
        "u": Union[int, str],
        "u3": Union[int, str, None],
        "nr": NotRequired[int],
        "r": Required[float],
        "ro": ReadOnly[int],
        "pep604": int | None,
    },
    "annotated": {
        "a": Annotated[int, "how many"],
        "b": Annotated[Optional[str], "maybe"],
        "c": Annotated[int, 5, "first text wins", "not this one"],
        "d": list[Annotated[str, "a tag"]],
        "e": Annotated[int, 5],
        "f": Annotated[Address, "where"],
    },
    "fallbacks": {
        "lit": Literal["x", "y"],
        "enum": Color,
        "any": Any,
        "tuple": tuple[int, int],
        "set": set[int],
        "none": None,
        "obj": object,
        "plain": Plain,
        "point": Point,
        "text": "int",
        "bytes": bytes,
    },
    "nested": {"who": Person, "many": list[Address], "ext": ExtPerson},
    "fragments": {"a": {"type": "number"}, "b": [int], "c": "int"},  # values that are not types
    "empty": {},
    "typeddict": Person,
    "typeddict_total_false": Partial,
    "typing_extensions_typeddict": ExtPerson,
    "none": None,
    "number": 42,
    "plain_class": Plain,
    "dataclass": Point,
    "json_schema": {"type": "object", "properties": {"a": {"type": "number"}}, "required": ["a"]},
    "json_schema_type_only": {"type": "object"},
    "json_schema_properties_only": {"properties": {"a": {"type": "integer"}}},
    "json_schema_type_list": {"type": ["object"], "properties": {"a": {"type": "integer"}}},
    "json_schema_nums": {
        "type": "object",
        "properties": {
            "n": {"type": "number", "minimum": 0, "maximum": 10},
            "i": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 9, "multipleOf": 2},
            "f": {"type": "number", "multipleOf": 0.5},
        },
        "required": ["n"],
    },
    "json_schema_strings": {
        "type": "object",
        "properties": {
            "s": {"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^a"},
            "one": {"type": "string", "minLength": 1},
            "none": {"type": "string", "maxLength": 0},
            "e": {"enum": ["x", 1, True, None]},
            "c": {"const": 1},
            "fmt": {"type": "string", "format": "email"},
        },
    },
    "json_schema_arrays": {
        "type": "object",
        "properties": {
            "l": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2, "uniqueItems": True},
            "t": {"type": "array", "prefixItems": [{"type": "string"}], "items": False},
            "z": {"type": "array", "maxItems": 0},
            "c": {"type": "array", "contains": {"type": "string"}},
        },
    },
    "json_schema_objects": {
        "type": "object",
        "properties": {
            "o": {
                "type": "object",
                "properties": {"x": {"type": "integer"}},
                "required": ["x"],
                "additionalProperties": False,
            },
            "m": {"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 1},
            "p": {"type": "object", "patternProperties": {"^x": {"type": "integer"}}, "additionalProperties": False},
            "n": {"type": "object", "maxProperties": 1, "propertyNames": {"maxLength": 2}},
            "dep": {"type": "object", "dependentRequired": {"a": ["b"]}},
        },
        "additionalProperties": False,
    },
    "json_schema_combinators": {
        "type": "object",
        "properties": {
            "any": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "one": {"oneOf": [{"type": "number"}, {"type": "integer"}]},
            "all": {"allOf": [{"type": "integer"}, {"minimum": 3}]},
            "not": {"not": {"type": "null"}},
            "nullable": {"type": ["string", "null"]},
            "deep": {"anyOf": [{"type": "object", "properties": {"k": {"type": "string"}}}, {"type": "string"}]},
            "cond": {"if": {"type": "integer"}, "then": {"minimum": 5}, "else": {"type": "string"}},
            "never": False,
            "always": True,
        },
    },
    "json_schema_refs": {
        "type": "object",
        "$defs": {"P": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}},
        "definitions": {"Q": {"type": "string"}},
        "properties": {
            "p": {"$ref": "#/$defs/P"},
            "ps": {"type": "array", "items": {"$ref": "#/$defs/P"}},
            "q": {"$ref": "#/definitions/Q", "minLength": 2},
        },
    },
}

# (tool, arguments) for the "schemas" exchange: each reaches the handler as
# sent, or is refused with the validator's first complaint.
CALLS: list[tuple[str, Any]] = [
    ("floats", {"a": 15, "b": 27}),
    ("floats", {"a": 1.5, "b": -2}),
    ("floats", {"a": "two", "b": 3}),
    ("floats", {"a": "two"}),
    ("floats", {"a": True, "b": 1}),
    ("floats", {}),
    ("floats", {"a": 1, "b": 2, "extra": [1]}),
    ("primitives", {"s": "x", "i": 2, "f": 3, "b": False}),
    ("primitives", {"s": 1, "i": 2.0, "f": 3, "b": 0}),
    ("primitives", {"s": "x", "i": 2.5, "f": None, "b": "yes"}),
    ("containers", {"l": [1, "a"], "li": [1, 2], "tl": ["x"], "lo": [1, None], "d": {}, "dsi": {"a": 1}, "td": {}}),
    ("containers", {"l": [], "li": [1, "2"], "tl": ["x"], "lo": [None], "d": {}, "dsi": {"a": 1}, "td": {}}),
    ("unions", {"o": None, "p": 1, "u": "s", "u3": None, "nr": 1, "r": 2, "ro": 1, "pep604": 1}),
    ("unions", {"o": 1, "p": 1, "u": 1.5, "u3": 1, "nr": 1, "r": 2, "ro": 1, "pep604": 1}),
    ("unions", {"o": 1, "p": 2, "u": "s", "u3": 3, "nr": 4, "r": 5, "ro": 6, "pep604": 7}),
    ("annotated", {"a": 1, "b": "x", "c": 2, "d": ["t"], "e": 3, "f": {"street": "s"}}),
    ("annotated", {"a": 1, "b": None, "c": 2, "d": ["t"], "e": 3, "f": {}}),
    ("annotated", {"a": 1, "b": "x", "c": 2, "d": ["t"], "e": 3, "f": "s"}),
    (
        "fallbacks",
        {
            "lit": "x",
            "enum": "red",
            "any": 1,
            "tuple": 2,
            "set": 3,
            "none": 4,
            "obj": 5,
            "plain": 6,
            "point": 7,
            "text": 8,
            "bytes": 9,
        },
    ),
    (
        "fallbacks",
        {
            "lit": "z",
            "enum": "blue",
            "any": "a",
            "tuple": "b",
            "set": "c",
            "none": "d",
            "obj": "e",
            "plain": "f",
            "point": "g",
            "text": "h",
            "bytes": "i",
        },
    ),
    (
        "nested",
        {
            "who": {"name": "Ada", "home": {"street": "1 Loop"}, "tags": [], "pet": None},
            "many": [{"street": "x"}],
            "ext": "anything",
        },
    ),
    ("nested", {"who": {"name": "Ada", "home": {}, "tags": [], "pet": {"kind": "cat"}}, "many": [], "ext": "e"}),
    (
        "nested",
        {"who": {"name": "Ada", "home": {"street": "1"}, "tags": [], "pet": {"legs": 4}}, "many": [], "ext": "e"},
    ),
    (
        "nested",
        {"who": {"name": "Ada", "home": {"street": "1"}, "tags": [1], "pet": {"kind": "cat"}}, "many": [], "ext": "e"},
    ),
    (
        "nested",
        {"who": {"home": {"street": "1"}, "tags": [], "pet": {"kind": "cat"}}, "many": [{"zip": "x"}], "ext": {}},
    ),
    ("fragments", {"a": 1, "b": [1], "c": 1}),
    ("fragments", {"a": "1", "b": "[1]", "c": "1"}),
    ("empty", {}),
    ("empty", {"anything": 1}),
    ("typeddict", {"name": "Ada", "home": {"street": "s"}, "tags": ["x"], "pet": {"kind": "dog", "legs": 4.0}}),
    ("typeddict", {"name": "Ada", "age": 36, "home": {"street": "s", "zip": "1"}, "tags": [], "pet": {"kind": "dog"}}),
    ("typeddict", {"name": 7, "home": {"street": "s"}, "tags": ["x"], "pet": {"kind": "dog"}}),
    ("typeddict", {"home": {"street": 1}, "tags": ["x"]}),
    ("typeddict", {"name": "Ada", "age": 1.5, "home": {"street": "s"}, "tags": ["x"], "pet": {"kind": "dog"}}),
    ("typeddict_total_false", {"b": None}),
    ("typeddict_total_false", {"b": "x", "a": 1}),
    ("typeddict_total_false", {"a": 1}),
    ("typing_extensions_typeddict", {"name": 1}),
    ("none", {"x": 1}),
    ("number", {}),
    ("plain_class", {"x": 1, "y": "z", "w": [1.0]}),
    ("dataclass", {"x": "not checked"}),
    ("json_schema", {"a": 2}),
    ("json_schema", {"a": "2"}),
    ("json_schema", {}),
    ("json_schema_type_only", {"type": "x"}),
    ("json_schema_type_only", {}),
    ("json_schema_properties_only", {"a": 1.0}),
    ("json_schema_type_list", {"a": 1}),
    ("json_schema_nums", {"n": 5, "i": 4, "f": 1.5}),
    ("json_schema_nums", {"n": -1}),
    ("json_schema_nums", {"n": 11}),
    ("json_schema_nums", {"n": 1, "i": 0}),
    ("json_schema_nums", {"n": 1, "i": 9}),
    ("json_schema_nums", {"n": 1, "i": 3}),
    ("json_schema_nums", {"n": 1, "i": 4.0}),
    ("json_schema_nums", {"n": 1, "f": 0.3}),
    ("json_schema_nums", {"n": 1, "i": 3, "f": 0.3}),
    ("json_schema_nums", {"n": "1", "i": 3}),
    ("json_schema_strings", {"s": "ab", "one": "x", "none": "", "e": None, "c": 1, "fmt": "nope"}),
    ("json_schema_strings", {"s": "a"}),
    ("json_schema_strings", {"s": "abcd"}),
    ("json_schema_strings", {"s": "bb"}),
    ("json_schema_strings", {"one": ""}),
    ("json_schema_strings", {"none": "x"}),
    ("json_schema_strings", {"e": "z"}),
    ("json_schema_strings", {"e": 1.0}),
    ("json_schema_strings", {"e": False}),
    ("json_schema_strings", {"c": True}),
    ("json_schema_strings", {"c": 1.0}),
    ("json_schema_arrays", {"l": [1, 2], "t": ["a"], "z": [], "c": [1, "a"]}),
    ("json_schema_arrays", {"l": []}),
    ("json_schema_arrays", {"l": [1, 2, 3]}),
    ("json_schema_arrays", {"l": [1, 1]}),
    ("json_schema_arrays", {"l": [1, True]}),
    ("json_schema_arrays", {"l": ["x"]}),
    ("json_schema_arrays", {"t": [1]}),
    ("json_schema_arrays", {"t": ["a", "b"]}),
    ("json_schema_arrays", {"t": ["a", "b", "c"]}),
    ("json_schema_arrays", {"z": [1]}),
    ("json_schema_arrays", {"c": [1, 2]}),
    ("json_schema_objects", {"o": {"x": 1}, "m": {"a": 1}, "p": {"x1": 1}, "n": {"ab": 1}, "dep": {"a": 1, "b": 2}}),
    ("json_schema_objects", {"o": {}}),
    ("json_schema_objects", {"o": {"x": 1, "y": 2, "z": 3}}),
    ("json_schema_objects", {"o": {"x": "1", "y": 2}}),
    ("json_schema_objects", {"zz": 1, "aa": 2}),
    ("json_schema_objects", {"m": {}}),
    ("json_schema_objects", {"m": {"a": "x"}}),
    ("json_schema_objects", {"p": {"x": "s"}}),
    ("json_schema_objects", {"p": {"y": 1}}),
    ("json_schema_objects", {"n": {"a": 1, "b": 2}}),
    ("json_schema_objects", {"n": {"abc": 1}}),
    ("json_schema_objects", {"dep": {"a": 1}}),
    (
        "json_schema_combinators",
        {"any": "s", "one": 1.5, "all": 4, "not": 1, "nullable": None, "deep": "s", "cond": 6, "always": 1},
    ),
    ("json_schema_combinators", {"any": 1.5}),
    ("json_schema_combinators", {"one": 1}),
    ("json_schema_combinators", {"one": "x"}),
    ("json_schema_combinators", {"all": 2}),
    ("json_schema_combinators", {"all": "x"}),
    ("json_schema_combinators", {"not": None}),
    ("json_schema_combinators", {"nullable": 3}),
    ("json_schema_combinators", {"deep": {"k": 1}}),
    ("json_schema_combinators", {"deep": 1}),
    ("json_schema_combinators", {"cond": 1}),
    ("json_schema_combinators", {"cond": []}),
    ("json_schema_combinators", {"never": 1}),
    ("json_schema_refs", {"p": {"x": 1}, "ps": [{"x": 2}], "q": "ab"}),
    ("json_schema_refs", {"p": {}}),
    ("json_schema_refs", {"ps": [{"x": 1}, {"x": "2"}]}),
    ("json_schema_refs", {"q": "a"}),
    ("json_schema_refs", {"q": 1}),
]

# What the "shape" tool returns, by the case name it is called with.
RESULTS: dict[str, Any] = {
    "text": {"content": [{"type": "text", "text": "hi"}]},
    "text_extra_keys": {
        "content": [{"type": "text", "text": "hi", "annotations": {"audience": ["user"]}, "_meta": {"k": 1}}]
    },
    "two_texts": {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
    "image": {"content": [{"type": "image", "data": PIXEL, "mimeType": "image/png"}]},
    "image_snake_case": {"content": [{"type": "image", "data": PIXEL, "mime_type": "image/png"}]},
    "resource_link": {
        "content": [{"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt", "description": "A file"}]
    },
    "resource_link_bare": {"content": [{"type": "resource_link", "uri": "file:///a.txt"}]},
    "resource_link_empty": {"content": [{"type": "resource_link"}]},
    "resource_text": {
        "content": [{"type": "resource", "resource": {"uri": "file:///n", "text": "note", "mimeType": "text/plain"}}]
    },
    "resource_blob": {
        "content": [
            {"type": "resource", "resource": {"uri": "file:///b", "blob": "AAA="}},
            {"type": "text", "text": "after"},
        ]
    },
    "audio": {
        "content": [{"type": "audio", "data": "AAA=", "mimeType": "audio/wav"}, {"type": "text", "text": "after"}]
    },
    "unknown_type": {"content": [{"type": "video"}]},
    "is_error": {"content": [{"type": "text", "text": "bad"}], "is_error": True},
    "is_error_false": {"content": [{"type": "text", "text": "fine"}], "is_error": False},
    "is_error_camel_case": {"content": [{"type": "text", "text": "bad"}], "isError": True},
    "no_content": {"is_error": True},
    "empty_dict": {},
    "empty_content": {"content": []},
    "structured": {"content": [{"type": "text", "text": "x"}], "structuredContent": {"a": 1}, "_meta": {"m": 1}},
    "text_missing": {"content": [{"type": "text"}]},
    "image_missing_data": {"content": [{"type": "image", "mimeType": "image/png"}]},
    "content_not_a_list": {"content": "hello"},
    "item_not_a_dict": {"content": ["hello"]},
    "content_none": {"content": None},
}

# What the "raise" tool raises, by case name.
RAISES: dict[str, Callable[[], BaseException]] = {
    "value_error": lambda: ValueError("the flux capacitor is empty"),
    "key_error": lambda: KeyError("k"),
    "no_message": lambda: RuntimeError(),
    "two_args": lambda: Exception("a", 1),
    "multiline": lambda: Exception("line one\nline two"),
}


def rpc(method: str, msg_id: Any = None, params: Any = None) -> dict[str, Any]:
    """A JSON-RPC message shaped as the binary sends it (a notification without ``msg_id``)."""
    message: dict[str, Any] = {"method": method, "jsonrpc": "2.0"}
    if params is not None:
        message["params"] = params
    if msg_id is not None:
        message["id"] = msg_id
    return message


CLIENT_INFO = {
    "name": "claude-code",
    "title": "Claude Code",
    "description": "Anthropic's agentic coding tool",
    "websiteUrl": "https://claude.com/claude-code",
    "version": "2.1.328",
}


def initialize(msg_id: Any = 0, version: str = "2025-11-25") -> dict[str, Any]:
    """The binary's ``initialize`` (protocol.md §4a)."""
    return rpc("initialize", msg_id, {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT_INFO})


HANDSHAKE = [initialize(), rpc("notifications/initialized"), rpc("tools/list", 1)]


def call(msg_id: Any, name: str, arguments: Any) -> dict[str, Any]:
    """A ``tools/call`` as the binary sends it."""
    params = {
        "name": name,
        "arguments": arguments,
        "_meta": {"claudecode/toolUseId": f"toolu_{msg_id}", "progressToken": msg_id},
    }
    return rpc("tools/call", msg_id, params)


def _echo_tool(sdk: Any, name: str, schema: Any, annotations: Any = None) -> Any:
    async def echo(args: Any) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": f"{type(args).__name__} {args!r}"}]}

    return sdk.tool(name, f"Echoes its {name} arguments", schema, annotations=annotations)(echo)


def _annotation_cases(sdk: Any) -> dict[str, Any]:
    import mcp.types

    notes = sdk.ToolAnnotations
    return {
        "read_only": notes(readOnlyHint=True),
        "snake_case": notes(
            read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False, title="T"
        ),
        "camel_case": notes(readOnlyHint=False, destructiveHint=True, idempotentHint=False, openWorldHint=True),
        "both_spellings": notes(readOnlyHint=True, read_only_hint=False),
        "max_size": notes(maxResultSizeChars=500_000),
        "max_size_snake": notes(max_result_size_chars=1000, title="Big"),
        "extra_key": notes(readOnlyHint=True, custom="x"),
        "empty": notes(),
        "dict": {"readOnlyHint": True, "maxResultSizeChars": 10},
        "mcp_class": mcp.types.ToolAnnotations(read_only_hint=True, title="M"),
    }


def servers(sdk: Any, which: str) -> dict[str, Any]:
    """``mcp_servers`` entries for exchange group ``which``, built with ``sdk``."""
    if which == "schemas":
        tools = [_echo_tool(sdk, name, schema) for name, schema in SCHEMAS.items()]
        return {"calc": sdk.create_sdk_mcp_server("calc", "2.0.0", tools)}
    if which == "annotations":
        tools = [_echo_tool(sdk, name, {}, notes) for name, notes in _annotation_cases(sdk).items()]
        return {"notes": sdk.create_sdk_mcp_server("notes", tools=tools)}
    if which == "results":

        async def shape(args: Any) -> Any:
            return RESULTS[args["case"]]

        async def fail(args: Any) -> Any:
            raise RAISES[args["case"]]()

        tools = [
            sdk.tool("shape", "Returns a canned result", {"case": str})(shape),
            sdk.tool("raise", "Raises", {"case": str})(fail),
        ]
        return {"out": sdk.create_sdk_mcp_server("out", tools=tools)}
    if which == "empty":
        return {"bare": sdk.create_sdk_mcp_server("bare")}
    raise ValueError(which)


# name -> (server group, the binary's messages in order, each answered in turn).
EXCHANGES: dict[str, tuple[str, list[dict[str, Any]]]] = {
    "schemas": (
        "schemas",
        [*HANDSHAKE, *(call(i + 2, name, args) for i, (name, args) in enumerate(CALLS))],
    ),
    "annotations": ("annotations", HANDSHAKE),
    "results": (
        "results",
        [
            *HANDSHAKE,
            *(call(i + 2, "shape", {"case": case}) for i, case in enumerate(RESULTS)),
            *(call(100 + i, "raise", {"case": case}) for i, case in enumerate(RAISES)),
        ],
    ),
    "protocol": (
        "schemas",
        [
            *HANDSHAKE,
            rpc("ping", 2),
            rpc("ping", "three"),
            rpc("resources/list", 4, {}),
            rpc("resources/templates/list", 5),
            rpc("prompts/list", 6),
            rpc("logging/setLevel", 7, {"level": "info"}),
            rpc(
                "completion/complete",
                8,
                {"ref": {"type": "ref/prompt", "name": "x"}, "argument": {"name": "a", "value": ""}},
            ),
            rpc("no/such/method", 9, {}),
            rpc("tools/call", 10, {"arguments": {}}),
            rpc("tools/call", 11, {"name": "floats"}),
            rpc("tools/call", 12, {"name": "floats", "arguments": [1, 2]}),
            rpc("tools/call", 13, {"name": "floats", "arguments": None}),
            rpc("tools/call", 14, {"name": "nope", "arguments": {}}),
            rpc("tools/call", 15, {"name": 5, "arguments": {}}),
            rpc("tools/list", 16, {"cursor": "x"}),
            rpc("notifications/cancelled", None, {"requestId": 99, "reason": "gone"}),
            rpc("notifications/roots/list_changed"),
            rpc("notifications/no/such/thing", None, {}),
            initialize(17),
            rpc("tools/list", 18),
        ],
    ),
    "protocol_versions": (
        "empty",
        [
            initialize(0, "2025-06-18"),
            initialize(1, "2024-11-05"),
            initialize(2, "1999-01-01"),
            initialize(3, "2026-07-28"),
            rpc("initialize", 4, {"protocolVersion": "2025-11-25"}),
            rpc("notifications/initialized"),
            rpc("tools/list", 5),
            rpc("tools/call", 6, {"name": "x", "arguments": {}}),
        ],
    ),
    "before_initialize": (
        "schemas",
        [
            rpc("tools/list", 0),
            rpc("ping", 1),
            rpc("no/such/method", 2),
            call(3, "floats", {"a": 1, "b": 2}),
            *HANDSHAKE,
        ],
    ),
    "unknown_server": ("empty", [initialize()]),
}

# The server each exchange talks to (the unknown_server one is never configured).
SERVER_NAMES = {"schemas": "calc", "annotations": "notes", "results": "out", "empty": "bare"}
EXCHANGE_SERVER = {
    name: ("ghost" if name == "unknown_server" else SERVER_NAMES[group]) for name, (group, _) in EXCHANGES.items()
}
