"""Rename display names that fail validation or collide ignoring case.

Names made by createsuperuser or the admin were not validated (`ops/team`
from ops/team@example.com) and broke every page linking to the member. The
first valid holder of a name (by id) keeps it; the others get the sanitised
name, numbered if it is taken. The rule and the sanitising are copied here
from club.models, as a migration must not depend on code that may change.
"""

import re

from django.db import migrations

NAME_RE = re.compile(r"[\w][\w .'-]{1,28}[\w.]")


def _sanitised(base):
    cleaned = re.sub(r"[^\w .'-]", "", base).strip(" .'-")[:24].rstrip(" '-") or "player"
    return cleaned if len(cleaned) >= 3 else f"{cleaned}-player"


def rename_invalid_display_names(apps, schema_editor):
    Player = apps.get_model("club", "Player")
    rows = list(Player.objects.order_by("pk").values_list("pk", "display_name"))
    kept, renames = set(), []
    for pk, name in rows:
        if NAME_RE.fullmatch(name) and name.lower() not in kept:
            kept.add(name.lower())
        else:
            renames.append((pk, name))
    # Avoid every current name too, so no intermediate save collides.
    taken = kept | {name.lower() for _, name in rows}
    for pk, name in renames:
        base = _sanitised(name)
        candidate, n = base, 1
        while candidate.lower() in taken:
            n += 1
            candidate = f"{base}-{n}"
        taken.add(candidate.lower())
        Player.objects.filter(pk=pk).update(display_name=candidate)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0005_house_bots"),
    ]

    operations = [
        migrations.RunPython(rename_invalid_display_names, migrations.RunPython.noop),
    ]
