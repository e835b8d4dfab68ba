"""Record the public surface of an installed official ``claude-agent-sdk``.

Writes ``tests/fixtures/official_surface.json``: every public name of
``claude_agent_sdk`` and ``claude_agent_sdk.types``, and for each

* function and method (of every public class): its parameters (name, kind,
  default as ``repr``) and how it is called (plain, ``await``, ``async for``);
* dataclass: its fields in order, with type strings and defaults (``repr``)
  or default factories;
* exception: its MRO (class names) and ``__init__`` parameters;
* TypedDict: its keys and which are required;
* ``Literal`` alias: its values;

plus the Claude Code version the package bundles. ``tests/unit/test_surface.py``
checks ``claude_wrap`` against all of it, so switching packages stays a change
of import line. Run it with the interpreter that has the official package
(``make official`` makes one under ``build/``; ``make bump`` runs this)::

    build/official-venv/bin/python scripts/official_surface.py

It prints what changed against the record it replaces.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import inspect
import json
import re
import sys
import typing
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "official_surface.json"
PACKAGE = "claude_agent_sdk"

# Classes whose fields users read; kept as a plain name list for the
# presence checks (the dataclass records below carry the details).
FIELD_CLASSES = [
    "AssistantMessage",
    "UserMessage",
    "SystemMessage",
    "ResultMessage",
    "StreamEvent",
    "TaskStartedMessage",
    "TaskProgressMessage",
    "TaskNotificationMessage",
    "TaskUpdatedMessage",
    "HookEventMessage",
    "MirrorErrorMessage",
    "RateLimitEvent",
    "ConversationResetMessage",
    "TextBlock",
    "ThinkingBlock",
    "ToolUseBlock",
    "ToolResultBlock",
    "ServerToolUseBlock",
    "ServerToolResultBlock",
    "ToolPermissionContext",
    "PermissionResultAllow",
    "PermissionResultDeny",
    "PermissionUpdate",
    "HookMatcher",
    "AgentDefinition",
    "SdkMcpTool",
    "SDKSessionInfo",
    "SessionMessage",
    "DeferredToolUse",
]


def _type_str(annotation: Any) -> str:
    """A readable type: ``list[PermissionUpdate] | None``, not module paths."""
    if isinstance(annotation, str):
        text = annotation
    elif isinstance(annotation, type):
        text = annotation.__qualname__
    else:
        text = str(annotation)
    text = re.sub(r"<class '([\w.]+)'>", r"\1", text)
    return re.sub(r"\b(?:[A-Za-z_]\w*\.)+([A-Za-z_]\w*)", r"\1", text)


def call_style(func: Any) -> str:
    """How ``func`` is called: ``function``, ``coroutine`` (await) or ``async_generator`` (async for)."""
    func = inspect.unwrap(func)
    if inspect.isasyncgenfunction(func):
        return "async_generator"
    if inspect.iscoroutinefunction(func):
        return "coroutine"
    return "function"


def signature(func: Any) -> dict[str, Any]:
    """Parameters (name, kind, default repr) and call style of ``func``."""
    params = []
    for p in inspect.signature(func).parameters.values():
        entry: dict[str, Any] = {"name": p.name, "kind": p.kind.name}
        if p.default is not inspect.Parameter.empty:
            entry["default"] = repr(p.default)
        params.append(entry)
    return {"call": call_style(func), "params": params}


def _own(obj: Any) -> bool:
    return str(getattr(obj, "__module__", "")).split(".")[0] == PACKAGE


def _methods(cls: type) -> dict[str, Any]:
    """Public methods and properties the package defines on ``cls`` (inherited ones too)."""
    out: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        if not _own(klass):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_") or (dataclasses.is_dataclass(cls) and name in cls.__dataclass_fields__):
                continue
            if isinstance(value, property):
                out[name] = {"call": "property"}
            elif isinstance(value, (staticmethod, classmethod)):
                out[name] = signature(getattr(cls, name))
            elif inspect.isfunction(value):
                out[name] = signature(value)
    return dict(sorted(out.items()))


def _dataclass(cls: type) -> dict[str, Any]:
    fields = []
    for f in dataclasses.fields(cls):
        entry: dict[str, Any] = {"name": f.name, "type": _type_str(f.type)}
        if f.default is not dataclasses.MISSING:
            entry["default"] = repr(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            entry["default_factory"] = getattr(f.default_factory, "__qualname__", repr(f.default_factory))
        if not f.init:
            entry["init"] = False
        fields.append(entry)
    return {"fields": fields, "methods": _methods(cls)}


def literal_values(obj: Any) -> list[str] | None:
    """The values of a ``Literal`` alias, or of a union of ``Literal`` s."""
    if typing.get_origin(obj) is typing.Literal:
        return sorted(map(str, typing.get_args(obj)))
    if typing.get_origin(obj) is typing.Union:
        parts = [literal_values(arg) for arg in typing.get_args(obj)]
        if all(part is not None for part in parts):
            return sorted(value for part in parts if part for value in part)
    return None


def describe(names: dict[str, Any]) -> dict[str, Any]:
    """The detailed records of every public object in ``names``."""
    record: dict[str, dict[str, Any]] = {
        "functions": {},
        "classes": {},
        "dataclasses": {},
        "exceptions": {},
        "typeddicts": {},
        "literals": {},
    }
    for name, obj in sorted(names.items()):
        if inspect.isclass(obj) and issubclass(obj, BaseException):
            record["exceptions"][name] = {
                "mro": [k.__name__ for k in obj.__mro__],
                "init": signature(obj.__init__),
            }
        elif inspect.isclass(obj) and dataclasses.is_dataclass(obj):
            record["dataclasses"][name] = _dataclass(obj)
        elif inspect.isclass(obj) and typing.is_typeddict(obj):
            record["typeddicts"][name] = {
                "keys": list(obj.__annotations__),
                "required": sorted(obj.__required_keys__),
            }
        elif inspect.isclass(obj) and not issubclass(obj, enum.Enum):
            init = None
            try:
                init = signature(obj)
            except (TypeError, ValueError):
                pass
            record["classes"][name] = {"init": init, "methods": _methods(obj)}
        elif inspect.isfunction(obj):
            record["functions"][name] = signature(obj)
        elif (values := literal_values(obj)) is not None:
            record["literals"][name] = values
    return record


def _fields(obj: Any) -> list[str]:
    if dataclasses.is_dataclass(obj):
        return [f.name for f in dataclasses.fields(obj)]
    return list(getattr(obj, "__annotations__", {}))


def surface() -> dict[str, Any]:
    import claude_agent_sdk as sdk
    import claude_agent_sdk.types as types

    typing_names = set(dir(typing)) | {"dataclass", "field", "replace", "sys", "warnings", "Path"}
    type_names = sorted(n for n in dir(types) if not n.startswith("_") and n not in typing_names)
    public = {name: getattr(types, name) for name in type_names}
    public.update({name: getattr(sdk, name) for name in sdk.__all__})
    # Names a module merely imported (pathlib.Path, mcp's Server) are not its surface.
    public = {name: obj for name, obj in public.items() if _own(obj) or name in sdk.__all__ or not inspect.isclass(obj)}
    return {
        "version": getattr(sdk, "__version__", "?"),
        "cli_version": cli_version(),
        "top": sorted(sdk.__all__),
        "types": type_names,
        "options": [f.name for f in dataclasses.fields(sdk.ClaudeAgentOptions)],
        "client": sorted(n for n in dir(sdk.ClaudeSDKClient) if not n.startswith("_")),
        "fields": {name: _fields(getattr(sdk, name)) for name in FIELD_CLASSES if hasattr(sdk, name)},
        **describe(public),
    }


def cli_version() -> str:
    """The Claude Code version the installed official package bundles."""
    from claude_agent_sdk._cli_version import __cli_version__

    return str(__cli_version__)


def changes(old: dict[str, Any], new: dict[str, Any], prefix: str = "") -> list[str]:
    """One line per added, removed or changed entry, by path."""
    lines: list[str] = []
    for key in sorted(old.keys() | new.keys(), key=str):
        path = f"{prefix}{key}"
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            lines += changes(a, b, f"{path}.")
        elif a is None:
            lines.append(f"added {path}")
        elif b is None:
            lines.append(f"removed {path}")
        else:
            lines.append(f"changed {path}: {json.dumps(a)} -> {json.dumps(b)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--out", type=Path, default=OUT, help="where to write (default: tests/fixtures/official_surface.json)"
    )
    args = parser.parse_args(argv)
    new = surface()
    old = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    for line in changes(old, new):
        print(line)
    args.out.write_text(json.dumps(new, indent=1) + "\n", encoding="utf-8")
    print(
        f"wrote {args.out} from claude-agent-sdk {new['version']} (bundles Claude Code {new['cli_version']})",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
