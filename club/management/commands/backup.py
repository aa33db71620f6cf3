"""`manage.py backup`: one consistent, checked copy of the database while the site runs.

docs/OPERATIONS.md, "Backups": SQLite through its online backup API, PostgreSQL
through pg_dump's custom format; the file appears under its final name only
once it is complete and checked; older backups beyond the keep count go.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from club.management import backups


def _size(count: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if count < 1024 or unit == "GB":
            return f"{count} {unit}" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1024
    raise AssertionError


class Command(BaseCommand):
    help = (
        "Write a consistent copy of the database into the backup folder (BACKUP_DIR) "
        "while the site runs, check it, and delete all but the newest BACKUP_KEEP backups."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dir",
            type=Path,
            default=None,
            help=f"Backup folder (default: BACKUP_DIR, now {settings.BACKUP_DIR}).",
        )
        parser.add_argument(
            "--keep",
            type=int,
            default=None,
            help=f"Newest backups to keep there (default: BACKUP_KEEP, now {settings.BACKUP_KEEP}).",
        )

    def handle(self, *args, **options) -> None:
        folder = Path(options["dir"] or settings.BACKUP_DIR).expanduser().resolve()
        keep = settings.BACKUP_KEEP if options["keep"] is None else options["keep"]
        try:
            label = backups.database_label()
            done = backups.make_backup(folder, keep)
        except backups.BackupError as exc:
            raise CommandError(f"Backup failed, nothing was kept: {exc}.") from None
        except DatabaseError as exc:
            raise CommandError(
                f"Backup failed, nothing was kept: the database cannot be used: {exc}."
            ) from None
        for path in done.stale_removed:
            self.stdout.write(f"Deleted {path.name}, left unfinished by an interrupted backup.")
        self.stdout.write(
            f"Backed up {label} to {done.path} ({_size(done.size)} in {done.seconds:.2f} s: "
            f"copy {done.copy_seconds:.2f} s, check {done.seconds - done.copy_seconds:.2f} s); "
            f"checked: {done.check}."
        )
        kept = len(backups.backups(folder))
        pruned = ", ".join(p.name for p in done.pruned)
        self.stdout.write(
            f"{kept} backup{'s' if kept != 1 else ''} in {folder} (keeping the newest {keep})"
            + (f"; deleted the older {pruned}." if pruned else ".")
        )
