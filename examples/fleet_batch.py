"""Summarize every Python file under a directory, many agents at once.

    python examples/fleet_batch.py src/ --results summaries.json --budget 0.50
    python examples/fleet_batch.py src/ --results summaries.json --budget 0.50

Each file is one task; its answer is structured output, a ``FileSummary``.
Every outcome is written to ``--results`` as it arrives, so the second run
above goes on where the first one stopped: files already summarized are
skipped, and a task the budget stopped half way continues its own session
(``Task(resume=...)``) instead of starting over.

On a Ray cluster, with the sessions in Redis so that a task whose machine
is lost goes on on another one::

    python examples/fleet_batch.py src/ --results summaries.json \\
        --backend ray --address auto --store redis://redis-host:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from claude_wrap import ClaudeAgentOptions
from claude_wrap.fleet import BudgetExceededError, Outcome, Task, run_many

PROMPT = (
    "Read the Python file {path} and summarize it: its purpose in one sentence, "
    "the public names it defines, and how many TODO comments it has."
)


class FileSummary(BaseModel):
    purpose: str
    public_names: list[str]
    todo_count: int


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text()) if path.exists() else {}


def save(path: Path, results: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(results, indent=2))
    tmp.replace(path)  # a crash never leaves half a file


def task_for(file: Path, earlier: dict[str, Any] | None) -> Task:
    # A task the budget stopped goes on in its session; others start afresh.
    resume = earlier.get("session_id") if earlier and earlier["status"] == "stopped" else None
    return Task(PROMPT.format(path=file), name=str(file), resume=resume)


def record(outcome: Outcome) -> dict[str, Any]:
    entry: dict[str, Any] = {"session_id": outcome.session_id, "cost_usd": round(outcome.total_cost_usd, 6)}
    if outcome.ok and isinstance(outcome.output, FileSummary):
        return {**entry, "status": "done", "summary": outcome.output.model_dump()}
    if isinstance(outcome.error, BudgetExceededError):
        return {**entry, "status": "stopped"}
    return {**entry, "status": "failed", "error": str(outcome.error or outcome.result)}


def table(results: dict[str, Any]) -> str:
    rows = [("file", "status", "todos", "cost", "purpose")]
    for name, entry in sorted(results.items()):
        summary = entry.get("summary") or {}
        purpose = summary.get("purpose", entry.get("error", ""))
        rows.append((name, entry["status"], str(summary.get("todo_count", "")), f"${entry['cost_usd']:.4f}", purpose))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths)) + "  " + row[4] for row in rows)


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", type=Path)
    parser.add_argument("--results", type=Path, default=Path("summaries.json"))
    parser.add_argument("--budget", type=float, default=None, help="stop once the batch has cost this much (USD)")
    parser.add_argument("--concurrency", type=int, default=None, help="tasks at once per machine")
    parser.add_argument("--backend", choices=["local", "ray"], default="local")
    parser.add_argument("--address", default=None, help="the Ray cluster to join (ray backend)")
    parser.add_argument("--store", default=None, help="a redis:// URL: sessions survive a lost machine")
    args = parser.parse_args(argv)

    directory = args.directory.resolve()
    results = load(args.results)
    files = sorted(directory.rglob("*.py"))
    todo = [f for f in files if results.get(str(f), {}).get("status") != "done"]
    options = ClaudeAgentOptions(cwd=directory, output_type=FileSummary, allowed_tools=["Read"], max_turns=5)
    if args.store:
        from claude_wrap import RedisSessionStore

        options.session_store = RedisSessionStore(args.store)
    backend_options = {"address": args.address} if args.backend == "ray" else {}

    tasks = [task_for(f, results.get(str(f))) for f in todo]
    async with run_many(tasks, options=options, backend=args.backend, concurrency=args.concurrency,
                        budget_usd=args.budget, progress=True, **backend_options) as batch:  # fmt: skip
        async for outcome in batch:
            results[outcome.task.label] = record(outcome)
            save(args.results, results)

    print(table(results))
    return 0 if all(results.get(str(f), {}).get("status") == "done" for f in files) else 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
