# Issue 23, step 1 of 3: GameResult.detail (a game's own figures) and .resigned;
# series scoring kinds from the games' registry. Three migrations for the reason
# given in games/migrations/0009_variant_options.py.

import games.registry
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0009_player_language'),
    ]

    operations = [
        migrations.AddField(
            model_name='gameresult',
            name='detail',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name='gameresult',
            name='resigned',
            field=models.BooleanField(default=False, help_text='The player left the game while still playing.'),
        ),
        migrations.AlterField(
            model_name='gameresult',
            name='lost',
            field=models.BooleanField(default=False, help_text="The game's single loser (games with one loser only)."),
        ),
        migrations.AlterField(
            model_name='gameresult',
            name='score',
            field=models.IntegerField(blank=True, help_text='Lower is better; empty for games without a score.', null=True),
        ),
        migrations.AlterField(
            model_name='series',
            name='scoring',
            field=models.CharField(blank=True, choices=games.registry.scoring_choices, help_text='Leave empty to follow the variant: each game says which scoring kinds it supports and which comes first (Keft: a loss per game; placement variants: placement points).', max_length=10),
        ),
    ]
