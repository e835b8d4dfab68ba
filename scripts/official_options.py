"""Record the official package's ``ClaudeAgentOptions``: its fields, and how
it starts the binary for each option set.

``fields``: every field in order, with its parameter kind and its default
(or default factory). ``launches``: for every case of
``tests/support/option_cases.py``, what ``query()`` of the installed official
``claude-agent-sdk`` gave a stand-in binary that writes down its command
line, its environment and the ``initialize`` request it reads, then exits.
The result, ``tests/fixtures/official_options.json``, is what
``tests/unit/test_official_options.py`` holds claude_wrap to. Run it with
the interpreter that has the official package, from the repository root::

    build/official-venv/bin/python scripts/official_options.py
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "official_options.json"

# The stand-in binary: records argv, environment and the first stdin line.
_RECORDER = """\
import json, os, sys
line = sys.stdin.readline()
record = {"argv": sys.argv[1:], "env": dict(os.environ), "initialize": json.loads(line)["request"] if line else None}
with open(os.environ["LAUNCH_RECORD"], "w", encoding="utf-8") as fh:
    json.dump(record, fh)
sys.exit(3)
"""


def load_cases() -> Any:
    spec = importlib.util.spec_from_file_location("option_cases", ROOT / "tests" / "support" / "option_cases.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def prepare_workdir(path: Path) -> None:
    """The files the cases name, relative to the working directory."""
    (path / "settings.json").write_text('{"permissions": {"allow": ["Read"]}}', encoding="utf-8")
    (path / "prompt.md").write_text("You are a file prompt.", encoding="utf-8")
    (path / "mcp.json").write_text('{"mcpServers": {}}', encoding="utf-8")
    (path / "plugin").mkdir(exist_ok=True)


def env_changes(child: dict[str, str], parent: dict[str, str]) -> dict[str, str | None]:
    changes: dict[str, str | None] = {k: None for k in parent if k not in child}
    changes.update({k: v for k, v in child.items() if parent.get(k) != v})
    changes.pop("LAUNCH_RECORD", None)
    return changes


async def record_case(sdk: Any, kwargs: dict[str, Any], cli: str, record: Path) -> dict[str, Any]:
    options = sdk.ClaudeAgentOptions(cli_path=cli, **kwargs)
    try:
        async for _ in sdk.query(prompt="hi", options=options):
            pass
    except Exception:  # noqa: BLE001 - the stand-in exits at once, by design
        pass
    data = json.loads(record.read_text(encoding="utf-8"))
    record.unlink()
    return data


def main() -> int:
    import claude_agent_sdk as sdk

    logging.getLogger("claude_agent_sdk").setLevel(logging.CRITICAL)  # the stand-in's exit is expected
    cases = load_cases()
    params = sdk.ClaudeAgentOptions.__dataclass_params__
    out: dict[str, Any] = {
        "version": sdk.__version__,
        "dataclass": {"frozen": params.frozen, "eq": params.eq, "order": params.order},
        "fields": cases.describe_fields(sdk.ClaudeAgentOptions),
        "launches": {},
    }
    with tempfile.TemporaryDirectory(prefix="official-launches-") as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        prepare_workdir(work)
        cli = Path(tmp) / "claude"
        cli.write_text(f"#!{sys.executable}\n{_RECORDER}", encoding="utf-8")
        cli.chmod(cli.stat().st_mode | stat.S_IXUSR)
        record = Path(tmp) / "record.json"
        os.environ.update(cases.PARENT_ENV, LAUNCH_RECORD=str(record))
        os.chdir(work)
        parent = dict(os.environ)
        for name, kwargs in cases.cases(sdk).items():
            data = asyncio.run(record_case(sdk, kwargs, str(cli), record))
            text = json.dumps(
                {
                    "argv": data["argv"],
                    "env_changes": env_changes(data["env"], parent),
                    "initialize": data["initialize"],
                }
            )
            out["launches"][name] = json.loads(text.replace(str(work), "<cwd>"))
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(
        f"wrote {OUT.relative_to(ROOT)}: {len(out['fields'])} fields, {len(out['launches'])} launches "
        f"from claude-agent-sdk {out['version']}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
