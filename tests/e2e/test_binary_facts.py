"""What the pinned binary offers matches the committed record, and a bump says what changed.

``tests/fixtures/binary_facts.json`` records the facts of the pinned Claude
Code (``scripts/binary_facts.py``: ``--version``, the options and commands of
``--help``, the hook events and control subtypes it knows, the keys and lists
of one scripted run). ``make bump`` rewrites it. When the binary the suite
runs and the record disagree, each fact fails on its own and names what was
added and removed, so a person reading a bumped suite's output sees what the
new binary changed.
"""

from __future__ import annotations

from typing import Any

import pytest
from _scripts import load_script

from claude_wrap._process.binary import binary_info, pinned_version

pytestmark = pytest.mark.e2e

facts = load_script("binary_facts")
RECORD: dict[str, Any] = facts.load_record()


@pytest.fixture(scope="module")
def live(cli_path: str) -> dict[str, Any]:
    collected: dict[str, Any] = facts.collect(cli_path)
    return collected


def test_the_record_describes_the_pinned_version(cli_path: str) -> None:
    # The binary under test is the pinned one, and the record was made from it.
    assert binary_info(cli_path).version == pinned_version()
    assert RECORD["version"] == pinned_version(), "run `make bump` (or scripts/binary_facts.py --write)"


@pytest.mark.parametrize("fact", sorted(RECORD))
def test_binary_fact_matches_the_record(live: dict[str, Any], fact: str) -> None:
    changed = facts.changes({fact: RECORD[fact]}, {fact: live.get(fact)})
    assert changed == [], "the binary differs from tests/fixtures/binary_facts.json:\n" + "\n".join(changed)


def test_no_fact_is_missing_from_the_record(live: dict[str, Any]) -> None:
    assert sorted(live.keys() - RECORD.keys()) == []


def test_changes_name_what_was_added_and_removed() -> None:
    old = {"version": "1.0.0", "hook_events": ["A", "B"], "frame_keys": {"result": ["x", "y"]}, "gone": 1}
    new = {"version": "1.1.0", "hook_events": ["A", "C"], "frame_keys": {"result": ["y", "x"]}, "options": ["--z"]}
    assert facts.changes(old, new) == [
        "frame_keys[result]: same items, new order ['y', 'x']",
        "gone: no longer reported (was 1)",
        "hook_events: added C",
        "hook_events: removed B",
        "options: new fact ['--z']",
        "version: '1.0.0' -> '1.1.0'",
    ]
    assert facts.changes(new, new) == []
