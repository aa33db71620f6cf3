"""Chat at the tables and in the lobby: rooms, messages, their socket frames.

A side app: it imports the tables (games, through games.hooks) and the club's records,
never another side app, notifications, push or the site.
"""
