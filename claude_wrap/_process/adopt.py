"""Start the binary as a child subreaper (Linux).

A command the binary's Bash tool starts in the background can leave its
parent behind (``setsid sleep 300 &``), clear its environment (``env -i``)
and start a session of its own: a signal to the binary's process group
misses it, and so does a sweep by environment tag. Orphaned, it would be
adopted by init. A child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``)
adopts it instead, so while the binary lives every process its run started
is below it, and a close finds them all by walking the binary's children
(``_process.guard.descendants``).

The attribute survives ``execve``, so this script sets it on itself and
then becomes the binary: the process the host started is the binary, with
its pid and exit status, no process in between. Run as
``python -I -S adopt.py BINARY ARGS...``: standard library only, about 10 ms
before the binary starts. Where ``prctl`` is missing (not Linux) the binary
just runs.
"""

from __future__ import annotations

import os
import sys

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Mark this process a child subreaper; False where that is not possible."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def main(argv: list[str]) -> None:
    become_subreaper()
    os.execv(argv[1], argv[1:])


if __name__ == "__main__":
    main(sys.argv)
