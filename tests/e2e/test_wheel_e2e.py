"""The linux-x64 platform wheel and the pure wheel, installed into a brand-new venv.

One slow test (a 373 MB binary goes into a wheel and out again): it builds
the wheels once, installs the platform wheel into a fresh venv (its four
dependencies come from the package index through pip's own configuration),
runs a query there with no options, then swaps in the pure wheel and checks
the fallbacks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from _scripts import load_script

from claude_wrap._process.binary import cache_root, current_platform, pinned_version
from claude_wrap.testing import Reply, ScriptedModel

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import anyio
from claude_wrap import ResultMessage, binary_info, query

info = binary_info()
out = {"source": info.source, "path": str(info.path), "version": info.version}
if "--query" in sys.argv:
    async def main():
        async for message in query(prompt="hello from the wheel"):
            if isinstance(message, ResultMessage):
                out["result"] = message.result
    anyio.run(main)
print(json.dumps(out))
"""


@pytest.fixture(scope="session")
def built_wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The pure and linux-x64 wheels, built once per session (fast deflate level)."""
    if current_platform() != "linux-x64":  # pragma: no cover - the done-criterion names this platform
        pytest.fail("the wheel test runs on linux-x64")
    script = load_script("build_wheels")
    out = tmp_path_factory.mktemp("wheels")
    built = script.build(["linux-x64"], out, sdist=False, compresslevel=1, log=False)
    pure, platform = built
    return {"script": Path(script.__file__), "pure": pure, "platform": platform}


def _run(argv: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    # Never the checkout as cwd: `python -c` would import claude_wrap from it.
    proc = subprocess.run(
        argv, capture_output=True, text=True, env=env, cwd=cwd or tempfile.gettempdir(), timeout=300, check=False
    )
    assert proc.returncode == 0, f"{argv} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def test_platform_wheel_in_a_new_venv_then_pure_wheel_fallbacks(
    built_wheels: dict[str, Path], scripted_model: ScriptedModel, tmp_path: Path, workdir: Path
) -> None:
    script = load_script("build_wheels")
    wheel = built_wheels["platform"]
    assert wheel.name.startswith("claude_wrap_sdk-") and wheel.name.endswith("-py3-none-manylinux_2_17_x86_64.whl")

    # The listing: exactly one binary, executable.
    listing = script.wheel_listing(wheel)
    bundled = [line for line in listing if "/_bundled/" in line]
    assert (
        len(bundled) == 1 and bundled[0].startswith("-rwxr-xr-x") and bundled[0].endswith("claude_wrap/_bundled/claude")
    )
    assert not any("/_bundled/" in line for line in script.wheel_listing(built_wheels["pure"]))

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    py, pip = venv / "bin" / "python", [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
    _run([*pip, "install", "--quiet", str(wheel)])

    # Nothing from this checkout or its caches: only the scripted model's env.
    base = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "ANTHROPIC_", "PYTHON", "VIRTUAL_ENV"))}
    empty_cache = tmp_path / "empty-cache"
    env = dict(base, **scripted_model.env(tmp_path / "home"), CLAUDE_WRAP_CACHE_DIR=str(empty_cache))
    probe = tmp_path / "probe.py"
    probe.write_text(textwrap.dedent(PROBE))
    site = Path(
        _run([str(py), "-c", "import claude_wrap, os; print(os.path.dirname(claude_wrap.__file__))"], env).strip()
    )
    assert site.is_relative_to(venv)
    assert os.access(site / "_bundled" / "claude", os.X_OK)

    scripted_model.add(Reply.text("the bundled binary answered"))
    info = json.loads(_run([str(py), str(probe), "--query"], env, cwd=workdir))
    assert info == {
        "source": "bundled",
        "path": str(site / "_bundled" / "claude"),
        "version": pinned_version(),
        "result": "the bundled binary answered",
    }
    assert scripted_model.main_requests[-1].last_user_text == "hello from the wheel"
    assert _run([str(venv / "bin" / "claude-wrap"), "version"], env).splitlines()[-1].endswith("(bundled)")

    # A newer `claude` on PATH wins only when asked to.
    fake_bin = tmp_path / "fake-bin"
    fake_bin.mkdir()
    fake = fake_bin / "claude"
    fake.write_text("#!/bin/sh\necho 9.9.9 '(Claude Code)'\n")
    fake.chmod(0o755)
    with_path = dict(env, PATH=f"{fake_bin}{os.pathsep}{env['PATH']}")
    assert json.loads(_run([str(py), str(probe)], with_path))["source"] == "bundled"
    preferred = json.loads(_run([str(py), str(probe)], dict(with_path, CLAUDE_WRAP_PREFER_PATH="1")))
    assert (preferred["source"], preferred["version"]) == ("path", "9.9.9")

    # The pure wheel has no binary: cache first, then PATH, then a clear error.
    _run([*pip, "install", "--quiet", "--no-deps", "--force-reinstall", str(built_wheels["pure"])])
    assert not (site / "_bundled").exists()
    cached = json.loads(_run([str(py), str(probe)], dict(with_path, CLAUDE_WRAP_CACHE_DIR=str(cache_root()))))
    assert cached["source"] == "cache" and cached["version"] == pinned_version()
    assert json.loads(_run([str(py), str(probe)], with_path))["source"] == "path"
    missing = subprocess.run(
        [str(py), str(probe)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60, check=False
    )
    assert missing.returncode != 0 and "CLINotFoundError" in missing.stderr
