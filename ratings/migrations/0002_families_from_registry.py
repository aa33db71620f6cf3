# Issue 23: rating families come from the games' registry entries.

import games.registry
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0001_initial'),
    ]

    operations = [
        migrations.AlterField(
            model_name='rating',
            name='family',
            field=models.CharField(choices=games.registry.rating_family_choices, max_length=20),
        ),
        migrations.AlterField(
            model_name='ratingchange',
            name='family',
            field=models.CharField(choices=games.registry.rating_family_choices, max_length=20),
        ),
    ]
