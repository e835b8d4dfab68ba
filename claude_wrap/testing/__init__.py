"""Test kit for code that drives the Claude Code binary.

`ScriptedModel` is a fake Anthropic Messages API on loopback that answers
from a script of `Reply` objects, so the real binary runs offline and
deterministically. The pytest fixtures ``scripted_model`` and ``claude_env``
live in ``claude_wrap.testing.pytest_plugin`` (registered automatically).

pytest imports this package at startup wherever claude_wrap is installed,
so, like ``claude_wrap`` itself, it loads each public name from its module
on first use. To export a new name, add it to ``_EXPORTS`` and to the
``TYPE_CHECKING`` imports below.
"""

from __future__ import annotations

# Not typing.TYPE_CHECKING: importing typing would be most of this import's cost.
TYPE_CHECKING = False

from claude_wrap._lazy import lazy_exports

# Public name → the private module that defines it.
_EXPORTS: dict[str, str] = {
    # the fake API server
    "ScriptedModel": "_server",
    "NO_REPLY_TEXT": "_server",
    "SIDE_REPLY_TEXT": "_server",
    "RecordedRequest": "_recorded",
    # reply builders
    "Reply": "_replies",
    "Matcher": "_replies",
    "ScriptedBlock": "_replies",
    "ScriptedText": "_replies",
    "ScriptedThinking": "_replies",
    "ScriptedToolUse": "_replies",
    "Usage": "_replies",
    # an in-memory stand-in for the binary
    "MockTransport": "_mock_transport",
    "initialize_response": "_mock_transport",
    # script files
    "load_script": "_script",
    "reply_from_json": "_script",
    # session stores
    "run_session_store_conformance": "_store_conformance",
}

__all__ = sorted(_EXPORTS)


# Only at run time: a type checker reads the imports below, and sees no
# module __getattr__ that would make any misspelt name type-check.
if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), __all__)


if TYPE_CHECKING:
    # "X as X" marks these as re-exports for type checkers and linters.
    from claude_wrap.testing._mock_transport import (
        MockTransport as MockTransport,
        initialize_response as initialize_response,
    )
    from claude_wrap.testing._recorded import RecordedRequest as RecordedRequest
    from claude_wrap.testing._replies import (
        Matcher as Matcher,
        Reply as Reply,
        ScriptedBlock as ScriptedBlock,
        ScriptedText as ScriptedText,
        ScriptedThinking as ScriptedThinking,
        ScriptedToolUse as ScriptedToolUse,
        Usage as Usage,
    )
    from claude_wrap.testing._script import load_script as load_script, reply_from_json as reply_from_json
    from claude_wrap.testing._server import (
        NO_REPLY_TEXT as NO_REPLY_TEXT,
        SIDE_REPLY_TEXT as SIDE_REPLY_TEXT,
        ScriptedModel as ScriptedModel,
    )
    from claude_wrap.testing._store_conformance import run_session_store_conformance as run_session_store_conformance
