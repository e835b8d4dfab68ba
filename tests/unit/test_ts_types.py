"""``scripts/ts_types.py`` reads the TypeScript SDK's declarations into
TypedDicts: the shapes its declaration files use, each read as a Python
type checker and the runtime should see them."""

from __future__ import annotations

import importlib.util
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal

from claude_wrap import BUILTIN_TOOL_INPUTS, BUILTIN_TOOL_NAMES, BashInput, GrepInput, Settings

ROOT = Path(__file__).parents[2]


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("ts_types", ROOT / "scripts" / "ts_types.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ts_types"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


SOURCE = """
/** A tool's input. */
export interface DemoInput {
  /**
   * What to do
   */
  action: "list" | "get";
  "-n"?: boolean;
  /**
   * @minItems 1
   * @maxItems 2
   */
  items?: [{ id: string; size?: number }] | [{ id: string; size?: number }, { id: string; size?: number }];
  paths?: [string, ...string[]];
  labels?: Record<string, string>;
  limit?: 0 | number;
  extra?: string | null;
  [k: string]: unknown;
}
export type ToolInputSchemas = DemoInput;
export type ToolOutputSchemas = DemoOutput;
export interface DemoOutput { done: boolean; }
"""


def test_the_shapes_of_the_declarations_become_typed_dicts() -> None:
    generator = _generator()
    text = generator.builtin_tools(generator.declarations(SOURCE), "0.0.1")
    module = types.ModuleType("demo")
    code = compile(text, "demo", "exec", dont_inherit=True)  # not this file's `from __future__`
    exec(code, module.__dict__)  # noqa: S102 - the generator's own output
    demo = module.DemoInput
    assert demo.__required_keys__ == {"action"}
    hints = typing.get_type_hints(demo)
    assert set(hints) == {"action", "-n", "items", "paths", "labels", "limit", "extra"}
    assert hints["action"] == Literal["list", "get"]
    assert hints["-n"] is bool and hints["limit"] is float and hints["extra"] == str | None
    assert hints["paths"] == list[str] and hints["labels"] == dict[str, str]
    item = typing.get_args(hints["items"])[0]  # [T] | [T, T]: a list of T, one class
    assert typing.get_type_hints(item) == {"id": str, "size": float} and item.__required_keys__ == {"id"}
    assert module.BUILTIN_TOOL_INPUTS == {"Demo": demo}
    assert module.BUILTIN_TOOL_OUTPUTS == {"Demo": module.DemoOutput}
    assert "Keys not listed here are allowed too." in (demo.__doc__ or "")
    assert "What to do" in text and "@minItems" not in text and '""""""' not in text


def test_the_checked_in_types_read_as_the_binary_uses_them() -> None:
    assert BashInput.__required_keys__ == {"command"}
    assert "-B" in GrepInput.__optional_keys__ and GrepInput.__required_keys__ == {"pattern"}
    assert Settings.__required_keys__ == frozenset() and "permissions" in Settings.__optional_keys__


def test_every_typed_tool_is_a_builtin_tool_name() -> None:
    assert set(BUILTIN_TOOL_INPUTS) <= set(BUILTIN_TOOL_NAMES)
    assert BUILTIN_TOOL_INPUTS["Read"].__name__ == "FileReadInput"  # named by the generator's table
    assert BUILTIN_TOOL_INPUTS["SetGoal"].__name__ == "ProposeGoalInput"
