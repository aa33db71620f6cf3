from django.db import migrations

from club.migrations._house_bots import HOUSE_BOTS, create_house_bots


def create(apps, schema_editor):
    create_house_bots(apps.get_model("club", "Player"))


def remove(apps, schema_editor):
    Player = apps.get_model("club", "Player")
    Player.objects.filter(bot_level__in=[level for level, _ in HOUSE_BOTS]).delete()


class Migration(migrations.Migration):
    dependencies = [("club", "0004_bots")]
    operations = [migrations.RunPython(create, remove)]
