"""The official package's SessionStore adapters work unchanged on claude_wrap.

The pinned release publishes adapters for users to copy into their projects
(``examples/session_stores``: Redis, PostgreSQL, S3). They are modules, not
programs, so the twin harness does not run them; their specs (``"adapter"``:
the backend) bring them here. Each is loaded from the unpacked sdist, as a
user's copy would be, against a real backend the tests start (Redis and
PostgreSQL servers, moto's S3 server), by one program that runs on each
package (tests/support/_official.py; ``claude_agent_sdk`` is the package under
test, as in the harness):

* the package's own conformance kit passes on the adapter;
* the real binary, driven by the scripted model, runs a query with a
  subagent that the package mirrors into the adapter's store, then a resume
  of that session from the store on a fresh config dir, where only the store
  can supply the earlier turn: the model's request shows it;
* the store helpers list, read, rename, tag, fork and delete through it.

Both packages must report the same once each run's new ids and times are
numbered, and each package's helpers over the store the other one filled
must give exactly what the other's gave.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from _official import PACKAGES, run
from _servers import PostgresServer, RedisServer, S3Server
from _session_fixture import compare
from _twin_programs import HERE, Entry, entries

from claude_wrap.testing import RecordedRequest, Reply, ScriptedModel

pytestmark = [pytest.mark.compat, pytest.mark.stores, pytest.mark.e2e]

ADAPTERS = [e for e in entries() if e.adapter is not None]

# The adapter, loaded as a user's copy of it: its ``claude_agent_sdk`` is
# the package under test (the harness's import shim on claude_wrap's side).
# Then each backend's client, made as the adapter's docstring says, and a
# fresh store under a new name (key prefix, table) each time.
_PROGRAM = r'''
import importlib.util, inspect, uuid
from pathlib import Path
import anyio

if sdk.__name__ != "claude_agent_sdk":
    sys.path.insert(0, args["harness"])
    from twin_runner import shim_import
    shim_import()

from claude_agent_sdk import (
    AgentDefinition, ClaudeAgentOptions, ResultMessage, delete_session_via_store, fork_session_via_store,
    get_session_info_from_store, get_session_messages_from_store, get_subagent_messages_from_store,
    list_sessions_from_store, list_subagents_from_store, project_key_for_directory, query,
    rename_session_via_store, tag_session_via_store,
)
from claude_agent_sdk.testing import run_session_store_conformance

path = Path(args["adapter"])
spec = importlib.util.spec_from_file_location(path.stem, path)
adapter = sys.modules[path.stem] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(adapter)


async def backend(kind, url):
    """``(make(name) -> store, close)`` for one backend."""
    if kind == "redis":
        import redis.asyncio as redis
        client = redis.Redis.from_url(url, decode_responses=True)
        return (lambda name: adapter.RedisSessionStore(client=client, prefix=name)), client.aclose
    if kind == "postgres":
        import asyncpg
        pool = await asyncpg.create_pool(url, min_size=1, max_size=4)
        async def make(name):
            store = adapter.PostgresSessionStore(pool=pool, table=name)
            await store.create_schema()
            return store
        return make, pool.close
    if kind == "s3":
        import boto3
        client = boto3.client("s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
        client.create_bucket(Bucket="sessions")
        async def close():
            client.close()
        return (lambda name: adapter.S3SessionStore(bucket="sessions", prefix=name, client=client)), close
    raise ValueError(f"no backend {kind!r} in test_store_adapters.py")


async def store_named(make, name):
    store = make(name)
    return await store if inspect.isawaitable(store) else store


async def conformance(make):
    """"pass" or what the kit raised, and how many contracts it ran (ours says)."""
    try:
        ran = await run_session_store_conformance(lambda: store_named(make, "t_" + uuid.uuid4().hex[:16]))
    except Exception as exc:
        return norm(exc), None
    return "pass", ran


async def ask(prompt, store, env, **more):
    options = ClaudeAgentOptions(
        cwd=args["work"], cli_path=args["cli"], env=env, setting_sources=[], allowed_tools=["Task"],
        agents={"helper": AgentDefinition(description="Checks files", prompt="You check files.", tools=["Read"])},
        session_store=store, **more,
    )
    got = [m async for m in query(prompt=prompt, options=options)]
    result = got[-1]
    assert isinstance(result, ResultMessage), result
    return {"subtype": result.subtype, "result": result.result, "session_id": result.session_id}


async def reads(store, directory):
    """What every read helper gives over the store, session by session as
    listed, and what the store holds for each."""
    listed = await list_sessions_from_store(store, directory)
    out = {"list": norm(listed), "sessions": []}
    for info in listed:
        sid = info.session_id
        key = {"project_key": project_key_for_directory(directory), "session_id": sid}
        agents = await list_subagents_from_store(store, sid, directory)
        out["sessions"].append({
            "info": await attempt_async(get_session_info_from_store, store, sid, directory),
            "messages": await attempt_async(get_session_messages_from_store, store, sid, directory),
            "messages page": await attempt_async(get_session_messages_from_store, store, sid, directory, 2, 1),
            "subagents": [[agent, await attempt_async(get_subagent_messages_from_store, store, sid, agent, directory)] for agent in agents],
            "stored": await store.load(key),
            "stored subpaths": [[sub, await store.load({**key, "subpath": sub})] for sub in sorted(await store.list_subkeys(key))],
        })
    return out


async def main():
    make, close = await backend(args["backend"], args["url"])
    out = {}
    out["conformance"], out["contracts"] = await conformance(make)
    store = await store_named(make, args["name"])
    out["first"] = await ask(args["prompts"][0], store, args["env"][0])
    sid = out["first"]["session_id"]
    out["resumed"] = await ask(args["prompts"][1], store, args["env"][1], resume=sid)
    directory = args["work"]
    out["rename"] = await attempt_async(rename_session_via_store, store, sid, "Fruit talk", directory)
    out["tag"] = await attempt_async(tag_session_via_store, store, sid, "fruit", directory)
    await anyio.sleep(0.005)  # stores with a millisecond clock: the fork lists first
    out["fork"] = await attempt_async(fork_session_via_store, store, sid, directory, None, "Forked fruit")
    doomed = await fork_session_via_store(store, sid, directory)
    out["delete"] = await attempt_async(delete_session_via_store, store, doomed.session_id, directory)
    out["reads"] = await reads(store, directory)
    if args["theirs"]:
        out["theirs"] = await reads(await store_named(make, args["theirs"]), directory)
    await close()
    emit(out)

anyio.run(main)
'''

# What run_session_store_conformance runs on a store with every optional
# method but list_session_summaries.
_CONTRACTS_WITHOUT_SUMMARIES = 13
_PROMPTS = ("Remember the word PAPAYA, and have the helper check the files.", "What was the word?")
_HELPER_PROMPT = "Check the files"
_NOTED = "Noted: PAPAYA. The helper is done."


def _script() -> list[Reply]:
    """A first turn that runs a subagent, then the answer to the resumed turn."""
    return [
        Reply.tool_use(
            "Task",
            {"subagent_type": "helper", "description": "check", "prompt": _HELPER_PROMPT, "run_in_background": False},
        ),
        Reply.text("The files are fine.").match_if(lambda r: _HELPER_PROMPT in r.last_user_text),
        Reply.text(_NOTED).match_if(
            lambda r: _HELPER_PROMPT not in r.last_user_text and _PROMPTS[1] not in r.last_user_text
        ),
        Reply.text("The word was PAPAYA.").match_if(lambda r: _PROMPTS[1] in r.last_user_text),
    ]


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    return (
        [b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text"]
        if isinstance(content, list)
        else []
    )


def _conversation(request: RecordedRequest) -> list[tuple[str, str]]:
    """The request's turns as (role, text), leaving out reminders the binary adds."""
    return [
        (m["role"], text)
        for m in request.messages
        for text in _texts(m.get("content"))
        if not text.lstrip().startswith("<system-reminder>")
    ]


def _backend_url(kind: str, request: pytest.FixtureRequest) -> str:
    servers: dict[str, str] = {"redis": "redis_server", "postgres": "postgres_server", "s3": "s3_server"}
    if kind not in servers:
        pytest.fail(f"no backend {kind!r} for a store adapter: add one to {Path(__file__).name}")
    server: RedisServer | PostgresServer | S3Server = request.getfixturevalue(servers[kind])
    return server.url


# What each run makes anew: ids (uuids, agent ids) are numbered in order of
# appearance; times (ISO, epoch milliseconds) and what the binary measured
# (durations, and the sizes that follow from them) are blanked.
_NEW = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|\ba[0-9a-f]{16}\b")
_TIME = re.compile(r"20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(?:\d{3})?Z|\b1[78]\d{11}\b")
_MEASURED_KEY = re.compile(r"\w*(?:[dD]uration\w*|Ms)|file_size")
_MEASURED_TEXT = re.compile(r"(duration_ms: )\d+")


def _stored(entries: list[Any]) -> dict[str, Any]:
    """A transcript as stored: its chain in order (the entries with a uuid),
    and the kinds of the rest, which the binary writes as its timers fire
    (where and how often varies from run to run)."""
    return {
        "chain": [e for e in entries if "uuid" in e],
        "other kinds": sorted({e["type"] for e in entries if "uuid" not in e}),
    }


def _comparable(result: dict[str, Any]) -> Any:
    """One run's result, with what differs from run to run left out or numbered."""
    for session in result["reads"]["sessions"]:
        session["stored"] = _stored(session["stored"])
        session["stored subpaths"] = [[sub, _stored(entries)] for sub, entries in session["stored subpaths"]]
    return _normalised(result)


def _normalised(value: Any, names: dict[str, str] | None = None, key: str = "") -> Any:
    names = {} if names is None else names

    def new(text: str) -> str:
        return names.setdefault(text, f"<new {len(names)}>")

    if isinstance(value, dict):
        return {new(k) if _NEW.fullmatch(k) else k: _normalised(v, names, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalised(v, names) for v in value]
    if isinstance(value, str):
        value = _TIME.sub("<time>", _MEASURED_TEXT.sub(r"\g<1>0", value))
        return _NEW.sub(lambda m: new(m.group(0)), value)
    if isinstance(value, int) and not isinstance(value, bool):
        return 0 if _MEASURED_KEY.fullmatch(key) else "<time>" if _TIME.fullmatch(str(value)) else value
    return value


def _run_side(package: str, args: dict[str, Any], homes: Path) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """What the program reported on ``package``, and the conversation the model got on the resumed turn."""
    with ScriptedModel(*_script()) as model:
        # A config dir for each query: only the store carries the session over.
        env = [model.env(homes / f"{package}-{n}") for n in (1, 2)]
        result = run(package, _PROGRAM, {**args, "env": env}, timeout=300)
        assert not any(r.unexpected for r in model.requests), f"{package}: a request found no scripted reply"
        assert not [r for r in model.pending if r.count is not None], f"{package}: scripted replies left unused"
        resumed = next(r for r in model.requests if r.is_main and _PROMPTS[1] in r.last_user_text)
    return result, _conversation(resumed)


@pytest.mark.parametrize("example", [pytest.param(e, id=e.adapter) for e in ADAPTERS])
def test_official_adapter_on_both_packages(
    example: Entry, request: pytest.FixtureRequest, official_examples: Path, cli_path: str, tmp_path: Path
) -> None:
    assert example.adapter is not None
    work = tmp_path / "work"
    work.mkdir()
    args = {
        "adapter": str(official_examples / json.loads(example.spec_path.read_text(encoding="utf-8"))["example"]),
        "backend": example.adapter,
        "url": _backend_url(example.adapter, request),
        "harness": str(HERE),
        "cli": cli_path,
        "prompts": _PROMPTS,
        "work": str(work),
    }
    # Each package fills a store of its own name; ours also reads the official one's.
    names = ["t_" + uuid.uuid4().hex[:16] for _ in PACKAGES]
    official, official_saw = _run_side(PACKAGES[0], {**args, "name": names[0], "theirs": None}, tmp_path)
    ours, ours_saw = _run_side(PACKAGES[1], {**args, "name": names[1], "theirs": names[0]}, tmp_path)

    # The adapter passes each package's conformance kit; ours ran every
    # contract but the summaries' (the adapters keep none).
    assert official["conformance"] == ours["conformance"] == "pass"
    assert (official.pop("contracts"), ours.pop("contracts")) == (None, _CONTRACTS_WITHOUT_SUMMARIES)
    # The resumed turn's request carries the earlier turn, read from the store.
    for package, conversation in zip(PACKAGES, (official_saw, ours_saw)):
        assert ("user", _PROMPTS[0]) in conversation, (package, conversation)
        assert ("assistant", _NOTED) in conversation, (package, conversation)
        assert conversation[-1] == ("user", _PROMPTS[1]), (package, conversation)
    assert ours_saw == official_saw
    # The resume continued the session, which the store holds with its subagent.
    assert official["resumed"]["session_id"] == official["first"]["session_id"]
    assert any(session["subagents"] for session in official["reads"]["sessions"]), official["reads"]

    # claude_wrap's helpers over the store the official package filled give
    # exactly what the official helpers gave.
    compare(official["reads"], ours.pop("theirs"))
    # And both packages did the same, run for run.
    compare(_comparable(official), _comparable(ours))
