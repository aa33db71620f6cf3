from django.db import migrations

from club.migrations._house_bots import HOUSE_BOTS, ROSTERS, bot_name, create_named_bots


def create(apps, schema_editor):
    create_named_bots(apps.get_model("club", "Player"))


def back(apps, schema_editor):
    Player = apps.get_model("club", "Player")
    for level, old_name in HOUSE_BOTS:
        first, *rest = [bot_name(level, name) for name in ROSTERS[level]]
        # Bots that sat at tables keep their rows (their seats and results need them).
        Player.objects.filter(
            bot_level=level, display_name__in=rest, seats__isnull=True, results__isnull=True
        ).delete()
        Player.objects.filter(bot_level=level, display_name=first).update(display_name=old_name)


class Migration(migrations.Migration):
    dependencies = [("club", "0007_golf_scores"), ("games", "0008_simultaneous_phase")]
    operations = [migrations.RunPython(create, back)]
