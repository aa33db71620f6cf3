"""Duplicate series: the same boards dealt at every table, travellers, the rounds' standings.

A side app: it imports the tables (games, through games.hooks) and the club's records,
never another side app, notifications, push or the site.
"""
