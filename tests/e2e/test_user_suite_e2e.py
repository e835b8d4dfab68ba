"""A user's own test suite, strict about warnings, leaves loops early and passes.

Tests written the way docs/testing.md shows (``@pytest.mark.anyio``, the
``scripted_model`` and ``claude_env`` fixtures) that ``break``, ``return``
or ``raise`` inside ``async for ... in query(...)`` or inside
``client.receive_response()`` run in a pytest of their own, with
``filterwarnings = error`` (a common setting, and this project's): a
transport left for the garbage collector after the event loop closed
("Event loop is closed"), a generator finalized by the loop (trio's
ResourceWarning) or an unraisable exception fails that session. It must
pass, under asyncio and trio.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from _docs import outer_env

pytestmark = pytest.mark.e2e

USER_TESTS = """
from contextlib import aclosing

import pytest

from claude_wrap import AssistantMessage, ClaudeAgentOptions, ClaudeSDKClient, query
from claude_wrap.testing import Reply

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request):
    return request.param


@pytest.fixture
def options(scripted_model, claude_env):
    scripted_model.add(Reply.text("hello"))
    return ClaudeAgentOptions(env=claude_env)


async def test_break(options):
    async for message in query(prompt="hi", options=options):
        if isinstance(message, AssistantMessage):
            break


async def test_return(options):
    async for message in query(prompt="hi", options=options):
        return


async def test_raise(options):
    with pytest.raises(ValueError):
        async for message in query(prompt="hi", options=options):
            raise ValueError("out")


async def test_aclosing(options):
    async with aclosing(query(prompt="hi", options=options)) as messages:
        async for message in messages:
            break


async def test_explicit_aclose(options):
    messages = query(prompt="hi", options=options)
    await messages.__anext__()
    await messages.aclose()


async def test_never_iterated(options):
    query(prompt="hi", options=options)


async def test_client_break(options):
    async with ClaudeSDKClient(options) as client:
        await client.query("hi")
        async for message in client.receive_response():
            break


async def test_client_return(options):
    async with ClaudeSDKClient(options) as client:
        await client.query("hi")
        async for message in client.receive_response():
            return


async def test_client_raise(options):
    with pytest.raises(ValueError):
        async with ClaudeSDKClient(options) as client:
            await client.query("hi")
            async for message in client.receive_response():
                raise ValueError("out")
"""


def test_a_strict_user_suite_that_leaves_loops_early_passes(tmp_path: Path, cli_path: str) -> None:
    (tmp_path / "test_app.py").write_text(textwrap.dedent(USER_TESTS))
    (tmp_path / "pytest.ini").write_text("[pytest]\nfilterwarnings = error\n")
    env = {**outer_env(), "CLAUDE_WRAP_CLI": cli_path}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "18 passed" in done.stdout
