"""The house bot players (used by migrations 0005 and 0008, and by tests).

Each strength has a roster of named bots, so that three heuristic bots at one
table can be told apart in the seats, the log, the results and the standings.
A bot's name carries its strength. The first of each roster is the one bot
that level had before (migration 0008 renames it), so its history stays.
"""

HOUSE_BOTS = [
    ("random", "Random bot"),
    ("heuristic", "Heuristic bot"),
    ("search", "Search bot"),
]

# Eleven a level: a 12-seat Golf table can hold eleven bots of one strength.
ROSTERS = {
    "random": ["Rosa", "Remy", "Rita", "Rolf", "Ruby", "Rex", "Rhea", "Rory", "Rina", "Ravi", "Roxy"],
    "heuristic": [
        "Hugo", "Hana", "Hilda", "Hector", "Hazel", "Hank", "Heidi", "Homer", "Holly", "Hal", "Hedy",
    ],
    "search": [
        "Sasha", "Sven", "Selma", "Silas", "Stella", "Sid", "Sofia", "Saul", "Sage", "Stan", "Suki",
    ],
}  # fmt: skip


def bot_name(level: str, first_name: str) -> str:
    return f"{first_name} ({level} bot)"


def create_house_bots(player_model=None) -> None:
    """One bot a level, as migration 0005 made them."""
    if player_model is None:
        from club.models import Player as player_model
    for level, name in HOUSE_BOTS:
        if not player_model.objects.filter(bot_level=level).exists():
            player_model.objects.create(user=None, bot_level=level, display_name=name)


def create_named_bots(player_model=None) -> None:
    """Every level's roster: the old bot renamed to the first name, the rest created."""
    if player_model is None:
        from club.models import Player as player_model
    create_house_bots(player_model)
    for level, old_name in HOUSE_BOTS:
        names = [bot_name(level, first) for first in ROSTERS[level]]
        player_model.objects.filter(bot_level=level, display_name=old_name).update(
            display_name=names[0]
        )
        for name in names:
            if not player_model.objects.filter(bot_level=level, display_name=name).exists():
                player_model.objects.create(user=None, bot_level=level, display_name=name)
