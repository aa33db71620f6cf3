"""The look-alike keys again: club.names.name_key now also folds plain ASCII look-alikes
(I, l and 1; 0 and O; rn and m), so the stored keys are recomputed (issue 36)."""

from django.db import migrations


def refill(apps, schema_editor):
    from club.names import name_key

    Player = apps.get_model("club", "Player")
    for player in Player.objects.only("pk", "display_name", "name_key").iterator():
        key = name_key(player.display_name)
        if key != player.name_key:
            Player.objects.filter(pk=player.pk).update(name_key=key)


class Migration(migrations.Migration):
    dependencies = [("club", "0014_result_figures_index")]
    operations = [migrations.RunPython(refill, migrations.RunPython.noop)]
