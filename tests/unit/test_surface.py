"""Switching from the official package is a change of import line.

``tests/fixtures/official_surface.json`` records the public surface of
claude-agent-sdk (see ``scripts/official_surface.py``): every name it
exports, every option, every client method and the fields of the types users
read, each under the same name here; and the signatures of every public
function and method, the fields of every dataclass, the exceptions' MRO and
constructors, TypedDict keys and Literal values, each matched here.

What may differ, because code written for the official package cannot
notice it: extra keyword-only parameters with defaults after the official
ones, extra dataclass fields with defaults after the official ones (or extra
attributes that are no fields), extra base classes in an exception's MRO,
extra optional TypedDict keys and extra Literal values.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import msgspec
import pytest
from _scripts import load_script

import claude_wrap
import claude_wrap.types

ROOT = Path(__file__).resolve().parents[2]
SURFACE = json.loads((ROOT / "tests" / "fixtures" / "official_surface.json").read_text())
official_surface = load_script("official_surface")  # the functions that made the record judge ours


def _fields(cls: Any) -> set[str]:
    if isinstance(cls, type) and issubclass(cls, msgspec.Struct):
        names = set(cls.__struct_fields__)
    elif dataclasses.is_dataclass(cls):
        names = {f.name for f in dataclasses.fields(cls)}
    else:
        names = set(getattr(cls, "__annotations__", {}))
    # Properties count: a field the wire does not carry may be derived.
    return names | {n for n in dir(cls) if not n.startswith("_")}


@pytest.mark.parametrize("name", SURFACE["top"])
def test_every_official_top_level_name_exists(name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from claude_wrap import {name}", namespace)  # noqa: S102 - an import by name
    assert namespace[name] is not None


@pytest.mark.parametrize("name", SURFACE["types"])
def test_every_official_types_name_exists_in_claude_wrap_types(name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from claude_wrap.types import {name}", namespace)  # noqa: S102 - an import by name
    # The same object as the package's own name, never a copy.
    if name in claude_wrap.__all__:
        assert namespace[name] is getattr(claude_wrap, name)


def test_every_official_option_exists() -> None:
    ours = set(claude_wrap.ClaudeAgentOptions.__dataclass_fields__)
    assert [o for o in SURFACE["options"] if o not in ours] == []


def test_every_official_client_method_exists() -> None:
    assert [m for m in SURFACE["client"] if not hasattr(claude_wrap.ClaudeSDKClient, m)] == []


@pytest.mark.parametrize("cls", sorted(SURFACE["fields"]))
def test_official_fields_exist(cls: str) -> None:
    ours = _fields(getattr(claude_wrap, cls))
    assert [f for f in SURFACE["fields"][cls] if f not in ours] == []


def test_types_module_lists_its_names_and_loads_lazily() -> None:
    assert claude_wrap.types.__all__ == sorted(claude_wrap.types.__all__)
    assert set(claude_wrap.types.__all__) <= set(dir(claude_wrap.types))
    script = (
        "import sys\n"
        "import claude_wrap.types\n"
        "assert 'claude_wrap._wire.messages' not in sys.modules and 'msgspec' not in sys.modules\n"
        "claude_wrap.types.ResultMessage\n"
        "assert 'claude_wrap._wire.messages' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)


def test_generated_export_lists_are_up_to_date() -> None:
    # __all__ and the TYPE_CHECKING imports are written from _EXPORTS.
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "sync_exports.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_typed_dicts_know_their_optional_keys() -> None:
    # A TypedDict defined under ``from __future__ import annotations`` sees
    # NotRequired[...] as a string and counts every key as required, which
    # misleads runtime checks (and pydantic) about what may be left out.
    from typing import ForwardRef

    from typing_extensions import is_typeddict

    stringly = [
        name
        for name in claude_wrap.types.__all__
        if is_typeddict(value := getattr(claude_wrap.types, name))
        and any(isinstance(a, (str, ForwardRef)) for a in value.__annotations__.values())
    ]
    assert stringly == []
    assert claude_wrap.McpStdioServerConfig.__required_keys__ == {"command"}
    assert claude_wrap.types.McpToolInfo.__optional_keys__ == {"description", "annotations"}


# --------------------------------------------------------------------------- signatures


def _no_problems(problems: list[str]) -> None:
    assert not problems, "differs from the official package:\n  " + "\n  ".join(problems)


def _ours(name: str) -> Any:
    """The object code written for the official package gets for ``name``."""
    return getattr(claude_wrap if name in SURFACE["top"] else claude_wrap.types, name)


def _iterates_alike(official: dict[str, Any], func: Any) -> bool:
    # A plain method returning an async iterator serves ``async for`` exactly
    # as an async generator method does.
    returns = str(inspect.signature(func).return_annotation)
    return official["call"] == "async_generator" and returns.startswith(("AsyncIterator", "AsyncGenerator"))


def _params(func: Any) -> list[inspect.Parameter]:
    return list(inspect.signature(func).parameters.values())


def _same_default(ours: Any, official_repr: str) -> bool:
    if official_repr.startswith("<"):
        # An object (sys.stderr, say) whose repr depends on the process (and
        # on pytest's capturing): any object but None will do.
        return ours is not None
    return repr(ours) == official_repr


def _signature_problems(official: dict[str, Any], func: Any, *, method: bool = False) -> list[str]:
    """How ``func`` differs from the recorded official signature, one line each."""
    problems = []
    if (
        official["call"] != "property"
        and official_surface.call_style(func) != official["call"]
        and not _iterates_alike(official, func)
    ):
        problems.append(f"called as {official_surface.call_style(func)}, officially {official['call']}")
    theirs = official["params"]
    ours = _params(func)
    if method and ours and ours[0].name in ("self", "cls") and not (theirs and theirs[0]["name"] in ("self", "cls")):
        ours = ours[1:]
    for i, expected in enumerate(theirs):
        if i >= len(ours):
            problems.append(f"missing parameter {expected['name']} ({expected['kind']})")
            continue
        got = ours[i]
        if got.name != expected["name"] or got.kind.name != expected["kind"]:
            problems.append(
                f"parameter {i}: {got.name} ({got.kind.name}), officially {expected['name']} ({expected['kind']})"
            )
            continue
        has_default = got.default is not inspect.Parameter.empty
        if "default" not in expected and has_default:
            problems.append(f"{got.name}: has default {got.default!r}, officially required")
        elif "default" in expected and (not has_default or not _same_default(got.default, expected["default"])):
            shown = repr(got.default) if has_default else "none"
            problems.append(f"{got.name}: default {shown}, officially {expected['default']}")
    official_kwargs = any(p["kind"] == "VAR_KEYWORD" for p in theirs)
    for extra in ours[len(theirs) :]:
        if extra.kind is inspect.Parameter.VAR_KEYWORD and not official_kwargs:
            problems.append(f"extra **{extra.name}: accepts (and hides) misspelled keywords")
        elif extra.kind is not inspect.Parameter.KEYWORD_ONLY or extra.default is inspect.Parameter.empty:
            problems.append(f"extra parameter {extra.name} ({extra.kind.name}) is not keyword-only with a default")
    return problems


def _method_problems(official: dict[str, Any], cls: type) -> list[str]:
    problems = []
    for name, sig in official.items():
        if not hasattr(cls, name):
            problems.append(f"no {name}")
        elif sig["call"] == "property":
            continue  # a property or a plain attribute reads the same
        else:
            problems += [f"{name}: {p}" for p in _signature_problems(sig, getattr(cls, name), method=True)]
    return problems


@pytest.mark.parametrize("name", sorted(SURFACE["functions"]))
def test_function_signature(name: str) -> None:
    _no_problems(_signature_problems(SURFACE["functions"][name], _ours(name)))


@pytest.mark.parametrize("name", sorted(SURFACE["classes"]))
def test_class_constructor_and_methods(name: str) -> None:
    official, cls = SURFACE["classes"][name], _ours(name)
    problems = []
    if official["init"] is not None:
        problems += [f"constructor: {p}" for p in _signature_problems(official["init"], cls)]
    problems += _method_problems(official["methods"], cls)
    _no_problems(problems)


def _field_problems(official: list[dict[str, Any]], cls: type) -> list[str]:
    if not dataclasses.is_dataclass(cls):
        return [f"{cls.__name__} is not a dataclass (dataclasses.fields/asdict/replace fail)"]
    ours = dataclasses.fields(cls)
    names = [f.name for f in ours]
    problems = []
    if names[: len(official)] != [f["name"] for f in official]:
        problems.append(f"fields {names[: len(official)]}, officially {[f['name'] for f in official]} (in this order)")
    by_name = {f.name: f for f in ours}
    for expected in official:
        got = by_name.get(expected["name"])
        if got is None:
            continue
        if "default" in expected and (
            got.default is dataclasses.MISSING or not _same_default(got.default, expected["default"])
        ):
            shown = "none" if got.default is dataclasses.MISSING else repr(got.default)
            problems.append(f"{got.name}: default {shown}, officially {expected['default']}")
        elif "default_factory" in expected:
            factory = getattr(got.default_factory, "__qualname__", repr(got.default_factory))
            if got.default_factory is dataclasses.MISSING or factory != expected["default_factory"]:
                problems.append(f"{got.name}: default factory {factory}, officially {expected['default_factory']}")
        elif "default" not in expected and (
            got.default is not dataclasses.MISSING or got.default_factory is not dataclasses.MISSING
        ):
            problems.append(f"{got.name}: has a default, officially required")
    for extra in ours[len(official) :]:
        if extra.init and extra.default is dataclasses.MISSING and extra.default_factory is dataclasses.MISSING:
            problems.append(f"extra field {extra.name} has no default: official-style construction fails")
    return problems


@pytest.mark.parametrize("name", sorted(SURFACE["dataclasses"]))
def test_dataclass_fields_and_methods(name: str) -> None:
    official, cls = SURFACE["dataclasses"][name], _ours(name)
    _no_problems(_field_problems(official["fields"], cls) + _method_problems(official["methods"], cls))


@pytest.mark.parametrize("name", sorted(SURFACE["exceptions"]))
def test_exception_mro_and_constructor(name: str) -> None:
    official, cls = SURFACE["exceptions"][name], _ours(name)
    ours = [k.__name__ for k in cls.__mro__]
    # The official bases in the same order; ours may add classes between them.
    it = iter(ours)
    assert all(base in it for base in official["mro"]), f"MRO {ours}, officially {official['mro']}"
    _no_problems([f"constructor: {p}" for p in _signature_problems(official["init"], cls.__init__, method=True)])


@pytest.mark.parametrize("name", sorted(SURFACE["typeddicts"]))
def test_typeddict_keys(name: str) -> None:
    official, cls = SURFACE["typeddicts"][name], _ours(name)
    assert typing.is_typeddict(cls) or _is_typeddict_ext(cls), f"{name} is not a TypedDict"
    keys = list(cls.__annotations__)
    assert [k for k in official["keys"] if k not in keys] == [], "missing keys"
    required = set(cls.__required_keys__)
    assert sorted(required & set(official["keys"])) == official["required"], "required keys differ"
    assert sorted(required - set(official["keys"])) == [], "extra keys must be optional"


def _is_typeddict_ext(cls: Any) -> bool:
    from typing_extensions import is_typeddict

    return bool(is_typeddict(cls))


@pytest.mark.parametrize("name", sorted(SURFACE["literals"]))
def test_literal_values(name: str) -> None:
    values = official_surface.literal_values(_ours(name))
    assert values is not None, f"{name} is not a Literal alias (or a union of them)"
    assert [v for v in SURFACE["literals"][name] if v not in values] == []


def test_signature_check_accepts_our_additions_and_rejects_changes() -> None:
    official = {
        "call": "coroutine",
        "params": [
            {"name": "a", "kind": "POSITIONAL_OR_KEYWORD"},
            {"name": "b", "kind": "KEYWORD_ONLY", "default": "None"},
        ],
    }

    async def same(a: int, *, b: int | None = None, timeout: float = 1.0) -> None: ...
    async def renamed(x: int, *, b: int | None = None) -> None: ...
    async def required_extra(a: int, *, b: int | None = None, c: int) -> None: ...
    def not_async(a: int, *, b: int | None = None) -> None: ...
    async def other_default(a: int, *, b: int | None = 3) -> None: ...

    assert _signature_problems(official, same) == []
    assert _signature_problems(official, renamed) == [
        "parameter 0: x (POSITIONAL_OR_KEYWORD), officially a (POSITIONAL_OR_KEYWORD)"
    ]
    assert _signature_problems(official, required_extra) == [
        "extra parameter c (KEYWORD_ONLY) is not keyword-only with a default"
    ]
    assert _signature_problems(official, not_async) == ["called as function, officially coroutine"]
    assert _signature_problems(official, other_default) == ["b: default 3, officially None"]


def test_field_check_accepts_trailing_fields_with_defaults() -> None:
    official = [{"name": "a", "type": "int"}, {"name": "b", "type": "str", "default": "'x'"}]

    @dataclasses.dataclass
    class Good:
        a: int
        b: str = "x"
        ours: int = 0

    @dataclasses.dataclass
    class Reordered:
        b: str
        a: int

    assert _field_problems(official, Good) == []
    assert _field_problems(official, Reordered) == [
        "fields ['b', 'a'], officially ['a', 'b'] (in this order)",
        "b: default none, officially 'x'",
    ]
    assert _field_problems(official, dict) == ["dict is not a dataclass (dataclasses.fields/asdict/replace fail)"]


def test_pinned_binary_is_the_one_the_official_package_bundles() -> None:
    # `make bump` moves both together; a new record alone fails here.
    from claude_wrap._process.binary import pinned_version

    assert pinned_version() == SURFACE["cli_version"]
