# Issue 23, step 3 of 3: the option columns go (0010 moved them into Variant.options).
# Backwards they come back with their defaults, and 0010 fills them in.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_variant_options_data'),
    ]

    operations = [
        migrations.RemoveField(model_name='variant', name='column_rule'),
        migrations.RemoveField(model_name='variant', name='keft'),
        migrations.RemoveField(model_name='variant', name='pass_rule'),
        migrations.RemoveField(model_name='variant', name='rounds'),
    ]
