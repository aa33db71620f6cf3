"""Each play keeps its comparison key (standings read keys, not results); filled for
the plays finished before, from their results, as the game's registry entry says."""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from games import registry

    Play = apps.get_model("duplicate", "Play")
    GameResult = apps.get_model("club", "GameResult")
    plays = Play.objects.select_related("board__round__series__variant")
    for play in plays.iterator():
        result = GameResult.objects.filter(game_id=play.game_id, seat=play.seat).first()
        if result is None:
            continue
        variant = play.board.round.series.variant
        key = registry.engine(variant.game).duplicate_key(variant.options)
        outcome = {
            **(result.detail or {}),
            "place": result.place,
            "lost": result.lost,
            "score": result.score,
        }
        play.outcome_key = list(key(outcome))
        play.save(update_fields=["outcome_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0013_player_name_key"),
        ("duplicate", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="play",
            name="outcome_key",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
