"""``ClaudeMapper``: an agent run per row of a data pipeline.

Made for ``ray.data`` (``Dataset.map_batches`` with a callable class, one
instance per replica), and usable on any batch of rows: each row's prompt
becomes one run on a warm :class:`~claude_wrap.ClaudePool` the instance
keeps for its lifetime, ``concurrency`` rows at a time, and its outcome
becomes columns of the batch.

``map_batches`` calls a class synchronously, from a replica that may have
no event loop of its own; the instance runs its pool on an event loop in a
thread of its own (an anyio blocking portal) from the first batch until
``close()``, or until it is garbage-collected, or its process ends (the
binaries' guards stop them then).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, ExitStack
from typing import Any

import anyio
import anyio.from_thread

from claude_wrap._exceptions import ClaudeSDKError
from claude_wrap._fleet.types import whole_count
from claude_wrap._fleet.worker import node_binary
from claude_wrap._launch.options import ClaudeAgentOptions, copy_with
from claude_wrap._pool import ClaudePool
from claude_wrap._wire.messages import ResultMessage

__all__ = ["ClaudeMapper"]


_SUFFIXES = (("ok", bool), ("error", object), ("session_id", object), ("cost_usd", float))


@dataclasses.dataclass
class _Row:
    result: str | None = None
    ok: bool = False
    error: str | None = None
    session_id: str | None = None
    cost_usd: float = 0.0


class ClaudeMapper:
    """A callable class for ``ray.data.Dataset.map_batches``: an agent run
    per row, on a warm pool per replica::

        ds = ray.data.from_items([{"prompt": "Summarize a.py"}, ...])
        out = ds.map_batches(
            ClaudeMapper,
            fn_constructor_kwargs={"options": options, "concurrency": 4},
            concurrency=2,  # replicas
            batch_size=8,
        )

    Each row's prompt is its ``prompt_column``, or ``template`` filled in
    with the row (``"Summarize {path}"``). The batch comes back with the
    columns ``result_column`` (the run's final text, ``None`` if it has
    none) and, after it, ``_ok`` (the run ended without an error),
    ``_error`` (what went wrong, or ``None``), ``_session_id`` and
    ``_cost_usd``; rows keep their order. A row whose run fails gets its
    error in these columns: the batch, and the pipeline, go on.

    Ray pickles ``fn_constructor_kwargs`` to send them to the replicas: the
    options' ``debug_stderr`` must be ``sys.stderr`` (their default) or
    ``None``, as a stream of one process does not travel to another.

    ``concurrency``: runs at once in this replica, and the pool's size
    (``warm``, default the same). Batches may be a dict of columns (Ray's
    ``"numpy"`` and ``"default"`` formats) or a pandas ``DataFrame``.
    """

    def __init__(
        self,
        options: ClaudeAgentOptions | None = None,
        *,
        prompt_column: str = "prompt",
        template: str | None = None,
        result_column: str = "result",
        concurrency: int = 4,
        warm: int | None = None,
    ) -> None:
        if options is not None and not isinstance(options, ClaudeAgentOptions):
            raise TypeError(f"options must be ClaudeAgentOptions, got {type(options).__name__}")
        whole_count(concurrency, "concurrency", "runs")
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        self._warm = concurrency if warm is None else whole_count(warm, "warm", "pool members")
        self._options = options if options is not None else ClaudeAgentOptions()
        self._prompt_column = prompt_column
        self._template = template
        self._result_column = result_column
        self._concurrency = concurrency
        self._lock = threading.Lock()
        self._stack: ExitStack | None = None
        self._portal: anyio.from_thread.BlockingPortal | None = None
        self._pool: ClaudePool | None = None

    # -- rows ---------------------------------------------------------------------------

    def __call__(self, batch: Any) -> Any:
        """Run the batch's rows; the batch with the outcome columns added."""
        rows = _rows(batch)
        prompts = [self._prompt_of(row) for row in rows]
        portal, pool = self._started()
        outcomes = portal.call(self._run_all, pool, prompts)
        return _with_columns(batch, self._result_column, outcomes)

    def _prompt_of(self, row: Mapping[str, Any]) -> str:
        if self._template is not None:
            return self._template.format_map({k: _plain(v) for k, v in row.items()})
        if self._prompt_column not in row:
            raise KeyError(f"the batch has no {self._prompt_column!r} column (columns: {', '.join(row)})")
        return str(_plain(row[self._prompt_column]))

    async def _run_all(self, pool: ClaudePool, prompts: Sequence[str]) -> list[_Row]:
        outcomes = [_Row() for _ in prompts]
        limiter = anyio.CapacityLimiter(self._concurrency)

        async def run(i: int) -> None:
            async with limiter:
                outcomes[i] = await _run_one(pool, prompts[i])

        async with anyio.create_task_group() as tg:
            for i in range(len(prompts)):
                tg.start_soon(run, i)
        return outcomes

    # -- the pool's life ----------------------------------------------------------------------

    def _started(self) -> tuple[anyio.from_thread.BlockingPortal, ClaudePool]:
        with self._lock:
            if self._portal is None or self._pool is None:
                stack = ExitStack()
                try:
                    portal = stack.enter_context(anyio.from_thread.start_blocking_portal())
                    options = self._options
                    if options.cli_path is None and options.prefer_path is None:
                        binary, _ = node_binary(options)
                        options = copy_with(options, cli_path=binary)
                    pool = ClaudePool(options, size=self._warm)
                    managed: AbstractContextManager[ClaudePool] = portal.wrap_async_context_manager(pool)
                    stack.enter_context(managed)
                except BaseException:
                    stack.close()
                    raise
                self._stack, self._portal, self._pool = stack, portal, pool
            return self._portal, self._pool

    def close(self) -> None:
        """Stop the pool's binaries and the event loop's thread (a later
        batch starts them again)."""
        with self._lock:
            stack, self._stack, self._portal, self._pool = self._stack, None, None, None
        if stack is not None:
            stack.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - at interpreter exit, the guards stop the binaries
            pass


async def _run_one(pool: ClaudePool, prompt: str) -> _Row:
    row = _Row()
    try:
        async for message in pool.query(prompt=prompt):
            if isinstance(message, ResultMessage):
                row.result = message.result
                row.ok = not message.is_error
                row.session_id = message.session_id
                row.cost_usd = message.total_cost_usd or 0.0
                if message.is_error:
                    row.error = message.result or message.subtype
    except ClaudeSDKError as exc:
        row.ok = False
        row.error = f"{type(exc).__name__}: {exc}"
    return row


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds."""
    item = getattr(value, "item", None)
    return item() if callable(item) and getattr(value, "shape", None) == () else value


def _rows(batch: Any) -> list[dict[str, Any]]:
    if isinstance(batch, Mapping):
        columns = {name: list(values) for name, values in batch.items()}
        count = len(next(iter(columns.values()), []))
        return [{name: values[i] for name, values in columns.items()} for i in range(count)]
    to_dict = getattr(batch, "to_dict", None)
    if callable(to_dict) and hasattr(batch, "columns"):  # a pandas DataFrame
        return list(to_dict(orient="records"))
    raise TypeError(
        f"ClaudeMapper takes a dict of columns or a pandas DataFrame, got {type(batch).__name__} "
        "(map_batches(..., batch_format='numpy' or 'pandas'))"
    )


def _with_columns(batch: Any, name: str, outcomes: list[_Row]) -> Any:
    # (column, values, numpy dtype): text and None side by side are objects
    columns: list[tuple[str, list[Any], Any]] = [(name, [o.result for o in outcomes], object)]
    for suffix, kind in _SUFFIXES:
        columns.append((f"{name}_{suffix}", [getattr(o, suffix) for o in outcomes], kind))
    if not isinstance(batch, Mapping):  # a pandas DataFrame
        frame = batch.copy()
        for column, items, _ in columns:
            frame[column] = items
        return frame
    import numpy as np  # Ray Data's batches are numpy already

    out = dict(batch)
    for column, items, kind in columns:
        array = np.empty(len(items), dtype=kind)
        array[:] = items
        out[column] = array
    return out
