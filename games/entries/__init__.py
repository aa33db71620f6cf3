"""The shipped games' registry entries, one module per game (see games.registry)."""
