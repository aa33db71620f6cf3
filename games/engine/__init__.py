"""What every game's pure engine shares: card codes (cards.py), rule messages
(messages.py) and the coach's verdicts (coach.py). Nothing below this package
imports Django.

Each game's engine lives in its own folder (games/<game>/engine.py): a set of
pure functions over an immutable, JSON-serialisable state; see ``DESIGN.md``
("The engine contract"). The contract imports them from this package by
the game's name: the other modules here are those aliases. The site reaches an
engine through its registry entry (games.registry), never by a game's name.
"""
