"""The synchronous client offers what the async client offers: every public
method and property, with the same parameters, each documented."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from claude_wrap import ClaudeSDKClient, sync


def _public(cls: type) -> dict[str, Any]:
    return {name: value for name, value in vars(cls).items() if not name.startswith("_")}


ASYNC = _public(ClaudeSDKClient)
SYNC = _public(sync.ClaudeSDKClient)


def test_every_public_member_of_the_async_client_has_a_sync_twin() -> None:
    assert sorted(set(ASYNC) - set(SYNC)) == []
    # The rest are the async client's instance attributes (``options``).
    instance = ClaudeSDKClient()
    assert [name for name in set(SYNC) - set(ASYNC) if not hasattr(instance, name)] == []


@pytest.mark.parametrize("name", sorted(ASYNC))
def test_same_parameters_and_a_docstring(name: str) -> None:
    theirs, ours = ASYNC[name], SYNC.get(name)
    assert ours is not None, f"sync.ClaudeSDKClient has no {name}"
    assert type(ours) is type(theirs)  # a method stays a method, a property a property
    assert inspect.getdoc(ours), f"sync.ClaudeSDKClient.{name} has no docstring"
    if callable(theirs):
        expected = [(p.name, p.kind, p.default) for p in inspect.signature(theirs).parameters.values()]
        got = [(p.name, p.kind, p.default) for p in inspect.signature(ours).parameters.values()]
        assert got == expected
