"""Helpers shared by the scripted-model tests."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from claude_wrap.testing import ScriptedModel


@dataclass
class Run:
    """Outcome of one binary run."""

    returncode: int
    frames: list[dict[str, Any]]
    stderr: str

    @property
    def result(self) -> dict[str, Any]:
        results = [f for f in self.frames if f.get("type") == "result"]
        assert results, f"no result frame; stderr:\n{self.stderr[-2000:]}"
        return results[-1]


def user_line(text: str) -> str:
    return json.dumps({"type": "user", "message": {"role": "user", "content": text}}) + "\n"


def base_argv(cli: str, *extra: str) -> list[str]:
    return [
        cli,
        "--output-format",
        "stream-json",
        "--verbose",
        "--input-format",
        "stream-json",
        "--setting-sources",
        "",
        *extra,
    ]


def _run_cli(
    cli: str,
    model: ScriptedModel,
    tmp_path: Path,
    prompt: str,
    *extra: str,
    max_retries: int = 0,
    timeout: float = 60,
) -> Run:
    cwd = tmp_path / "work"
    cwd.mkdir(exist_ok=True)
    proc = subprocess.run(
        base_argv(cli, *extra),
        input=user_line(prompt),
        capture_output=True,
        text=True,
        check=False,
        env=model.env(tmp_path / "home", max_retries=max_retries),
        cwd=cwd,
        timeout=timeout,
    )
    frames = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return Run(proc.returncode, frames, proc.stderr)


class RunCli:
    """Callable fixture value: run the binary once with one user message (stdin then EOF)."""

    def __init__(self, tmp_path: Path, cli: str) -> None:
        self.tmp_path = tmp_path
        self.cli = cli
        self.cwd = tmp_path / "work"

    def __call__(
        self,
        model: ScriptedModel,
        prompt: str,
        *extra: str,
        max_retries: int = 0,
        timeout: float = 60,
    ) -> Run:
        return _run_cli(
            self.cli,
            model,
            self.tmp_path,
            prompt,
            *extra,
            max_retries=max_retries,
            timeout=timeout,
        )


@pytest.fixture
def run_cli(tmp_path: Path, cli_path: str) -> RunCli:
    """Run the real binary against a scripted model; see `RunCli`."""
    return RunCli(tmp_path, cli_path)


@pytest.fixture
def cli(cli_path: str) -> str:
    """Path of the binary, found as users find it (fails the test if it is missing)."""
    return cli_path
