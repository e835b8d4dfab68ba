"""The same program on the official package and on claude_wrap: same observations.

Each test runs one program (an official example, or one of ours in
programs/) on both packages against the same binary and the same scripted
model, and fails with a readable diff on any difference that
intentional.py does not explain. ``python scripts/twin.py NAME`` reruns one
by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from _twin_pool import TwinPool
from _twin_programs import EXAMPLE_SPECS, Entry, entries, example_units
from _twin_report import UNSTEADY, report

pytestmark = [pytest.mark.compat, pytest.mark.e2e]


ENTRIES = entries()
# Store adapters are modules, not programs: test_store_adapters.py runs them.
PROGRAMS = [e for e in ENTRIES if e.adapter is None]


@pytest.mark.parametrize("entry", [pytest.param(e, id=e.name) for e in PROGRAMS])
def test_same_observations(
    entry: Entry, twins: TwinPool, official_examples: Path, record_property: Callable[[str, object], None]
) -> None:
    twin = twins.result(entry)
    verdict = report(twin)
    if verdict.ok:
        return
    # The binary decides some things by the timing of its own event loop
    # (where an interrupt lands, which stack it prints); a difference that
    # a second run of both sides does not show again is listed in the
    # session summary, not failed. One that shows again fails.
    again = twins.rerun(entry, official_examples)
    second = report(again)
    if not second.ok:
        pytest.fail(second.text(again), pytrace=False)
    record_property(UNSTEADY, verdict.text(twin))  # conftest.py lists it at the end


def test_every_example_has_a_spec(official_examples: Path) -> None:
    """An example added to the pinned release fails here until it has a spec
    (a program's, or an adapter's for test_store_adapters.py)."""
    offered = {
        f"{Path(file).with_suffix('').as_posix().replace('/', '.')}.{unit}"
        for file, units in example_units(official_examples).items()
        for unit in units
    }
    specified = {e.name.removeprefix("example-") for e in ENTRIES if e.spec_path.parent == EXAMPLE_SPECS}
    assert sorted(offered - specified) == [], "examples without a spec"
    assert sorted(specified - offered) == [], "specs for examples the release does not have"


def test_enough_programs_of_our_own() -> None:
    own = [e for e in PROGRAMS if e.spec_path.parent != EXAMPLE_SPECS]
    assert len(own) >= 20
