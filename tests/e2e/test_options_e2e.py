"""Options take effect: what the scripted model receives, what the binary does.

Options do not depend on the event loop, so these run under asyncio only
(the concurrency machinery is exercised under both backends elsewhere).
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from _e2e import Options, bash, run, tool_results
from pydantic import BaseModel, field_validator

from claude_wrap import (
    AgentDefinition,
    AssistantMessage,
    ClaudeSDKClient,
    HookEventMessage,
    HookResponseMessage,
    HookStartedMessage,
    InitSystemMessage,
    ResultError,
    ResultMessage,
    StructuredOutputError,
    system_view,
)
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_model_and_system_prompt_reach_the_request(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.text("arr").repeat(2))
    await run("hi", make_options(model="sonnet", system_prompt="You are PIRATE-BOT. Speak like a pirate."))
    await run("hi", make_options(system_prompt={"type": "preset", "preset": "claude_code", "append": "APPENDED-XYZ"}))

    custom, preset = scripted_model.main_requests
    assert custom.model == "claude-sonnet-5-5"  # the alias, resolved by the binary
    assert "You are PIRATE-BOT." in custom.system_text
    assert "APPENDED-XYZ" in preset.system_text
    assert len(preset.system_text) > 4 * len(custom.system_text)  # the Claude Code prompt stays


async def test_a_200_kb_system_prompt(scripted_model: ScriptedModel, make_options: Options) -> None:
    big = "".join(f"Rule {i}: be precise and kind.\n" for i in range(7000)) + "END-OF-PROMPT-MARKER"
    assert len(big.encode()) > 200_000
    options = make_options(system_prompt=big)
    assert any("temp file" in arg for arg in options.explain().argv)  # too long for one argv string
    scripted_model.add(Reply.text("read it"))
    messages = await run("hi", options)
    assert "END-OF-PROMPT-MARKER" in scripted_model.main_requests[0].system_text
    assert messages[-1].result == "read it"


async def test_max_budget_usd(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(bash("echo hi").with_usage(200_000, 50_000), Reply.text("never"))
    with pytest.raises(ResultError) as info:
        await run("spend", make_options(max_budget_usd=0.01, allowed_tools=["Bash"]))
    assert info.value.subtype == "error_max_budget_usd"
    assert info.value.result_message is not None and info.value.result_message.outcome == "budget"


async def test_tools_and_disallowed_tools_shape_the_tool_list(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("ok").repeat(2))
    await run("hi", make_options(disallowed_tools=["Bash"]))
    await run("hi", make_options(tools=["Read", "Glob"]))
    without_bash, only_read = scripted_model.main_requests
    assert "Bash" not in without_bash.tool_names and "Read" in without_bash.tool_names
    assert "Read" in only_read.tool_names
    assert not {"Bash", "Write", "Edit"} & set(only_read.tool_names)


async def test_effort_thinking_and_task_budget_change_the_request(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("ok").repeat(4))
    await run("hi", make_options(effort="low", task_budget={"total": 50_000}))
    # Thinking settings apply to models that support them (the 5.5 family
    # always thinks adaptively, whatever the flags say).
    await run("hi", make_options(model="claude-sonnet-4-5", thinking={"type": "enabled", "budget_tokens": 4096}))
    await run("hi", make_options(model="claude-sonnet-4-5", thinking={"type": "disabled"}))
    await run("hi", make_options(model="claude-sonnet-4-5"))
    low, budget, disabled, default = (r.body for r in scripted_model.main_requests)
    assert low["output_config"]["effort"] == "low"
    assert low["output_config"]["task_budget"]["total"] == 50_000
    assert budget["thinking"]["type"] == "enabled" and budget["thinking"]["budget_tokens"] == 4096
    assert disabled["thinking"] == {"type": "disabled"}
    assert default.get("thinking") != disabled["thinking"]


class Answer(BaseModel):
    answer: int
    reason: str


async def test_output_type_gives_a_model_instance(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(
        Reply.tool_use("StructuredOutput", {"answer": 42, "reason": "it is"}),
        Reply.text("done").sticky(),
    )
    messages = await run("answer", make_options(output_type=Answer))
    result = messages[-1]
    assert isinstance(result, ResultMessage)
    assert result.structured_output == Answer(answer=42, reason="it is")
    # the schema the model was given came from the model class
    tool = next(t for t in scripted_model.main_requests[0].tools if t["name"] == "StructuredOutput")
    assert set(tool["input_schema"]["properties"]) == {"answer", "reason"}


class EvenNumber(BaseModel):
    n: int

    @field_validator("n")
    @classmethod
    def _even(cls, value: int) -> int:
        # A rule JSON Schema cannot say: the binary accepts any integer.
        if value % 2:
            raise ValueError("n must be even")
        return value


async def test_output_type_violation_raises_with_the_raw_value(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.tool_use("StructuredOutput", {"n": 3}), Reply.text("done").sticky())
    with pytest.raises(StructuredOutputError) as info:
        await run("answer", make_options(output_type=EvenNumber))
    assert info.value.raw == {"n": 3}
    assert "n must be even" in str(info.value)
    assert isinstance(info.value.result_message, ResultMessage)


async def test_plugin_command_and_skill_are_listed(
    scripted_model: ScriptedModel, make_options: Options, tmp_path: Path
) -> None:
    plugin = tmp_path / "demo-plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "demo-plugin", "version": "1.0.0"}))
    (plugin / "commands").mkdir()
    (plugin / "commands" / "hello.md").write_text("---\ndescription: Say hello\n---\nSay hello.\n")
    (plugin / "skills" / "greet").mkdir(parents=True)
    (plugin / "skills" / "greet" / "SKILL.md").write_text("---\nname: greet\ndescription: Greets\n---\nGreet.\n")
    scripted_model.add(Reply.text("ok"))
    options = make_options(plugins=[{"type": "local", "path": str(plugin)}], skills=["demo-plugin:greet"])
    async with ClaudeSDKClient(options) as client:
        info = await client.get_server_info()
        assert info is not None
        names = {c["name"] for c in info["commands"]}
        assert {"demo-plugin:hello", "demo-plugin:greet"} <= names
        await client.query("hi")
        message = [m async for m in client.receive_response() if InitSystemMessage.of(m) is not None][0]
    init = InitSystemMessage.of(message)
    assert init is not None and "demo-plugin:greet" in init.skills
    assert any(p.get("name") == "demo-plugin" for p in init.plugins)


async def test_persist_session_false_writes_no_transcript(
    scripted_model: ScriptedModel, make_options: Options, tmp_path: Path
) -> None:
    scripted_model.add(Reply.text("one"), Reply.text("two"))
    await run("hi", make_options(persist_session=False))
    assert list((tmp_path / "home").rglob("*.jsonl")) == []
    await run("hi", make_options())
    assert list((tmp_path / "home").rglob("*.jsonl"))


async def test_settings_dict_and_setting_sources_take_effect(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    allow = {"permissions": {"allow": ["Bash(touch *)"]}}
    scripted_model.add(bash("touch denied.txt"), Reply.text("ok"))
    await run("a", make_options())  # default mode, nobody to ask: denied
    assert not (workdir / "denied.txt").exists()

    scripted_model.add(bash("touch allowed.txt"), Reply.text("ok"))
    await run("b", make_options(settings=allow))
    assert (workdir / "allowed.txt").exists()

    # Project settings load only when setting_sources asks for them.
    (workdir / ".claude").mkdir()
    (workdir / ".claude" / "settings.json").write_text(json.dumps({"env": {"PROJECT_MARKER": "from-project"}}))
    echo = 'echo "marker=$PROJECT_MARKER"'
    scripted_model.add(bash(echo), Reply.text("ok"), bash(echo), Reply.text("ok"))
    loaded = await run("c", make_options(setting_sources=["project"], allowed_tools=["Bash"]))
    skipped = await run("d", make_options(setting_sources=[], allowed_tools=["Bash"]))
    assert "marker=from-project" in str(tool_results(loaded)[0].content)
    assert "marker=from-project" not in str(tool_results(skipped)[0].content)


async def test_sandbox_is_merged_into_settings(scripted_model: ScriptedModel, make_options: Options) -> None:
    options = make_options(
        settings={"env": {"FROM_SETTINGS": "1"}}, sandbox={"enabled": True, "excludedCommands": ["git"]}
    )
    async with ClaudeSDKClient(options) as client:
        effective = (await client.get_settings())["effective"]
    assert effective["sandbox"]["excludedCommands"] == ["git"]
    assert effective["env"]["FROM_SETTINGS"] == "1"


async def test_main_thread_agent_and_subagent_prompt(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.text("ahoy"))
    agents = {"pirate": AgentDefinition(description="Talks like a pirate", prompt="You are CAPTAIN-PIRATE.")}
    await run("hi", make_options(agents=agents, agent="pirate"))
    assert "You are CAPTAIN-PIRATE." in scripted_model.main_requests[0].system_text


async def test_subagent_text_is_forwarded_with_its_parent(scripted_model: ScriptedModel, make_options: Options) -> None:
    def for_subagent(request: Any) -> bool:
        return "Check the plan" in request.last_user_text

    scripted_model.add(
        Reply.tool_use(
            "Task",
            {
                "subagent_type": "checker",
                "description": "check",
                "prompt": "Check the plan",
                "run_in_background": False,
            },
        ),
        Reply.text("SUBAGENT-SAYS-FINE").match_if(for_subagent),
        Reply.text("done").match_if(lambda r: not for_subagent(r)),
    )
    options = make_options(
        allowed_tools=["Task"],
        agents={"checker": AgentDefinition(description="Checks plans", prompt="You check plans.")},
        forward_subagent_text=True,
        append_subagent_system_prompt="SUBAGENT-EXTRA-RULES",
    )
    messages = await run("delegate", options)
    forwarded = [
        m
        for m in messages
        if isinstance(m, AssistantMessage) and m.parent_tool_use_id and "SUBAGENT-SAYS-FINE" in str(m.content)
    ]
    assert forwarded
    sub_request = next(r for r in scripted_model.main_requests if for_subagent(r))
    assert "SUBAGENT-EXTRA-RULES" in sub_request.system_text


async def test_include_hook_events_reports_settings_hooks(scripted_model: ScriptedModel, make_options: Options) -> None:
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hook-said-hi"}]}]}
    scripted_model.add(bash("echo hi"), Reply.text("ok"))
    messages = await run(
        "go", make_options(settings={"hooks": hooks}, include_hook_events=True, allowed_tools=["Bash"])
    )
    events = [m for m in messages if isinstance(m, HookEventMessage)]
    assert {e.subtype for e in events} >= {"hook_started", "hook_response"}
    assert all(e.hook_event_name == "PreToolUse" for e in events)
    # The typed views read the same frames.
    started = next(v for e in events if isinstance(v := system_view(e), HookStartedMessage))
    response = next(v for e in events if isinstance(v := system_view(e), HookResponseMessage))
    assert started.hook_event == response.hook_event == "PreToolUse" and started.hook_id == response.hook_id
    assert (response.outcome, response.exit_code) == ("success", 0) and "hook-said-hi" in response.stdout


async def test_file_checkpointing_lets_the_client_rewind(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    scripted_model.add(
        Reply.tool_use("Write", {"file_path": str(workdir / "draft.txt"), "content": "first draft"}), Reply.text("ok")
    )
    uuid = "11111111-1111-4111-8111-111111111111"
    async with ClaudeSDKClient(make_options(enable_file_checkpointing=True, allowed_tools=["Write"])) as client:
        await client.query("write a draft", uuid=uuid)
        [m async for m in client.receive_response()]
        assert (workdir / "draft.txt").exists()
        preview = await client.rewind_files(uuid, dry_run=True)
        assert preview["canRewind"] and any(p.endswith("draft.txt") for p in preview["filesChanged"])
        done = await client.rewind_files(uuid)
        assert done["canRewind"]
    assert not (workdir / "draft.txt").exists()


async def test_fork_session_gets_a_new_id_and_the_history(scripted_model: ScriptedModel, make_options: Options) -> None:
    scripted_model.add(Reply.text("noted"), Reply.text("forked"))
    first = await run("remember MANGO", make_options())
    original = first[-1].session_id
    forked = await run("what fruit?", make_options(resume=original, fork_session=True))
    assert forked[-1].session_id != original
    assert "MANGO" in json.dumps(scripted_model.main_requests[1].messages)


async def test_client_app_names_the_application_in_api_requests(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    scripted_model.add(Reply.text("ok").repeat(2))
    await run("hi", make_options(client_app="inventory-bot/2.4.1"))
    await run("hi", make_options())
    named, plain = scripted_model.main_requests
    assert named.headers["x-client-app"] == "inventory-bot/2.4.1"
    assert "client-app/inventory-bot/2.4.1" in named.headers["user-agent"]
    assert "x-client-app" not in plain.headers


async def test_verbatim_prompts_expand_no_mentions_and_run_no_commands(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    (workdir / "notes.txt").write_text("CONTENTS-OF-NOTES-FILE")
    prompt = "summarise @notes.txt"
    scripted_model.add(Reply.text("ok").sticky())

    await run(prompt, make_options())  # the binary's default: the mention is read in
    assert "CONTENTS-OF-NOTES-FILE" in scripted_model.main_requests[-1].raw_body.decode()

    verbatim = make_options(verbatim_prompts=True)
    await run(prompt, verbatim)
    assert "CONTENTS-OF-NOTES-FILE" not in scripted_model.main_requests[-1].raw_body.decode()
    assert scripted_model.main_requests[-1].last_user_text == prompt

    # Also for the client's later prompts, and a slash command is just text.
    async with ClaudeSDKClient(verbatim) as client:
        for text in (prompt, "/compact"):
            await client.query(text)
            result = [m async for m in client.receive_response()][-1]
            assert isinstance(result, ResultMessage) and result.result == "ok"
            assert scripted_model.main_requests[-1].last_user_text == text
    assert "CONTENTS-OF-NOTES-FILE" not in b"".join(r.raw_body for r in scripted_model.main_requests[1:]).decode()


async def test_system_prompt_snapshot_decides_what_a_resumed_session_sends(
    scripted_model: ScriptedModel, make_options: Options
) -> None:
    def preset(append: str, snapshot: bool | None) -> Any:
        sp: dict[str, Any] = {"type": "preset", "preset": "claude_code", "append": append}
        if snapshot is not None:
            sp["snapshot"] = snapshot
        return sp

    scripted_model.add(Reply.text("ok").sticky())
    seen = {}
    for snapshot in (None, False):
        first = await run("hi", make_options(system_prompt=preset("FIRST-APPEND", snapshot)))
        await run("again", make_options(system_prompt=preset("SECOND-APPEND", snapshot), resume=first[-1].session_id))
        seen[snapshot] = scripted_model.main_requests[-1].system_text
    # Unset, the binary keeps the prompt it recorded; False rebuilds it.
    assert "FIRST-APPEND" in seen[None] and "SECOND-APPEND" not in seen[None]
    assert "SECOND-APPEND" in seen[False] and "FIRST-APPEND" not in seen[False]

    # The custom form: a prompt of one's own, rebuilt on resume when asked.
    first = await run("hi", make_options(system_prompt={"type": "custom", "prompt": "You are CUSTOM-ONE."}))
    await run(
        "again",
        make_options(
            system_prompt={"type": "custom", "prompt": "You are CUSTOM-TWO.", "snapshot": False},
            resume=first[-1].session_id,
        ),
    )
    assert "You are CUSTOM-TWO." in scripted_model.main_requests[-1].system_text
    assert "CUSTOM-ONE" not in scripted_model.main_requests[-1].system_text


async def test_explain_shows_the_initialize_a_run_sends(
    scripted_model: ScriptedModel, make_options: Options, cli_path: str, tmp_path: Path
) -> None:
    """``explain()`` and a run build the same plan: the ``initialize`` the
    binary reads is the one ``explain()`` shows."""
    from claude_wrap import HookMatcher

    async def hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
        return {}

    stdin_log = tmp_path / "stdin.jsonl"
    wrapper = tmp_path / "claude"
    wrapper.write_text(f'#!/bin/sh\ntee {shlex.quote(str(stdin_log))} | exec {shlex.quote(cli_path)} "$@"\n')
    wrapper.chmod(0o755)
    options = make_options(
        cli_path=wrapper,
        hooks={"PreToolUse": [HookMatcher("Bash", [hook], timeout=5)]},
        agents={"a": AgentDefinition(description="d", prompt="p")},
        system_prompt={"type": "custom", "prompt": "Be brief.", "snapshot": False},
    )
    scripted_model.add(Reply.text("ok"))
    await run("hi", options)

    sent = [json.loads(line) for line in stdin_log.read_text().splitlines()]
    initialize = next(f["request"] for f in sent if f.get("type") == "control_request")
    assert initialize["subtype"] == "initialize" and initialize["hooks"] is not None
    assert initialize == options.explain().initialize


async def test_a_subagent_can_go_without_claude_md(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    (workdir / "CLAUDE.md").write_text("Project rule: MARKER-FROM-CLAUDE-MD.\n")

    def to(agent: str) -> Any:
        return lambda request: f"Task for {agent}" in request.last_user_text

    def main_turn(n: int) -> Any:  # the main agent's n-th request: the context and the prompt, then 2 more each
        return lambda r: not to("plain")(r) and not to("lean")(r) and len(r.messages) == 2 * n

    for n, agent in enumerate(("plain", "lean"), start=1):
        call = {"subagent_type": agent, "description": agent, "prompt": f"Task for {agent}", "run_in_background": False}
        scripted_model.add(
            Reply.tool_use("Task", call).match_if(main_turn(n)), Reply.text(f"{agent} done").match_if(to(agent))
        )
    scripted_model.add(Reply.text("all done").match_if(main_turn(3)))
    agents = {
        "plain": AgentDefinition(description="Plain helper", prompt="You help."),
        "lean": AgentDefinition(description="Lean helper", prompt="You help.", omitClaudeMd=True),
    }
    await run("delegate twice", make_options(allowed_tools=["Task"], agents=agents, setting_sources=["project"]))

    def request_of(agent: str) -> str:
        return json.dumps(next(r for r in scripted_model.main_requests if to(agent)(r)).body)

    assert "MARKER-FROM-CLAUDE-MD" in json.dumps(scripted_model.main_requests[0].body)  # the main agent reads it
    assert "MARKER-FROM-CLAUDE-MD" in request_of("plain")
    assert "MARKER-FROM-CLAUDE-MD" not in request_of("lean")


async def test_a_plugin_can_be_loaded_without_its_mcp_servers(
    scripted_model: ScriptedModel, make_options: Options, workdir: Path
) -> None:
    plugin = workdir / "myplug"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "myplug", "version": "1.0.0"}))
    server = {"command": sys.executable, "args": ["-m", "claude_wrap.testing.mcp_stdio_server", "--name", "pext"]}
    (plugin / ".mcp.json").write_text(json.dumps({"mcpServers": {"pext": server}}))
    scripted_model.add(Reply.text("ok").sticky())

    async def loaded(plugin_config: dict[str, Any]) -> tuple[list[str], list[str]]:
        """The plugins and MCP servers the run's init message lists."""
        messages = await run("hi", make_options(plugins=[plugin_config]))
        init = next(view for m in messages if (view := InitSystemMessage.of(m)) is not None)
        return [p["name"] for p in init.plugins], [s["name"] for s in init.mcp_servers]

    plugins, servers = await loaded({"type": "local", "path": str(plugin)})
    assert "myplug" in plugins and servers == ["plugin:myplug:pext"]
    plugins, servers = await loaded({"type": "local", "path": str(plugin), "skipMcpDiscovery": True})
    assert "myplug" in plugins and servers == []  # loaded, without its server
