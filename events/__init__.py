"""Club nights: recurring evenings of rounds, seating the members present, their standings.

A side app: it imports the tables (games, through games.hooks) and the club's records,
never another side app, notifications, push or the site. events/seating.py and its
exact search, events/seating_search.py, are pure Python.
"""
