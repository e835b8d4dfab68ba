"""Edges of the sync facade, the warm pool and session-store mirroring."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest

from claude_wrap._exceptions import ClaudeSDKError, SessionStateError
from claude_wrap._run.mirror import MirrorBatcher
from claude_wrap._sessions.store_memory import InMemorySessionStore
from claude_wrap._wire.messages import ResultMessage, UnknownMessage

SID = str(uuid.UUID(int=7))
KEY = {"project_key": "-proj", "session_id": SID}
_RESULT = ResultMessage(
    subtype="success", duration_ms=0, duration_api_ms=0, is_error=False, num_turns=1, session_id=SID
)


def _frame(projects: Path, n: int) -> UnknownMessage:
    path = str(projects / "-proj" / f"{SID}.jsonl")
    return UnknownMessage(
        type="transcript_mirror", subtype=None, data={"filePath": path, "entries": [{"type": "x", "n": n}]}
    )


class _StoreTimesOut(InMemorySessionStore):
    """A store whose client raises its own (builtin) TimeoutError, e.g. a
    socket/connect timeout, before anything was written."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures
        self.calls = 0

    async def append(self, key: Any, entries: Any) -> None:
        self.calls += 1
        if self.failures > 0:
            self.failures -= 1
            raise TimeoutError("connect timed out")  # the store's own error, not our send_timeout
        await super().append(key, entries)


@pytest.mark.anyio
async def test_a_timeout_raised_by_the_store_is_retried_and_the_batch_kept(tmp_path: Path) -> None:
    # Documented: each append is tried three times; a batch that still fails
    # stays queued for the next flush. A TimeoutError raised *by the store*
    # (not by our fail_after) is mistaken for our send timeout: no retry,
    # the batch is dropped, and the error text claims a 60 s timeout.
    store = _StoreTimesOut(failures=1)
    batcher = MirrorBatcher(store, tmp_path, backoff=(0, 0))
    batcher.enqueue(_frame(tmp_path, 1))
    batcher.enqueue(_frame(tmp_path, 2))
    await batcher.before_result(_RESULT)
    batcher.enqueue(_frame(tmp_path, 3))
    await batcher.before_result(_RESULT)
    assert [e["n"] for e in store.get_entries(KEY)] == [1, 2, 3]  # type: ignore[arg-type]


# -- sync facade -------------------------------------------------------------------

from claude_wrap._process.transport import LineTransport  # noqa: E402
from claude_wrap.testing import MockTransport, initialize_response  # noqa: E402


class _LazyMock(LineTransport):
    """MockTransport made on the helper loop (its anyio.Event needs a loop)."""

    def __init__(self) -> None:
        self.inner: MockTransport | None = None

    def _get(self) -> MockTransport:
        if self.inner is None:
            self.inner = MockTransport(
                lambda f: [initialize_response(f)] if f.get("type") == "control_request" else None
            )
        return self.inner

    async def send(self, line: bytes) -> None:
        await self._get().send(line)

    async def receive(self) -> bytes | None:
        return await self._get().receive()

    async def send_eof(self) -> None:
        await self._get().send_eof()

    async def aclose(self) -> None:
        await self._get().aclose()

    @property
    def returncode(self) -> int | None:
        return None if self.inner is None else self.inner.returncode

    async def wait(self) -> int | None:
        return self.returncode


def test_sync_iterator_used_after_disconnect_is_a_typed_misuse_error() -> None:
    # An iterator from receive_response() outlives its client (disconnect()
    # from another thread, or a `with` block left). next() then goes to the
    # stopped portal and anyio's RuntimeError("This portal is not running")
    # escapes, instead of the documented misuse error (SessionStateError)
    # or a plain StopIteration.
    from claude_wrap.sync import ClaudeSDKClient

    with ClaudeSDKClient(transport=_LazyMock()) as client:
        messages = client.receive_response()
    try:
        next(messages)
    except (SessionStateError, ClaudeSDKError, StopIteration):
        pass
    except RuntimeError as exc:  # SessionStateError is a RuntimeError: checked above
        pytest.fail(f"raw {type(exc).__name__} escaped: {exc}")


# -- resume materialization ----------------------------------------------------------


async def _store_with_session(cwd: Path) -> InMemorySessionStore:
    from claude_wrap._sessions.transcripts import project_key_for_directory

    store = InMemorySessionStore()
    key = {"project_key": project_key_for_directory(cwd), "session_id": SID}
    await store.append(key, [{"type": "user", "uuid": "u1", "message": {"role": "user", "content": "hi"}}])  # type: ignore[arg-type]
    return store


@pytest.mark.anyio
async def test_resume_config_dir_is_removed_when_argv_files_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # open_connection(): materialize_resume() made a private config dir; then
    # launch.materialize() (writing the argv temp files: ENOSPC, EMFILE ...)
    # runs outside any try, so resumed.cleanup() never runs and the copied
    # transcript plus the copied login stay in /tmp.
    import sys
    import tempfile

    from claude_wrap import ClaudeAgentOptions
    from claude_wrap._launch import argv as _argv
    from claude_wrap._run.connect import open_connection

    cwd = tmp_path / "cwd"
    cwd.mkdir()
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))

    def boom(self: Any) -> list[str]:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_argv.Launch, "materialize", boom)
    store = await _store_with_session(cwd)
    options = ClaudeAgentOptions(
        cwd=cwd,
        resume=SID,
        session_store=store,
        cli_path=sys.executable,
        env={"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")},
    )
    with pytest.raises(OSError):
        await open_connection(options)
    assert [p.name for p in tmp.iterdir() if p.name.startswith("claude-resume-")] == []


@pytest.mark.anyio
async def test_store_load_timeout_on_resume_is_a_claude_sdk_error(tmp_path: Path) -> None:
    # Every other timeout of the library is a ClaudeSDKError (ControlTimeoutError,
    # TurnTimeoutError, both also TimeoutError); the load_timeout_ms limit on
    # resume raises a bare builtin TimeoutError (_run.mirror._bounded), so
    # `except ClaudeSDKError` around query() misses it.
    from claude_wrap import ClaudeAgentOptions
    from claude_wrap._run.mirror import materialize_resume

    class SlowStore(InMemorySessionStore):
        async def load(self, key: Any) -> Any:
            await anyio.sleep(10)

    cwd = tmp_path / "cwd"
    cwd.mkdir()
    options = ClaudeAgentOptions(cwd=cwd, resume=SID, session_store=SlowStore(), load_timeout_ms=50)
    with anyio.fail_after(5):
        with pytest.raises(TimeoutError) as info:
            await materialize_resume(options)
    assert isinstance(info.value, ClaudeSDKError), type(info.value)


# -- warm pool ------------------------------------------------------------------------


def _result_frame() -> dict[str, Any]:
    return {
        "type": "result",
        "subtype": "success",
        "duration_ms": 0,
        "duration_api_ms": 0,
        "is_error": False,
        "num_turns": 1,
        "session_id": SID,
    }


@pytest.mark.anyio
async def test_a_member_being_polled_is_not_handed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # _pool._maintain polls idle members: Connection.poll() pumps under
    # move_on_after(0.05). If _take() hands that member to a query while the
    # poll is running, the poll's pump keeps serving the query: a can_use_tool
    # callback started in the poll's task group is cancelled when the 0.05 s
    # run out, and the binary is answered "cancelled by the host" (the tool
    # is denied) although the user's callback would have allowed it.
    import claude_wrap._pool as pool_mod
    from claude_wrap import ClaudeAgentOptions, PermissionResultAllow
    from claude_wrap._run.connect import open_connection as real_open_connection

    mocks: list[MockTransport] = []

    def handler(frame: dict[str, Any]) -> Any:
        if frame.get("type") == "control_request":
            return [initialize_response(frame)]
        if frame.get("type") == "user":
            return [
                {
                    "type": "control_request",
                    "request_id": "perm-1",
                    "request": {
                        "subtype": "can_use_tool",
                        "tool_name": "Bash",
                        "input": {"command": "ls"},
                        "tool_use_id": "t1",
                    },
                }
            ]
        if frame.get("type") == "control_response":
            return [_result_frame()]
        return None

    async def fake_open_connection(options: Any) -> Any:
        mock = MockTransport(handler)
        mocks.append(mock)
        return await real_open_connection(options, transport=mock)

    monkeypatch.setattr(pool_mod, "open_connection", fake_open_connection)

    async def can_use_tool(tool: str, tool_input: dict[str, Any], context: Any) -> Any:
        await anyio.sleep(0.2)  # a callback that takes a moment (asks a human, a policy server ...)
        return PermissionResultAllow()

    options = ClaudeAgentOptions(can_use_tool=can_use_tool)
    async with pool_mod.ClaudePool(options, size=1, check_interval=0.001, prime=False) as pool:
        await pool.wait_ready()
        with anyio.fail_after(5):
            # Hand the member out while _maintain is (almost always) polling it.
            while True:
                await anyio.sleep(0.003)
                if pool._idle and pool._idle[0].connection._pump_lock.locked():
                    break
            _messages = [m async for m in pool.query(prompt="go")]
    answers = [f for f in mocks[0].sent if f.get("type") == "control_response"]
    assert answers and answers[0]["response"]["subtype"] == "success", answers
