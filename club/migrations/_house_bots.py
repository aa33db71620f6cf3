"""The house bot players, one per strength (used by migration 0005 and tests)."""

HOUSE_BOTS = [
    ("random", "Random bot"),
    ("heuristic", "Heuristic bot"),
    ("search", "Search bot"),
]


def create_house_bots(player_model=None) -> None:
    if player_model is None:
        from club.models import Player as player_model
    for level, name in HOUSE_BOTS:
        if not player_model.objects.filter(bot_level=level).exists():
            player_model.objects.create(user=None, bot_level=level, display_name=name)
