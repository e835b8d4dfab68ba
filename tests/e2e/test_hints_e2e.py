"""The error a run gets when the set-up is wrong says what to try: the real
binary without credentials, and with an API that cannot be reached."""

from __future__ import annotations

import socket

import pytest
from _e2e import Options, run

from claude_wrap import ResultError

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


async def test_not_logged_in_names_the_api_key(make_options: Options) -> None:
    options = make_options()
    # Empty wins over whatever the test process inherited.
    options.env.update({"ANTHROPIC_API_KEY": "", "CLAUDE_CODE_OAUTH_TOKEN": "", "ANTHROPIC_AUTH_TOKEN": ""})
    with pytest.raises(ResultError) as info:
        await run("hi", options)
    message = str(info.value)
    assert message.startswith("Claude Code returned an error result: Not logged in · Please run /login (exit code: 1)")
    assert message.splitlines()[-1].startswith("hint: the binary found no credentials; set ANTHROPIC_API_KEY")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_an_unreachable_api_suggests_doctor(make_options: Options) -> None:
    options = make_options()
    options.env["ANTHROPIC_BASE_URL"] = f"http://127.0.0.1:{_closed_port()}"
    with pytest.raises(ResultError) as info:
        await run("hi", options)
    error = info.value
    assert error.api_error_status is None and (error.result or "").startswith("API Error: ")
    assert str(error).splitlines()[-1].startswith("hint: the API could not be reached; `claude-wrap doctor` checks")
