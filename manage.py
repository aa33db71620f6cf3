#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    # A command runs in one thread, so a connection pool gains it nothing, and
    # without one a refused connection says why instead of timing out.
    os.environ.setdefault("DATABASE_POOL", "0")
    from django.core.management import execute_from_command_line
    from django.db.utils import OperationalError

    try:
        execute_from_command_line(sys.argv)
    except OperationalError as exc:
        # A wrong DATABASE_URL should say so in one line, not a traceback.
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        sys.exit(f"DATABASE_URL: cannot use the database: {first}")


if __name__ == "__main__":
    main()
