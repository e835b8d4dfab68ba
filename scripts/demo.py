#!/usr/bin/env python3
"""An example agent: read a file, run a command on it, answer.

    python scripts/demo.py                          # offline: a scripted model plays the API
    ANTHROPIC_API_KEY=... python scripts/demo.py    # the real API, same prompt
    ANTHROPIC_API_KEY=... python scripts/demo.py --offline   # scripted model even so

It drives the real Claude Code binary through ``claude_wrap.query()`` and
shows the run with ``claude_wrap.cli.LiveView``, the live view of
``claude-wrap run`` (public names only). The demo creates a small file in a
temporary working directory and asks the agent to read it (``Read``) and
count its lines (``Bash``), allowing exactly those two tools. Offline, a
``ScriptedModel`` on 127.0.0.1 answers the binary's API calls with a fixed
script, so no network or key is needed.

Against the real API, a failing call is retried by the binary; each retry
is shown as it happens, and ``CLAUDE_CODE_MAX_RETRIES`` bounds them (the
demo uses 2 unless it is set), so an unreachable API fails in seconds, not
minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from claude_wrap import ClaudeAgentOptions, ClaudeSDKError, ResultMessage, binary_info, query
from claude_wrap.cli import LiveView, result_line

NOTES = """\
Shopping list for the team offsite
- coffee (two bags, one decaf)
- oat milk
- bagels and cream cheese
- fruit for the afternoon
- sparkling water
"""

PROMPT = (
    "Read the file notes.txt in the current directory, then use Bash to run "
    "`wc -l notes.txt`, and tell me in one or two sentences what the file is "
    "about and how many lines it has."
)
DEMO_MAX_RETRIES = "2"


def offline_replies(notes: Path) -> list[Any]:
    """The script the fake API follows: Read, then Bash, then a text answer."""
    from claude_wrap.testing import Reply

    count = NOTES.count("\n")
    return [
        Reply.tool_use("Read", {"file_path": str(notes)}, text="I'll read the file first."),
        Reply.tool_use(
            "Bash",
            {"command": "wc -l notes.txt", "description": "Count the lines of notes.txt"},
            text="Now let me count its lines.",
        ),
        Reply.text(
            f"notes.txt is a shopping list for a team offsite (coffee, oat milk, bagels, "
            f"fruit and sparkling water); it has {count} lines."
        ),
    ]


async def run(options: ClaudeAgentOptions, version: str | None, api_url: str | None) -> ResultMessage | None:
    # The same live view as `claude-wrap run`: text, one line per tool call
    # with its outcome and, on a terminal, a status line from the first
    # second (starting, waiting for the model, the running tool).
    view = LiveView(sys.stdout, tty=sys.stdout.isatty(), version=version, api_url=api_url)
    try:
        async for message in query(prompt=PROMPT, options=options):
            view.handle(message)
    finally:
        view.close()
    return view.result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run an example agent (offline unless ANTHROPIC_API_KEY is set).")
    parser.add_argument("--offline", action="store_true", help="use the scripted model even with ANTHROPIC_API_KEY set")
    args = parser.parse_args(argv)
    live = bool(os.environ.get("ANTHROPIC_API_KEY")) and not args.offline
    with tempfile.TemporaryDirectory(prefix="claude-wrap-demo-") as tmp:
        workdir = Path(tmp) / "work"
        workdir.mkdir()
        notes = workdir / "notes.txt"
        notes.write_text(NOTES, encoding="utf-8")

        options_fields: dict[str, Any] = {
            "cwd": workdir,
            "allowed_tools": ["Read", "Bash"],
            "setting_sources": [],  # ignore the user's and project's settings files
        }
        model = None
        if live:
            url = os.environ.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com"
            retries = os.environ.get("CLAUDE_CODE_MAX_RETRIES") or DEMO_MAX_RETRIES
            options_fields["env"] = {"CLAUDE_CODE_MAX_RETRIES": retries}
            mode = f"live: the real API at {url} (ANTHROPIC_API_KEY is set; --offline uses the scripted model)"
            waiting = (
                f"Waiting for the API: a failing call is retried up to {retries} times "
                "(CLAUDE_CODE_MAX_RETRIES), each retry shown below."
            )
        else:
            from claude_wrap.testing import ScriptedModel

            model = ScriptedModel(*offline_replies(notes)).start()
            url = model.base_url
            # An isolated HOME and a dummy key pointing at the scripted model.
            options_fields["env"] = model.env(Path(tmp) / "home")
            mode = "offline: a scripted model on 127.0.0.1 (set ANTHROPIC_API_KEY for the real API)"
            waiting = ""

        try:
            info = binary_info()
            print(f"claude_wrap demo — {mode}")
            print(f"binary:  Claude Code {info.version} ({info.path})")
            print(f"workdir: {workdir}")
            print(f"prompt:  {PROMPT}")
            print()
            if waiting:
                print(waiting, flush=True)
            result = asyncio.run(run(ClaudeAgentOptions(**options_fields), info.version, url))
        except ClaudeSDKError as exc:
            print(f"\ndemo failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 1
        finally:
            if model is not None:
                model.close()

    if result is None:
        print("\ndemo failed: the run ended without a result", file=sys.stderr)
        return 1
    print()
    print(result_line(result))
    if model is not None and model.errors:
        print("scripted model errors:\n" + "\n".join(model.errors), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
