"""The club and the site: members, series, standings, home, demo data, the pages' URLs.

It also holds the site's entry points (asgi, server) and its serving plumbing. The
club's records and small helpers (models, standings, names...) sit low in the import
layers and may import only the games' engines and declarations (games.registry, games.paces,
games.i18n); the site's own modules (urls, views, home, admin, demo) sit on top and
may import every app (pyproject.toml, [tool.importlinter]).
"""
