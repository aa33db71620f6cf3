"""Notifications: what happened at the tables for a member, on the site and by mail.

It imports the side apps below it (analysis), the tables and the club's records, never
push or the site; it hears of the tables through games.hooks and sends its mail from
the background worker.
"""
