"""The errors a program written for the official package meets, raised by
the real binary's runs: the official class (or a subclass), its attributes
and the start of its message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options, bash, run, turn

from claude_wrap import (
    ClaudeSDKClient,
    CLIConnectionError,
    CLINotFoundError,
    ProcessError,
    ResultError,
    ResultMessage,
    query,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


async def test_error_result_raises_result_error_built_from_the_result(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(bash("echo one"), bash("echo two"), Reply.text("never"))
    seen: list[Any] = []
    with pytest.raises(ResultError) as info:
        with anyio.fail_after(60):
            async for message in query(prompt="loop", options=make_options(max_turns=1, allowed_tools=["Bash"])):
                seen.append(message)
    error = info.value
    result = seen[-1]
    assert isinstance(result, ResultMessage) and result.is_error
    assert str(error).startswith("Claude Code returned an error result: ")
    assert error.subtype == result.subtype == "error_max_turns"
    assert error.data["subtype"] == "error_max_turns" and error.data["session_id"] == result.session_id
    assert error.errors == [e.strip() for e in result.errors or [] if e.strip()]
    assert (error.session_id, error.terminal_reason) == (result.session_id, result.terminal_reason)
    assert error.result_message is result
    assert isinstance(error, ProcessError)


async def test_a_client_connects_again_after_disconnect(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.text("first"), Reply.text("second"))
    client = ClaudeSDKClient(make_options())
    await client.connect()
    assert (await turn(client, "one"))[-1].result == "first"
    await client.disconnect()
    with pytest.raises(CLIConnectionError, match=r"^Not connected\. Call connect\(\) first\.$"):
        await client.query("lost")
    with pytest.raises(CLIConnectionError, match=r"^Not connected"):
        await client.interrupt()

    await client.connect()  # the official package allows it: a new binary, a new session
    try:
        assert (await turn(client, "two"))[-1].result == "second"
    finally:
        await client.disconnect()
    assert len(scripted_model.main_requests) == 2


async def test_a_client_whose_binary_ended_refuses_writes_as_a_connection_error(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("bye"))
    async with ClaudeSDKClient(make_options()) as client:
        await turn(client, "hello")
        await client.end_session()
        with anyio.fail_after(30):
            while client.is_alive:
                await anyio.sleep(0.02)
        with pytest.raises(CLIConnectionError) as info:
            await client.query("are you there?")
        assert str(info.value).startswith("Cannot write to terminated process (exit code: 0)")


async def test_missing_binary_and_working_directory(make_options: Options, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-claude"
    with pytest.raises(CLINotFoundError) as info:
        await run("hi", make_options(cli_path=missing))
    assert str(info.value).startswith(f"Claude Code not found at: {missing}")

    gone = tmp_path / "gone"
    with pytest.raises(CLIConnectionError) as where:
        await run("hi", make_options(cwd=gone))
    assert str(where.value) == f"Working directory does not exist: {gone}"


async def test_settings_that_cannot_be_loaded_refuse_to_start(make_options: Options, workdir: Path) -> None:
    (workdir / "settings.json").write_text("{not json")
    options = make_options(settings="settings.json", sandbox={"enabled": True})  # read from the binary's cwd
    with pytest.raises(CLIConnectionError, match=r"^Failed to load settings: ") as info:
        await run("hi", options)
    assert isinstance(info.value.__cause__, ValueError)  # the file was found, and is not JSON


async def test_a_key_the_api_rejects_ends_the_run_with_an_authentication_error(tmp_path: Path) -> None:
    # The API answers 401 to every request (a wrong or revoked key): the
    # binary does not retry it, and the run ends with the typed error.
    from claude_wrap import AuthenticationError, ClaudeAgentOptions, ResultError
    from claude_wrap.testing import ScriptedModel

    with ScriptedModel(api_key="sk-the-right-one") as model:
        options = ClaudeAgentOptions(env=model.env(tmp_path / "home"), cwd=tmp_path, setting_sources=[])
        with pytest.raises(AuthenticationError) as info:
            await run("hi", options, limit=60)
    error = info.value
    assert isinstance(error, ResultError) and error.api_error_status == 401
    # The binary words the result itself ("Invalid API key ..."); our hint follows.
    assert "Invalid API key" in str(error) and "\nhint: the API rejected the credentials (HTTP 401)" in str(error)
    assert error.result_message is not None and error.result_message.is_error
