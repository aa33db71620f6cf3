"""Secrets that travel in addresses never reach a log.

Two kinds of address carry a secret: a private table's invite token is in the
query string (`?invite=`), and a notification mail's one-click unsubscribe
token is a path segment (`/notifications/unsubscribe/<token>/`: RFC 8058 mail
clients post to the very address in the mail). Whoever reads the logs must
not be able to open a private table or switch a member's mail off, so every
path a log line shows goes through `redact`: the query string is dropped and
the token's segment is replaced. daphne's access log (club/serving/server.py) and
Django's own request log (a refused method or a 404 names its path: the
`RedactSecrets` filter on the console handler, club/settings.py) both do.
The nginx example logs `$uri` through the same rule (docs/deploy/nginx-club.conf).
"""

from __future__ import annotations

import logging
import re

# A path segment that is a secret: the segment after these prefixes.
_SECRET_SEGMENT = re.compile(r"(/notifications/unsubscribe/)[^/?#\s\"']+")
MASK = "[token]"


def redact(path: str) -> str:
    """`path` without its query string and with every secret segment masked."""
    path = path.split("?", 1)[0]
    return _SECRET_SEGMENT.sub(rf"\g<1>{MASK}", path)


def _clean(value: object) -> object:
    if isinstance(value, str) and ("/unsubscribe/" in value or "invite=" in value):
        return _SECRET_SEGMENT.sub(rf"\g<1>{MASK}", re.sub(r"invite=[^&\s\"']*", "invite=", value))
    return value


class RedactSecrets(logging.Filter):
    """Masks secret tokens in a record's message and arguments (any logger)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _clean(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _clean(value) for key, value in record.args.items()}
        return True
