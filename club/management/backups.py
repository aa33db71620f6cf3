"""Consistent copies of the club's database while the site runs, and putting one back (issue 45).

A backup is one file in a folder (settings.BACKUP_DIR): the SQLite database
copied through SQLite's online backup API, or a PostgreSQL database dumped by
`pg_dump --format=custom`. Either reads one snapshot of the database (one read
transaction; pg_dump's repeatable-read snapshot), so the copy is the database
as it was at one moment while moves go on being written. The file is written
under a hidden temporary name, checked (`PRAGMA integrity_check`, `pg_restore
--list`), flushed to disk and only then renamed to its final name: a backup
killed at any point leaves no file under a final name that is not whole, and
the older backups are never touched until a new one is complete. Older
backups beyond a keep count are deleted after that.

`restore` writes a backup into an empty database (one with no tables), or,
told so, replaces everything in a database in one transaction: a restore that
fails leaves the database as it was. docs/OPERATIONS.md, "Backups".
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from django.db import connection
from django.db.migrations.executor import MigrationExecutor

SQLITE = "sqlite"
POSTGRES = "postgresql"
SUFFIXES = {SQLITE: ".sqlite3", POSTGRES: ".pgdump"}
LABELS = {SQLITE: "SQLite", POSTGRES: "PostgreSQL"}
# club-20261206T063000.123Z.sqlite3: names sort in the order the backups were made.
NAME = re.compile(r"^club-(\d{8}T\d{6}\.\d{3})Z\.(sqlite3|pgdump)$")
PARTIAL_SUFFIX = ".partial"
LOCK_NAME = ".backup.lock"
SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"


class BackupError(Exception):
    """Something an operator must fix; the message says what, in one or two sentences."""


@dataclass
class Backup:
    path: Path
    size: int
    seconds: float
    copy_seconds: float
    check: str
    pruned: list[Path]
    stale_removed: list[Path]


@dataclass
class Restored:
    tables: int
    seconds: float
    replaced: int
    missing_migrations: list[str]
    unknown_migrations: list[str]


def vendor() -> str:
    """The configured database's kind, if backups support it."""
    if connection.vendor not in SUFFIXES:
        raise BackupError(
            f"backups support SQLite and PostgreSQL, not {connection.vendor} (DATABASE_URL)"
        )
    return connection.vendor


def database_label() -> str:
    """The configured database, for messages: its file, or its name on its server."""
    settings = connection.settings_dict
    if vendor() == SQLITE:
        return f"the SQLite database {settings['NAME']}"
    host = settings.get("HOST") or "localhost"
    port = settings.get("PORT") or 5432
    return f'the PostgreSQL database "{settings["NAME"]}" on {host}:{port}'


def backup_name(kind: str, now: datetime.datetime | None = None) -> str:
    now = (now or datetime.datetime.now(datetime.UTC)).astimezone(datetime.UTC)
    return f"club-{now:%Y%m%dT%H%M%S}.{now.microsecond // 1000:03d}Z{SUFFIXES[kind]}"


def made_at(path: Path) -> datetime.datetime | None:
    """When a backup was made, from its name (None for a file named otherwise)."""
    match = NAME.match(path.name)
    if not match:
        return None
    return datetime.datetime.strptime(match[1], "%Y%m%dT%H%M%S.%f").replace(tzinfo=datetime.UTC)


def backups(folder: Path) -> list[Path]:
    """The complete backups in `folder`, oldest first (files named otherwise are not ours)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if NAME.match(p.name) and p.is_file())


@contextlib.contextmanager
def _only_backup(folder: Path) -> Iterator[None]:
    """One backup at a time per folder: a second one would prune or clean up under the first."""
    with open(folder / LOCK_NAME, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(
                f"another backup is being written into {folder} right now; "
                "try again when it has finished"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def make_backup(folder: Path, keep: int) -> Backup:
    """Write, check and keep one new backup in `folder`, then delete all but the newest `keep`."""
    kind = vendor()
    if keep < 1:
        raise BackupError("the keep count must be at least 1")
    try:
        # A backup holds password hashes, addresses and chat: the site's user only.
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(f"cannot create the backup folder {folder}: {exc.strerror}") from None
    with _only_backup(folder):
        # A run killed mid-write left its temporary file: nobody else writes here now.
        stale = sorted(folder.glob(f".club-*{PARTIAL_SUFFIX}"))
        for path in stale:
            path.unlink(missing_ok=True)
        final = folder / backup_name(kind)
        while final.exists():  # two backups within one millisecond
            time.sleep(0.002)
            final = folder / backup_name(kind)
        partial = folder / f".{final.name}{PARTIAL_SUFFIX}"
        started = time.monotonic()
        try:
            if kind == SQLITE:
                _sqlite_copy(partial)
            else:
                _pg_dump(partial)
            copied = time.monotonic() - started
            check = check_file(partial, kind)
            partial.chmod(0o600)
            _fsync(partial)
            os.rename(partial, final)
            _fsync(folder)  # the rename itself survives a power cut
        except OSError as exc:
            partial.unlink(missing_ok=True)
            raise BackupError(f"could not write the backup into {folder}: {exc}") from None
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        seconds = time.monotonic() - started
        pruned = prune(folder, keep)
    return Backup(final, final.stat().st_size, seconds, copied, check, pruned, stale)


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest `keep` complete backups; returns the deleted ones."""
    old = backups(folder)[:-keep]
    for path in old:
        path.unlink(missing_ok=True)
    return old


# ---------------------------------------------------------------------------
# SQLite


def _sqlite_copy(target: Path) -> None:
    """The whole database in one step of the online backup API: one read snapshot.

    In WAL mode a reader blocks no writer, so moves go on meanwhile; stepping
    the copy a few pages at a time instead would restart on every write and
    might never finish on a busy site.
    """
    connection.ensure_connection()
    copy = sqlite3.connect(target)
    try:
        connection.connection.backup(copy)
        # One self-contained file: no -wal beside it to lose when it is copied away.
        copy.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as exc:
        raise BackupError(f"SQLite could not copy the database: {exc}") from None
    finally:
        copy.close()


def _sqlite_check(path: Path) -> str:
    try:
        copy = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result = [row[0] for row in copy.execute("PRAGMA integrity_check")]
            tables = copy.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%'"
            ).fetchone()[0]
            migrations = copy.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                "AND name = 'django_migrations'"
            ).fetchone()[0]
        finally:
            copy.close()
    except sqlite3.Error as exc:
        raise BackupError(f"{path.name} is not a readable SQLite database: {exc}") from None
    if result != ["ok"]:
        raise BackupError(f"{path.name} failed SQLite's integrity check: {'; '.join(result[:5])}")
    if not migrations:
        raise BackupError(f"{path.name} is not a club database (it has no django_migrations)")
    return f"PRAGMA integrity_check: ok, {tables} tables"


# ---------------------------------------------------------------------------
# PostgreSQL


def _pg_tool(name: str) -> str:
    path = shutil.which(name)
    if not path:
        raise BackupError(
            f"{name} is not installed: install the PostgreSQL client, of the server's "
            "major version or newer (Debian: apt-get install postgresql-client)"
        )
    return path


def _pg_env() -> dict[str, str]:
    """libpq's variables for the configured database: no password on a command line."""
    settings = connection.settings_dict
    env = dict(os.environ)
    for variable, value in (
        ("PGDATABASE", settings.get("NAME")),
        ("PGUSER", settings.get("USER")),
        ("PGPASSWORD", settings.get("PASSWORD")),
        ("PGHOST", settings.get("HOST")),
        ("PGPORT", settings.get("PORT")),
        ("PGSSLMODE", settings.get("OPTIONS", {}).get("sslmode")),
    ):
        if value:
            env[variable] = str(value)
    return env


def _die_with_parent() -> None:
    """In the child: SIGKILL it when this process dies (Linux), so that a backup
    killed mid-write leaves no pg_dump writing on behind it."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _run(command: list[str], what: str, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(
        command, capture_output=True, env=_pg_env(), preexec_fn=_die_with_parent, **kwargs
    )
    if result.returncode != 0:
        error = result.stderr.decode(errors="replace").strip().splitlines()
        raise BackupError(f"{what} failed: {' / '.join(error[-3:]) or result.returncode}")
    return result


def _pg_dump(target: Path) -> None:
    """pg_dump reads one repeatable-read snapshot: the database at one moment."""
    _run(
        [
            _pg_tool("pg_dump"),
            "--format=custom",
            # A migration holding a table's exclusive lock makes the backup fail,
            # not wait for ever (and hold up the moves queued behind it).
            "--lock-wait-timeout=60s",
            f"--file={target}",
        ],
        "pg_dump",
    )


def _pg_check(path: Path) -> str:
    listing = _run([_pg_tool("pg_restore"), "--list", str(path)], f"pg_restore --list {path.name}")
    lines = listing.stdout.decode(errors="replace").splitlines()
    data = [line for line in lines if " TABLE DATA " in line]
    if not any(" django_migrations " in line for line in data):
        raise BackupError(f"{path.name} is not a club database (no django_migrations rows)")
    return f"pg_restore --list: ok, {len(data)} tables' data"


# ---------------------------------------------------------------------------
# Checking and restoring


def kind_of(path: Path) -> str:
    """SQLITE or POSTGRES, from the file's first bytes (not its name)."""
    try:
        with open(path, "rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        raise BackupError(f"no such backup file: {path}") from None
    except OSError as exc:
        raise BackupError(f"cannot read {path}: {exc.strerror}") from None
    if head.startswith(SQLITE_MAGIC):
        return SQLITE
    if head.startswith(PGDUMP_MAGIC):
        return POSTGRES
    raise BackupError(
        f"{path} is neither a SQLite backup nor a pg_dump custom-format backup "
        "(manage.py backup writes one of the two)"
    )


def check_file(path: Path, kind: str | None = None) -> str:
    """The check a backup passed (raises BackupError if it does not pass)."""
    kind = kind or kind_of(path)
    return _sqlite_check(path) if kind == SQLITE else _pg_check(path)


def existing_tables() -> list[str]:
    """The tables in the configured database (none: it is empty)."""
    with connection.cursor() as cursor:
        if vendor() == SQLITE:
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        else:
            cursor.execute(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema() ORDER BY 1"
            )
        return [row[0] for row in cursor.fetchall()]


def restore(path: Path, force: bool, log: Callable[[str], None]) -> Restored:
    """Write backup `path` into the configured database (empty, or replaced with `force`)."""
    kind = vendor()
    found = kind_of(path)
    if found != kind:
        raise BackupError(
            f"{path.name} is a {LABELS[found]} backup but DATABASE_URL points at "
            f"{LABELS[kind]}: restore it into a {LABELS[found]} database"
        )
    started = time.monotonic()
    check = check_file(path, kind)
    log(f"Checked {path.name}: {check} ({time.monotonic() - started:.2f} s).")
    tables = existing_tables()
    if tables and not force:
        raise BackupError(
            f"{database_label()} is not empty: it has {len(tables)} tables "
            f"({', '.join(tables[:3])}{', ...' if len(tables) > 3 else ''}). A restore only "
            "writes into an empty database; to replace everything in it with the backup, "
            "stop the site and run this again with --force"
        )
    started = time.monotonic()
    if kind == SQLITE:
        _sqlite_restore(path)
    else:
        _pg_restore(path, replace=bool(tables))
    seconds = time.monotonic() - started
    connection.close()
    executor = MigrationExecutor(connection)
    loader = executor.loader
    missing = [
        f"{m.app_label}.{m.name}" for m, _ in executor.migration_plan(loader.graph.leaf_nodes())
    ]
    unknown = sorted(
        f"{app}.{name}"
        for app, name in loader.applied_migrations
        if (app, name) not in loader.disk_migrations
    )
    return Restored(len(existing_tables()), seconds, len(tables), missing, unknown)


def _sqlite_restore(path: Path) -> None:
    """The backup API again, backwards: the target's pages replaced in one write transaction."""
    connection.ensure_connection()
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        source.backup(connection.connection)
    except sqlite3.Error as exc:
        raise BackupError(f"SQLite could not restore {path.name}: {exc}") from None
    finally:
        source.close()
    connection.close()


# Drops every table, view and sequence of the current schema, as the restore's first
# statement in the same transaction (psql --single-transaction): all or nothing.
_PG_EMPTY_SCHEMA = """
DO $$
DECLARE item record;
BEGIN
  -- Tables first: their identity sequences go with them; then what is left.
  FOR item IN
    SELECT n.nspname AS schema, c.relname AS name, c.relkind FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
    ORDER BY c.relkind = 'S', c.relname
  LOOP
    EXECUTE format(
      CASE item.relkind WHEN 'v' THEN 'DROP VIEW IF EXISTS %I.%I CASCADE'
                        WHEN 'm' THEN 'DROP MATERIALIZED VIEW IF EXISTS %I.%I CASCADE'
                        WHEN 'S' THEN 'DROP SEQUENCE IF EXISTS %I.%I CASCADE'
                        ELSE 'DROP TABLE IF EXISTS %I.%I CASCADE' END,
      item.schema, item.name);
  END LOOP;
END $$;
"""


def _pg_restore(path: Path, replace: bool) -> None:
    """pg_restore's SQL, piped into psql as one transaction (after emptying the schema if told).

    pg_restore straight into the database cannot drop what is there first in the
    same transaction; through psql a failed restore rolls back the drop as well.
    """
    connection.close()  # nothing of this process holds a lock the restore waits for
    script = subprocess.Popen(
        [_pg_tool("pg_restore"), "--no-owner", "--no-privileges", "--file=-", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_pg_env(),
    )
    psql = [_pg_tool("psql"), "--no-psqlrc", "--quiet", "--single-transaction"]
    psql += ["--set=ON_ERROR_STOP=1", "--output=/dev/null"]
    if replace:
        psql.append(f"--command={_PG_EMPTY_SCHEMA}")
    psql.append("--file=-")
    applied = subprocess.run(psql, stdin=script.stdout, capture_output=True, env=_pg_env())
    assert script.stdout is not None and script.stderr is not None
    script.stdout.close()
    script_error = script.stderr.read()
    script.wait()
    # psql first: when it stops, pg_restore dies writing into the closed pipe.
    if applied.returncode != 0:
        error = applied.stderr.decode(errors="replace").strip().splitlines()
        raise BackupError(
            f"the restore failed and was rolled back, the database is as it was: "
            f"{' / '.join(error[-3:]) or applied.returncode}"
        )
    if script.returncode != 0:
        error = script_error.decode(errors="replace").strip().splitlines()
        raise BackupError(
            f"pg_restore could not read {path.name}, nothing was restored: "
            f"{' / '.join(error[-3:]) or script.returncode}"
        )
