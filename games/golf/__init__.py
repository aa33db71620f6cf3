"""Nine-card Golf: one folder.

engine.py (the rules, pure Python), bots/ (the house players), coach.py (the
analysis judge), entry.py (the registry entry: what the site knows of the
game), static/ (the table and replay renderers, the stylesheet) and
templates/ (the game page and its rules section). Importing this package
imports no Django: the engine and bots are used outside the site too
(DESIGN.md, "The engine contract").
"""
