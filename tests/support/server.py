"""Real daphne processes for browser, restart and multi-process tests.

A `SiteDatabase` is a database of its own for the servers (a SQLite file, or
a fresh PostgreSQL database on the server DATABASE_URL names). The real
`manage.py migrate` runs once per test process, into a template database;
each `SiteDatabase` is a copy of it (a file copy on SQLite, `CREATE DATABASE
... TEMPLATE` on PostgreSQL), the same rows a fresh migrate leaves, in a
fraction of the time. A `DaphneServer` runs `daphne club.asgi` on a free port
against it, and can be killed with SIGKILL and started again.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


_collected: list[str] = []


def use_checkout(path: Path) -> None:
    """Serve another checkout's code from now on (benchmarks comparing a change with main)."""
    global ROOT
    ROOT = Path(path).resolve()
    _collected.clear()
    _templates.clear()


def collected_static() -> str:
    """A STATIC_ROOT collected once per test process: servers use the production static path.

    Hashed names, compressed copies, rewritten module imports, a year's cache:
    what a deployment serves, so the browser tests run against it.
    """
    if not _collected:
        root = tempfile.mkdtemp(prefix="club-static-")
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
        env.update(DJANGO_SETTINGS_MODULE="tests.settings", STATIC_ROOT=root)
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        _collected.append(root)
    return _collected[0]


def _base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env["DJANGO_SETTINGS_MODULE"] = "tests.settings"
    env["STATIC_ROOT"] = collected_static()
    env["PYTHONUNBUFFERED"] = "1"
    env["DJANGO_DEBUG"] = "0"
    env["EMAIL_URL"] = "console://"
    # House bots think quickly in tests so that whole games fit in seconds.
    env.setdefault("BOT_DELAY_SECONDS", "0.2")
    env.setdefault("BOT_SEARCH_BUDGET_MS", "40")
    env["BOT_RUNNER"] = "1"
    return env


# The migrated template of this process, per database server: a SQLite file's
# path, or a PostgreSQL database's name.
_templates: dict[str, str] = {}


class SiteDatabase:
    """A migrated database that only the test's servers use."""

    def __init__(self, tmp_dir: Path, template: bool = True) -> None:
        """`template=False` runs the real migrate into this database instead of copying."""
        self.name = f"club_e2e_{uuid.uuid4().hex[:10]}"
        self.tmp_dir = Path(tmp_dir)
        self.use_template = template
        self._shell: subprocess.Popen | None = None
        base = os.environ.get("DATABASE_URL", "")
        self._pg_admin_url = ""
        if base.startswith(("postgres://", "postgresql://")):
            parsed = urlparse(base)
            self._pg_admin_url = urlunparse(parsed._replace(path="/postgres"))
            self.url = urlunparse(parsed._replace(path=f"/{self.name}"))
        else:
            self.url = f"sqlite:///{tmp_dir / (self.name + '.sqlite3')}"

    def create(self) -> None:
        if not self.use_template:
            self._admin(f'CREATE DATABASE "{self.name}"')
            self.manage("migrate", "--noinput", "-v0")
            return
        template = self._template()
        if self._pg_admin_url:
            self._admin(f'CREATE DATABASE "{self.name}" TEMPLATE "{template}"')
        else:
            shutil.copyfile(template, self._sqlite_path())

    def create_empty(self) -> None:
        """No tables at all: a new PostgreSQL database, or no SQLite file yet (a restore's target)."""
        self._admin(f'CREATE DATABASE "{self.name}"')

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file (None on PostgreSQL)."""
        return None if self._pg_admin_url else self._sqlite_path()

    def drop(self) -> None:
        self.close_shell()
        self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def _sqlite_path(self) -> Path:
        return self.tmp_dir / (self.name + ".sqlite3")

    def _admin(self, sql: str) -> None:
        """Run `sql` on the PostgreSQL server's maintenance database (nothing on SQLite)."""
        if self._pg_admin_url:
            import psycopg

            with psycopg.connect(self._pg_admin_url, autocommit=True) as conn:
                conn.execute(sql)

    def _template(self) -> str:
        """This process's migrated template, made by the real migrate on first use."""
        key = self._pg_admin_url or "sqlite"
        if key not in _templates:
            template = SiteDatabase(Path(tempfile.mkdtemp(prefix="club-template-")), template=False)
            template.create()
            if self._pg_admin_url:
                _templates[key] = template.name
                atexit.register(template.drop)
            else:
                _templates[key] = str(template._sqlite_path())
        return _templates[key]

    def env(self) -> dict[str, str]:
        env = _base_env()
        env["DATABASE_URL"] = self.url
        # Keep each test run's channel groups apart on a shared Redis.
        env["CHANNELS_PREFIX"] = self.name
        return env

    def manage(self, *args: str, input_text: str | None = None) -> str:
        return self._run(["manage.py", *args], input_text)

    def loadtest(self, *args: str) -> str:
        """Run the load tool (`python -m tools.loadtest`, docs/PERFORMANCE.md) on this database."""
        return self._run(["-m", "tools.loadtest", *args])

    def _run(self, argv: list[str], input_text: str | None = None) -> str:
        result = subprocess.run(
            [str(BIN / "python"), *argv],
            cwd=ROOT,
            env=self.env(),
            input=input_text,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed:\n{result.stderr}")
        return result.stdout

    def shell(self, code: str) -> str:
        """Run `code` as `manage.py shell -c` would, in one long-lived process per database."""
        if self._shell is None or self._shell.poll() is not None:
            self._shell = subprocess.Popen(
                [str(BIN / "python"), str(Path(__file__).with_name("shell_worker.py"))],
                cwd=ROOT,
                env=self.env(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        assert self._shell.stdin and self._shell.stdout
        self._shell.stdin.write(json.dumps(code) + "\n")
        self._shell.stdin.flush()
        line = self._shell.stdout.readline()
        if not line:
            raise RuntimeError("the shell worker exited (its error is in the test's stderr)")
        answer = json.loads(line)
        if not answer["ok"]:
            raise RuntimeError(f"manage.py shell failed:\n{answer['output']}")
        return answer["output"]

    def close_shell(self) -> None:
        if self._shell is not None:
            if self._shell.poll() is None:
                self._shell.stdin.close()
                try:
                    self._shell.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self._shell.kill()
                    self._shell.wait(timeout=10)
            self._shell = None


class DaphneServer:
    """`args`: extra daphne flags (e.g. ``--ping-interval 1``); `env`: extra variables."""

    def __init__(
        self,
        database: SiteDatabase,
        log_dir: Path,
        port: int | None = None,
        args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.database = database
        self.port = port or free_port()
        self.log_path = log_dir / f"daphne-{self.port}.log"
        self.process: subprocess.Popen | None = None
        self.args = tuple(args)
        self.env = dict(env or {})

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0, request: bool = True) -> DaphneServer:
        """Start daphne and wait until it answers a page (`request`) or only accepts connections."""
        log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [
                # The club's daphne (club/serving/server.py), as `make run` and the
                # deployment start it.
                str(BIN / "python"),
                "-m",
                "club.server",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                *self.args,
                "club.asgi:application",
            ],
            cwd=ROOT,
            env={**self.database.env(), **self.env},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self._log = log
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited early:\n{self.log_path.read_text()}")
            try:
                if not request:
                    socket.create_connection(("127.0.0.1", self.port), timeout=2).close()
                    return self
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"daphne did not answer within {timeout}s:\n{self.log_path.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks, exactly like a crash."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self._close_log()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._close_log()

    def _close_log(self) -> None:
        log = getattr(self, "_log", None)
        if log and not log.closed:
            log.close()
