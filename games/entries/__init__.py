"""The shipped games' registry entries, one module per game (see games.registry)."""

# Registered in this order (the first is what a new variant starts as); a game kept
# outside this repository is listed in the EXTRA_GAMES setting instead.
BUILTIN = ("games.entries.devyatka.ENGINE", "games.entries.golf.ENGINE")
