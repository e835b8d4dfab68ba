"""The public surface: ``__all__``, lazy imports, names shared with the official package."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from typing import Any

import pytest

import claude_wrap


def test_all_is_sorted_and_unique() -> None:
    assert claude_wrap.__all__ == sorted(claude_wrap.__all__)
    assert len(set(claude_wrap.__all__)) == len(claude_wrap.__all__)


@pytest.mark.parametrize("name", claude_wrap.__all__)
def test_every_exported_name_resolves(name: str) -> None:
    value = getattr(claude_wrap, name)
    assert value is not None
    # `from claude_wrap import <name>` gives the same object.
    namespace: dict[str, object] = {}
    exec(f"from claude_wrap import {name}", namespace)  # noqa: S102 - an import by name
    assert namespace[name] is value


def test_unknown_attribute_raises_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        claude_wrap.no_such_name  # noqa: B018
    assert not hasattr(claude_wrap, "_EXPORTS_typo")


def test_dir_lists_the_public_names() -> None:
    assert set(claude_wrap.__all__) <= set(dir(claude_wrap))


def test_star_import_gives_all_names() -> None:
    namespace: dict[str, object] = {}
    exec("from claude_wrap import *", namespace)  # noqa: S102 - a star import needs a namespace
    assert set(claude_wrap.__all__) <= set(namespace)


def _fresh_modules(code: str) -> dict[str, bool]:
    script = (
        "import sys, json\n"
        f"{code}\n"
        "heavy = ['anyio', 'msgspec', 'pydantic', 'mcp', 'trio', 'claude_wrap._process.transport', 'claude_wrap._run.protocol', 'opentelemetry']\n"
        "print(json.dumps({m: m in sys.modules for m in heavy}))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_is_lazy() -> None:
    loaded = _fresh_modules("import claude_wrap\nassert claude_wrap.__version__")
    assert loaded == {m: False for m in loaded}, loaded


def test_touching_one_name_loads_only_what_it_needs() -> None:
    loaded = _fresh_modules("from claude_wrap import ClaudeSDKError, CLINotFoundError")
    assert not loaded["anyio"] and not loaded["msgspec"] and not loaded["pydantic"] and not loaded["mcp"]


def test_query_and_options_load_no_run_machinery_until_a_run_starts() -> None:
    # The import-time budget of a script that only sets up a run: nothing of
    # the session, codec, pydantic or anyio before the first message is asked for.
    loaded = _fresh_modules(
        "from claude_wrap import query, ClaudeAgentOptions\n"
        "options = ClaudeAgentOptions(max_turns=3, control_timeout=5, output_format={'type': 'json_schema', 'schema': {}})\n"
        "query(prompt='hi', options=options).aclose"
    )
    assert loaded == {m: False for m in loaded}, loaded


def test_a_run_spawns_the_binary_before_loading_the_session_machinery() -> None:
    # The binary takes hundreds of milliseconds to start: the session, codec
    # and message types (and the callback types a run without callbacks never
    # needs) load after the spawn, while it boots, not before.
    script = (
        "import asyncio, json, sys\n"
        "from claude_wrap import ClaudeAgentOptions, query\n"
        "from claude_wrap._process.transport import SubprocessTransport\n"
        "late = ['msgspec', 'pydantic', 'claude_wrap._run.protocol', 'claude_wrap._wire.codec', 'claude_wrap._wire.messages',\n"
        "        'claude_wrap._wire.hooks', 'claude_wrap._wire.permissions']\n"
        "at_spawn = {}\n"
        "async def start(self):\n"
        "    at_spawn.update({m: m in sys.modules for m in late})\n"
        "    raise RuntimeError('not spawned')\n"
        "SubprocessTransport.start = start\n"
        "async def main():\n"
        "    try:\n"
        "        async for _ in query(prompt='hi', options=ClaudeAgentOptions(max_turns=1, cli_path=sys.executable)):\n"
        "            pass\n"
        "    except RuntimeError:\n"
        "        pass\n"
        "asyncio.run(main())\n"
        "print(json.dumps(at_spawn))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    at_spawn = json.loads(out.stdout.strip().splitlines()[-1])
    assert at_spawn and at_spawn == {m: False for m in at_spawn}, at_spawn


def test_public_classes_report_the_package_as_their_home_or_a_private_module() -> None:
    # Classes are defined in private modules; they must at least live inside
    # claude_wrap so pickling/repr stay stable and users never import them
    # from elsewhere.
    for name in claude_wrap.__all__:
        value = getattr(claude_wrap, name)
        if inspect.isclass(value) and value is not Any:  # McpServer is Any: mcp stays optional
            assert value.__module__.startswith("claude_wrap"), (name, value.__module__)
            assert value.__name__ == name


def test_official_error_hierarchy() -> None:
    from claude_wrap import ClaudeSDKError, CLIConnectionError, CLIJSONDecodeError, CLINotFoundError, ProcessError

    assert issubclass(CLINotFoundError, CLIConnectionError)
    for cls in (CLIConnectionError, CLINotFoundError, ProcessError, CLIJSONDecodeError):
        assert issubclass(cls, ClaudeSDKError)
    assert issubclass(ClaudeSDKError, Exception)
    err = ProcessError("binary failed", exit_code=1, stderr="Error: boom")
    assert err.exit_code == 1
    assert "boom" in str(err)


def test_query_returns_an_async_generator_and_client_is_an_async_context_manager() -> None:
    # A plain function (so a `for` or an `await` by mistake gets a hint; see
    # test_hints.py) whose result is driven like the official async generator.
    run = claude_wrap.query(prompt="never started")
    assert callable(run.asend) and callable(run.athrow) and callable(run.aclose)
    # `async for` holds the object itself (so that leaving the loop closes
    # the run), which answers for its generator's attributes.
    assert run.__aiter__() is run and run.ag_running is False and inspect.isframe(run.ag_frame)
    assert "prompt" in inspect.signature(claude_wrap.query).parameters
    client_cls = claude_wrap.ClaudeSDKClient
    assert inspect.iscoroutinefunction(client_cls.__aenter__)
    assert inspect.iscoroutinefunction(client_cls.__aexit__)


def test_version() -> None:
    assert claude_wrap.__version__.count(".") >= 2


def test_query_is_a_function_returning_an_async_iterator_not_an_async_generator_function() -> None:
    # As docs/differences.md says: `async for` and asend/athrow/aclose work as
    # on the official generator, but the function itself is a plain one.
    import inspect

    from claude_wrap import query

    assert not inspect.isasyncgenfunction(query)
    run = query(prompt="never started")
    assert all(callable(getattr(run, name)) for name in ("__anext__", "asend", "athrow", "aclose"))
