"""Configuration from the environment: bad values stop the server with one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **env}
    full_env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_unparseable_database_url_refuses_to_start_with_one_line():
    result = run_manage("check", DATABASE_URL="nosuchdb://whatever")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DATABASE_URL" in lines[0]


def test_unreachable_database_refuses_to_start_with_one_line():
    result = run_manage("migrate", DATABASE_URL="postgres://nobody@127.0.0.1:1/nothing")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DATABASE_URL" in lines[0]


def test_deploy_check_has_only_https_warnings_by_default(tmp_path):
    result = run_manage("check", "--deploy", DJANGO_SECRET_KEY="x" * 60 + "yz!@#$%^&*()")
    assert result.returncode == 0
    codes = {word for word in result.stderr.split() if word.startswith("(security.")}
    assert codes <= {
        "(security.W004)",  # HSTS: only with DJANGO_HTTPS
        "(security.W008)",  # SSL redirect: only with DJANGO_HTTPS
        "(security.W012)",  # secure session cookie: only with DJANGO_HTTPS
        "(security.W016)",  # secure CSRF cookie: only with DJANGO_HTTPS
    }


def test_https_switches_on_secure_settings():
    result = run_manage(
        "check", "--deploy", DJANGO_HTTPS="1", DJANGO_SECRET_KEY="x" * 60 + "yz!@#$%^&*()"
    )
    assert result.returncode == 0
    codes = {word for word in result.stderr.split() if word.startswith("(security.")}
    # Preloading HSTS is a one-way decision, so it stays opt-in (DJANGO_HSTS_PRELOAD).
    assert codes <= {"(security.W021)"}


def _database_settings(**env: str) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    full_env.pop("DJANGO_SETTINGS_MODULE", None)
    full_env.update(env)
    code = (
        "import json, club.settings as s; "
        "d = s.DATABASES['default']; "
        "print(json.dumps({'options': d.get('OPTIONS', {}), 'age': d['CONN_MAX_AGE']}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=full_env, capture_output=True, text=True
    )


def test_postgresql_uses_the_connection_pool_by_default():
    result = _database_settings(DATABASE_URL="postgres://club@db.example:5432/club")
    assert result.returncode == 0, result.stderr
    settings = json.loads(result.stdout)
    assert settings["options"]["pool"] == {"min_size": 2, "max_size": 8, "timeout": 10.0}
    assert settings["age"] == 0


def test_pool_size_comes_from_the_environment_and_can_be_turned_off():
    sized = _database_settings(
        DATABASE_URL="postgres://club@db.example:5432/club", DATABASE_POOL_SIZE="20"
    )
    assert json.loads(sized.stdout)["options"]["pool"]["max_size"] == 20
    off = _database_settings(
        DATABASE_URL="postgres://club@db.example:5432/club",
        DATABASE_POOL="0",
        DATABASE_CONN_MAX_AGE="60",
    )
    assert off.returncode == 0, off.stderr
    assert json.loads(off.stdout) == {
        "options": {"server_side_binding": True, "prepare_threshold": 5},
        "age": 60,
    }


def test_prepared_statements_are_on_for_postgresql_and_can_be_turned_off():
    url = "postgres://club@db.example:5432/club"
    on = json.loads(_database_settings(DATABASE_URL=url).stdout)["options"]
    assert (on["server_side_binding"], on["prepare_threshold"]) == (True, 5)
    off = json.loads(_database_settings(DATABASE_URL=url, DATABASE_PREPARED="0").stdout)
    assert "server_side_binding" not in off["options"]
    assert "prepare_threshold" not in off["options"]
    assert "pool" in off["options"]


def test_pool_with_persistent_connections_refuses_to_start_with_one_line():
    result = _database_settings(
        DATABASE_URL="postgres://club@db.example:5432/club", DATABASE_CONN_MAX_AGE="60"
    )
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DATABASE_POOL=0" in lines[0]


def _layer(**env: str) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("REDIS_", "DJANGO_"))}
    full_env.update(env)
    code = "import club.settings as s; print(s.CHANNEL_LAYERS['default']['BACKEND'])"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=full_env, capture_output=True, text=True
    )


def test_redis_uses_the_pubsub_layer_unless_told_otherwise():
    assert _layer().stdout.strip() == "club.serving.channel_layers.InMemoryChannelLayer"
    redis = "redis://127.0.0.1:6379/5"
    pubsub = _layer(REDIS_URL=redis).stdout.strip()
    # channels_redis's pub/sub layer, in club.serving.channel_layers' subclass that rides out outages.
    assert pubsub == "club.serving.channel_layers.RedisPubSubChannelLayer"
    core = _layer(REDIS_URL=redis, REDIS_LAYER="core").stdout.strip()
    assert core == "channels_redis.core.RedisChannelLayer"
    wrong = _layer(REDIS_URL=redis, REDIS_LAYER="fast")
    assert wrong.returncode != 0
    assert wrong.stderr.strip().splitlines() == ["REDIS_LAYER must be core or pubsub, not 'fast'"]
