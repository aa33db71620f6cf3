"""The two variants every club starts with (used by migration 0002 and tests)."""

# Every default variant has a clock, so no table waits for ever (migration 0006).
DEFAULT_TURN_SECONDS = 60

DEFAULTS = [
    {
        "name": "Devyatka",
        "keft": False,
        "pass_rule": False,
        "turn_seconds": DEFAULT_TURN_SECONDS,
        "description": "Classic nines: the first player out wins, everyone else is placed "
        "by cards left, then card points.",
    },
    {
        "name": "Keft",
        "keft": True,
        "pass_rule": False,
        "turn_seconds": DEFAULT_TURN_SECONDS,
        "description": "One loser: players go out one by one and play goes on; the last "
        "player holding cards loses.",
    },
]


GOLF = {
    "name": "Golf",
    "game": "golf",
    "column_rule": "pair",
    "rounds": 9,
    "min_players": 2,
    "max_players": 12,
    "turn_seconds": DEFAULT_TURN_SECONDS,
    "description": "Nine cards in a 3x3 grid, nine rounds: the lowest total wins. Two of a "
    "rank in a column score nothing.",
}


# The rules that were a column each on Variant until games migrations 0009-0011 made
# them one `options` JSON field; a model from then on gets them in there.
OPTION_COLUMNS = ("keft", "pass_rule", "column_rule", "rounds")


def _for_model(data: dict, fields: set[str]) -> dict:
    if "options" not in fields:
        return {k: v for k, v in data.items() if k in fields}
    options = {k: v for k, v in data.items() if k in OPTION_COLUMNS}
    rest = {k: v for k, v in data.items() if k in fields}
    return {**rest, "options": options}


def create_golf_variant(variant_model=None) -> None:
    if variant_model is None:
        from games.models import Variant as variant_model
    fields = {f.name for f in variant_model._meta.get_fields()}
    variant_model.objects.get_or_create(name=GOLF["name"], defaults=_for_model(GOLF, fields))


def create_default_variants(variant_model=None) -> None:
    if variant_model is None:
        from games.models import Variant as variant_model
    # Older migrations pass a historical model without the later fields.
    fields = {f.name for f in variant_model._meta.get_fields()}
    for data in DEFAULTS:
        defaults = _for_model(data, fields)
        variant_model.objects.get_or_create(
            name=data["name"], defaults={**defaults, "game": "devyatka"}
        )
    if "rounds" in fields or "options" in fields:  # from migration 0007 on, Golf is a default too
        create_golf_variant(variant_model)
