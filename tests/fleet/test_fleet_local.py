"""``claude_wrap.fleet.run_many`` on the local backend, under asyncio and trio:
the real binary, the scripted model, a warm pool in this process.

The anyio timeouts are hang guards, not speed checks.
"""

from __future__ import annotations

import gc
import json
import logging
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options
from _fleet import CONTINUE, of_task, prompt, requests_of, script_tasks
from _procs import processes_where

from claude_wrap import ClaudeSDKClient, HookMatcher, ResultMessage
from claude_wrap.fleet import BudgetExceededError, FleetStats, Outcome, RateLimit, Task, run_many
from claude_wrap.testing import Reply, ScriptedModel, Usage

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

LIMIT = 120  # hang guard for a whole batch


async def _all(batch: Any) -> list[Outcome]:
    with anyio.fail_after(LIMIT):
        async with batch:
            return [o async for o in batch]


async def test_every_task_gets_one_outcome_in_the_order_they_finish(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, tmp_path: Path
) -> None:
    script_tasks(scripted_model, range(5), lambda n: f"echo {n} >> ran.log")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    tasks: list[Any] = [prompt(0), prompt(1), Task(prompt(2), name="third"), prompt(3)]
    tasks.append(Task(prompt(4), options=make_options(cwd=elsewhere, allowed_tools=["Bash"])))
    outcomes = await _all(run_many(tasks, options=make_options(allowed_tools=["Bash"]), concurrency=2))

    assert sorted(o.index for o in outcomes) == [0, 1, 2, 3, 4]
    for o in outcomes:
        assert o.ok and o.error is None, o
        assert o.output == f"done {o.index}" and isinstance(o.result, ResultMessage)
        assert (o.attempts, o.node, o.num_turns) == (1, "local", 2)
        assert o.total_cost_usd == o.result.total_cost_usd > 0 and o.duration_ms > 0
        assert o.session_id == o.result.session_id
    assert len({o.session_id for o in outcomes}) == 5
    assert outcomes[[o.index for o in outcomes].index(2)].task.label == "third"
    # The task with its own options ran in its own cwd.
    assert sorted((workdir / "ran.log").read_text().split()) == ["0", "1", "2", "3"]
    assert (elsewhere / "ran.log").read_text().split() == ["4"]
    assert scripted_model.unexpected == []
    assert processes_where(cwd=workdir) == [] and processes_where(cwd=elsewhere) == []


async def test_concurrency_bounds_the_tasks_running_at_once(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    script_tasks(scripted_model, range(6), lambda n: f"sleep 0.3 && echo {n} >> ran.log")
    seen: list[FleetStats] = []
    outcomes = await _all(
        run_many(
            [prompt(n) for n in range(6)],
            options=make_options(allowed_tools=["Bash"]),
            concurrency=2,
            progress=seen.append,
        )  # fmt: skip
    )
    assert all(o.ok for o in outcomes) and len(outcomes) == 6
    assert max(s.running for s in seen) == 2
    assert seen[-1].finished == 6 and seen[-1].failed == 0 and seen[-1].total == 6
    assert seen[-1].cost_usd == pytest.approx(sum(o.total_cost_usd for o in outcomes))


async def test_a_function_task_drives_a_client_over_several_turns(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("noted: MANGO"), Reply.text("it was MANGO"))

    async def two_turns(client: ClaudeSDKClient) -> str:
        assert isinstance(client, ClaudeSDKClient)
        await client.query("remember the word MANGO")
        async for _ in client.receive_response():
            pass
        await client.query("what was the word?")
        answer = ""
        async for message in client.receive_response():
            if isinstance(message, ResultMessage):
                answer = message.result or ""
        return answer.upper()

    (outcome,) = await _all(run_many([Task(run=two_turns)], options=make_options()))
    assert outcome.ok and outcome.value == "IT WAS MANGO"
    assert outcome.output == "it was MANGO" and outcome.num_turns == 2 and outcome.task.label == "two_turns"
    assert "remember the word MANGO" in json.dumps(scripted_model.main_requests[-1].messages)


async def test_a_prompt_task_ends_after_its_background_agent_as_a_query_would(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    """The binary starts agents in the background: the parent's turn ends
    while its agent works, and the agent's end wakes it for another turn.
    The task ends with that turn, its agent's tool having run."""
    sub = "SUBTASK: note the files"

    def is_sub(r: Any) -> bool:
        return r.is_main and sub in json.dumps(r.messages[:1])

    def last_user(r: Any) -> str:
        return json.dumps(r.messages[-1]["content"])

    scripted_model.add(
        Reply.tool_use(
            "Agent", {"description": "note files", "prompt": sub, "subagent_type": "general-purpose"}
        ).match_if(lambda r: not is_sub(r) and "tool_result" not in last_user(r)),
        # The agent's tool waits until the parent's first turn is over (its Stop hook).
        Reply.tool_use(
            "Bash",
            {"command": "until [ -f parent-stopped ]; do sleep 0.02; done; echo sub >> ran.log", "description": "note"},
        ).match_if(lambda r: is_sub(r) and "tool_result" not in last_user(r)),
        Reply.text("noted").match_if(is_sub),
        Reply.text("the agent is at work").match_if(lambda r: not is_sub(r) and "Async agent" in last_user(r)),
        Reply.text("the agent noted them").match_if(lambda r: not is_sub(r) and "task-notification" in last_user(r)),
    )

    async def parent_stopped(hook_input: Any, tool_use_id: Any, context: Any) -> dict[str, Any]:
        (workdir / "parent-stopped").touch()
        return {}

    options = make_options(allowed_tools=["Bash", "Agent"], hooks={"Stop": [HookMatcher(hooks=[parent_stopped])]})
    (outcome,) = await _all(run_many(["note the files with an agent"], options=options))
    assert outcome.ok and outcome.output == "the agent noted them", outcome
    assert (workdir / "ran.log").read_text() == "sub\n"
    assert scripted_model.unexpected == []


async def test_a_budget_stop_ends_a_task_whose_background_agent_is_at_work(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stop's interrupt ends the agent and the binary takes no further
    turn: the task ends as stopped then, not once the grace for an answer
    to come has passed (made longer than the hang guard here)."""
    from claude_wrap._fleet import runner

    monkeypatch.setattr(runner, "_ANSWERED_GRACE", 10 * LIMIT)
    sub = "SUBTASK: wait"
    dear = Usage(input_tokens=25_000, output_tokens=0)  # $0.10 a reply

    def is_sub(r: Any) -> bool:
        return r.is_main and sub in json.dumps(r.messages[:1])

    scripted_model.add(
        Reply.tool_use(
            "Agent", {"description": "wait", "prompt": sub, "subagent_type": "general-purpose"}, usage=dear
        ).match_if(lambda r: not is_sub(r) and "tool_result" not in json.dumps(r.messages[-1]["content"])),
        Reply.tool_use(
            "Bash", {"command": "until [ -f never ]; do sleep 0.02; done; echo sub >> ran.log", "description": "w"}
        ).match_if(is_sub),
        Reply.text("the agent is at work", usage=dear).sticky().match_if(lambda r: not is_sub(r)),
    )
    options = make_options(allowed_tools=["Bash", "Agent"])
    (outcome,) = await _all(run_many(["wait with an agent"], options=options, budget_usd=0.15))
    assert isinstance(outcome.error, BudgetExceededError), outcome
    assert not (workdir / "ran.log").exists()
    assert processes_where(cwd=workdir) == []


async def test_the_budget_stops_the_batch_and_a_stopped_task_resumes_later(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    # Each model reply costs $0.10, so a task costs $0.20: task 1's first
    # reply crosses the budget, and the task stops before its tool call ends.
    # That reply streams slowly, so the binary writes the call (and starts
    # it) before it has counted what the reply cost. The marker is this
    # test's own: other tests on other workers run `sleep 30` too.
    marker = f"fleet-budget-{id(workdir)}"

    def command(n: int) -> str:
        return f"echo {n} >> ran.log" if n != 1 else f"echo {marker} && sleep 30 && echo 1 >> ran.log"

    usage = {"input_tokens": 25_000, "output_tokens": 0}
    script_tasks(scripted_model, range(4), command, usage=usage, slow_calls=[1])
    options = make_options(allowed_tools=["Bash"])
    outcomes = await _all(run_many([prompt(n) for n in range(4)], options=options, concurrency=1, budget_usd=0.25))

    by_index = {o.index: o for o in outcomes}
    assert sorted(by_index) == [0, 1, 2, 3]
    assert by_index[0].ok and by_index[0].total_cost_usd == pytest.approx(0.2, abs=0.01)
    stopped = by_index[1]
    assert isinstance(stopped.error, BudgetExceededError) and stopped.result is None
    assert stopped.attempts == 1 and stopped.session_id is not None
    assert stopped.total_cost_usd == pytest.approx(0.1, abs=0.01)
    for n in (2, 3):
        assert isinstance(by_index[n].error, BudgetExceededError)
        assert (by_index[n].attempts, by_index[n].session_id, by_index[n].total_cost_usd) == (0, None, 0)
    assert (workdir / "ran.log").read_text().split() == ["0"]
    assert processes_where(cwd=workdir) == [] and processes_where(cmdline_contains=marker) == []

    # Later, in another batch: the stopped task goes on in its session.
    (resumed,) = await _all(run_many([Task(prompt(1), resume=stopped.session_id)], options=options))
    assert resumed.ok and resumed.output == "done 1 after a resume"
    assert resumed.session_id == stopped.session_id
    request = requests_of(scripted_model, 1)[-1]
    seen = request.messages
    assert CONTINUE in request.last_user_text and json.dumps(seen).count(prompt(1)) == 1
    calls = [b for m in seen if m["role"] == "assistant" for b in m["content"] if b.get("type") == "tool_use"]
    assert [c["input"]["command"] for c in calls] == [command(1)]  # the stopped call is shown, not run
    assert (workdir / "ran.log").read_text().split() == ["0"]
    assert scripted_model.unexpected == []


async def test_a_task_whose_answer_came_as_the_budget_ran_out_is_done(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    # $0.10 a reply: task 0's answer, its second reply, spends the budget.
    # The answer is in: the task is done, not stopped (a resume would ask
    # the model again for work it finished).
    usage = {"input_tokens": 25_000, "output_tokens": 0}
    script_tasks(scripted_model, range(3), lambda n: f"echo {n} >> ran.log", usage=usage)
    options = make_options(allowed_tools=["Bash"])
    outcomes = await _all(run_many([prompt(n) for n in range(3)], options=options, concurrency=1, budget_usd=0.15))

    by_index = {o.index: o for o in outcomes}
    assert by_index[0].ok and by_index[0].output == "done 0", by_index[0]
    assert by_index[0].total_cost_usd == pytest.approx(0.2, abs=0.01)
    for n in (1, 2):
        assert isinstance(by_index[n].error, BudgetExceededError) and by_index[n].attempts == 0
    assert (workdir / "ran.log").read_text().split() == ["0"]
    assert scripted_model.unexpected == []


async def test_a_task_that_ends_on_an_overloaded_api_goes_on_in_its_session_after_a_backoff(
    scripted_model: ScriptedModel, make_options: Options, tmp_path: Path
) -> None:
    # The binary gives up at once here (no retries of its own); the batch
    # tries the turn again. A refused request is not tried again.
    first = prompt(0)
    scripted_model.add(
        Reply.error(529).match_if(lambda r: r.is_main and r.last_user_text == first),
        Reply.text("done after the overload").match_if(lambda r: r.is_main and CONTINUE in r.last_user_text),
        # (sticky: the binary itself tries some refusals once more)
        Reply.error(403).sticky().match_if(lambda r: r.is_main and r.last_user_text == prompt(1)),
    )
    env = {**scripted_model.env(tmp_path / "home"), "CLAUDE_CODE_MAX_RETRIES": "0"}
    seen: list[FleetStats] = []
    batch = run_many([first, prompt(1)], options=make_options(env=env), api_backoff_s=0.01, progress=seen.append)
    outcomes = await _all(batch)
    assert (seen[-1].retried, seen[-1].nodes, seen[-1].finished) == (1, 1, 2)

    by_index = {o.index: o for o in outcomes}
    again = by_index[0]
    assert again.ok and again.output == "done after the overload" and again.attempts == 2
    asked = requests_of(scripted_model, 0)
    # Its session went on (the binary ran the failed turn on), the prompt asked once.
    assert len(asked) == 2 and json.dumps(asked[-1].messages).count(first) == 1
    assert CONTINUE in asked[-1].last_user_text
    refused = by_index[1]
    assert not refused.ok and refused.error is None and refused.attempts == 1
    assert refused.result is not None and refused.result.api_error_status == 403
    assert scripted_model.unexpected == []


async def test_the_node_logs_what_each_task_did(
    scripted_model: ScriptedModel, make_options: Options, caplog: pytest.LogCaptureFixture
) -> None:
    script_tasks(scripted_model, range(2), lambda n: f"echo {n}")
    scripted_model.add(Reply.error(400, "refused").sticky().match_if(of_task(2)))
    caplog.set_level(logging.INFO, logger="claude_wrap.fleet")
    outcomes = await _all(run_many([prompt(n) for n in range(3)], options=make_options(allowed_tools=["Bash"])))
    lines = [r.getMessage() for r in caplog.records if r.name == "claude_wrap.fleet"]
    for o in outcomes:
        mine = [line for line in lines if f"task {o.index} (" in line]
        assert len(mine) == 2 and mine[0].startswith("node local: ") and mine[0].endswith("attempt 1 started"), lines
        assert f"session {o.session_id}" in mine[1] and f"{o.num_turns} turn" in mine[1], mine
        assert ("done after" in mine[1]) == o.ok, mine
    (refused,) = [line for line in lines if "task 2 (" in line and "ended with" in line]
    assert "ended with an error 400: " in refused and "refused" in refused, refused


async def test_a_rate_limit_paces_the_batch_s_requests(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    """One request a second, one at once: whatever the machine's speed, the
    k-th model request comes no sooner than (k - 1 - 2n) seconds after the
    batch began (n tasks at a time, each with at most its last reply not
    yet counted and its next request let go)."""
    script_tasks(scripted_model, range(6), lambda n: f"echo {n} >> ran.log")
    began = time.time()
    limit = RateLimit(requests_per_minute=60, burst_s=1)
    batch = run_many(
        [prompt(n) for n in range(6)], options=make_options(allowed_tools=["Bash"]), concurrency=2, rate_limit=limit
    )
    outcomes = await _all(batch)
    assert all(o.ok for o in outcomes), outcomes
    arrivals = sorted(r.timestamp for r in scripted_model.main_requests)
    assert len(arrivals) == 12
    for k, at in enumerate(arrivals, start=1):
        assert at - began >= (k - 1 - 2 * 2) - 0.05, (k, [round(a - began, 2) for a in arrivals])
    assert sorted((workdir / "ran.log").read_text().split()) == [str(n) for n in range(6)]


async def test_an_application_that_exports_metrics_gets_the_batch_s_counters(
    scripted_model: ScriptedModel, make_options: Options, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader

    import claude_wrap._fleet.metrics as fleet_metrics

    reader = InMemoryMetricReader()
    monkeypatch.setattr(fleet_metrics, "_provider", MeterProvider(metric_readers=[reader]))
    scripted_model.add(
        Reply.error(529).match_if(lambda r: r.is_main and r.last_user_text == prompt(0)),
        Reply.text("done").sticky().with_usage(input_tokens=1_000, output_tokens=20),
    )
    env = {**scripted_model.env(tmp_path / "home"), "CLAUDE_CODE_MAX_RETRIES": "0"}
    outcomes = await _all(run_many([prompt(0), prompt(1)], options=make_options(env=env), api_backoff_s=0.01))
    assert all(o.ok for o in outcomes)

    data = reader.get_metrics_data()
    points = {
        (m.name, tuple(sorted(p.attributes.items()))): p.value
        for rm in data.resource_metrics
        for sm in rm.scope_metrics
        for m in sm.metrics
        for p in m.data.data_points
    }
    assert points[("claude_wrap.fleet.tasks.started", (("attempt", 1),))] == 2
    assert points[("claude_wrap.fleet.tasks.started", (("attempt", 2),))] == 1
    assert points[("claude_wrap.fleet.tasks.retried", (("reason", "api_error"),))] == 1
    assert points[("claude_wrap.fleet.tasks.finished", (("outcome", "ok"),))] == 2
    assert points[("claude_wrap.fleet.tokens", (("type", "input"),))] == 2_000
    assert points[("claude_wrap.fleet.cost", ())] == pytest.approx(sum(o.total_cost_usd for o in outcomes))


# -- stopping ---------------------------------------------------------------------------


def _slow_batch(scripted_model: ScriptedModel, make_options: Options, marker: str) -> Any:
    # (The binary refuses a command that starts with a long sleep.)
    script_tasks(scripted_model, range(4), lambda n: f"echo {marker} && sleep 30")
    return run_many([prompt(n) for n in range(4)], options=make_options(allowed_tools=["Bash"]), concurrency=2)


async def _nothing_left(workdir: Path, marker: str) -> None:
    # Polled with the event loop running: a dropped batch stops in the background.
    with anyio.fail_after(15):
        while processes_where(cwd=workdir) or processes_where(cmdline_contains=marker):
            await anyio.sleep(0.05)


@pytest.mark.parametrize("how", ["cancel", "async-with", "aclose", "dropped"])
async def test_leaving_a_batch_stops_every_binary_and_tool(
    how: str, scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    marker = f"fleet-stop-{how}-{id(workdir)}"
    batch = _slow_batch(scripted_model, make_options, marker)

    def tools_running() -> bool:
        return len(processes_where(cmdline_contains=marker)) >= 2

    with anyio.fail_after(LIMIT):
        if how == "cancel":
            with anyio.CancelScope() as scope:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(lambda: _all(batch))
                    while not tools_running():
                        await anyio.sleep(0.05)
                    scope.cancel()
        elif how == "async-with":
            async with batch:
                while not tools_running():
                    await anyio.sleep(0.05)
        elif how == "aclose":
            await batch.__aenter__()
            while not tools_running():
                await anyio.sleep(0.05)
            await batch.aclose()
            assert [o async for o in batch] == []
        else:
            await batch.__aenter__()
            while not tools_running():
                await anyio.sleep(0.05)
            del batch  # like `async for ...: break` without `async with`
            gc.collect()
    await _nothing_left(workdir, marker)


# -- bad input ---------------------------------------------------------------------------


def test_the_progress_line_names_the_nodes_and_the_retries_when_there_are_any() -> None:
    from claude_wrap._fleet.progress import render

    one = FleetStats(total=4, finished=1, failed=0, running=2, cost_usd=0.5, elapsed_s=3)
    assert render(one) == "fleet: 1/4 done · 2 running · 0 failed · $0.5000 · 3 s"
    many = FleetStats(total=None, finished=1, failed=0, running=2, cost_usd=0, elapsed_s=3, nodes=3, retried=2)
    assert render(many).endswith("· 3 s · 3 nodes · 2 retried")


async def test_a_batch_whose_binary_is_missing_raises_what_a_query_would(tmp_path: Path) -> None:
    from claude_wrap import ClaudeAgentOptions, CLINotFoundError

    # The error itself, not the task groups' wrapping of it.
    with pytest.raises(CLINotFoundError, match="not found"):
        await _all(run_many(["a"], options=ClaudeAgentOptions(cli_path=str(tmp_path / "no-claude"))))


def test_credentials_in_the_options_of_a_ray_batch_are_warned_about() -> None:
    from claude_wrap import ClaudeAgentOptions

    env = {"ANTHROPIC_API_KEY": "sk-secret", "GH_TOKEN": "t", "ANTHROPIC_BASE_URL": "http://model"}
    with pytest.warns(UserWarning, match=r"options.env holds ANTHROPIC_API_KEY, GH_TOKEN: .*runtime_env") as seen:
        run_many(["a"], options=ClaudeAgentOptions(env=env), backend="ray")
    assert seen[0].filename == __file__  # the warning names the caller's line
    assert "sk-secret" not in str(seen[0].message)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: run_many("one prompt"), TypeError, "put a single prompt in a list"),
        (lambda: run_many(["ok", 3]), TypeError, "a task is a prompt"),
        (lambda: run_many(["ok"], concurrency=0), ValueError, "concurrency"),
        (lambda: run_many(["ok"], budget_usd=-1), ValueError, "budget_usd"),
        (lambda: run_many(["ok"], progress="yes"), TypeError, "progress"),
        (lambda: run_many(["ok"], warm=-1), ValueError, "warm"),
        (lambda: run_many(["ok"], adress="x"), TypeError, "unexpected options: adress"),
        (lambda: run_many(["ok"], backend="k8s"), ValueError, "backend"),
        (lambda: run_many(["ok"], backend="ray", retries=-1), ValueError, "retries"),
        (lambda: run_many(["ok"], backend="ray", slot={"CPU": 0}), ValueError, "slot must map"),
        (lambda: run_many(["ok"], backend="ray", slot={}), ValueError, "slot must map"),
        (lambda: Task(), ValueError, "exactly one"),
        (lambda: Task("p", run=_allow), ValueError, "exactly one"),
        (lambda: Task(run=_allow, resume="s"), ValueError, "resume"),
    ],
)
def test_bad_input_is_refused_before_anything_starts(call: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        call()


async def _allow(client: Any) -> None:
    return None


async def test_an_item_that_is_no_task_ends_the_batch_after_the_tasks_before_it(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("fine").sticky())
    outcomes: list[Outcome] = []
    with pytest.raises(TypeError, match="a task is a prompt"):
        async for outcome in run_many(iter(["a", "b", 3, "d"]), options=make_options(), concurrency=1):
            outcomes.append(outcome)
    assert sorted(o.index for o in outcomes) == [0, 1] and all(o.ok for o in outcomes)
