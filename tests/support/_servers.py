"""Real PostgreSQL, Redis and S3 servers on loopback, for the session-store tests.

`scripts/ci_services.sh` installs the Debian packages; these helpers start
private instances (own data dir under a temp dir, own port) and stop them.
The S3 server is moto's (a dev dependency), in a process of its own.
Also used by `scripts/bench_sessions.py`. Registered as a pytest plugin by
tests/conftest.py, so the session fixtures below exist once per test run.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import TypeVar

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, proc: subprocess.Popen[bytes] | None = None, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


# A watcher process per server: if this test process dies without its
# teardown (killed by a signal, say), the watcher stops the server, so no
# server outlives its owner. Polling a pid works whichever thread started
# the server, unlike PR_SET_PDEATHSIG, which follows the spawning thread.
_WATCHER = """
import os, shutil, signal, sys, time
owner, server, sig = map(int, sys.argv[1:4])
def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
while alive(server):
    if not alive(owner):
        os.kill(server, sig)
        for _ in range(100):
            if not alive(server):
                break
            time.sleep(0.1)
        shutil.rmtree(sys.argv[4], ignore_errors=True)
        break
    time.sleep(0.5)
"""


def _watch(server_pid: int, sig: signal.Signals, root: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", _WATCHER, str(os.getpid()), str(server_pid), str(int(sig)), root],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a Ctrl-C to the test run must not stop the watcher first
    )


def _unwatch(server: PostgresServer | _ChildServer) -> None:
    watcher, server.watcher = server.watcher, None
    if watcher is not None:
        watcher.kill()
        watcher.wait()


class PostgresServer:
    """A throwaway cluster: initdb + pg_ctl, trust auth on 127.0.0.1."""

    def __init__(self, *, durable: bool = False) -> None:
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
        found = bins[-1] if bins else shutil.which("pg_ctl")
        if not found:
            raise RuntimeError("PostgreSQL is not installed: run scripts/ci_services.sh")
        self.bin = os.path.dirname(found)
        self.port = free_port()
        self.root = tempfile.mkdtemp(prefix="cw-pg-")
        self.data = os.path.join(self.root, "data")
        self.durable = durable
        self.watcher: subprocess.Popen[bytes] | None = None
        # initdb refuses to run as root: use the packaged "postgres" account then.
        self.user = None
        if os.geteuid() == 0:
            self.user = "postgres" if _has_user("postgres") else "nobody"
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self._run(
            [
                os.path.join(self.bin, "initdb"),
                "-D",
                self.data,
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        )
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, argv: list[str]) -> None:
        if self.user is not None:
            argv = ["runuser", "-u", self.user, "--", *argv]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{argv} failed ({done.returncode}): {done.stdout}\n{done.stderr}")

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
        if not self.durable:
            opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            [
                os.path.join(self.bin, "pg_ctl"),
                "-D",
                self.data,
                "-l",
                os.path.join(self.root, "log"),
                "-o",
                opts,
                "-w",
                "-t",
                "60",
                "start",
            ]
        )
        _wait_port(self.port)
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            self.watcher = _watch(int(f.readline()), signal.SIGQUIT, self.root)  # SIGQUIT: immediate shutdown

    def stop(self) -> None:
        self._run([os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "fast", "-w", "-t", "60", "stop"])
        _unwatch(self)

    def destroy(self) -> None:
        try:
            self.stop()
        except RuntimeError:
            pass
        shutil.rmtree(self.root, ignore_errors=True)


class _ChildServer:
    """A server run as our child process, stopped with SIGTERM."""

    root: str
    proc: subprocess.Popen[bytes] | None = None
    watcher: subprocess.Popen[bytes] | None = None

    def _spawn(self, argv: list[str], port: int) -> None:
        self.proc = subprocess.Popen(argv, cwd=self.root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_port(port, self.proc)
        self.watcher = _watch(self.proc.pid, signal.SIGTERM, self.root)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        _unwatch(self)

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


class RedisServer(_ChildServer):
    """``redis-server`` as a child process; an append-only file if ``persistent``."""

    def __init__(self, *, persistent: bool = False) -> None:
        self.persistent = persistent
        exe = shutil.which("redis-server")
        if not exe:
            raise RuntimeError("redis-server is not installed: run scripts/ci_services.sh")
        self.exe = exe
        self.port = free_port()
        self.root = tempfile.mkdtemp(prefix="cw-redis-")
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        aof = ["--appendonly", "yes", "--appendfsync", "always"] if self.persistent else ["--appendonly", "no"]
        argv = [self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", *aof,
                "--daemonize", "no", "--dir", self.root, "--loglevel", "warning"]  # fmt: skip
        self._spawn(argv, self.port)


class S3Server(_ChildServer):
    """moto's S3 server as a child process (in memory); any credentials and region do."""

    def __init__(self) -> None:
        if importlib.util.find_spec("moto") is None:
            raise RuntimeError("moto is not installed: install the dev group (pip install -e . --group dev)")
        self.port = free_port()
        self.root = tempfile.mkdtemp(prefix="cw-s3-")
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._spawn([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)], self.port)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


_Server = TypeVar("_Server", PostgresServer, RedisServer, S3Server)


def _running(server: _Server) -> Iterator[_Server]:
    try:
        server.start()
        yield server
    finally:
        server.destroy()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A private PostgreSQL server for the whole test run."""
    yield from _running(PostgresServer())


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A private Redis server for the whole test run."""
    yield from _running(RedisServer())


@pytest.fixture(scope="session")
def s3_server() -> Iterator[S3Server]:
    """A private S3 server (moto's) for the whole test run."""
    yield from _running(S3Server())
