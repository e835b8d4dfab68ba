"""Run a `ScriptedModel` in the foreground: ``python -m claude_wrap.testing``.

Handy for driving the real binary by hand against a scripted, offline API.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Sequence
from types import FrameType

from claude_wrap.testing._recorded import RecordedRequest
from claude_wrap.testing._script import SCRIPT_FORMAT, load_script
from claude_wrap.testing._server import ScriptedModel

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m claude_wrap.testing",
        description="Serve a fake Anthropic Messages API on loopback that answers from a script.",
        epilog=SCRIPT_FORMAT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--port", type=int, default=0, help="TCP port (default: a free one, printed)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    parser.add_argument("--script", metavar="FILE", help="JSON or NDJSON reply script (format below)")
    parser.add_argument(
        "--count-tokens",
        type=int,
        default=10,
        help="input_tokens answered by count_tokens",
    )
    parser.add_argument("--quiet", action="store_true", help="do not log requests to stderr")
    return parser


def _log(request: RecordedRequest) -> None:
    kind = "count_tokens" if request.is_count_tokens else ("main" if request.is_main else "side")
    note = " (no reply queued)" if request.unexpected else ""
    status = request.status or "stalled"
    print(
        f"{request.method} {request.path} [{kind}] model={request.model} -> {status}{note}",
        file=sys.stderr,
        flush=True,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Serve until interrupted (Ctrl-C or SIGTERM); returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        replies = load_script(args.script) if args.script else []
    except (OSError, ValueError) as exc:
        print(f"error: cannot load script: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    model = ScriptedModel(
        *replies,
        host=args.host,
        port=args.port,
        count_tokens=args.count_tokens,
        on_request=None if args.quiet else _log,
    )
    with model:
        print(
            f"listening on {model.base_url} with {len(replies)} queued replies",
            flush=True,
        )
        print(
            f"  export ANTHROPIC_BASE_URL={model.base_url} ANTHROPIC_API_KEY=sk-test",
            flush=True,
        )
        try:
            # Event.wait with a timeout keeps Ctrl-C responsive on every platform.
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        unexpected = len(model.unexpected)
        print(
            f"served {len(model.requests)} requests; {len(model.pending)} replies left; {unexpected} unexpected",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
