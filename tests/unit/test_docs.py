"""README.md and the docs site stay honest: the site builds with
``mkdocs build --strict``, every page is in its navigation, every public
name is in its API reference, the Python examples compile and import names
that exist, the options table lists every option, and the README stays a
front page. The examples themselves run in
``tests/e2e/test_docs_e2e.py`` (see ``tests/support/_docs.py`` for the markers).
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import importlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from _docs import DOCS, EXAMPLES, FRAGMENT, README, ROOT, Block, all_blocks, claude_wrap_imports, pages, private

BLOCKS = all_blocks()


def _page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def test_every_page_has_python_examples_that_run() -> None:
    assert len(BLOCKS) >= 30
    without = [
        p.name
        for p in pages()
        if p.parent == DOCS and p.name not in _PROSE_ONLY and not any(b.page == p for b in BLOCKS)
    ]
    assert not without, f"guides without a Python example: {without}"
    assert sum(b.runs for b in BLOCKS) >= 25


# Pages that are prose, tables or included files by nature.
_PROSE_ONLY = {
    "architecture.md",
    "benchmarks.md",
    "binary.md",
    "changelog.md",
    "cli.md",
    "differences.md",
    "security.md",
}


@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_example_compiles(block: Block) -> None:
    tree = block.tree()
    compile(tree, str(block), "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)


@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_claude_wrap_imports_resolve(block: Block) -> None:
    for node in ast.walk(block.tree()):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "claude_wrap":
            assert node.module is not None
            module = importlib.import_module(node.module)
            for alias in node.names:
                if hasattr(module, alias.name):
                    continue
                # ``from claude_wrap import testing`` names a submodule.
                importlib.import_module(f"{node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "claude_wrap":
                    importlib.import_module(alias.name)


@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_examples_use_public_names_only(block: Block) -> None:
    assert not [name for name in claude_wrap_imports(block.tree()) if private(name)], str(block)


def test_snippets_show_files_that_exist() -> None:
    shown = {b.snippet for b in BLOCKS if b.snippet is not None}
    assert shown == set(EXAMPLES.glob("*.py")), "docs/examples.md shows every example"


def test_compile_only_blocks_are_few_and_say_why() -> None:
    skipped = [b for b in BLOCKS if b.compile_only is not None]
    assert len(skipped) <= 3, [str(b) for b in skipped]


def test_explain_example_matches_its_output() -> None:
    """The argv and ``initialize`` shown under the explain() example are what it prints."""
    text = _page("options.md")
    section = text[text.index("## `explain()`") :]
    code = next(b for b in BLOCKS if b.page.name == "options.md" and "explain()" in b.source)
    shown = re.search(r"```text\n(.*?)```", section, re.DOTALL)
    assert shown is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.source, str(code), "exec", dont_inherit=True), {"__name__": "docs_example"})  # noqa: S102

    def parts(printed: str) -> tuple[list[str], str, str]:
        fields = dict(line.split(": ", 1) for line in printed.splitlines() if not line.startswith(" ") and ": " in line)
        return json.loads(fields["argv"])[1:], fields["cwd"], fields["initialize"]

    assert parts(out.getvalue()) == parts(shown.group(1))


def test_options_table_lists_every_option_once() -> None:
    from claude_wrap import ClaudeAgentOptions

    text = _page("options.md")
    start = text.index("## The options")
    table = text[start : text.index("\n## ", start + 1)]
    rows = re.findall(r"^\| `(\w+)`", table, re.MULTILINE)
    fields = [f.name for f in dataclasses.fields(ClaudeAgentOptions)]
    assert sorted(rows) == sorted(fields)


def test_scripts_and_make_targets_named_in_the_docs_exist() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([\w-]+):", makefile, re.MULTILINE))
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for script in set(re.findall(r"scripts/(\w+\.(?:py|sh))", text)):
            assert (ROOT / "scripts" / script).is_file(), (page.name, script)
        for target in set(re.findall(r"`make (\w+)", text)) | set(re.findall(r"^make (\w+)", text, re.MULTILINE)):
            assert target in targets, (page.name, target)
        for example in set(re.findall(r"examples/(\w+\.py)", text)):
            assert (EXAMPLES / example).is_file(), (page.name, example)


# ----------------------------------------------------------------------------- the README


def test_readme_is_a_front_page() -> None:
    assert len(README.read_bytes()) <= 12 * 1024
    text = README.read_text(encoding="utf-8")
    quick_start = text[text.index("## Quick start") :]
    code = next(b for b in BLOCKS if b.page == README and b.runs)
    assert code.source in quick_start and len(code.source.splitlines()) <= 30


def test_readme_links_into_the_docs() -> None:
    text = README.read_text(encoding="utf-8")
    links = set(re.findall(r"\]\(((?:docs|examples)/[^)#]*)", text))
    assert {f"docs/{p.relative_to(DOCS).as_posix()}" for p in DOCS.glob("*.md")} - {
        "docs/changelog.md",
        "docs/security.md",
    } <= links
    for link in links:
        assert (ROOT / link).exists(), link


# ----------------------------------------------------------------------------- the site


def _config() -> dict[str, object]:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert isinstance(config, dict)
    return config


def _nav_pages(nav: object) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [p for item in nav for p in _nav_pages(item)]
    if isinstance(nav, dict):
        return [p for value in nav.values() for p in _nav_pages(value)]
    return []


def test_every_page_is_in_the_navigation() -> None:
    listed = _nav_pages(_config()["nav"])
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))


def test_the_reference_documents_every_public_name_once() -> None:
    import claude_wrap
    import claude_wrap.cli
    import claude_wrap.fleet
    import claude_wrap.sync
    import claude_wrap.testing

    documented = re.findall(
        r"^::: ([\w.]+)$",
        "".join(_page(f"reference/{p.name}") for p in (DOCS / "reference").glob("*.md")),
        re.MULTILINE,
    )
    assert len(documented) == len(set(documented))
    expected = {f"claude_wrap.{n}" for n in claude_wrap.__all__ if not n.startswith("__")}
    for module in (claude_wrap.sync, claude_wrap.testing, claude_wrap.cli, claude_wrap.fleet):
        expected |= {f"{module.__name__}.{n}" for n in module.__all__}
    assert set(documented) == expected


@pytest.mark.slow
def test_site_builds_strictly(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,  # snippets are read from the repository root
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log
    assert "WARNING" not in log, log
    built = (tmp_path / "site" / "reference" / "runs" / "index.html").read_text(encoding="utf-8")
    assert "Run the agent on" in built  # query()'s docstring made it into the reference


def test_a_block_that_awaits_at_its_top_level_says_it_is_a_fragment() -> None:
    # Pasted into a file as they are, such blocks are a SyntaxError: each
    # says so on its first line; every other block is a whole program.
    for block in all_blocks():
        if block.snippet is not None:
            continue
        try:
            compile(block.source, str(block), "exec", dont_inherit=True)
            whole = True
        except SyntaxError:
            whole = False
        assert block.source.startswith(FRAGMENT) != whole, f"{block}: {'marked' if whole else 'not marked'}"
