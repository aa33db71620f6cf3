"""The club and the site: members, series, standings, home, demo data, the pages' URLs.

How it is served (ASGI, daphne, channel layers, middleware, cache, storage) is the
sub-package club/serving/; club/asgi.py and club/server.py are thin aliases of its
entry points at the addresses operators run. The club's records and small helpers
(models, standings, names...) sit low in the import layers and may import only the
games' engines and declarations (games.registry, games.paces, games.i18n); the
site's own modules (urls, views, home, admin, demo) sit above every app and may
import them all (pyproject.toml, [tool.importlinter]).
"""
