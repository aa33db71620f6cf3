"""How the club is served: the plumbing between the network and the club's pages and tables.

- asgi.py: the ASGI application (HTTP through Django, websockets through Channels),
  with the websocket origin check (origins.py), the handshake's flooding cooldown
  (handshake.py) and the HTTP request slots (http_slots.py);
- server.py: the club's daphne (`python -m club.server`);
- channel_layers.py: the Channels layers (in-memory, Redis pub/sub that rides out
  outages), named in CHANNEL_LAYERS;
- middleware.py, csp.py: Django middleware (the database away, admin ids, the
  Content-Security-Policy), named in MIDDLEWARE;
- cache.py (CACHES), storage.py (STORAGES), backends/sqlite3 (DATABASES' SQLite
  ENGINE), logsafe.py (the logs' filter of secrets in addresses).

Operators' commands keep their addresses: `python -m club.server` and
`club.asgi:application` are thin aliases of server.py and asgi.py (club/server.py,
club/asgi.py). In the import layers (pyproject.toml) this package sits above the
site's pages (its middleware answers with them) and below those two aliases; nothing
else imports it: the settings name its classes by their dotted paths.
"""
