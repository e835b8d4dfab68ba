"""The ``claude-wrap`` command's building blocks, for programs that show a
run to a person the way ``claude-wrap run`` does::

    import sys
    from claude_wrap import query
    from claude_wrap.cli import LiveView, result_line

    view = LiveView(sys.stdout, tty=sys.stdout.isatty())
    try:
        async for message in query(prompt="..."):
            view.handle(message)
    finally:
        view.close()
    if view.result is not None:
        print(result_line(view.result))

``main`` runs the command itself with a list of arguments. Like the rest of
the package, importing this module loads only the standard library.
"""

from __future__ import annotations

import sys

from claude_wrap._cli import LiveView, main, network_cause, result_line, retry_line, stream_json
from claude_wrap._lazy import publish

__all__ = ["LiveView", "main", "network_cause", "result_line", "retry_line", "stream_json"]

publish(sys.modules["claude_wrap._cli"], __all__, __name__)
