"""Django's Redis cache, failing open: a Redis that is away must not turn log-ins into 500s.

With REDIS_URL the cache holds allauth's rate-limit counters, shared by every
process. While Redis does not answer, reads find nothing and writes are
dropped (the limits are off, one warning a minute), and the pages go on.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger("club.cache")  # the name its log lines have always carried


class FailOpenRedisCache(RedisCache):
    _warned = -math.inf

    def _failed(self, exc: Exception) -> None:
        now = time.monotonic()
        if now - FailOpenRedisCache._warned > 60:
            FailOpenRedisCache._warned = now
            logger.warning("the cache (Redis) fails; rate limits are off meanwhile: %r", exc)

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except Exception as exc:  # noqa: BLE001 - any Redis failure
            self._failed(exc)
            return default

    def set(self, key: str, value: Any, timeout: Any = None, version: int | None = None) -> None:
        try:
            super().set(key, value, timeout, version)
        except Exception as exc:  # noqa: BLE001
            self._failed(exc)

    def add(self, key: str, value: Any, timeout: Any = None, version: int | None = None) -> bool:
        try:
            return super().add(key, value, timeout, version)
        except Exception as exc:  # noqa: BLE001
            self._failed(exc)
            return False

    def delete(self, key: str, version: int | None = None) -> bool:
        try:
            return super().delete(key, version)
        except Exception as exc:  # noqa: BLE001
            self._failed(exc)
            return False
