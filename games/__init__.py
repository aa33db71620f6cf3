"""The tables: generic models, services, sockets and pages for every game, one folder per game.

games/<game>/ holds one game (engine, bots, coach, rules) and imports only the
declarations (games.registry, games.paces, games.i18n, games.engine's card kit), never
another game. The generic code imports the club's records and the declarations, never a
side app: side apps hear from the tables through games/hooks.py.
"""
