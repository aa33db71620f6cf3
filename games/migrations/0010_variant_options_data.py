# Issue 23, step 2 of 3: each variant's option columns copied into Variant.options
# and back. Every variant, table and game is kept; games keep their own snapshot
# of the options (Game.options), which does not change.

from django.db import migrations

# The option columns each game had (frozen here: this is history, not the registry).
COLUMNS = {"devyatka": ("keft", "pass_rule"), "golf": ("column_rule", "rounds")}
ALL_COLUMNS = ("keft", "pass_rule", "column_rule", "rounds")


def columns_to_options(apps, schema_editor):
    Variant = apps.get_model("games", "Variant")
    variants = list(Variant.objects.all())
    for variant in variants:
        variant.options = {name: getattr(variant, name) for name in COLUMNS.get(variant.game, ())}
    Variant.objects.bulk_update(variants, ["options"], batch_size=500)


def options_to_columns(apps, schema_editor):
    Variant = apps.get_model("games", "Variant")
    variants = list(Variant.objects.all())
    for variant in variants:
        for name in ALL_COLUMNS:
            if name in (variant.options or {}):
                setattr(variant, name, variant.options[name])
    Variant.objects.bulk_update(variants, list(ALL_COLUMNS), batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0009_variant_options'),
    ]

    operations = [migrations.RunPython(columns_to_options, options_to_columns)]
