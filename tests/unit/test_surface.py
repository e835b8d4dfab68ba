"""Switching from the official package is a change of import line.

``tests/fixtures/official_surface.json`` records the public surface of
claude-agent-sdk (see ``scripts/official_surface.py``): every name it
exports, every option, every client method and the fields of the types users
read. Each must exist here under the same name.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

import claude_wrap
import claude_wrap.types

ROOT = Path(__file__).resolve().parents[2]
SURFACE = json.loads((ROOT / "tests" / "fixtures" / "official_surface.json").read_text())


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
    exec(f"from claude_wrap import {name}", namespace)
    assert namespace[name] is not None


@pytest.mark.parametrize("name", SURFACE["types"])
def test_every_official_types_name_exists_in_claude_wrap_types(name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from claude_wrap.types import {name}", namespace)
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
        "assert 'claude_wrap._messages' not in sys.modules and 'msgspec' not in sys.modules\n"
        "claude_wrap.types.ResultMessage\n"
        "assert 'claude_wrap._messages' in sys.modules\n"
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
