"""A stamp per table that SQLite triggers renew on every write to the rows a move reads.

games.services.kept keeps a table's rows in the serving process between moves and
checks them against this stamp (issue 44, docs/PERFORMANCE.md). The stamp lives in
a table of its own that Django does not manage, so a later migration that rebuilds
games_table on SQLite (Django copies a table to alter it) cannot lose it; such a
rebuild drops the triggers on the rebuilt table, and the service then finds them
missing and reads every move's rows as before (tests/integration/test_kept_rows.py
fails until a migration makes them again).

Every trigger writes a new random stamp: a stamp seen once is never trusted again
by accident, even for a table id used again after a flush.

SQLite only. On PostgreSQL a trigger on a member's or a series' row would lock the
rows of the tables it stamps in an order opposite to a move's, so nothing is made
there: the service's stamp there is the rows' own transaction ids (xmin).
"""

from django.db import migrations


def _stamp(table_id: str) -> str:
    return f"REPLACE INTO games_tablestamp (table_id, stamp) VALUES ({table_id}, random());"


def _stamp_where(select: str) -> str:
    return f"REPLACE INTO games_tablestamp (table_id, stamp) {select};"


TRIGGERS = {
    # The table's own row: any update, whoever makes it.
    "games_stamp_table_insert": f"AFTER INSERT ON games_table BEGIN {_stamp('NEW.id')} END",
    "games_stamp_table_update": f"AFTER UPDATE ON games_table BEGIN {_stamp('NEW.id')} END",
    "games_stamp_table_delete": (
        "AFTER DELETE ON games_table BEGIN "
        "DELETE FROM games_tablestamp WHERE table_id = OLD.id; END"
    ),
    # Its seats and its games.
    **{
        f"games_stamp_{name}_{event.lower()}": (
            f"AFTER {event} ON {table} BEGIN "
            + (_stamp("NEW.table_id") if event != "DELETE" else "")
            + (_stamp("OLD.table_id") if event != "INSERT" else "")
            + " END"
        )
        for name, table in (("seat", "games_seat"), ("game", "games_game"))
        for event in ("INSERT", "UPDATE", "DELETE")
    },
    # Rows other tables share: every table that reads them.
    "games_stamp_variant_update": (
        "AFTER UPDATE ON games_variant BEGIN "
        + _stamp_where("SELECT id, random() FROM games_table WHERE variant_id = NEW.id")
        + " END"
    ),
    "games_stamp_series_update": (
        "AFTER UPDATE ON club_series BEGIN "
        + _stamp_where("SELECT id, random() FROM games_table WHERE series_id = NEW.id")
        + " END"
    ),
    "games_stamp_player_update": (
        "AFTER UPDATE ON club_player BEGIN "
        + _stamp_where(
            "SELECT DISTINCT table_id, random() FROM games_seat WHERE player_id = NEW.id"
        )
        + " END"
    ),
}


def make(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "sqlite":
        return
    schema_editor.execute(
        "CREATE TABLE games_tablestamp (table_id integer NOT NULL PRIMARY KEY, stamp integer NOT NULL)"
    )
    for name, body in TRIGGERS.items():
        schema_editor.execute(f"CREATE TRIGGER {name} {body}")


def unmake(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "sqlite":
        return
    for name in TRIGGERS:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}")
    schema_editor.execute("DROP TABLE IF EXISTS games_tablestamp")


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0019_account_closure"),
        ("games", "0015_absence_told_back"),
    ]

    operations = [migrations.RunPython(make, unmake, elidable=False)]
