"""Settings for the card club site.

Every value that differs between a laptop and a deployment comes from an
environment variable read through the small helpers below; the defaults are
safe for production (DEBUG off) and need no services (SQLite + in-memory
channel layer). The README lists every variable.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, not {value!r}") from None


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = float(value)
    except ValueError:
        raise SystemExit(f"{name} must be a number, not {value!r}") from None
    if not number >= 0 or number == float("inf"):
        raise SystemExit(f"{name} must be a finite number of at least 0, not {value!r}")
    return number


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


def _secret_key() -> str:
    """DJANGO_SECRET_KEY, or a development key generated once into an ignored file."""
    key = env("DJANGO_SECRET_KEY")
    if key:
        return key
    path = BASE_DIR / ".secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def _database(url: str) -> dict:
    if not url:
        (BASE_DIR / "var").mkdir(exist_ok=True)
        return {
            "ENGINE": SQLITE_ENGINE,
            "NAME": BASE_DIR / "var" / "db.sqlite3",
            "OPTIONS": _SQLITE_OPTIONS,
            "CONN_MAX_AGE": env_int("DATABASE_CONN_MAX_AGE", _SQLITE_CONN_MAX_AGE),
        }
    try:
        config = dj_database_url.parse(url, conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0))
    except Exception as exc:  # noqa: BLE001 - any parse failure means the variable is wrong
        raise SystemExit(f"DATABASE_URL is not a usable database URL: {exc}") from None
    if not config.get("ENGINE"):
        raise SystemExit("DATABASE_URL is not a usable database URL: no engine for its scheme")
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["ENGINE"] = SQLITE_ENGINE
        config["OPTIONS"] = {**_SQLITE_OPTIONS, **config.get("OPTIONS", {})}
        config["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", _SQLITE_CONN_MAX_AGE)
    elif config["ENGINE"] == "django.db.backends.postgresql" and env_bool("DATABASE_POOL", True):
        config["OPTIONS"] = {**config.get("OPTIONS", {}), "pool": _postgres_pool()}
        if config["CONN_MAX_AGE"]:
            raise SystemExit(
                "DATABASE_CONN_MAX_AGE cannot be used with the connection pool: "
                "set DATABASE_POOL=0 to keep connections that way instead"
            )
    if config["ENGINE"] == "django.db.backends.postgresql" and env_bool("DATABASE_PREPARED", True):
        # Parameters bound by the server, and a statement a connection runs a fifth
        # time prepared (psycopg's default threshold; Django turns preparing off):
        # PostgreSQL then plans a move's statements once per connection, not on
        # every move. Planning took about as long as running them (docs/PERFORMANCE.md,
        # issue 44).
        config["OPTIONS"] = {
            **config.get("OPTIONS", {}),
            "server_side_binding": True,
            "prepare_threshold": 5,
        }
    return config


def _postgres_pool() -> dict:
    """Django's psycopg pool: no move opens a connection, nothing lingers.

    Every database call of a process (the websocket moves' shared thread, each
    HTTP request's thread, the house runner) borrows a connection and gives it
    back when Django closes it, so a process never holds more than max_size.
    """
    max_size = env_int("DATABASE_POOL_SIZE", 8)
    if max_size < 1:
        raise SystemExit("DATABASE_POOL_SIZE must be at least 1")
    return {
        "min_size": min(env_int("DATABASE_POOL_MIN", 2), max_size),
        "max_size": max_size,
        # A request waiting longer than this for a free connection fails
        # instead of queueing for ever (psycopg_pool.PoolTimeout).
        "timeout": env_float("DATABASE_POOL_TIMEOUT", 10.0),
    }


# WAL lets readers go on while one writer commits; IMMEDIATE takes the write
# lock at BEGIN so two moves on one game serialise instead of deadlocking on
# a lock upgrade; the timeout makes a waiting writer queue instead of failing.
# Django's SQLite backend, with the process's write transactions queued in
# order instead of polling SQLite's file lock (club/serving/backends/sqlite3/base.py).
SQLITE_ENGINE = "club.serving.backends.sqlite3"
_SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    # The write-ahead log is copied back by a thread of each process, not by the
    # commit that fills it (club/serving/backends/sqlite3/base.py); 0: SQLite's own way.
    "checkpoint_seconds": max(0.0, env_float("SQLITE_CHECKPOINT_SECONDS", 1.0)),
}
# SQLite keeps its connection: every websocket move runs in the one shared
# database thread, and opening a SQLite connection (and re-reading the schema)
# per move cost more than the move. Elsewhere the default stays 0: under ASGI
# each HTTP request runs in a thread of its own, and a persistent PostgreSQL
# connection left there lingers until garbage collection (docs/OPERATIONS.md).
_SQLITE_CONN_MAX_AGE = 600


def _email(url: str) -> dict:
    """EMAIL_URL: console:// (default), smtp://user:pass@host:port?tls=1, or locmem://."""
    if not url or url.startswith("console:"):
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    parsed = urlparse(url)
    if parsed.scheme == "locmem":
        return {"EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
    if parsed.scheme not in {"smtp", "smtps"}:
        raise SystemExit(f"EMAIL_URL scheme must be console, smtp or smtps, not {parsed.scheme!r}")
    query = parse_qs(parsed.query)
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parsed.hostname or "localhost",
        "EMAIL_PORT": parsed.port or (465 if parsed.scheme == "smtps" else 25),
        "EMAIL_HOST_USER": unquote(parsed.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parsed.password or ""),
        "EMAIL_USE_SSL": parsed.scheme == "smtps",
        "EMAIL_USE_TLS": query.get("tls", ["0"])[0] in {"1", "true", "yes"},
    }


SECRET_KEY = _secret_key()
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")
CSRF_FAILURE_VIEW = "club.views.csrf_failure"

# The games the club plays, one folder (a Django app) each; games.registry loads
# each one's registry entry, <app>.entry.ENGINE, in this order (the first is what
# a new variant starts as). A game kept outside this repository: EXTRA_GAMES.
GAMES = ["games.devyatka", "games.golf"]

INSTALLED_APPS = [
    "daphne",  # first, so that runserver serves ASGI
    "servestatic.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "allauth",
    "allauth.account",
    "club",
    "games",
    *GAMES,
    "ratings",
    "django_tasks",
    "django_tasks_db",
    "analysis",
    "duplicate",
    "events",
    "chat",
    "notifications",
    "push",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "servestatic.middleware.ServeStaticMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the `django_language` cookie (set by the header picker),
    # else Accept-Language; MemberLanguageMiddleware below lets a signed-in
    # member's stored choice win over both.
    "django.middleware.locale.LocaleMiddleware",
    # While the database is away: the 503 page at once, in the visitor's
    # language (docs/OPERATIONS.md, "When Redis or PostgreSQL goes away").
    "club.serving.middleware.database_away",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "club.i18n.MemberLanguageMiddleware",
    # The reader's time zone (the browser's cookie, kept on the member's profile).
    "club.i18n.MemberTimeZoneMiddleware",
    # An admin query parameter holding a number no id can be: 404, not a 500.
    "club.serving.middleware.admin_ids_in_range",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "club.serving.csp.ContentSecurityPolicyMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "club.urls"
ASGI_APPLICATION = "club.serving.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # The header's bell: the signed-in member's unread notifications.
                "notifications.context.bell",
                # Upcoming club nights (home page, lobby), read only where shown.
                "events.context.nights",
            ],
        },
    },
]

DATABASES = {"default": _database(env("DATABASE_URL"))}
# HTTP requests inside Django at once (club/serving/http_slots.py); 0: no limit. On
# PostgreSQL a request spends most of its time waiting for the network, so more
# of them may overlap (docs/PERFORMANCE.md, "Rematches and posts under load").
HTTP_CONCURRENCY = env_int(
    "HTTP_CONCURRENCY", 4 if DATABASES["default"]["ENGINE"].endswith("sqlite3") else 16
)
# Threads that run websocket and house-runner database work on a database
# other than SQLite (games/db.py); half the pool leaves connections for pages.
DATABASE_THREADS = env_int("DATABASE_THREADS", max(1, env_int("DATABASE_POOL_SIZE", 8) // 2))
if DATABASE_THREADS < 1:
    raise SystemExit("DATABASE_THREADS must be at least 1")
# On SQLite, a table socket's moves and rematch answers run on the event loop
# itself, not handed to the database thread (games/db.py, on_database_inline).
SQLITE_MOVES_INLINE = env_bool("SQLITE_MOVES_INLINE", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL")
CHANNELS_PREFIX = env("CHANNELS_PREFIX", "club")
if REDIS_URL:
    # Shared by every process: allauth's rate limits and the websocket caps
    # and cooldowns (games/limits.py) count across processes.
    CACHES = {
        "default": {
            "BACKEND": "club.serving.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CHANNELS_PREFIX,
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        }
    }
REDIS_LAYER = env("REDIS_LAYER", "pubsub")
_REDIS_CONFIG = {
    # redis-py 8 defaults to a pool of 100 connections that raises when
    # exhausted, and a 5 s socket timeout that equals channels_redis's 5 s
    # BZPOPMIN: a few hundred sockets (re)joining at once crashed consumers
    # with "Too many connections" and "Timeout reading" (docs/PERFORMANCE.md,
    # two processes).
    # A Redis that does not answer a connect at all (a dead host) must not
    # hold a reconnection for the whole socket timeout.
    "hosts": [
        {
            "address": REDIS_URL,
            "max_connections": 1000,
            "socket_timeout": 15,
            "socket_connect_timeout": 2,
        }
    ],
    "prefix": CHANNELS_PREFIX,
}
# Longest a table update waits on the channel layer before this process treats
# the layer as down and keeps its updates to re-announce (games/broadcast.py,
# docs/OPERATIONS.md): a slow Redis holds a move up by at most this.
CHANNEL_LAYER_TIMEOUT = env_float("CHANNEL_LAYER_TIMEOUT", 2.0)
if CHANNEL_LAYER_TIMEOUT <= 0:
    raise SystemExit("CHANNEL_LAYER_TIMEOUT must be above 0")
if REDIS_URL and REDIS_LAYER not in {"core", "pubsub"}:
    raise SystemExit(f"REDIS_LAYER must be core or pubsub, not {REDIS_LAYER!r}")
if REDIS_URL:
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError

    # A pooled connection to a Redis that has restarted since is dead but looks
    # fine until used: try once more on a fresh connection before calling the
    # layer down (a Redis that is really down refuses both at once).
    _REDIS_CONFIG["hosts"][0] |= {
        "retry": Retry(NoBackoff(), 1),
        "retry_on_error": [RedisConnectionError],
    }
if REDIS_URL and REDIS_LAYER == "pubsub":
    # channels_redis's pub/sub layer (the default): a group message is
    # published once and each process fans it out to its own sockets; it cost
    # about 2 ms less server CPU per move than the core layer and halved the
    # latency (docs/PERFORMANCE.md, "Scale-out"). Nothing is queued for a
    # socket that is not listening, which the tables tolerate: a seat that
    # misses a version resynchronises (docs/PROTOCOL.md, "Versions").
    # club.serving.channel_layers' subclass rides out a Redis outage quietly and refreshes the
    # process's sockets when its subscription comes back (docs/OPERATIONS.md).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "club.serving.channel_layers.RedisPubSubChannelLayer",
            "CONFIG": {**_REDIS_CONFIG, "on_reconnect": "games.broadcast.layer_reconnected"},
        }
    }
elif REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {**_REDIS_CONFIG, "capacity": 1000},
        }
    }
else:
    # The in-memory layer drops messages for a channel holding `capacity`
    # undelivered ones (100 by default); a busy table must not lose updates.
    # club.serving.channel_layers is Channels' in-memory layer minus its per-message
    # O(connections) expiry walk and deepcopy per recipient (docs/PERFORMANCE.md).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "club.serving.channel_layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 1000, "expiry": 60},
        }
    }

# House bots and the turn timer (games/runner.py).
BOT_RUNNER = env_bool("BOT_RUNNER", True)
BOT_DELAY_SECONDS = float(env("BOT_DELAY_SECONDS", "1.0"))
BOT_SEARCH_BUDGET_MS = env_int("BOT_SEARCH_BUDGET_MS", 200)
AWAY_GRACE_SECONDS = env_int("AWAY_GRACE_SECONDS", 60)
HOUSE_STAND_IN_LEVEL = env("HOUSE_STAND_IN_LEVEL", "heuristic")
# How often the runner does the apps' duties (games.hooks): a duplicate round
# closes at most this many seconds after its end time.
HOUSE_DUTY_SECONDS = env_float("HOUSE_DUTY_SECONDS", 5.0)

# Presence (games/runner.py): each process vouches for its live table sockets
# every PRESENCE_HEARTBEAT_SECONDS; a row nobody vouched for in
# PRESENCE_STALE_SECONDS expires and its seat turns away. Keep stale > 2 x heartbeat.
PRESENCE_HEARTBEAT_SECONDS = env_float("PRESENCE_HEARTBEAT_SECONDS", 10.0)
PRESENCE_STALE_SECONDS = env_float("PRESENCE_STALE_SECONDS", 35.0)

# Websocket limits (games/consumers.py, docs/PROTOCOL.md). A table frame is
# tens of bytes; anything bigger than WS_MAX_FRAME_BYTES closes with 1009.
# Per socket, a token bucket: WS_RATE_BURST frames at once, refilled at
# WS_RATE_PER_SECOND; WS_FLOOD_CLOSE_AFTER refused frames within
# WS_FLOOD_WINDOW_SECONDS close the socket with 4429.
WS_MAX_FRAME_BYTES = env_int("WS_MAX_FRAME_BYTES", 4096)
WS_RATE_BURST = env_int("WS_RATE_BURST", 20)
WS_RATE_PER_SECOND = env_float("WS_RATE_PER_SECOND", 5.0)
WS_FLOOD_CLOSE_AFTER = env_int("WS_FLOOD_CLOSE_AFTER", 100)
WS_FLOOD_WINDOW_SECONDS = env_float("WS_FLOOD_WINDOW_SECONDS", 10.0)
# Abuse limits (games/limits.py, docs/PROTOCOL.md "Limits"): after a 4429 the
# account (or an anonymous address) waits WS_COOLDOWN_SECONDS before a new
# socket, doubling per strike within WS_COOLDOWN_FORGET s up to the maximum;
# caps on the sockets one account holds, counted across processes (0: none).
WS_COOLDOWN_SECONDS = env_float("WS_COOLDOWN_SECONDS", 5.0)
WS_COOLDOWN_MAX_SECONDS = env_float("WS_COOLDOWN_MAX_SECONDS", 300.0)
WS_COOLDOWN_FORGET = env_int("WS_COOLDOWN_FORGET", 600)
WS_TABLE_SOCKETS_PER_ACCOUNT = env_int("WS_TABLE_SOCKETS_PER_ACCOUNT", 20)
WS_WATCHERS_PER_TABLE = env_int("WS_WATCHERS_PER_TABLE", 200)
WS_LOBBY_SOCKETS_PER_ACCOUNT = env_int("WS_LOBBY_SOCKETS_PER_ACCOUNT", 5)
WS_LOBBY_SOCKETS_PER_ADDRESS = env_int("WS_LOBBY_SOCKETS_PER_ADDRESS", 50)
# A live socket's place is refreshed every third of this by its process; a
# process that died without closing its sockets frees their places after it.
WS_SLOT_TTL_SECONDS = env_float("WS_SLOT_TTL_SECONDS", 600.0)
# Tables (games/services/tables.py): open tables one member may have opened at
# once, tables one member may open an hour, and how many open tables the lobby lists.
OPEN_TABLES_PER_MEMBER = env_int("OPEN_TABLES_PER_MEMBER", 3)
TABLES_PER_HOUR = env_int("TABLES_PER_HOUR", 30)
LOBBY_OPEN_TABLES = env_int("LOBBY_OPEN_TABLES", 100)
# Turn-based tables (games/services/pace.py, games/away.py): tables one member may sit
# at (waiting, playing or a rematch accepted; OPEN_TABLES_PER_MEMBER counts them too),
# moves in a row the house may play for a member whose time ran out before it keeps
# the seat to the end of the game, and away days a member may declare a calendar year.
TURN_BASED_TABLES_MAX = env_int("TURN_BASED_TABLES_MAX", 30)
TURN_BASED_MISSED_MOVES = env_int("TURN_BASED_MISSED_MOVES", 3)
AWAY_DAYS_PER_YEAR = env_int("AWAY_DAYS_PER_YEAR", 14)
# At a table without a turn clock, the other members may hand a seat whose
# member has not moved for this long to the house (RULES: idle hand-over).
IDLE_HANDOVER_SECONDS = env_int("IDLE_HANDOVER_SECONDS", 120)

# Chat (chat app, docs/PROTOCOL.md "Chat"): the longest message in characters,
# messages a member may send per minute (over every room and socket: a bucket
# of its own, apart from the sockets' frame limit above), and how many of a
# room's latest messages a connecting socket gets.
CHAT_MAX_LENGTH = env_int("CHAT_MAX_LENGTH", 300)
CHAT_PER_MINUTE = env_int("CHAT_PER_MINUTE", 10)
CHAT_HISTORY = env_int("CHAT_HISTORY", 50)

# Ratings (ratings app): a rating is "provisional" under this many rated games;
# the leaderboard lists members with at least RATING_LEADERBOARD_MIN_GAMES.
RATING_PROVISIONAL_GAMES = env_int("RATING_PROVISIONAL_GAMES", 10)

# Backups (`manage.py backup` / `restore`, docs/OPERATIONS.md "Backups"): the
# folder the copies go to, and how many of the newest ones a backup keeps there
# (older ones are deleted once a new one is complete and checked).
BACKUP_DIR = Path(env("BACKUP_DIR", str(BASE_DIR / "var" / "backups")))
BACKUP_KEEP = env_int("BACKUP_KEEP", 14)
if BACKUP_KEEP < 1:
    raise SystemExit("BACKUP_KEEP must be at least 1")

# Leaving the club and taking your data (club.leaving, club.export; README "Your
# account and your data"): a closed account's display name and e-mail address are
# free again only after ACCOUNT_REUSE_DAYS; a member's data export can be
# downloaded for EXPORT_DAYS, from EXPORT_DIR (private: never served as static
# or media files, only through the member's login-checked download page).
ACCOUNT_REUSE_DAYS = max(0, env_int("ACCOUNT_REUSE_DAYS", 30))
EXPORT_DAYS = max(1, env_int("EXPORT_DAYS", 7))
EXPORT_DIR = Path(env("EXPORT_DIR", str(BASE_DIR / "var" / "exports")))

# Post-game analysis (analysis app, README "The worker: analysis, mail and pushes"): background tasks
# in the database (django-tasks + django-tasks-db), run by `manage.py worker`.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
# Sampled deals per decision (the coach's fixed budget; the tests lower it).
ANALYSIS_SAMPLES = max(1, env_int("ANALYSIS_SAMPLES", 48))
# CPU seconds one analysis may spend; past it the analysis stops as failed.
ANALYSIS_CPU_SECONDS = env_float("ANALYSIS_CPU_SECONDS", 600.0)
# Analyses queued or running at once, site-wide; past it a request is refused.
ANALYSIS_QUEUE_MAX = max(1, env_int("ANALYSIS_QUEUE_MAX", 20))
# A running analysis whose worker said nothing this long is queued again (it resumes).
ANALYSIS_STALE_SECONDS = max(1, env_int("ANALYSIS_STALE_SECONDS", 30))
ANALYSIS_PROGRESS_SECONDS = max(0.0, env_float("ANALYSIS_PROGRESS_SECONDS", 3.0))
ANALYSIS_SAVE_SECONDS = max(0.0, env_float("ANALYSIS_SAVE_SECONDS", 15.0))
# The worker lowers its own priority to this nice value (0: not at all), so tables never
# wait for it; with ANALYSIS_WORKER_IDLE also its own autogroup and SCHED_IDLE (analysis/priority.py).
ANALYSIS_WORKER_NICE = max(0, min(19, env_int("ANALYSIS_WORKER_NICE", 19)))
ANALYSIS_WORKER_IDLE = env_bool("ANALYSIS_WORKER_IDLE", True)
RATING_LEADERBOARD_MIN_GAMES = env_int("RATING_LEADERBOARD_MIN_GAMES", 5)

# Notifications (notifications app, README "Notifications"): links in mails are
# absolute, built on SITE_URL; the task worker (`manage.py worker`)
# sends the mail: at most one "your turn" mail per member per NOTIFY_MAIL_MINUTES,
# looking for due mail every NOTIFY_PUMP_SECONDS; an SMTP server that is down or
# refusing is tried again after NOTIFY_RETRY_SECONDS, doubling up to NOTIFY_RETRY_MAX_SECONDS.
SITE_URL = env("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
NOTIFY_MAIL_MINUTES = env_float("NOTIFY_MAIL_MINUTES", 60.0)
NOTIFY_PUMP_SECONDS = max(0.05, env_float("NOTIFY_PUMP_SECONDS", 5.0))
NOTIFY_RETRY_SECONDS = max(0.05, env_float("NOTIFY_RETRY_SECONDS", 30.0))
NOTIFY_RETRY_MAX_SECONDS = max(NOTIFY_RETRY_SECONDS, env_float("NOTIFY_RETRY_MAX_SECONDS", 3600.0))
# Off: no notification is written (the benchmark's "off" side; README).
NOTIFY_ENABLED = env_bool("NOTIFY_ENABLED", True)
# Invitations one member may send in any hour and any day (0: no limit); a table's
# waiting invitations are also held to its free seats (notifications.services.invite).
INVITATIONS_PER_HOUR = env_int("INVITATIONS_PER_HOUR", 10)
INVITATIONS_PER_DAY = env_int("INVITATIONS_PER_DAY", 30)
# ...and to one and the same member in any day.
INVITATIONS_TO_ONE_MEMBER_PER_DAY = env_int("INVITATIONS_TO_ONE_MEMBER_PER_DAY", 3)

# Web Push (push/, RFC 8030/8291/8292): the site's VAPID key pair (`manage.py push_keys`
# makes one; no key: push is off and the settings page says so), the subject the push
# services may contact (a mailto: or https: address), the devices one member may
# register, the push services an endpoint may point at (a leading dot: any
# subdomain; "*": any public host), and how the worker waits for and retries them.
PUSH_VAPID_PRIVATE_KEY = env("PUSH_VAPID_PRIVATE_KEY")
PUSH_VAPID_SUBJECT = env("PUSH_VAPID_SUBJECT")
PUSH_DEVICES_MAX = env_int("PUSH_DEVICES_MAX", 5)
PUSH_SERVICE_HOSTS = env_list(
    "PUSH_SERVICE_HOSTS",
    "fcm.googleapis.com,updates.push.services.mozilla.com,.push.apple.com,.notify.windows.com",
)
PUSH_TIMEOUT_SECONDS = max(0.1, env_float("PUSH_TIMEOUT_SECONDS", 10.0))
PUSH_RETRY_SECONDS = max(0.05, env_float("PUSH_RETRY_SECONDS", 30.0))
PUSH_RETRY_MAX_SECONDS = max(PUSH_RETRY_SECONDS, env_float("PUSH_RETRY_MAX_SECONDS", 3600.0))
PUSH_TTL_SECONDS = env_int("PUSH_TTL_SECONDS", 24 * 3600)
# Tests only: one loopback origin (http://127.0.0.1:PORT) that endpoints may use,
# for the tests' own push receiver. Never set it in production.
PUSH_TEST_ORIGIN = env("PUSH_TEST_ORIGIN").rstrip("/")

# Games beyond the shipped ones: dotted paths to registry entries (games.registry.Engine),
# e.g. "clubgames.nim.ENGINE". docs/ADDING_A_GAME.md.
EXTRA_GAMES = env_list("EXTRA_GAMES", "")

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# django-allauth: email + password sign-up with a display name.
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_SIGNUP_FORM_CLASS = "club.forms.SignupForm"
ACCOUNT_FORMS = {
    "signup": "club.signup.ClubSignupForm",
    "add_email": "club.signup.ClubAddEmailForm",
}
# The club's adapter (club.adapters) whose mails wait in the notifications' outbox:
# no page waits for the mail server (notifications/account.py).
ACCOUNT_ADAPTER = "notifications.account.AccountAdapter"
# "An account already exists" / "no such account" mails to one address, per day.
ACCOUNT_EXISTS_MAILS_PER_DAY = env_int("ACCOUNT_EXISTS_MAILS_PER_DAY", 3)
ACCOUNT_USER_DISPLAY = "club.adapters.user_display"
ACCOUNT_EMAIL_VERIFICATION = env("ACCOUNT_EMAIL_VERIFICATION", "optional")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_USER_MODEL_USERNAME_FIELD = "username"
ACCOUNT_SESSION_REMEMBER = None
# Sign-up with a registered email and password reset for an unknown one answer
# as for any other address; the owner of a registered one gets a mail instead.
ACCOUNT_PREVENT_ENUMERATION = True
# allauth's limits count per client address (REMOTE_ADDR: behind the proxy,
# daphne --proxy-headers makes it the member's, docs/OPERATIONS.md). allauth's
# default also locks an ACCOUNT after 5 wrong passwords in 5 minutes, which
# lets anyone lock its owner out; failed log-ins are limited per address
# only, a burst and a slower hourly budget (ACCOUNT_LOGIN_FAILED_LIMIT); 5 a
# minute, so that a member meets this friendly refusal before the nginx
# example's limit on log-in posts (6 a minute, burst 5) answers 429.
ACCOUNT_RATE_LIMITS = {
    "login_failed": env("ACCOUNT_LOGIN_FAILED_LIMIT", "5/m/ip,60/h/ip"),
    "signup": env("ACCOUNT_SIGNUP_LIMIT", "20/m/ip,200/h/ip"),
}
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Card Club <club@localhost>")

globals().update(_email(env("EMAIL_URL")))

# The club's languages (README, "Languages"): URLs carry no language prefix;
# the language comes from the member's profile, else the picker's cookie,
# else the browser's Accept-Language, else English.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("it", "Italiano"),
    ("fr", "Français"),
    ("ru", "Русский"),
    ("es", "Español"),
    ("ro", "Română"),
]
# The club's catalogs (`make messages`), then its hand-kept overrides of
# Django's and django-allauth's own strings where their catalogs fall short
# (locale/README.md, "Other projects' strings").
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale" / "overrides"]
# Dates and numbers follow the language (Django's formats for it, it fr ru es
# ro); English keeps the club's day-month order and 24-hour clock.
FORMAT_MODULE_PATH = ["club.formats"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = env_bool("DJANGO_HTTPS", False)
TIME_ZONE = env("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(env("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
# After `collectstatic` (a deployment, `make run`, the browser tests' servers)
# files get hashed names and compressed copies, served for a year; a checkout
# that never collected (the in-process tests) serves straight from static/.
# collectstatic itself must use the hashing storage to write them.
_COLLECTED = (STATIC_ROOT / "staticfiles.json").exists() or sys.argv[1:2] == ["collectstatic"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "club.serving.storage.ClubStaticStorage"
        if _COLLECTED
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
SERVESTATIC_USE_FINDERS = not _COLLECTED
SERVESTATIC_AUTOREFRESH = DEBUG

# Security: safe by default; the HTTPS-only ones switch on with DJANGO_HTTPS.
HTTPS = env_bool("DJANGO_HTTPS", False)
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS and env_bool("DJANGO_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 60 * 60 * 24 * 30) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS and env_bool("DJANGO_HSTS_PRELOAD", False)
if env_bool("DJANGO_BEHIND_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# club/serving/csp.py: scripts, styles and connections from the site itself only.
CONTENT_SECURITY_POLICY = env("DJANGO_CSP") or (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    # Tokens in addresses (unsubscribe links, invites) never reach a log (club/serving/logsafe.py).
    "filters": {"redact_secrets": {"()": "club.serving.logsafe.RedactSecrets"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["redact_secrets"],
        }
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.channels.server": {"level": "WARNING"},
        # The pool retries a refused connection in the background and warns
        # on every try; the request that waited gets the error anyway, in one
        # line (manage.py) or in the server log.
        "psycopg.pool": {"level": "ERROR"},
        # psycopg warns when it drops a pipeline whose server went away (a
        # PostgreSQL restart): games.db already says so once per outage.
        "psycopg": {"level": "ERROR"},
    },
}
