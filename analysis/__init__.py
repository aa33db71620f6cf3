"""Post-game analysis: the low-priority search over a finished game, its charts and coaching.

A side app: it imports the tables and the club's records, never another side app,
notifications, push or the site. Its searches run in the
background task worker.
"""
