"""Reply scripts as files: JSON or NDJSON, for driving the binary by hand."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from claude_wrap.testing._replies import (
    Reply,
    ScriptedBlock,
    ScriptedText,
    ScriptedThinking,
    ScriptedToolUse,
    Usage,
)

__all__ = ["SCRIPT_FORMAT", "load_script", "reply_from_json"]

#: Human-readable description of the script format (shown by ``--help``).
SCRIPT_FORMAT = """\
Script file format: a JSON array of replies, or NDJSON with one reply per
line (blank lines and lines starting with '#' are skipped). Replies answer
main-loop requests in order. A reply is a JSON string (a text reply) or an
object with exactly one of these keys:

  {"text": "Hello"}
  {"tool_use": {"name": "Bash", "input": {"command": "ls"}, "id": "toolu_1"}}
  {"thinking": "Let me think", "signature": "c2ln"}
  {"blocks": [{"type": "thinking", "thinking": "..."},
              {"type": "text", "text": "..."},
              {"type": "tool_use", "name": "Bash", "input": {...}}]}
  {"error": {"status": 529, "message": "Overloaded", "retry_after": 1,
             "type": "overloaded_error"}}      (or just {"error": 500})
  {"stall": true}                            (never answers)

and any of these options:

  "usage": {"input_tokens": 200000, "output_tokens": 50,
            "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
  "stop_reason": "end_turn" | "tool_use" | "max_tokens" | ...
  "model": "name to report instead of the request's model"
  "match": "main" (default) | "any"
  "repeat": N            answer N matching requests
  "sticky": true         answer every matching request, never used up
  "first_byte_delay": seconds     "event_delay": seconds
  "chunk_size": bytes    split the SSE stream into writes of this size
  "stall_after": N       send N SSE events, then hang
  "delta_chars": N       characters per text/thinking/JSON delta
"""

_KINDS = ("text", "tool_use", "thinking", "blocks", "error", "stall")
_OPTIONS = frozenset(
    {
        "usage",
        "stop_reason",
        "model",
        "match",
        "repeat",
        "sticky",
        "first_byte_delay",
        "event_delay",
        "chunk_size",
        "stall_after",
        "delta_chars",
        "signature",
    }
)


def _block(raw: Any) -> ScriptedBlock:
    if isinstance(raw, str):
        return ScriptedText(raw)
    if not isinstance(raw, dict):
        raise ValueError(f"a block must be an object or a string, not {raw!r}")
    kind = raw.get("type")
    if kind == "text":
        return ScriptedText(str(raw["text"]))
    if kind == "thinking":
        return ScriptedThinking(
            str(raw["thinking"]),
            **({"signature": str(raw["signature"])} if "signature" in raw else {}),
        )
    if kind == "tool_use":
        return _tool_use(raw)
    raise ValueError(f"unknown block type {kind!r}")


def _tool_use(raw: Mapping[str, Any]) -> ScriptedToolUse:
    tool_input = raw.get("input", {})
    if not isinstance(tool_input, dict):
        raise ValueError("tool_use input must be an object")
    tool_id = raw.get("id")
    return ScriptedToolUse(str(raw["name"]), tool_input, None if tool_id is None else str(tool_id))


def reply_from_json(raw: Any) -> Reply:
    """Build a `Reply` from one script entry (see `SCRIPT_FORMAT`)."""
    if isinstance(raw, str):
        return Reply.text(raw)
    if not isinstance(raw, dict):
        raise ValueError(f"a reply must be an object or a string, not {raw!r}")
    kinds = [k for k in _KINDS if k in raw]
    if len(kinds) != 1:
        raise ValueError(f"a reply needs exactly one of {', '.join(_KINDS)}; got {sorted(raw)}")
    unknown = set(raw) - _OPTIONS - set(_KINDS)
    if unknown:
        raise ValueError(f"unknown reply keys: {sorted(unknown)}")
    kind = kinds[0]
    if kind == "text":
        reply = Reply.message(ScriptedText(str(raw["text"])))
    elif kind == "tool_use":
        reply = Reply.message(_tool_use(raw["tool_use"]))
    elif kind == "thinking":
        reply = Reply.message(
            _block(
                {
                    "type": "thinking",
                    **{k: raw[k] for k in ("thinking", "signature") if k in raw},
                }
            )
        )
    elif kind == "blocks":
        reply = Reply.message(*(_block(b) for b in raw["blocks"]))
    elif kind == "error":
        spec = raw["error"] if isinstance(raw["error"], dict) else {"status": raw["error"]}
        retry_after = spec.get("retry_after")
        reply = Reply.error(
            int(spec["status"]),
            spec.get("message"),
            retry_after=None if retry_after is None else float(retry_after),
            error_type=spec.get("type"),
        )
    else:
        reply = Reply.stall()
    return _apply_options(reply, raw)


def _apply_options(reply: Reply, raw: Mapping[str, Any]) -> Reply:
    if "usage" in raw:
        reply = reply.with_usage(**{k: int(v) for k, v in raw["usage"].items() if k in Usage.__dataclass_fields__})
    if "stop_reason" in raw or "model" in raw:
        reply = dataclasses.replace(
            reply,
            stop_reason=raw.get("stop_reason", reply.stop_reason),
            model=raw.get("model"),
        )
    match = raw.get("match", "main")
    if match == "any":
        reply = reply.match_any()
    elif match != "main":
        raise ValueError(f"match must be 'main' or 'any', not {match!r}")
    if "repeat" in raw:
        reply = reply.repeat(int(raw["repeat"]))
    if raw.get("sticky"):
        reply = reply.sticky()
    if "first_byte_delay" in raw or "event_delay" in raw:
        reply = reply.slow(float(raw.get("first_byte_delay", 0.0)), float(raw.get("event_delay", 0.0)))
    if "chunk_size" in raw:
        reply = reply.chunked(int(raw["chunk_size"]))
    if "delta_chars" in raw:
        reply = dataclasses.replace(reply, delta_chars=max(1, int(raw["delta_chars"])))
    if "stall_after" in raw:
        reply = reply.stall_after(int(raw["stall_after"]))
    return reply


def load_script(path: Path | str) -> list[Reply]:
    """Read a JSON or NDJSON script file into replies (see `SCRIPT_FORMAT`)."""
    text = Path(path).read_text(encoding="utf-8")
    stripped = text.lstrip()
    if stripped.startswith("["):
        entries = json.loads(stripped)
        return [reply_from_json(e) for e in entries]
    replies = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            replies.append(reply_from_json(json.loads(line)))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: {exc}") from exc
    return replies
