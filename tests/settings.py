"""The club's settings as the tests run them (pytest, and every server, worker and
`manage.py` process a test starts): club.settings, read from the same environment,
with only what makes a test run cheaper changed.

A password hash is deliberately slow: Django's PBKDF2 takes ~0.45 s of CPU on this
machine, and the suite signs up, seeds and logs in members by the hundred, in
processes that share two cores. A fast hasher changes what is stored, not what is
tested: sign-up, login, reset and the password rules run as they do in production.
"""

from club.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# House bots search for a fixed time per move; 200 ms is for members to play
# against, and the servers the tests start already think for 40 ms
# (tests/support/server.py). In-process games (demo data, house turns) do the same.
BOT_SEARCH_BUDGET_MS = env_int("BOT_SEARCH_BUDGET_MS", 40)  # noqa: F405
