"""``claude_wrap.fleet.ClaudeMapper`` called as a data pipeline calls it:
synchronously, a batch of rows at a time, with the real binary and the
scripted model. On a Ray cluster through ``ray.data``: test_fleet_ray.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from _e2e import Options
from _fleet import of_task, prompt
from _procs import processes_where

from claude_wrap.fleet import ClaudeMapper
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.e2e]


def _script(model: ScriptedModel, rows: range, *, failing: int | None = None, slow: int | None = None) -> None:
    for n in rows:
        if n == failing:
            model.add(Reply.error(400, f"row {n} is refused").sticky().match_if(of_task(n)))
            continue
        reply = Reply.text(f"answer {n}")
        if n == slow:
            reply = reply.slow(first_byte=1.0)  # finishes after the rows behind it
        model.add(reply.match_if(of_task(n)))


def test_each_row_of_a_batch_gets_a_run_of_its_own_in_order(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    _script(scripted_model, range(5), failing=3, slow=0)
    mapper = ClaudeMapper(make_options(), concurrency=3)
    try:
        batch = {"prompt": np.array([prompt(n) for n in range(5)]), "id": np.arange(5)}
        out = mapper(batch)
    finally:
        mapper.close()
    assert list(out["id"]) == [0, 1, 2, 3, 4] and list(out["prompt"]) == list(batch["prompt"])
    assert [out["result"][n] for n in (0, 1, 2, 4)] == ["answer 0", "answer 1", "answer 2", "answer 4"]
    assert out["result_ok"].dtype == bool and list(out["result_ok"]) == [True, True, True, False, True]
    assert out["result_error"][3] and "row 3 is refused" in out["result_error"][3]
    assert [out["result_error"][n] for n in (0, 1, 2, 4)] == [None] * 4
    assert len(set(out["result_session_id"])) == 5
    assert out["result_cost_usd"].dtype == float and all(out["result_cost_usd"][n] > 0 for n in (0, 1, 2, 4))
    assert processes_where(cwd=workdir) == []
    assert scripted_model.unexpected == []


def test_a_replica_keeps_its_pool_warm_between_batches_until_closed(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    import pandas as pd

    _script(scripted_model, range(4))
    mapper = ClaudeMapper(make_options(), template="task {n}: do the job", result_column="answer", concurrency=2)
    try:
        first = mapper(pd.DataFrame({"n": [0, 1]}))
        assert processes_where(cwd=workdir) != []  # ready for the next batch
        second = mapper(pd.DataFrame({"n": [2, 3]}))
    finally:
        mapper.close()
    assert list(first["answer"]) == ["answer 0", "answer 1"] and list(second["answer"]) == ["answer 2", "answer 3"]
    assert list(second["answer_ok"]) == [True, True] and list(second["n"]) == [2, 3]
    assert processes_where(cwd=workdir) == []
    assert scripted_model.unexpected == []


def test_a_batch_without_its_prompt_column_is_refused_before_anything_runs(make_options: Options) -> None:
    mapper = ClaudeMapper(make_options())
    with pytest.raises(KeyError, match="no 'prompt' column"):
        mapper({"text": np.array(["hello"])})
    with pytest.raises(TypeError, match="dict of columns or a pandas DataFrame"):
        mapper([{"prompt": "hello"}])
    with pytest.raises(ValueError, match="concurrency"):
        ClaudeMapper(concurrency=0)
