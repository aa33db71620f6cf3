from django.db import migrations

from games.migrations._defaults import DEFAULTS, create_default_variants


def create(apps, schema_editor):
    create_default_variants(apps.get_model("games", "Variant"))


def remove(apps, schema_editor):
    Variant = apps.get_model("games", "Variant")
    Variant.objects.filter(name__in=[d["name"] for d in DEFAULTS], tables__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(create, remove)]
