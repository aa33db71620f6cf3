"""Ratings: each finished game moves its players' ratings; the rating pages' numbers.

A side app: it imports the tables (games, through games.hooks) and the club's records,
never another side app, notifications, push or the site.
"""
