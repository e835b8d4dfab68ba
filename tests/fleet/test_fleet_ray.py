"""``run_many(backend="ray")`` on a real Ray cluster of three nodes on this
machine (a head and two workers, each its own raylet), with the real
binary, the scripted model (the nodes' binaries reach it on loopback) and a
real Redis session store.

A lost node is a machine that dies: its raylet and every process of it
(the worker actor, its binaries, their tools) are killed at once.

The anyio timeouts are hang guards, not speed checks.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from _e2e import Options
from _fleet import CONTINUE, answered, is_resumed, of_task, prompt, requests_of, script_tasks
from _fleet_driver import kill_driver_mid_batch
from _procs import cmdline, descendants, processes_where
from _ray import IMPORT_PATHS, ray_cluster
from _servers import RedisServer

from claude_wrap import ClaudeSDKClient, RedisSessionStore, ResultMessage
from claude_wrap._sessions.transcripts import project_key_for_directory
from claude_wrap.fleet import (
    BatchBusyError,
    BudgetExceededError,
    ClaudeMapper,
    FleetError,
    Outcome,
    RateLimit,
    Task,
    run_many,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.e2e,
    pytest.mark.ray,
    pytest.mark.stores,
    # The scripted model's key is in the options' env (see test_fleet_local for the warning).
    pytest.mark.filterwarnings("ignore:options.env holds"),
]

LIMIT = 180  # hang guard for a whole batch


@pytest.fixture
def anyio_backend() -> str:
    # The Ray backend reads its events in worker threads, the same under
    # both; one test runs under trio as well.
    return "asyncio"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with ray_cluster(workers=2) as started:
        processes = [
            p.process.pid for node in started.list_all_nodes() for ps in node.all_processes.values() for p in ps
        ]
        yield started
    assert [p for p in processes if _alive(p)] == []


@pytest.fixture
def store(redis_server: RedisServer) -> Iterator[RedisSessionStore]:
    made = RedisSessionStore(redis_server.url, prefix=f"fleet:{uuid.uuid4().hex}:")
    yield made
    made._get().close()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def _collect(batch: Any, outcomes: list[Outcome]) -> None:
    with anyio.fail_after(LIMIT):
        async with batch:
            async for outcome in batch:
                outcomes.append(outcome)


async def _until(predicate: Any, what: str, limit: float = LIMIT) -> None:
    """Poll ``predicate``; fail after ``limit`` seconds. Waits for work to
    start are hang guards (a loaded machine starts Ray's workers and the
    binaries slowly); waits for things to stop pass their own, tighter bound."""
    with anyio.fail_after(limit, shield=False) as scope:
        while not predicate():
            await anyio.sleep(0.05)
    assert not scope.cancelled_caught, what


async def shout(client: ClaudeSDKClient) -> str:
    """A task function: it travels to the node by reference (this module is
    importable there)."""
    await client.query(prompt(40))
    text = ""
    async for message in client.receive_response():
        if isinstance(message, ResultMessage):
            text = message.result or ""
    return text.upper()


async def test_forty_tasks_spread_over_three_nodes_each_reported_once(
    cluster: Any, scripted_model: ScriptedModel, make_options: Options, workdir: Path, store: RedisSessionStore,
    tmp_path: Path,
) -> None:  # fmt: skip
    script_tasks(scripted_model, range(42), lambda n: f"echo {n} >> ran.log")
    options = make_options(allowed_tools=["Bash"], session_store=store)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    tasks: list[Any] = [prompt(n) for n in range(40)]
    tasks += [Task(run=shout), Task(prompt(41), options=make_options(allowed_tools=["Bash"], cwd=elsewhere))]
    outcomes: list[Outcome] = []
    batch = run_many(tasks, options=options, backend="ray", concurrency=2, warm=1)
    await _collect(batch, outcomes)

    assert sorted(o.index for o in outcomes) == list(range(42))
    assert all(o.ok and o.output == f"done {o.index}" and o.attempts == 1 for o in outcomes)
    assert next(o for o in outcomes if o.index == 40).value == "DONE 40"
    nodes = batch.nodes
    assert len(nodes) == 3 and len({n.pid for n in nodes}) == 3
    assert {o.node for o in outcomes} == {n.name for n in nodes}
    # One binary for every node, found once by each (the verified cache here).
    assert len({(n.binary, n.binary_source) for n in nodes}) == 1
    assert sorted(int(n) for n in (workdir / "ran.log").read_text().split()) == list(range(41))
    assert (elsewhere / "ran.log").read_text().split() == ["41"]  # the task with its own cwd
    # Every session of the batch's options is in the shared store.
    listed = await store.list_sessions(project_key_for_directory(workdir))
    assert {s["session_id"] for s in listed} == {o.session_id for o in outcomes if o.index != 41}
    assert scripted_model.unexpected == []
    assert processes_where(cwd=workdir) == []


async def test_the_budget_stops_the_batch_on_every_node(
    cluster: Any, scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    # Each reply costs $0.10; a tool call takes 30 s, so no task ends by itself.
    marker = f"fleet-ray-budget-{id(workdir)}"
    script_tasks(
        scripted_model,
        range(12),
        lambda n: f"echo {marker} && sleep 30",
        usage={"input_tokens": 25_000, "output_tokens": 0},
    )
    outcomes: list[Outcome] = []
    batch = run_many([prompt(n) for n in range(12)], options=make_options(allowed_tools=["Bash"]), backend="ray",
                     concurrency=2, warm=1, budget_usd=0.25)  # fmt: skip
    await _collect(batch, outcomes)

    assert sorted(o.index for o in outcomes) == list(range(12))
    assert all(isinstance(o.error, BudgetExceededError) for o in outcomes)
    # Three replies ($0.30) crossed it; a task stopped before its first reply cost nothing.
    paid = [o for o in outcomes if o.total_cost_usd > 0]
    assert len(paid) >= 3 and all(o.attempts == 1 and o.session_id for o in paid)
    assert all(o.total_cost_usd == 0 and o.session_id is None for o in outcomes if not o.attempts)
    # At most the replies of the tasks running when it was crossed go over.
    spent = sum(o.total_cost_usd for o in outcomes)
    assert 0.25 <= spent <= 0.25 + 0.1 * 6
    assert processes_where(cwd=workdir) == [] and processes_where(cmdline_contains=marker) == []


async def test_a_rate_limit_is_shared_by_every_node(
    cluster: Any, scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    """One request a second for the whole cluster: the k-th model request
    comes no sooner than (k - 1 - 2n) seconds after the batch began, n the
    tasks running at once on all nodes (three nodes each keeping a budget
    of their own would go three times as fast)."""
    script_tasks(scripted_model, range(9), lambda n: f"echo {n} >> ran.log")
    began = time.time()
    batch = run_many([prompt(n) for n in range(9)], options=make_options(allowed_tools=["Bash"]), backend="ray",
                     concurrency=1, warm=1, rate_limit=RateLimit(requests_per_minute=60, burst_s=1))  # fmt: skip
    outcomes: list[Outcome] = []
    await _collect(batch, outcomes)
    assert all(o.ok for o in outcomes) and len({o.node for o in outcomes}) == 3, outcomes
    arrivals = sorted(r.timestamp for r in scripted_model.main_requests)
    assert len(arrivals) == 18
    for k, at in enumerate(arrivals, start=1):
        assert at - began >= (k - 1 - 2 * 3) - 0.05, (k, [round(a - began, 2) for a in arrivals])


async def test_each_node_logs_what_its_tasks_did(
    cluster: Any, scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    """In the node's own log (its worker's stderr, where Ray keeps it):
    a line as each task starts and one as it ends."""
    import ray

    script_tasks(scripted_model, range(6), lambda n: f"echo {n}")
    outcomes: list[Outcome] = []
    batch = run_many([Task(prompt(n), name=f"logged-{id(workdir)}-{n}") for n in range(6)],
                     options=make_options(allowed_tools=["Bash"]), backend="ray", concurrency=1, warm=1)  # fmt: skip
    await _collect(batch, outcomes)
    assert all(o.ok for o in outcomes), outcomes
    logs = Path(ray._private.worker._global_node.get_session_dir_path()) / "logs"

    def lines() -> list[str]:
        return [
            line
            for path in logs.glob("worker-*.err")
            for line in path.read_text(errors="replace").splitlines()
            if f"logged-{id(workdir)}-" in line
        ]

    # (A node logs a task's end before it reports it; the wait is a hang guard.)
    await _until(lambda: len(lines()) >= 12, "twelve task lines in the nodes' logs")
    for o in outcomes:
        mine = [line for line in lines() if f"logged-{id(workdir)}-{o.index})" in line]
        assert [line.endswith("attempt 1 started") for line in mine] == [True, False], mine
        assert f"node {o.node}: " in mine[1] and "done after" in mine[1] and f"session {o.session_id}" in mine[1]


_SHIPPED_DRIVER = """
import json, sys
import anyio, ray
from claude_wrap import ClaudeAgentOptions
from claude_wrap.fleet import FleetError, Task, run_many

config = json.loads(sys.argv[1])
sys.path.insert(0, config["modules"])  # the driver's own modules: not on the nodes' path
import shipped_fns

options = ClaudeAgentOptions(cwd=config["cwd"], env=config["env"], setting_sources=[])
env_vars = {"PYTHONPATH": config["path"]}

async def batch(**runtime):
    batch = run_many([Task(run=shipped_fns.shout)], options=options, backend="ray", concurrency=1, warm=0, **runtime)
    async with batch:
        async for outcome in batch:
            print(json.dumps({"value": outcome.value, "error": repr(outcome.error)}), flush=True)

ray.init(address=config["address"], runtime_env={"env_vars": env_vars}, log_to_driver=False)
try:
    anyio.run(lambda: batch(runtime_env={"py_modules": [shipped_fns]}))
except FleetError as exc:
    print(json.dumps({"refused": str(exc)}), flush=True)
ray.shutdown()
ray.init(address=config["address"], runtime_env={"env_vars": env_vars, "py_modules": [shipped_fns]}, log_to_driver=False)
anyio.run(batch)
"""


async def test_a_driver_s_own_module_travels_to_the_nodes_with_py_modules(
    cluster: Any, scripted_model: ScriptedModel, make_options: Options, workdir: Path, tmp_path: Path
) -> None:
    """A program that called ``ray.init`` itself, with a task function of a
    module only it has: ``run_many(runtime_env={"py_modules": [module]})``
    says that Ray uploads modules for a job's own environment only; given
    to ``ray.init``, the module reaches the node workers and the task runs."""
    package = tmp_path / "modules" / "shipped_fns"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from claude_wrap import ResultMessage\n\n"
        "async def shout(client):\n"
        "    await client.query('task 0: do the job')\n"
        "    text = ''\n"
        "    async for message in client.receive_response():\n"
        "        if isinstance(message, ResultMessage):\n"
        "            text = message.result or ''\n"
        "    return text.upper()\n"
    )
    scripted_model.add(Reply.text("shipped and run").match_if(of_task(0)))
    options = make_options()
    config = {
        "modules": str(package.parent),
        "address": cluster.address,
        "path": os.pathsep.join(str(p) for p in IMPORT_PATHS),
        "cwd": str(workdir),
        "env": options.env,
    }
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in IMPORT_PATHS)}
    with anyio.fail_after(LIMIT):
        done = await anyio.run_process(
            [sys.executable, "-W", "ignore", "-c", _SHIPPED_DRIVER, json.dumps(config)], env=env, check=False
        )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    refused, ran = [json.loads(x) for x in done.stdout.decode().splitlines() if x.startswith("{")]
    assert "names code on this machine (shipped_fns)" in refused["refused"] and "ray.init" in refused["refused"]
    assert ran == {"value": "SHIPPED AND RUN", "error": "None"}


@pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.data")  # Ray Data's own, from its context
async def test_a_ray_data_pipeline_maps_rows_to_agent_runs(
    cluster: Any, scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    """``map_batches`` with ``ClaudeMapper``: two replicas, each with its own
    warm pool, a batch of three rows at a time; every row answered once, in
    its own row."""
    import ray.data

    for n in range(10):
        scripted_model.add(Reply.text(f"answer {n}").match_if(of_task(n)))
    ray.data.DataContext.get_current().enable_progress_bars = False
    rows = ray.data.from_items([{"id": n, "prompt": prompt(n)} for n in range(10)])
    mapped = rows.map_batches(
        ClaudeMapper,
        # (pytest's capture stream, the default debug_stderr here, does not pickle)
        fn_constructor_kwargs={"options": make_options(debug_stderr=None), "concurrency": 2},
        concurrency=2,
        batch_size=3,
        num_cpus=0.25,
        batch_format="numpy",
    )
    with anyio.fail_after(LIMIT):
        out = await anyio.to_thread.run_sync(mapped.take_all)
    assert sorted((row["id"], row["result"], row["result_ok"]) for row in out) == [
        (n, f"answer {n}", True) for n in range(10)
    ]
    assert all(row["result_error"] is None and row["result_session_id"] for row in out)
    assert sorted(len(requests_of(scripted_model, n)) for n in range(10)) == [1] * 10
    assert scripted_model.unexpected == []


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_cancelling_the_batch_leaves_no_process_on_any_node(
    cluster: Any, scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    marker = f"fleet-ray-cancel-{id(workdir)}"
    script_tasks(scripted_model, range(9), lambda n: f"echo {marker} && sleep 30")
    batch = run_many([prompt(n) for n in range(9)], options=make_options(allowed_tools=["Bash"]), backend="ray",
                     concurrency=1, warm=1)  # fmt: skip
    outcomes: list[Outcome] = []
    with anyio.CancelScope() as scope:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_collect, batch, outcomes)
            await _until(lambda: len(processes_where(cmdline_contains=marker)) >= 3, "a tool running on every node")
            workers = [n.pid for n in batch.nodes]
            scope.cancel()
    assert outcomes == []
    # Nothing of the batch is left: no binary, no tool, no node worker.
    assert processes_where(cwd=workdir) == [] and processes_where(cmdline_contains=marker) == []
    await _until(lambda: not any(_alive(p) for p in workers), "node workers still alive", limit=30)


def _kill_machine(cluster: Any, name: str, worker_pid: int) -> None:
    """What a machine's death does to a node: every process of it dies at once."""
    node = next(n for n in cluster.worker_nodes if n.node_id == name)
    for pid in [worker_pid, *descendants(worker_pid)]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    cluster.remove_node(node, allow_graceful=False)


async def test_a_lost_node_s_tasks_go_on_elsewhere_from_the_store_exactly_once(
    cluster: Any, scripted_model: ScriptedModel, make_options: Options, workdir: Path, store: RedisSessionStore
) -> None:
    marker = f"fleet-ray-lost-{id(workdir)}"
    # The first tasks run through; the later ones hold in their tool call
    # until the machine is lost, so it is lost with two of them mid-tool
    # however the machine's load spaces the tasks out.
    gate = workdir / "machine-lost"

    def command(n: int) -> str:
        hold = f"while [ ! -e '{gate}' ]; do sleep 0.05; done && " if n >= 6 else ""
        return f"echo {marker}-{n} && {hold}echo {n} >> ran.log"

    script_tasks(scripted_model, range(40), command)
    options = make_options(allowed_tools=["Bash"], session_store=store)
    batch = run_many([prompt(n) for n in range(40)], options=options, backend="ray", concurrency=2, warm=1)
    outcomes: list[Outcome] = []
    async with anyio.create_task_group() as tg:
        tg.start_soon(_collect, batch, outcomes)
        await _until(lambda: len(batch.nodes) == 3, "the batch on every node")
        workers = {n.node_id for n in cluster.worker_nodes}
        victim = next(n for n in batch.nodes if n.name in workers)

        # Lost while two of its tasks are in the middle of their tool call
        # (held ones: a task that runs through is never caught half-done).
        def cut_off() -> set[int]:
            lines = [" ".join(cmdline(p)) for p in descendants(victim.pid)]
            found = {int(line.split(f"{marker}-")[1].split()[0]) for line in lines if f"echo {marker}-" in line}
            return {n for n in found if n >= 6}

        # Lost the moment they run: the fleet starts no tool before its
        # call is in the store, so nothing is waited for here.
        await _until(lambda: len(cut_off()) >= 2, "tools running on the victim")
        cut = cut_off()
        _kill_machine(cluster, victim.name, victim.pid)
        gate.touch()
    cluster.add_node(num_cpus=1)  # for whatever runs next

    # Every task, once.
    assert sorted(o.index for o in outcomes) == list(range(40))
    assert all(o.ok for o in outcomes), [o for o in outcomes if not o.ok]
    moved = {o.index: o for o in outcomes if o.attempts == 2}
    assert cut <= set(moved) and all(o.node != victim.name for o in moved.values())
    assert all(o.attempts == 1 for o in outcomes if o.index not in moved)
    for n, o in moved.items():
        asked = requests_of(scripted_model, n)
        if o.output == f"done {n}":
            # Just handed to the victim: nothing of it had reached the
            # store, so it started over (and the model had not seen it).
            assert n not in cut and [answered(r) for r in asked] == [False, True]
            continue
        # Resumed from the store: the binary ran the cut-off turn on.
        assert o.output == f"done {n} after a resume"
        assert is_resumed(asked[-1]) and not any(is_resumed(r) for r in asked[:-1])
        history = json.dumps(asked[-1].messages)
        assert history.count(prompt(n)) == 1
        if n in cut:
            # Its tool call is shown cut off, with an unknown outcome; it was not run again.
            assert [answered(r) for r in asked] == [False, True] and history.count(f"{marker}-{n} &&") == 1
            tool_results = asked[-1].tool_results
            assert len(tool_results) == 1 and tool_results[0]["is_error"]
            assert "outcome is unknown" in json.dumps(tool_results)
        # The transcript in the store: one session, the prompt once, the recovery in it.
        entries = await store.load({"project_key": project_key_for_directory(workdir), "session_id": o.session_id})
        users = [e for e in entries if e.get("type") == "user" and prompt(n) in json.dumps(e.get("message"))]
        assert len(users) == 1 and CONTINUE in json.dumps(entries)
    # No tool call ran twice: a cut-off one is not run again (it may have
    # finished just before the machine died, its result unrecorded).
    ran = [int(n) for n in (workdir / "ran.log").read_text().split()]
    assert len(ran) == len(set(ran))
    assert {o.index for o in outcomes if o.output == f"done {o.index}"} <= set(ran)
    assert scripted_model.unexpected == []
    assert processes_where(cwd=workdir) == []


async def test_a_batch_whose_driver_was_killed_goes_on_under_a_second_driver(
    cluster: Any, scripted_model: ScriptedModel, make_options: Options, workdir: Path, store: RedisSessionStore,
    redis_server: RedisServer, tmp_path: Path,
) -> None:  # fmt: skip
    marker = f"fleet-ray-driver-{id(workdir)}"
    gate = workdir / "driver-killed"

    def command(n: int) -> str:
        hold = f"while [ ! -e '{gate}' ]; do sleep 0.05; done && " if n in (3, 4, 5) else ""
        return f"echo {marker}-{n} && {hold}echo {n} >> ran.log"

    script_tasks(scripted_model, range(9), command)
    prompts = [prompt(n) for n in range(9)]
    config = {
        "prompts": prompts,
        "cwd": str(workdir),
        "env": make_options().env,
        "allowed_tools": ["Bash"],
        "store": {"redis": redis_server.url, "prefix": store.prefix},
        "batch_id": "nightly-ray",
        "backend": "ray",
        "address": cluster.address,
        "runtime_env": {"env_vars": {"PYTHONPATH": os.pathsep.join(str(p) for p in IMPORT_PATHS)}},
        "concurrency": 1,
        "warm": 1,
        "lease_s": 1.0,
    }
    first = await kill_driver_mid_batch(
        config, tmp_path, done=3, held=[f"{marker}-{n} " for n in (3, 4, 5)], store=store, workdir=workdir
    )
    assert sorted(o["index"] for o in first) == [0, 1, 2]
    # The dead driver's node workers went with it, and their binaries and tools at once.
    await _until(lambda: not processes_where(cmdline_contains=marker), "the dead driver's tools stopped", limit=60)
    await _until(lambda: not processes_where(cwd=workdir), "the dead driver's binaries stopped", limit=60)
    gate.touch()

    options = make_options(allowed_tools=["Bash"], session_store=store)
    outcomes: list[Outcome] = []
    with anyio.fail_after(LIMIT):
        while True:
            try:
                batch = run_many(prompts, options=options, backend="ray", concurrency=1, warm=1, batch_id="nightly-ray")
                outcomes = []
                await _collect(batch, outcomes)
                break
            except BatchBusyError:  # until the dead driver's lease lapses
                await anyio.sleep(0.1)
    by_index = {o.index: o for o in outcomes}
    assert sorted(by_index) == list(range(9)) and all(o.ok for o in outcomes), outcomes
    assert all(by_index[n].recorded and by_index[n].output == f"done {n}" for n in (0, 1, 2))
    for n in (3, 4, 5):  # cut off in their tool call: resumed, the call not run again
        assert by_index[n].attempts == 2 and by_index[n].output == f"done {n} after a resume"
        assert "outcome is unknown" in json.dumps(requests_of(scripted_model, n)[-1].tool_results)
    assert all(not by_index[n].recorded and by_index[n].output == f"done {n}" for n in (6, 7, 8))
    assert sorted((workdir / "ran.log").read_text().split()) == ["0", "1", "2", "6", "7", "8"]
    assert scripted_model.unexpected == []


async def test_a_node_that_joins_mid_batch_takes_tasks(
    cluster: Any, scripted_model: ScriptedModel, make_options: Options, workdir: Path, store: RedisSessionStore
) -> None:
    # Every task holds in its tool call until a fourth task runs: with one
    # slot on each of the three nodes, only a node that joined can run it.
    gate = workdir / "four-running"

    def command(n: int) -> str:
        return f"while [ ! -e '{gate}' ]; do sleep 0.05; done && echo {n} >> ran.log"

    script_tasks(scripted_model, range(6), command)
    options = make_options(allowed_tools=["Bash"], session_store=store)
    batch = run_many([prompt(n) for n in range(6)], options=options, backend="ray", concurrency=1, warm=0)
    outcomes: list[Outcome] = []
    joined: Any = None
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_collect, batch, outcomes)
            await _until(lambda: len(batch.nodes) == 3 and batch.stats.running == 3, "a task on every node")
            joined = cluster.add_node(num_cpus=1)
            await _until(lambda: batch.stats.running == 4, "a task on the node that joined")
            gate.touch()
    finally:
        if joined is not None:
            cluster.remove_node(joined)

    assert sorted(o.index for o in outcomes) == list(range(6))
    assert all(o.ok for o in outcomes), [o for o in outcomes if not o.ok]
    assert joined.node_id in {o.node for o in outcomes}
    assert sorted(int(n) for n in (workdir / "ran.log").read_text().split()) == list(range(6))
    assert processes_where(cwd=workdir) == []


async def test_agent_slots_are_ray_resources_the_workers_hold(
    cluster: Any, scripted_model: ScriptedModel, make_options: Options, workdir: Path, store: RedisSessionStore
) -> None:
    import ray

    options = make_options(allowed_tools=["Bash"], session_store=store)
    # No node has the resource yet: the batch says so.
    with pytest.raises(FleetError, match="no alive node of the Ray cluster has the resources of a slot"):
        await _collect(run_many([prompt(0)], options=options, backend="ray", slot={"claude_slots": 1}), [])

    # Only the node that has the batch's slot resource runs it, as many at
    # once as it has slots, and Ray sees them held while the batch runs.
    slotted = cluster.add_node(num_cpus=1, resources={"claude_slots": 2})
    cluster.wait_for_nodes()
    gate = workdir / "both-running"
    try:
        script_tasks(
            scripted_model, range(4), lambda n: f"while [ ! -e '{gate}' ]; do sleep 0.05; done && echo {n} >> ran.log"
        )
        batch = run_many(
            [prompt(n) for n in range(4)], options=options, backend="ray", slot={"claude_slots": 1}, warm=0
        )
        outcomes: list[Outcome] = []
        async with anyio.create_task_group() as tg:
            tg.start_soon(_collect, batch, outcomes)
            await _until(lambda: batch.stats.running == 2, "two tasks on the slotted node")
            assert [n.name for n in batch.nodes] == [slotted.node_id]
            await _until(lambda: ray.available_resources().get("claude_slots", 0) == 0, "the slots held")
            gate.touch()
    finally:
        cluster.remove_node(slotted)

    assert sorted(o.index for o in outcomes) == list(range(4))
    assert all(o.ok and o.node == slotted.node_id for o in outcomes), outcomes
    assert processes_where(cwd=workdir) == []
