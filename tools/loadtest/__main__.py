"""`python -m tools.loadtest [options]`: the load tool, with the site's settings.

It runs as a management command would (the same options, output and exit
status), without the site installing it: the shipped apps carry no load tool.
"""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    # As manage.py: the tool's database work is one thread's, a pool gains it nothing.
    os.environ.setdefault("DATABASE_POOL", "0")
    import django

    django.setup()
    from tools.loadtest.run import Command

    Command().run_from_argv(["python -m", "tools.loadtest", *sys.argv[1:]])


if __name__ == "__main__":
    main()
