"""`manage.py restore FILE`: a backup written into an empty database (docs/OPERATIONS.md).

A database that holds tables is refused unless --force says to replace
everything in it; the replacement is one transaction, so a restore that fails
leaves the database as it was.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from club.management import backups


class Command(BaseCommand):
    help = (
        "Write a backup made by `manage.py backup` into the database DATABASE_URL names. "
        "The database must be empty (no tables) unless --force is given."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="The backup file (.sqlite3 or .pgdump).")
        parser.add_argument(
            "--force",
            action="store_true",
            help="Replace everything in a database that is not empty (stop the site first).",
        )

    def handle(self, *args, **options) -> None:
        path = Path(options["file"]).expanduser().resolve()
        try:
            label = backups.database_label()
            done = backups.restore(path, options["force"], self.stdout.write)
        except backups.BackupError as exc:
            raise CommandError(f"Restore failed: {exc}.") from None
        except DatabaseError as exc:
            raise CommandError(f"Restore failed: the database cannot be used: {exc}.") from None
        made = backups.made_at(path)
        when = f" (made {made:%Y-%m-%d %H:%M:%S} UTC)" if made else ""
        replaced = f", replacing its {done.replaced} tables" if done.replaced else ""
        self.stdout.write(
            f"Restored {path.name}{when} into {label}{replaced}: "
            f"{done.tables} tables in {done.seconds:.2f} s."
        )
        if done.unknown_migrations:
            self.stdout.write(
                f"The backup was made by newer code: {len(done.unknown_migrations)} of its "
                f"migrations are not in this checkout ({', '.join(done.unknown_migrations[:3])}). "
                "Serve it with the code that made it."
            )
        if done.missing_migrations:
            self.stdout.write(
                f"This code has {len(done.missing_migrations)} migrations the backup predates: "
                "run `manage.py migrate` before starting the site."
            )
        elif not done.unknown_migrations:
            self.stdout.write("Its migrations match this code: the site can serve it as it is.")
