"""Run one user program in this process and record what it receives.

The twin harness starts this file twice per program, once with the official
package's interpreter and once with ours::

    python twin_runner.py --side official|ours --record OUT.json [--ours-root DIR]
        [--call FUNC [--backend asyncio|trio] | --cell N] PROGRAM [ARG ...]

It must import nothing but the standard library before the program does, and
run on every Python the packages support, since the official side has its own
virtualenv without this repository.

What it does to the program's world, and nothing more:

* ``ours``: ``import claude_agent_sdk`` (and ``claude_agent_sdk.<sub>``)
  resolves to ``claude_wrap`` (and ``claude_wrap.<sub>``) from ``--ours-root``;
* ``official``: the package's bundled binary is not looked up, so it finds
  ``claude`` on PATH the way it does when no bundled copy exists; the harness
  puts a recording wrapper of the pinned binary there for both sides;
* both: ``query()``, ``ClaudeSDKClient.receive_messages()`` and
  ``receive_response()`` record every message they yield (once, even when one
  calls the other), and a module ``twin`` offers ``note(label, value)`` for
  programs to record what other calls return, and ``await
  main_requests(n)`` to wait until the scripted model got n main-loop
  requests;
* both: each warning the program is shown is recorded (class, MRO, text)
  before it is shown as usual.

The record (JSON) holds the events in order and the exception that ended the
program, if any; the full traceback goes to ``OUT.json.traceback`` because its
frames name each package's private files.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import builtins
import dataclasses
import enum
import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import runpy
import sys
import traceback
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

OFFICIAL = "official"
OURS = "ours"
PACKAGE = "claude_agent_sdk"
OUR_PACKAGE = "claude_wrap"

_EXCEPTION_GROUPS: tuple[type, ...] = tuple(
    t for t in (getattr(builtins, "BaseExceptionGroup", None),) if isinstance(t, type)
)
# Deeper than any message; only a cycle would get here.
_MAX_DEPTH = 40
# A cell of an IPython example starts after a banner like "# ===== ...".
_CELL_BANNER = re.compile(r"^# ={20,}\s*$")


# --------------------------------------------------------------------------- describing values


def _mro(cls: type) -> list[str]:
    return [c.__name__ for c in cls.__mro__ if c is not object]


def _kind(obj: Any) -> tuple[str, list[str], bool] | None:
    """The record kind of an object with named fields, its field names, whether frozen."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        params = getattr(type(obj), "__dataclass_params__", None)
        return "dataclass", [f.name for f in dataclasses.fields(obj)], bool(getattr(params, "frozen", False))
    struct_fields = getattr(type(obj), "__struct_fields__", None)
    if isinstance(struct_fields, tuple):
        config = getattr(type(obj), "__struct_config__", None)
        return "struct", list(struct_fields), bool(getattr(config, "frozen", False))
    return None


def describe(obj: Any, depth: int = 0) -> Any:
    """A JSON value that says what a program can observe of ``obj``.

    Classes are recorded by name and MRO names (the modules differ by design),
    objects with fields by kind (dataclass or not), frozenness and fields in
    order, so a field renamed, reordered or no longer assignable shows.
    """
    if depth > _MAX_DEPTH:
        return {"repr": "<too deep>"}
    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    if isinstance(obj, float):
        return obj if obj == obj and obj not in (float("inf"), float("-inf")) else {"float": repr(obj)}
    if isinstance(obj, enum.Enum):
        return {"class": type(obj).__name__, "mro": _mro(type(obj)), "enum": describe(obj.value, depth + 1)}
    if isinstance(obj, (list, tuple)):
        items = [describe(v, depth + 1) for v in obj]
        return items if type(obj) is list else {"class": type(obj).__name__, "items": items}
    if isinstance(obj, dict):
        out = {str(k): describe(v, depth + 1) for k, v in obj.items()}
        return out if type(obj) is dict else {"class": type(obj).__name__, "items": out}
    if isinstance(obj, (bytes, bytearray)):
        return {"class": type(obj).__name__, "hex": bytes(obj).hex()}
    if isinstance(obj, BaseException):
        return describe_exception(obj, depth + 1)
    if isinstance(obj, type):
        return {"type": obj.__name__, "mro": _mro(obj)}
    if isinstance(obj, (set, frozenset)):
        return {"class": type(obj).__name__, "items": sorted(repr(v) for v in obj)}
    kind = _kind(obj)
    if kind is not None:
        name, fields, frozen = kind
        return {
            "class": type(obj).__name__,
            "mro": _mro(type(obj)),
            "kind": name,
            "frozen": frozen,
            "field_names": fields,
            "fields": {f: describe(getattr(obj, f, None), depth + 1) for f in fields},
        }
    if callable(obj):
        return {"callable": getattr(obj, "__qualname__", type(obj).__name__)}
    attrs = getattr(obj, "__dict__", None)
    out: dict[str, Any] = {"class": type(obj).__name__, "mro": _mro(type(obj)), "kind": "object"}
    if isinstance(attrs, dict):
        out["attrs"] = {k: describe(v, depth + 1) for k, v in attrs.items() if not k.startswith("_")}
    else:
        out["repr"] = repr(obj)
    return out


def describe_exception(exc: BaseException, depth: int = 0) -> dict[str, Any]:
    """Class, MRO, ``str()`` and the public attributes of an exception."""
    attrs = {k: describe(v, depth + 1) for k, v in vars(exc).items() if not k.startswith("_") and not callable(v)}
    out: dict[str, Any] = {"class": type(exc).__name__, "mro": _mro(type(exc)), "str": str(exc)}
    if attrs:
        out["attrs"] = attrs
    if isinstance(exc, _EXCEPTION_GROUPS):
        out["exceptions"] = [describe_exception(e, depth + 1) for e in exc.exceptions]
    return out


# --------------------------------------------------------------------------- recording


class Recorder:
    """Ordered events: messages delivered to the program and its notes."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        # Objects already recorded, kept alive so their ids stay unique.
        self._seen: dict[int, Any] = {}

    def message(self, obj: Any) -> None:
        if id(obj) in self._seen:
            return
        self._seen[id(obj)] = obj
        self.events.append({"message": describe(obj)})

    def note(self, label: str, value: Any = None) -> None:
        self.events.append({"note": label, "value": describe(value)})


RECORDER = Recorder()


def _recording(make: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a function that returns an async iterator so each item is recorded."""

    @functools.wraps(make)
    def wrapper(*args: Any, **kwargs: Any) -> _Recorded:
        return _Recorded(make(*args, **kwargs))

    return wrapper


class _Recorded:
    """Records what an async iterator yields and is otherwise that iterator.

    Not an async generator of its own: the event loop tracks and finalizes
    only the package's generator, as it would without the harness (a
    wrapping generator would be closed alongside it at shutdown, and
    closing the inner one from there races the loop closing it too).
    """

    __slots__ = ("_inner",)

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __aiter__(self) -> _Recorded:
        return self

    async def __anext__(self) -> Any:
        item = await self._inner.__anext__()
        RECORDER.message(item)
        return item

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)  # aclose, asend, athrow, ag_frame...


def _install_recording(package: types.ModuleType) -> None:
    package.query = _recording(package.query)  # type: ignore[attr-defined]
    client = package.ClaudeSDKClient  # type: ignore[attr-defined]
    for name in ("receive_messages", "receive_response"):
        setattr(client, name, _recording(getattr(client, name)))


async def main_requests(count: int = 1, timeout: float = 60.0) -> None:
    """Wait until the scripted model got ``count`` main-loop requests.

    For programs that must act while a request is in flight (an interrupt,
    a cancellation): sleeping instead races the binary on a busy machine.
    """
    import anyio  # both packages depend on it; this works under asyncio and trio

    log = Path(os.environ["TWIN_MODEL_REQUESTS"])
    with anyio.fail_after(timeout):
        while len(log.read_text(encoding="utf-8").splitlines()) < count:
            await anyio.sleep(0.05)


def _record_warnings() -> None:
    """Record each warning the program is shown (its class, the class's
    MRO, its text) and show it as before: programs filter warnings by class
    and by text, so both must be the same on both sides."""
    import warnings

    show = warnings.showwarning

    def showwarning(message: Any, category: type[Warning], *args: Any, **kwargs: Any) -> None:
        mro = [k.__name__ for k in category.__mro__]
        RECORDER.events.append({"warning": category.__name__, "mro": mro, "text": str(message)})
        show(message, category, *args, **kwargs)

    warnings.showwarning = showwarning


def _install_note_module() -> None:
    module = types.ModuleType(
        "twin", "For programs under the twin harness: note(label, value), await main_requests(n)."
    )
    module.note = RECORDER.note  # type: ignore[attr-defined]
    module.main_requests = main_requests  # type: ignore[attr-defined]
    sys.modules["twin"] = module


# --------------------------------------------------------------------------- the two packages


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``claude_agent_sdk[.sub]`` is ``claude_wrap[.sub]``: the only change a user makes."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != PACKAGE and not fullname.startswith(PACKAGE + "."):
            return None
        target_name = OUR_PACKAGE + fullname[len(PACKAGE) :]
        if importlib.util.find_spec(target_name) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return importlib.import_module(OUR_PACKAGE + spec.name[len(PACKAGE) :])

    def exec_module(self, module: types.ModuleType) -> None:
        """The target module is already executed."""


def shim_import() -> None:
    """From here on, ``import claude_agent_sdk`` gives claude_wrap (tests that run a program on each package use it too)."""
    sys.meta_path.insert(0, _AliasFinder())


def _prepare_ours(root: str) -> types.ModuleType:
    sys.path.insert(0, root)
    shim_import()
    return importlib.import_module(PACKAGE)


def _prepare_official() -> types.ModuleType:
    package = importlib.import_module(PACKAGE)
    # Both sides must run the one binary the harness put first on PATH.
    from claude_agent_sdk._internal.transport import subprocess_cli  # type: ignore[import-not-found]

    subprocess_cli.SubprocessCLITransport._find_bundled_cli = lambda self: None
    return package


# --------------------------------------------------------------------------- running the program


def _has_code(cell: str) -> bool:
    tree = compile(cell, "<cell>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    docstring_only = (
        len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant)
    )
    return bool(tree.body) and not docstring_only


def _cells(source: str) -> list[str]:
    """The code cells of an IPython-style file; banners of ``# ====`` separate them."""
    cells: list[list[str]] = [[]]
    for line in source.splitlines(keepends=True):
        if _CELL_BANNER.match(line):
            cells.append([])
        cells[-1].append(line)
    return [text for text in ("".join(c) for c in cells) if _has_code(text)]


def _imports_of(source: str) -> str:
    tree = ast.parse(source)
    kept = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    return ast.unparse(ast.Module(body=kept, type_ignores=[]))


async def _run_cell(code: types.CodeType, namespace: dict[str, Any]) -> None:
    result = eval(code, namespace)  # noqa: S307 - the program is what this tool runs
    if asyncio.iscoroutine(result):
        await result


def _run_program(args: argparse.Namespace) -> None:
    program = str(Path(args.program).resolve())
    sys.argv = [program, *args.args]
    sys.path.insert(0, str(Path(program).parent))
    if args.call:
        namespace = runpy.run_path(program, run_name="__twin__")
        function = namespace[args.call]
        if args.backend == "trio":
            import trio  # type: ignore[import-not-found]

            trio.run(function)
        else:
            asyncio.run(function())
    elif args.cell is not None:
        # An IPython example: cells share imports, run one with top-level await.
        cells = _cells(Path(program).read_text(encoding="utf-8"))
        prelude = "\n".join(_imports_of(c) for c in cells[: args.cell])
        source = prelude + "\n" + cells[args.cell]
        code = compile(source, program, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        asyncio.run(_run_cell(code, {"__name__": "__main__", "__file__": program}))
    else:
        runpy.run_path(program, run_name="__main__")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--side", choices=(OFFICIAL, OURS), required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--ours-root")
    parser.add_argument("--call")
    parser.add_argument("--backend", choices=("asyncio", "trio"), default="asyncio")
    parser.add_argument("--cell", type=int)
    parser.add_argument("program")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args()

    package = _prepare_ours(args.ours_root) if args.side == OURS else _prepare_official()
    _install_recording(package)
    _install_note_module()
    _record_warnings()

    record: dict[str, Any] = {"events": RECORDER.events, "exception": None}
    code = 0
    try:
        _run_program(args)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if stop.code is not None and not isinstance(stop.code, int):
            print(stop.code, file=sys.stderr)
    except BaseException as exc:  # noqa: BLE001 - recording how the program ended
        record["exception"] = describe_exception(exc)
        Path(args.record + ".traceback").write_text("".join(traceback.format_exception(exc)), encoding="utf-8")
        # Python's own last line of a traceback; the frames differ by package.
        print("".join(traceback.format_exception_only(exc)).rstrip(), file=sys.stderr)
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    Path(args.record).write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
    return code


if __name__ == "__main__":
    # The program runs with this file's directory off sys.path, as it would alone.
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
    sys.exit(main())
