"""Many agents at once: on this machine, or spread over a Ray cluster.

::

    from claude_wrap.fleet import run_many

    async with run_many(["Summarize a.py", "Summarize b.py"], options=options) as batch:
        async for outcome in batch:
            print(outcome.index, outcome.ok, outcome.output, outcome.total_cost_usd)

``run_many`` returns a :class:`Batch`: outcomes arrive as tasks finish, one
per task. ``backend="local"`` runs tasks in this process on a warm
:class:`~claude_wrap.ClaudePool`; ``backend="ray"`` runs a worker per node
of a Ray cluster, each with its own warm pool, and moves the tasks of a
lost node to the others, resuming their sessions from the session store.
See the fleet guide (docs/fleet.md) for budgets, resuming and what is
replayed when a node is lost. ``claude_wrap.sync.run_many`` is the same for
synchronous code.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from claude_wrap._fleet.batch import Batch, Driver, as_task
from claude_wrap._fleet.mapper import ClaudeMapper
from claude_wrap._fleet.progress import make_progress
from claude_wrap._fleet.rate import RateLimit
from claude_wrap._fleet.types import (
    BatchBusyError,
    BudgetExceededError,
    FleetError,
    FleetStats,
    NodeLostError,
    Outcome,
    ReplayError,
    Task,
    TaskFunction,
    TaskLostError,
    whole_count as _whole_count,
)
from claude_wrap._fleet.worker import NodeInfo
from claude_wrap._launch.options import ClaudeAgentOptions
from claude_wrap._lazy import publish

__all__ = [
    "Batch",
    "BatchBusyError",
    "ClaudeMapper",
    "BudgetExceededError",
    "FleetError",
    "FleetStats",
    "NodeInfo",
    "NodeLostError",
    "Outcome",
    "RateLimit",
    "ReplayError",
    "Task",
    "TaskFunction",
    "TaskLostError",
    "run_many",
]

_LOCAL_OPTIONS = frozenset({"warm"})


def run_many(
    tasks: Iterable[str | Task],
    *,
    options: ClaudeAgentOptions | None = None,
    backend: Literal["local", "ray"] = "local",
    concurrency: int | None = None,
    budget_usd: float | None = None,
    progress: bool | Callable[[FleetStats], None] = False,
    batch_id: str | None = None,
    lease_s: float = 30.0,
    api_retries: int = 3,
    api_backoff_s: float = 2.0,
    rate_limit: RateLimit | None = None,
    **backend_options: Any,
) -> Batch:
    """Run ``tasks`` (prompts, or :class:`Task` objects), ``concurrency`` at a
    time per node; iterate the returned :class:`Batch` for their outcomes.

    ``options`` apply to every task (a task's own ``options`` replace them).
    ``concurrency``: tasks running at once on each node (default: the
    node's CPU count). ``budget_usd``: once the tasks have spent this much
    (as the binary counts it, checked after each model reply), no task
    starts and running ones are stopped; their outcomes, and those of the
    tasks never started (the rest of ``tasks`` is read for them), carry
    ``BudgetExceededError``. ``progress``: show
    done / running / failed / cost on stderr (or in a notebook cell), or
    call a function with :class:`FleetStats` on every change.

    ``batch_id``: keep the batch's state in a journal in the options'
    ``session_store`` (required then), so that running ``run_many`` again
    with the same ``batch_id`` and tasks (after this driver died, or was
    stopped by the budget; on this machine or another) reports the tasks
    that finished without running them (``Outcome.recorded``), resumes the
    ones under way from their sessions, and starts the rest. One driver
    runs a batch at a time: another gets ``BatchBusyError`` until this
    one's lease ends (it is renewed while the batch runs, and lapses
    ``lease_s`` seconds after its driver died).

    ``api_retries``: a prompt task whose turn ends on an API error worth
    trying again (overloaded, rate limited, a server error, no connection;
    after the binary's own retries) runs again, its session resumed (the
    binary goes on with the failed turn), up to this many times, after
    ``api_backoff_s`` seconds doubled each time (at most 60, with jitter).
    A refused request (a bad key, an invalid request) is not retried, nor is
    a ``run`` function (it sees the error result itself). 0: no retries.

    ``rate_limit``: a :class:`RateLimit` (requests and/or tokens a minute)
    that every task of the batch shares, on every node: no prompt is sent
    and no tool starts (its result being the next request) while it is
    spent, and a rate-limited retry anywhere holds all tasks for the delay
    the API asked for. It paces rather than caps exactly (see
    docs/fleet.md).

    Backend options. Both: ``warm``, pool members kept ready per node
    (default: ``concurrency``; 0 starts a binary per task). Ray:
    ``address`` (for ``ray.init`` when Ray is not initialized yet; else the
    running connection is used), ``runtime_env``, ``retries`` (attempts
    after a lost node, default 2), ``nodes`` (node ids to use; default:
    every alive node), ``actor_options`` (``.options()`` for the node
    workers; they ask for no CPU by default), ``slot`` (the Ray resources
    one running task takes, e.g. ``{"CPU": 1}`` or ``{"claude_slots": 1}``:
    each node runs as many tasks as it has the resources for, capped by
    ``concurrency``, its worker holds them, and an autoscaler is asked for
    a slot per unfinished task; nodes without them run nothing).

    Nothing starts until the batch is iterated or entered.
    """
    if isinstance(tasks, (str, bytes)):
        raise TypeError("tasks is an iterable of prompts or Tasks; put a single prompt in a list")
    if isinstance(tasks, Sequence):
        for item in tasks:
            as_task(item)  # bad input fails here, before anything starts
    if options is not None and not isinstance(options, ClaudeAgentOptions):
        raise TypeError(f"options must be ClaudeAgentOptions, got {type(options).__name__}")
    if concurrency is not None and (
        not isinstance(concurrency, int) or isinstance(concurrency, bool) or concurrency < 1
    ):
        raise ValueError(f"concurrency must be a positive number of tasks per node, got {concurrency!r}")
    if budget_usd is not None and not (isinstance(budget_usd, (int, float)) and budget_usd > 0):
        raise ValueError(f"budget_usd must be a positive amount, got {budget_usd!r}")
    _whole_count(api_retries, "api_retries", "retries")
    if not (isinstance(api_backoff_s, (int, float)) and not isinstance(api_backoff_s, bool) and api_backoff_s >= 0):
        raise ValueError(f"api_backoff_s must be a number of seconds (0 or more), got {api_backoff_s!r}")
    if rate_limit is not None and not isinstance(rate_limit, RateLimit):
        raise TypeError(f"rate_limit must be a RateLimit, got {type(rate_limit).__name__}")
    shown = make_progress(progress)
    opts = options if options is not None else ClaudeAgentOptions()
    track_cost = budget_usd is not None
    journal = _journal(batch_id, lease_s, opts)
    if backend == "local":
        unknown = sorted(set(backend_options) - _LOCAL_OPTIONS)
        if unknown:
            raise TypeError(f"run_many(backend='local') got unexpected options: {', '.join(unknown)}")
        from claude_wrap._fleet.local import LocalBackend

        per_node = concurrency or os.cpu_count() or 1
        warm = _warm(backend_options.get("warm"), per_node)
        runner: Any = LocalBackend(
            opts,
            concurrency=per_node,
            warm=warm,
            track_cost=track_cost,
            durable=journal is not None,
            rate_limit=rate_limit,
        )
    elif backend == "ray":
        from claude_wrap._fleet.ray import RayBackend

        runner = RayBackend(
            opts, concurrency=concurrency, track_cost=track_cost, rate_limit=rate_limit, **backend_options
        )
    else:
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    driver = Driver(
        tasks,
        runner,
        budget_usd=budget_usd,
        progress=shown,
        journal=journal,
        api_retries=api_retries,
        api_backoff_s=float(api_backoff_s),
    )
    return Batch(driver)


def _journal(batch_id: str | None, lease_s: float, options: ClaudeAgentOptions) -> Any:
    if not (isinstance(lease_s, (int, float)) and not isinstance(lease_s, bool) and lease_s > 0):
        raise ValueError(f"lease_s must be a positive number of seconds, got {lease_s!r}")
    if batch_id is None:
        return None
    if not isinstance(batch_id, str) or not batch_id:
        raise ValueError(f"batch_id must be a non-empty string, got {batch_id!r}")
    if options.session_store is None:
        raise ValueError("batch_id keeps the batch's journal in the session store: set options.session_store")
    from claude_wrap._fleet.batch_journal import BatchJournal

    return BatchJournal(options.session_store, batch_id, float(lease_s))


def _warm(value: Any, concurrency: int) -> int:
    return concurrency if value is None else _whole_count(value, "warm", "pool members")


publish(sys.modules[__name__], __all__, __name__)
