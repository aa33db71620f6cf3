"""One member cannot fill the lobby: open tables, tables an hour, the lobby list (issue 22)."""

from __future__ import annotations

import pytest

from games import services
from games.models import Table, Variant
from tests.integration.test_table_ws import make_player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]


def open_tables(player, count: int) -> list[Table]:
    variant = Variant.objects.get(name="Golf")
    return [services.create_table(player, variant, 12, limited=True)[0] for _ in range(count)]


def test_a_member_has_a_few_open_tables_at_once(settings):
    settings.OPEN_TABLES_PER_MEMBER = 3
    anna = make_player("Anna").player
    tables = open_tables(anna, 3)
    with pytest.raises(services.ServiceError) as error:
        open_tables(anna, 1)
    assert error.value.code == "too_many_tables"
    assert Table.objects.filter(created_by=anna).count() == 3
    services.leave_table(anna, tables[0].pk)  # the last member left: the table closes
    open_tables(anna, 1)


def test_a_member_opens_a_bounded_number_of_tables_an_hour(settings):
    settings.OPEN_TABLES_PER_MEMBER = 0
    settings.TABLES_PER_HOUR = 4
    anna = make_player("Anna").player
    for table in open_tables(anna, 4):
        services.leave_table(anna, table.pk)
    with pytest.raises(services.ServiceError) as error:
        open_tables(anna, 1)
    assert error.value.code == "too_many_tables"


def test_the_lobby_lists_a_bounded_number_of_open_tables(client, settings):
    settings.OPEN_TABLES_PER_MEMBER = 0
    settings.LOBBY_OPEN_TABLES = 5
    for n in range(4):
        open_tables(make_player(f"Member{n}").player, 2)
    page = client.get("/tables/list/")
    assert page.status_code == 200
    assert len(page.context["open_tables"]) == 5


def test_the_lobby_form_refuses_a_table_over_the_quota(client, settings):
    settings.OPEN_TABLES_PER_MEMBER = 1
    anna = make_player("Anna")
    client.force_login(anna)
    variant = Variant.objects.get(name="Golf")
    form = {"variant": variant.pk, "seats": 4}
    assert client.post("/tables/", form).status_code == 302
    page = client.post("/tables/", form)
    assert page.status_code == 200
    assert "as many tables waiting for players" in page.content.decode()
    assert Table.objects.filter(created_by=anna.player).count() == 1


def test_the_clubs_own_tools_are_not_held_to_a_members_quota(settings):
    settings.OPEN_TABLES_PER_MEMBER = 1
    anna = make_player("Anna").player
    variant = Variant.objects.get(name="Golf")
    for _ in range(3):
        services.create_table(anna, variant, 4)
    assert Table.objects.filter(created_by=anna).count() == 3
