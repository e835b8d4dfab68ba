"""Transcript entries → the conversation, as ``SessionMessage`` objects.

Entries are linked by ``parentUuid``; a transcript holds dead branches
(a retried turn, an abandoned edit) besides the conversation. The
conversation is the chain from the newest main-line message back to the
root. Shared by the disk helpers (``_sessions.disk_helpers``) and the store helpers
(``_sessions.store_helpers``), so both give the same messages for one transcript.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from claude_wrap._sessions.transcripts import SessionMessage, page_messages

__all__ = [
    "build_chain",
    "parent_ids",
    "parse_entries",
    "parse_jsonl",
    "session_messages",
    "split_agent_metadata",
    "subagent_messages",
    "transcript_entries",
]

Entry = dict[str, Any]

# Entry types that take part in the parentUuid chain.
TRANSCRIPT_TYPES = frozenset({"user", "assistant", "progress", "system", "attachment"})


def transcript_entries(entries: Iterable[Any]) -> list[Entry]:
    """The chain entries (a chain type and a string ``uuid``) among ``entries``."""
    return [
        e
        for e in entries
        if isinstance(e, dict) and e.get("type") in TRANSCRIPT_TYPES and isinstance(e.get("uuid"), str)
    ]


def parse_jsonl(text: str) -> list[Any]:
    """The values of a JSONL text's lines. Corrupt and half-written lines
    are skipped: a crash mid-write must not hide the rest. Lines end at
    ``\\n`` only: a JSON string may hold U+2028 unescaped."""
    parsed: list[Any] = []
    for line in text.split("\n"):
        line = line.strip()
        if line:
            try:
                parsed.append(json.loads(line))
            except ValueError:
                continue
    return parsed


def parse_entries(text: str) -> list[Entry]:
    """The chain entries of a JSONL text."""
    return transcript_entries(parse_jsonl(text))


# -- the main chain ---------------------------------------------------------------------


def _walk(start: Entry | None, by_uuid: dict[str, Entry]) -> Iterable[Entry]:
    """``start`` and its ancestors, leaf first, stopping at a cycle or a
    missing parent."""
    seen: set[str] = set()
    while start is not None and start["uuid"] not in seen:
        seen.add(start["uuid"])
        yield start
        parent = start.get("parentUuid")
        start = by_uuid.get(parent) if parent else None


def build_chain(entries: list[Entry]) -> list[Entry]:
    """The conversation, root first, from chain entries in file order.

    The leaf is the last-written user/assistant message reachable from a
    terminal entry, preferring the main line over sidechain, team and meta
    messages. Tool calls a parallel turn left off the chain are put back
    (``_recover_parallel``).
    """
    if not entries:
        return []
    by_uuid = {e["uuid"]: e for e in entries}
    position = {e["uuid"]: i for i, e in enumerate(entries)}
    parents = {p for e in entries if (p := e.get("parentUuid"))}
    leaves: list[Entry] = []
    for terminal in (e for e in entries if e["uuid"] not in parents):
        leaf = next((e for e in _walk(terminal, by_uuid) if e.get("type") in ("user", "assistant")), None)
        if leaf is not None:
            leaves.append(leaf)
    if not leaves:
        return []
    main = [e for e in leaves if not e.get("isSidechain") and not e.get("teamName") and not e.get("isMeta")]
    pool = main or leaves
    # The first of the latest-written, as ties go to the earlier candidate.
    leaf = max(pool, key=lambda e: position.get(e["uuid"], -1))
    chain = list(_walk(leaf, by_uuid))
    chain.reverse()
    return _recover_parallel(by_uuid, chain)


def _message_id(entry: Entry) -> str | None:
    """The API message id of an assistant entry (one response, possibly
    written as several entries, one per content block)."""
    if entry.get("type") != "assistant":
        return None
    message = entry.get("message")
    mid = message.get("id") if isinstance(message, dict) else None
    return mid if isinstance(mid, str) and mid else None


def _block_ids(entry: Entry, block_type: str, field: str) -> list[str]:
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return []
    return [
        b[field]
        for b in content
        if isinstance(b, dict) and b.get("type") == block_type and isinstance(b.get(field), str)
    ]


def _is_tool_result(entry: Entry) -> bool:
    if entry.get("type") != "user" or not isinstance(entry.get("parentUuid"), str) or not entry["parentUuid"]:
        return False
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)


def _same_writer(a: Entry, b: Entry) -> bool:
    return bool(a.get("isSidechain")) == bool(b.get("isSidechain")) and a.get("agentId") == b.get("agentId")


def _stamp(entry: Entry) -> str:
    stamp = entry.get("timestamp")
    return stamp if isinstance(stamp, str) else ""


def _recover_parallel(by_uuid: dict[str, Entry], chain: list[Entry]) -> list[Entry]:
    """Put back the parts of parallel tool turns the chain walk missed.

    The binary writes a response with N tool calls as N assistant entries
    (same message id) chained one after another, and each result's parent
    is its own call's entry: the transcript forks, and the walk back from
    the next turn keeps one result and drops the calls after the one it
    answers. For each response on the chain, its missing entries and their
    results go right after its last entry on the chain, calls before
    results, each group in timestamp order.
    """
    on_chain = {e["uuid"] for e in chain}
    anchors: dict[str, Entry] = {}
    for entry in chain:
        mid = _message_id(entry)
        if mid:
            anchors[mid] = entry  # the last on-chain entry of each response
    if not anchors:
        return chain

    # Every entry of each response, and which entry made each call; a call id
    # claimed by two responses is ambiguous (None) and places nothing.
    responses: dict[str, list[Entry]] = {}
    call_owner: dict[str, Entry | None] = {}
    results: list[Entry] = []
    for entry in by_uuid.values():
        mid = _message_id(entry)
        if mid:
            responses.setdefault(mid, []).append(entry)
            for call in _block_ids(entry, "tool_use", "id"):
                if call not in call_owner:
                    call_owner[call] = entry
                else:
                    owner = call_owner[call]
                    call_owner[call] = entry if owner is not None and _message_id(owner) == mid else None
        elif _is_tool_result(entry):
            results.append(entry)

    # Each result, under every assistant entry it may answer.
    results_of: dict[str, list[Entry]] = {}
    for result in results:
        results_of.setdefault(result["parentUuid"], []).append(result)
        source = result.get("sourceToolAssistantUUID")
        if isinstance(source, str) and source in by_uuid and _same_writer(result, by_uuid[source]):
            results_of.setdefault(source, []).append(result)
        for call in _block_ids(result, "tool_result", "tool_use_id"):
            owner = call_owner.get(call)
            if owner is not None and _same_writer(result, owner):
                results_of.setdefault(owner["uuid"], []).append(result)

    answered_on_chain: set[str] | None = None
    inserts: dict[str, list[Entry]] = {}
    for mid, anchor in _responses_in_chain_order(chain):
        group = responses.get(mid, [anchor])
        members = {m["uuid"] for m in group}
        missing_calls = [m for m in group if m["uuid"] not in on_chain]
        missing_results: list[Entry] = []
        strays: list[Entry] = []  # indexed here, but their parent is elsewhere
        collected: set[str] = set()
        for member in group:
            for result in results_of.get(member["uuid"], ()):
                if result["uuid"] in on_chain or result["uuid"] in collected:
                    continue
                collected.add(result["uuid"])
                (missing_results if result["parentUuid"] in members else strays).append(result)
        if strays:
            if answered_on_chain is None:
                answered_on_chain = {c for e in chain for c in _block_ids(e, "tool_result", "tool_use_id")}
            missing_results += _open_call_answers(
                strays, members, answered_on_chain, missing_results, by_uuid, call_owner
            )
        if not missing_calls and not missing_results:
            continue
        recovered = sorted(missing_calls, key=_stamp) + sorted(missing_results, key=_stamp)
        on_chain.update(e["uuid"] for e in recovered)
        inserts[anchors[mid]["uuid"]] = recovered
    if not inserts:
        return chain
    out: list[Entry] = []
    for entry in chain:
        out.append(entry)
        out.extend(inserts.get(entry["uuid"], ()))
    return out


def _responses_in_chain_order(chain: list[Entry]) -> Iterable[tuple[str, Entry]]:
    """Each response on the chain once, with its first entry there."""
    done: set[str] = set()
    for entry in chain:
        mid = _message_id(entry)
        if mid and mid not in done:
            done.add(mid)
            yield mid, entry


def _open_call_answers(
    strays: list[Entry],
    members: set[str],
    answered_on_chain: set[str],
    found: list[Entry],
    by_uuid: dict[str, Entry],
    call_owner: dict[str, Entry | None],
) -> list[Entry]:
    """The strays (in file order) that answer a call of this response that
    nothing answers yet."""
    answered = set(answered_on_chain)
    for result in found:
        answered.update(_block_ids(result, "tool_result", "tool_use_id"))
    order = {uid: i for i, uid in enumerate(by_uuid)}
    taken: list[Entry] = []
    for result in sorted(strays, key=lambda e: order[e["uuid"]]):
        calls = _block_ids(result, "tool_result", "tool_use_id")
        if any(
            c not in answered and (owner := call_owner.get(c)) is not None and owner["uuid"] in members for c in calls
        ):
            answered.update(calls)
            taken.append(result)
    return taken


# -- messages -----------------------------------------------------------------------------


def _message(entry: Entry, parent_tool_use_id: str | None = None, parent_agent_id: str | None = None) -> SessionMessage:
    kind = entry.get("type")
    if kind == "system":
        # A system entry has no API message: what it says is in its own keys.
        message: Any = {k: entry[k] for k in ("subtype", "content", "level") if k in entry}
    else:
        message = entry.get("message")
    return SessionMessage(
        type="user" if kind == "user" else "system" if kind == "system" else "assistant",
        uuid=entry.get("uuid", ""),
        session_id=entry.get("sessionId", ""),
        message=message,
        parent_tool_use_id=parent_tool_use_id,
        parent_agent_id=parent_agent_id,
    )


def _visible(entry: Entry, system: bool = False) -> bool:
    # Compaction summaries stay: after a compaction they are all there is.
    return (
        entry.get("type") in (("user", "assistant", "system") if system else ("user", "assistant"))
        and not entry.get("isMeta")
        and not entry.get("isSidechain")
        and not entry.get("teamName")
    )


def session_messages(
    entries: list[Entry], limit: int | None, offset: int, *, system: bool = False
) -> list[SessionMessage]:
    """A page of a session's visible conversation, from its chain entries
    (with ``system``, its system entries too)."""
    return page_messages([_message(e) for e in build_chain(entries) if _visible(e, system)], limit, offset)


def _subagent_chain(entries: list[Entry]) -> list[Entry]:
    # A subagent transcript is linear: its last message is the leaf.
    leaf = next((e for e in reversed(entries) if e.get("type") in ("user", "assistant")), None)
    chain = list(_walk(leaf, {e["uuid"]: e for e in entries}))
    chain.reverse()
    return chain


def subagent_messages(
    entries: list[Entry],
    limit: int | None,
    offset: int,
    parent_tool_use_id: str | None = None,
    parent_agent_id: str | None = None,
) -> list[SessionMessage]:
    """A page of a subagent's conversation, every message carrying the ids
    of what started it."""
    chain = _subagent_chain(entries)
    messages = [
        _message(e, parent_tool_use_id, parent_agent_id) for e in chain if e.get("type") in ("user", "assistant")
    ]
    return page_messages(messages, limit, offset)


# -- subagent metadata ---------------------------------------------------------------------


def split_agent_metadata(entries: list[Any]) -> tuple[Entry | None, list[Any]]:
    """``(metadata, transcript)`` of a subagent's stored entries: a store
    keeps the ``.meta.json`` sidecar as ``agent_metadata`` entries (the last
    one counts: it is rewritten on resume)."""
    meta: Entry | None = None
    rest: list[Any] = []
    for entry in entries:
        if isinstance(entry, dict) and entry.get("type") == "agent_metadata":
            meta = dict(entry)
        else:
            rest.append(entry)
    return meta, rest


def parent_ids(meta: Entry | None) -> tuple[str | None, str | None]:
    """``(toolUseId, parentAgentId)`` of an agent's metadata."""
    if not meta:
        return None, None
    tool, agent = meta.get("toolUseId"), meta.get("parentAgentId")
    return (tool if isinstance(tool, str) else None, agent if isinstance(agent, str) else None)
