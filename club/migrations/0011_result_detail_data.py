# Issue 23, step 2 of 3: Devyatka's figure columns copied into GameResult.detail
# (and back), and `resigned` from each game's list of resigned seats.

from django.db import migrations

# The figures that were columns (filled for Devyatka results only), in the order
# the game's registry entry writes them.
FIGURES = ("cards_left", "card_points", "passes", "out_position")
BATCH = 1000


def _each_batch(apps):
    GameResult = apps.get_model("club", "GameResult")
    rows = GameResult.objects.select_related("game").order_by("pk")
    batch = []
    for row in rows.iterator(chunk_size=BATCH):
        batch.append(row)
        if len(batch) == BATCH:
            yield GameResult, batch
            batch = []
    if batch:
        yield GameResult, batch


def columns_to_detail(apps, schema_editor):
    for model, batch in _each_batch(apps):
        for row in batch:
            if row.cards_left is not None:
                row.detail = {name: getattr(row, name) for name in FIGURES}
            row.resigned = row.seat in (row.game.resigned or [])
        model.objects.bulk_update(batch, ["detail", "resigned"])


def detail_to_columns(apps, schema_editor):
    for model, batch in _each_batch(apps):
        for row in batch:
            for name in FIGURES:
                setattr(row, name, (row.detail or {}).get(name))
        model.objects.bulk_update(batch, list(FIGURES))


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0010_result_detail'),
    ]

    operations = [migrations.RunPython(columns_to_detail, detail_to_columns)]
