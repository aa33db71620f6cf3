"""A Redis and a PostgreSQL of the test's own, to kill and start again mid-game.

The machine's services are shared by everyone's tests and are never stopped;
these run on free ports from a temporary directory and go away with the test.
`RedisServer` needs `redis-server`; `PostgresCluster` needs PostgreSQL's
server binaries (`initdb`, `pg_ctl`: /usr/lib/postgresql/*/bin on Debian).
Run as root, the cluster runs as the `postgres` user (PostgreSQL refuses root).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from tests.support.server import free_port


def redis_binary() -> str | None:
    return shutil.which("redis-server")


def postgres_bin_dir() -> Path | None:
    """The newest PostgreSQL server binaries installed, if any."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    return Path(candidates[-1]).parent if candidates else None


def _wait_for_port(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing answers on port {port} after {timeout}s")


class RedisServer:
    """`redis-server` on a free port; `kill()` is SIGKILL, `start()` again keeps the port."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        log = self.directory / f"redis-{self.port}.log"
        self.process = subprocess.Popen(
            [
                redis_binary() or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
                "--logfile",
                str(log),
                *self._debug_command(),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for_port(self.port, 20)
        return self

    @staticmethod
    def _debug_command() -> list[str]:
        """DEBUG SLEEP (a Redis that answers nobody) is off by default since Redis 7."""
        version = subprocess.run(
            [redis_binary() or "redis-server", "--version"], capture_output=True, text=True
        ).stdout
        major = version.split("v=", 1)[-1].split(".", 1)[0]
        return ["--enable-debug-command", "local"] if major.isdigit() and int(major) >= 7 else []

    def command(self, *args: str) -> str:
        """A redis-cli command (e.g. DEBUG SLEEP); returns its output."""
        result = subprocess.run(
            ["redis-cli", "-p", str(self.port), *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if result.returncode != 0 or result.stdout.startswith("ERR"):
            raise RuntimeError(f"redis-cli {' '.join(args)}: {result.stdout}{result.stderr}")
        return result.stdout.strip()

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        self.kill()


class PostgresCluster:
    """A PostgreSQL cluster of its own (initdb in a temporary directory) on a free port."""

    def __init__(self) -> None:
        bin_dir = postgres_bin_dir()
        if bin_dir is None:
            raise RuntimeError("no PostgreSQL server binaries (initdb, pg_ctl)")
        self.bin = bin_dir
        self.port = free_port()
        self.directory = Path(tempfile.mkdtemp(prefix="club-pg-"))
        self.data = self.directory / "data"
        self.log = self.directory / "postgres.log"
        self._user: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            self._user = pwd.getpwnam("postgres")
            os.chown(self.directory, self._user.pw_uid, self._user.pw_gid)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, timeout: float = 120) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self._user is not None:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed:\n{result.stdout}\n{result.stderr}")

    def init(self) -> PostgresCluster:
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
            "-E", "UTF8", "--no-sync",
        )  # fmt: skip
        return self

    def start(self) -> PostgresCluster:
        # fsync off: a killed server loses nothing the kernel has. NOT
        # synchronous_commit off: that loses acknowledged commits on a crash.
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.directory} "
            "-c fsync=off -c full_page_writes=off "
            "-c max_connections=60"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        """`immediate` is the closest to a crash: every backend killed, recovery on start."""
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def destroy(self) -> None:
        try:
            self.stop("immediate")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
