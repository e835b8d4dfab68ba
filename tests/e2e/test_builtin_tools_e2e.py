"""The typed inputs and outputs of the built-in tools (``BUILTIN_TOOL_INPUTS``
and ``BUILTIN_TOOL_OUTPUTS``, written from the TypeScript SDK's
``sdk-tools.d.ts``) fit the pinned binary: the inputs, the JSON schemas it
gives the model (the same keys, the same required ones, the same choices);
the outputs, the results its tools give. A binary that adds, drops or
renames a key fails here, by tool and key, until ``make bump`` rewrites
the types."""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import pytest
from _e2e import Options, run
from typing_extensions import is_typeddict

import claude_wrap
from claude_wrap import BUILTIN_TOOL_INPUTS, BUILTIN_TOOL_OUTPUTS, LEGACY_TOOL_NAME_ALIASES, UserMessage
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

# Tools the binary offers that sdk-tools.d.ts does not describe.
NOT_IN_SDK_TOOLS = {"ListAgents", "SendMessage", "Skill"}


def _every_schema_sent(make_options: Options, **overrides: Any) -> Any:
    """Options with tool search off, so the first request holds every tool's schema."""
    options = make_options(**overrides)
    options.env["ENABLE_TOOL_SEARCH"] = "false"
    return options


def _offered_schemas(scripted_model: ScriptedModel) -> dict[str, dict[str, Any]]:
    return {tool["name"]: tool["input_schema"] for tool in scripted_model.main_requests[0].tools}


def _choices(annotation: Any) -> set[Any] | None:
    """The values of a ``Literal[...]`` annotation (or of one that is a
    union of Literals only), else None."""
    if get_origin(annotation) is Literal:
        return set(get_args(annotation))
    parts = get_args(annotation)
    if parts and all(get_origin(p) is Literal for p in parts):
        return {value for p in parts for value in get_args(p)}
    return None


async def test_each_typed_input_fits_the_schema_the_binary_sends(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("ok"))
    await run("hi", _every_schema_sent(make_options))
    schemas = _offered_schemas(scripted_model)
    typed = {name: schemas[name] for name in schemas if name in BUILTIN_TOOL_INPUTS}
    assert len(typed) >= 15, sorted(schemas)  # Bash, Read, Edit, Write, Agent, WebFetch, ...
    assert set(schemas) - set(typed) == NOT_IN_SDK_TOOLS

    wrong: list[str] = []
    for name, schema in typed.items():
        cls = BUILTIN_TOOL_INPUTS[name]
        hints = typing.get_type_hints(cls)
        properties = schema.get("properties", {})
        for key in set(properties) - set(hints):
            wrong.append(f"{name}.{key}: in the binary's schema, not in {cls.__name__}")
        if set(schema.get("required", [])) != set(cls.__required_keys__):
            wrong.append(
                f"{name}: required {sorted(schema.get('required', []))}, typed {sorted(cls.__required_keys__)}"
            )
        for key, prop in properties.items():
            enum = prop.get("enum") if isinstance(prop, dict) else None
            if enum is not None and key in hints and _choices(hints[key]) != set(enum):
                wrong.append(f"{name}.{key}: choices {sorted(enum)}, typed {hints[key]}")
    assert wrong == []


async def test_the_binary_takes_each_former_tool_name_for_the_current_one(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("ok"), Reply.text("ok"))
    await run("hi", _every_schema_sent(make_options))
    offered = set(_offered_schemas(scripted_model))
    targets = set(LEGACY_TOOL_NAME_ALIASES.values()) & offered
    assert {"Agent", "TaskStop", "ListAgents"} <= targets
    # Disallowed by their former names only: the current ones go.
    await run("hi", _every_schema_sent(make_options, disallowed_tools=list(LEGACY_TOOL_NAME_ALIASES)))
    assert targets & set(scripted_model.main_requests[1].tool_names) == set()


def test_the_usage_limit_texts_are_the_binary_s(cli_path: str) -> None:
    binary = Path(cli_path).read_bytes()
    groups = ("USAGE_LIMIT_ERROR_PREFIXES", "USAGE_TRANSITION_PREFIXES", "USAGE_WARNING_PREFIXES",
              "ORG_POLICY_LIMIT_PREFIXES")  # fmt: skip
    # A text with " · " is put together at run time: its first part is in the binary.
    missing = [p for g in groups for p in getattr(claude_wrap, g) if p.split(" · ")[0].encode() not in binary]
    assert missing == []


def _fits(value: Any, annotation: Any) -> bool:
    """Whether a tool's result has the keys of its TypedDict (or of one
    TypedDict of a union): none unknown, every required one there."""
    options = get_args(annotation) if get_origin(annotation) in (typing.Union, types.UnionType) else (annotation,)
    for option in options:
        if is_typeddict(option) and isinstance(value, dict):
            keys = set(typing.get_type_hints(option))
            if set(value) <= keys and option.__required_keys__ <= set(value):
                return True
    return False


async def test_each_tool_result_fits_its_typed_output(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    target = str(workdir / "notes.txt")
    calls = [
        ("Write", {"file_path": target, "content": "one\ntwo\n"}),
        ("Read", {"file_path": target}),
        ("Edit", {"file_path": target, "old_string": "two", "new_string": "three"}),
        ("Bash", {"command": "cat notes.txt", "description": "Show the notes"}),
    ]
    scripted_model.add(*(Reply.tool_use(name, args) for name, args in calls), Reply.text("done"))
    messages = await run("go", make_options(allowed_tools=[name for name, _ in calls]))
    results = [m.tool_use_result for m in messages if isinstance(m, UserMessage) and m.tool_use_result is not None]
    assert len(results) == len(calls)
    wrong = [
        (name, result)
        for (name, _), result in zip(calls, results, strict=True)
        if not _fits(result, BUILTIN_TOOL_OUTPUTS[name])
    ]
    assert wrong == []
    assert results[-1]["stdout"] == "one\nthree"  # what BashOutput says: stdout, stderr, ...
