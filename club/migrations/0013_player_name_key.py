from django.db import migrations, models


def fill(apps, schema_editor):
    from club.names import name_key

    Player = apps.get_model("club", "Player")
    for player in Player.objects.only("pk", "display_name").iterator():
        Player.objects.filter(pk=player.pk).update(name_key=name_key(player.display_name))


class Migration(migrations.Migration):
    dependencies = [("club", "0012_remove_result_columns")]
    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(db_index=True, default="", editable=False, max_length=120),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
