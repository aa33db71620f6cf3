# Issue 23, step 1 of 3: Variant.options, one JSON field for every game's rules.
# Three migrations, not one: on PostgreSQL a table cannot be altered in the
# transaction that updated its rows (deferred foreign-key checks are pending),
# and the data step (0010) runs between the schema steps both ways.

import games.registry
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_simultaneous_phase'),
    ]

    operations = [
        migrations.AddField(
            model_name='variant',
            name='options',
            field=models.JSONField(blank=True, default=dict, help_text="The game's rules for this variant, by the names the game declares (games.registry: Engine.option_schema); missing ones take their defaults."),
        ),
        migrations.AlterField(
            model_name='game',
            name='game',
            field=models.CharField(choices=games.registry.game_choices, max_length=20),
        ),
        migrations.AlterField(
            model_name='variant',
            name='game',
            field=models.CharField(choices=games.registry.game_choices, default='devyatka', max_length=20),
        ),
    ]
