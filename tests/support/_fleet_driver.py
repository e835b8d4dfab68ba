"""A batch's driver in a process of its own, for the tests that kill it.

``python _fleet_driver.py CONFIG`` (a JSON file) runs ``run_many`` over the
config's prompts with its ``batch_id`` and prints one JSON line per outcome
as it arrives. The config names the store (``{"sqlite": path}`` or
``{"redis": url, "prefix": ...}``), the options' ``cwd``, ``env`` and
``allowed_tools``, and ``run_many``'s own arguments (``backend``,
``concurrency``, ``lease_s``, ``budget_usd``, ``address`` and ``warm``).

``kill_driver_mid_batch`` starts such a driver and SIGKILLs it once some
tasks are done and others are in the middle of their tool call.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import anyio

HERE = Path(__file__).resolve().parent


def _store(config: dict[str, Any]) -> Any:
    if "sqlite" in config:
        from claude_wrap import SQLiteSessionStore

        return SQLiteSessionStore(config["sqlite"])
    from claude_wrap import RedisSessionStore

    return RedisSessionStore(config["redis"], prefix=config["prefix"])


def outcome_line(outcome: Any) -> str:
    return json.dumps({
        "index": outcome.index,
        "ok": outcome.ok,
        "output": outcome.output,
        "attempts": outcome.attempts,
        "recorded": outcome.recorded,
        "error": type(outcome.error).__name__ if outcome.error is not None else None,
    })  # fmt: skip


async def main(path: str) -> None:
    from claude_wrap import ClaudeAgentOptions
    from claude_wrap.fleet import run_many

    with open(path) as f:
        config = json.load(f)
    options = ClaudeAgentOptions(
        cwd=config["cwd"],
        env=config["env"],
        setting_sources=[],
        allowed_tools=config.get("allowed_tools", []),
        session_store=_store(config["store"]),
    )
    extra = {k: config[k] for k in ("address", "warm", "budget_usd") if k in config}
    if config.get("backend") == "ray":
        import ray

        ray.init(address=config["address"], runtime_env=config.get("runtime_env"), log_to_driver=False)
        extra.pop("address")
    batch = run_many(
        config["prompts"],
        options=options,
        backend=config.get("backend", "local"),
        concurrency=config.get("concurrency"),
        batch_id=config["batch_id"],
        lease_s=config.get("lease_s", 30.0),
        **extra,
    )
    async with batch:
        async for outcome in batch:
            print(outcome_line(outcome), flush=True)


async def kill_driver_mid_batch(
    config: dict[str, Any], tmp_path: Path, *, done: int, held: list[str], store: Any, workdir: Path, limit: float = 180
) -> list[dict[str, Any]]:
    """Run the driver of ``config`` until ``done`` outcomes came and a process
    runs for each of ``held`` (command-line markers) with its tool call in
    ``store``, then SIGKILL it; the outcomes it printed."""
    from _fleet import store_holds
    from _procs import processes_where

    config_path = tmp_path / f"driver-{config['batch_id']}.json"
    config_path.write_text(json.dumps(config))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parents[1]), str(HERE)])}
    printed: list[dict[str, Any]] = []

    async def ready() -> bool:
        if len(printed) < done or not all(processes_where(cmdline_contains=m) for m in held):
            return False
        return await store_holds(store, workdir, [f"echo {m}" for m in held])

    async with await anyio.open_process([sys.executable, __file__, str(config_path)], env=env) as driver:
        assert driver.stdout is not None
        stdout = driver.stdout

        async def read() -> None:
            buffered = b""
            async for chunk in stdout:
                buffered += chunk
                *lines, buffered = buffered.split(b"\n")
                printed.extend(json.loads(line) for line in lines if line)

        async with anyio.create_task_group() as tg:
            tg.start_soon(read)
            with anyio.fail_after(limit):
                while not await ready():
                    if driver.returncode is not None:
                        raise AssertionError(f"the driver ended early ({driver.returncode}): {printed}")
                    await anyio.sleep(0.05)
            driver.send_signal(signal.SIGKILL)
            await driver.wait()
            tg.cancel_scope.cancel()
    return printed


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
