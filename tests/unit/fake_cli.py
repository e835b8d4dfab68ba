"""A tiny stand-in for the binary, driven by its argv (used by test_transport).

Each argument is one step, run in order:

* ``out:<text>`` / ``err:<text>``  write ``<text>`` (Python escapes decoded, so
  ``\\n`` is a newline) to stdout / stderr and flush;
* ``sleep:<seconds>``;
* ``bigline:<n>``  write one stdout line of ``n`` bytes (see ``big_block``) plus ``\\n``;
* ``errflood:<n>``  write ``n`` stderr lines ``stderr line <i>`` (numbered from 0);
* ``errblob:<n>``  write ``n`` bytes of ``E`` to stderr with no newline;
* ``manylines:<n>``  write ``n`` lines ``line <i>`` to stdout in one write;
* ``ignoreterm``  ignore SIGTERM;
* ``grandchild``  start a sleeping python grandchild in our process group and
  print ``grandchild <pid>`` on stdout;
* ``detached``  the same in a session of its own (as the binary's Bash tool
  runs commands), out of reach of a signal to our group;
* ``orphan``  start a sleeping python that clears its environment (``env
  -i``) and takes a session of its own, through a parent that exits at
  once, and print ``orphan <pid>`` on stdout: out of reach of the group
  signal and of the environment tag;
* ``pid``  print ``pid <own pid>`` on stdout;
* ``readeof``  read stdin until EOF;
* ``echo``  copy stdin lines to stdout until EOF;
* ``exit:<code>``  exit now with that code.
"""

from __future__ import annotations

import codecs
import os
import signal
import subprocess
import sys
import time

BLOCK = 1 << 20


def big_block(i: int, size: int = BLOCK) -> bytes:
    """The i-th 1 MiB block of a ``bigline`` (no newline anywhere)."""
    unit = f"<{i:07d}>".encode()  # 9 bytes
    return (unit * (size // len(unit) + 1))[:size]


def big_line(n: int) -> bytes:
    """The whole ``bigline:<n>`` payload without its newline (for small n in tests)."""
    blocks, rest = divmod(n, BLOCK)
    return b"".join(big_block(i) for i in range(blocks)) + big_block(blocks, rest)


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def main(argv: list[str]) -> int:
    children: list[subprocess.Popen[bytes]] = []
    for step in argv:
        op, _, arg = step.partition(":")
        if op == "out":
            _write(1, codecs.escape_decode(arg.encode())[0])
        elif op == "err":
            _write(2, codecs.escape_decode(arg.encode())[0])
        elif op == "sleep":
            time.sleep(float(arg))
        elif op == "bigline":
            n = int(arg)
            blocks, rest = divmod(n, BLOCK)
            for i in range(blocks):
                _write(1, big_block(i))
            _write(1, big_block(blocks, rest) + b"\n")
        elif op == "errflood":
            n = int(arg)
            batch: list[bytes] = []
            for i in range(n):
                batch.append(b"stderr line %d\n" % i)
                if len(batch) == 1000:
                    _write(2, b"".join(batch))
                    batch.clear()
            _write(2, b"".join(batch))
        elif op == "errblob":
            _write(2, b"E" * int(arg))
        elif op == "manylines":
            _write(1, b"".join(b"line %d\n" % i for i in range(int(arg))))
        elif op == "ignoreterm":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        elif op in ("grandchild", "detached"):
            child = subprocess.Popen(
                [sys.executable, "-c", "import time; time.sleep(120)"],
                stdin=subprocess.DEVNULL,
                # Detached like the binary's tool commands, which do not hold its pipes.
                stdout=subprocess.DEVNULL if op == "detached" else None,
                stderr=subprocess.DEVNULL if op == "detached" else None,
                start_new_session=op == "detached",
            )
            children.append(child)
            _write(1, b"grandchild %d\n" % child.pid)
        elif op == "orphan":
            read_end, write_end = os.pipe()
            # The orphan says when it runs (after env -i cleared its
            # environment); only then does the leaver report it and exit.
            leaver = (
                "import os, subprocess, sys; "
                "r, w = os.pipe(); "
                "code = 'import os, sys, time; os.write(int(sys.argv[1]), b\"!\"); time.sleep(120)'; "
                "p = subprocess.Popen(['env', '-i', sys.executable, '-c', code, str(w)], pass_fds=(w,), "
                "start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, "
                "stderr=subprocess.DEVNULL); "
                "os.close(w); os.read(r, 1); "
                "os.write(int(sys.argv[1]), b'%d' % p.pid)"
            )
            subprocess.run([sys.executable, "-c", leaver, str(write_end)], pass_fds=(write_end,), check=True)
            os.close(write_end)
            orphan = int(os.read(read_end, 64))
            os.close(read_end)
            _write(1, b"orphan %d\n" % orphan)
        elif op == "pid":
            _write(1, b"pid %d\n" % os.getpid())
        elif op == "hold":
            # Reads nothing until the test sends SIGUSR1 (blocked first, so a
            # signal sent as soon as "held" is read is not lost).
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
            _write(1, b"held\n")
            signal.sigwait({signal.SIGUSR1})
        elif op == "readeof":
            while os.read(0, 65536):
                pass
        elif op == "echo":
            for line in sys.stdin.buffer:
                _write(1, line)
        elif op == "exit":
            os._exit(int(arg))
        else:
            raise SystemExit(f"fake_cli: unknown step {step!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
