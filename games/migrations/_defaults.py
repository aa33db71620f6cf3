"""The two variants every club starts with (used by migration 0002 and tests)."""

DEFAULTS = [
    {
        "name": "Devyatka",
        "keft": False,
        "pass_rule": False,
        "description": "Classic nines: the first player out wins, everyone else is placed "
        "by cards left, then card points.",
    },
    {
        "name": "Keft",
        "keft": True,
        "pass_rule": False,
        "description": "One loser: players go out one by one and play goes on; the last "
        "player holding cards loses.",
    },
]


def create_default_variants(variant_model=None) -> None:
    if variant_model is None:
        from games.models import Variant as variant_model
    for data in DEFAULTS:
        variant_model.objects.get_or_create(
            name=data["name"], defaults={**data, "game": "devyatka"}
        )
