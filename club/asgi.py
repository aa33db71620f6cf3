"""`club.asgi:application`, the ASGI application's documented address: an alias.

The application lives in club/serving/asgi.py (the serving plumbing); this module
stays so that the commands operators run (README, docs/deploy, systemd units:
`daphne ... club.asgi:application`) keep working.
"""

from club.serving.asgi import application  # noqa: F401
