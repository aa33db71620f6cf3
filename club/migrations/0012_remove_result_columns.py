# Issue 23, step 3 of 3: the figure columns go (0011 moved them into GameResult.detail).

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0011_result_detail_data'),
    ]

    operations = [
        migrations.RemoveField(model_name='gameresult', name='card_points'),
        migrations.RemoveField(model_name='gameresult', name='cards_left'),
        migrations.RemoveField(model_name='gameresult', name='out_position'),
        migrations.RemoveField(model_name='gameresult', name='passes'),
    ]
