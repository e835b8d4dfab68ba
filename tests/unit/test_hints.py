"""Common mistakes get an error of the class the official package raises,
whose message says what to write instead; public objects present themselves
under the package's name."""

from __future__ import annotations

import collections.abc
import inspect
import pickle
import pydoc
import subprocess
import sys
import traceback
import typing

import pytest

import claude_wrap
from claude_wrap import ClaudeAgentOptions, ClaudeSDKClient, CLINotFoundError, ResultError, query
from claude_wrap._exceptions import error_result_hint

# -- query() and the client used as if they were synchronous -------------------------


def test_a_plain_for_over_query_names_async_for_and_the_sync_api() -> None:
    with pytest.raises(TypeError) as info:
        for _ in query(prompt="hi"):  # type: ignore[attr-defined]
            pass
    assert "`async for message in query(...)`" in str(info.value)
    assert "claude_wrap.sync.query(...)" in str(info.value)
    with pytest.raises(TypeError, match="async for"):
        list(query(prompt="hi"))  # type: ignore[call-overload]


async def _await_query() -> None:
    await query(prompt="hi")  # type: ignore[misc]


def test_query_is_not_awaitable_as_with_the_official_package() -> None:
    # Frameworks await whatever looks awaitable; an async generator does not.
    run = query(prompt="hi")
    assert not inspect.isawaitable(run)
    coro = _await_query()
    with pytest.raises(TypeError, match="can't be used in 'await' expression"):
        coro.send(None)


def test_query_still_looks_like_an_async_generator_to_collections_abc() -> None:
    run = query(prompt="hi")
    assert isinstance(run, collections.abc.AsyncIterator)
    assert not isinstance(run, collections.abc.Iterable)  # as for an async generator


def test_a_sync_with_over_the_client_names_async_with_and_the_sync_client() -> None:
    with pytest.raises(TypeError) as info:
        with ClaudeSDKClient():  # type: ignore[attr-defined]
            pass
    assert "`async with ClaudeSDKClient(...) as client:`" in str(info.value)
    assert "claude_wrap.sync.ClaudeSDKClient" in str(info.value)


# -- options ----------------------------------------------------------------------------


def test_an_unknown_option_suggests_the_closest_field() -> None:
    with pytest.raises(TypeError) as info:
        ClaudeAgentOptions(max_turns=2, allowed_tool=["Read"])  # type: ignore[call-arg]
    assert str(info.value) == (
        "ClaudeAgentOptions.__init__() got an unexpected keyword argument 'allowed_tool'; did you mean 'allowed_tools'?"
    )
    # Nothing close: the interpreter's own words, unchanged.
    with pytest.raises(TypeError) as far:
        ClaudeAgentOptions(zzzz=1)  # type: ignore[call-arg]
    assert str(far.value) == "ClaudeAgentOptions.__init__() got an unexpected keyword argument 'zzzz'"


def test_the_wrapped_init_keeps_signature_checks_and_warning_lines() -> None:
    assert list(inspect.signature(ClaudeAgentOptions).parameters)[:3] == ["tools", "allowed_tools", "system_prompt"]
    # A TypeError from the checks behind __init__ is not touched.
    with pytest.raises(ValueError) as info:
        ClaudeAgentOptions(output_type=3)  # type: ignore[arg-type]
    assert "did you mean" not in str(info.value)
    with pytest.raises(TypeError, match=r"takes 1 positional argument|positional arguments? but") as extra:
        ClaudeAgentOptions(*range(200))
    assert "did you mean" not in str(extra.value)


# -- error results a set-up causes ----------------------------------------------------


def test_not_logged_in_gets_the_credentials_hint() -> None:
    data = {"subtype": "success", "is_error": True, "result": "Not logged in · Please run /login"}
    hint = error_result_hint(data)
    assert hint is not None and "ANTHROPIC_API_KEY" in hint and "claude-wrap doctor" in hint
    error = ResultError("Claude Code returned an error result: Not logged in · Please run /login", data, 1, hint=hint)
    assert str(error).startswith(
        "Claude Code returned an error result: Not logged in · Please run /login (exit code: 1)"
    )
    assert str(error).endswith("\n" + hint)
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error) and copy.data == data


def test_an_unreachable_api_suggests_doctor_and_an_http_error_does_not() -> None:
    refused = {"result": "API Error: Connection refused (ECONNREFUSED)", "api_error_status": None}
    assert "claude-wrap doctor" in (error_result_hint(refused) or "")
    overloaded = {"result": "API Error: 529 Overloaded", "api_error_status": 529}
    assert error_result_hint(overloaded) is None
    assert error_result_hint({"subtype": "error_max_turns"}) is None
    # Built as the official package builds it, the message is the official one.
    assert str(ResultError("m", refused, 1)) == "m (exit code: 1)"


# -- public names ---------------------------------------------------------------------


def test_tracebacks_show_the_public_name_of_an_error() -> None:
    try:
        raise CLINotFoundError("Claude Code not found", "/x/claude")
    except CLINotFoundError as exc:
        shown = "".join(traceback.format_exception_only(type(exc), exc))
    assert shown == "claude_wrap.CLINotFoundError: Claude Code not found: /x/claude\n"
    assert pickle.loads(pickle.dumps(CLINotFoundError("m", "p"))).cli_path == "p"


def test_an_error_raised_inside_the_package_prints_its_public_name() -> None:
    # A fresh interpreter that never touched claude_wrap.CLINotFoundError.
    code = "import claude_wrap; claude_wrap.find_binary('/no/such/claude')"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.stderr.splitlines()[-1].startswith("claude_wrap.CLINotFoundError: Claude Code not found at: ")


def test_public_classes_and_functions_live_in_the_package_and_keep_their_type_hints() -> None:
    for name in claude_wrap.__all__:
        value = getattr(claude_wrap, name)
        if (inspect.isclass(value) or inspect.isfunction(value)) and value is not typing.Any:
            assert value.__module__ == "claude_wrap", name
        if inspect.isclass(value):
            typing.get_type_hints(value, include_extras=True)  # annotations still resolve
    from claude_wrap.testing import ScriptedModel

    assert ScriptedModel.__module__ == "claude_wrap.testing"


def test_type_hints_resolve_in_a_fresh_interpreter_whatever_the_order() -> None:
    # Publishing evaluates string annotations in their own module: a class
    # touched first must not depend on names the package has not loaded yet.
    code = (
        "import typing, claude_wrap\n"
        "for name in reversed(claude_wrap.__all__):\n"
        "    v = getattr(claude_wrap, name)\n"
        "    if isinstance(v, type) and v is not typing.Any:  # McpServer: mcp stays optional\n"
        "        typing.get_type_hints(v)\n"
        "        assert v.__module__ == 'claude_wrap', name\n"
        "from pydantic import TypeAdapter\n"
        "from claude_wrap import AssistantMessage, TextBlock\n"
        "m = TypeAdapter(AssistantMessage).validate_python({'content': [{'text': 'x'}], 'model': 'm'})\n"
        "assert m.content == [TextBlock('x')], m\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


@pytest.mark.parametrize("name", ["ClaudeAgentOptions", "AssistantMessage", "ResultMessage", "HookMatcher"])
def test_help_and_signature_show_the_fields(name: str) -> None:
    cls = getattr(claude_wrap, name)
    fields = [f.name for f in __import__("dataclasses").fields(cls)]
    params = list(inspect.signature(cls).parameters)
    assert params[: len(fields)] == fields
    page = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    assert f"class {name} in module claude_wrap" in page.splitlines()[0]
    assert "claude_wrap._" not in page
    assert all(field in page for field in fields)
