"""Taking your data (issue 45): a member's export, made by the task worker, downloadable
by that member only for EXPORT_DAYS; its content matches the pages and holds no other
member's hidden card."""

from __future__ import annotations

import datetime
import io
import json
import re
import zipfile

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from club import export, leaving
from club.models import DataExport
from club.standings import standings
from games import services
from games.engine import devyatka
from games.models import Variant
from notifications.models import Notification
from tests.integration.test_series import finish_game, make_players, make_series

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _exports_in_tmp(settings, tmp_path):
    settings.EXPORT_DIR = tmp_path / "exports"


def client_for(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def ask(client: Client, capture) -> None:
    with capture(execute=True):
        response = client.post(reverse("account_data"))
    assert response.status_code == 302


def made(player, capture) -> DataExport:
    """What the task worker does with the member's waiting export."""
    waiting = DataExport.objects.get(player=player, state=DataExport.State.QUEUED)
    with capture(execute=True):
        export.build_export.call(waiting.pk)
    return DataExport.objects.get(pk=waiting.pk)


def contents(response) -> dict:
    body = b"".join(response.streaming_content)
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        assert sorted(archive.namelist()) == ["README.txt", "data.json"]
        return json.loads(archive.read("data.json"))


def test_the_export_matches_the_pages_and_holds_no_other_members_hidden_card(
    django_capture_on_commit_callbacks,
):
    anna, boris, vera = make_players("Anna", "Boris", "Vera")
    series = make_series("Keft", min_games=1)
    for order in ((anna, boris, vera), (boris, vera)):
        table, _ = services.create_table(
            order[0], Variant.objects.get(name="Keft"), len(order), series=series
        )
        for player in order[1:]:
            services.join_table(player, table.pk)
        finish_game(table)
    # A game still running: Anna's hand is hidden from Boris.
    running, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2)
    services.join_table(boris, running.pk)
    member = client_for(boris)
    page = member.get(reverse("account_data")).content.decode()
    assert 'data-testid="export-ask"' in page

    ask(member, django_capture_on_commit_callbacks)
    assert DBTaskResult.objects.filter(task_path="club.export.build_export").count() == 1
    assert 'data-testid="export-waiting"' in member.get(reverse("account_data")).content.decode()
    ready = made(boris, django_capture_on_commit_callbacks)

    assert ready.state == DataExport.State.READY
    assert ready.expires - ready.ready_at == datetime.timedelta(days=7)
    path = export.export_path(ready)
    assert path.parent == django_settings.EXPORT_DIR and path.exists()
    assert Notification.objects.filter(player=boris, kind="data_export").count() == 1
    bell = member.get(reverse("notifications")).content.decode()
    assert "The copy of your data is ready" in bell
    note = Notification.objects.get(player=boris, kind="data_export")
    opened = member.get(reverse("notification_open", args=[note.pk]))
    assert opened.status_code == 302 and opened["Location"] == reverse("account_data")
    # Operators see it in admin without its link.
    from django.contrib.auth import get_user_model

    root = get_user_model().objects.create_superuser("root", "root@ex.com", "pw")
    listing = client_for(root.player).get(reverse("admin:club_dataexport_changelist"))
    assert listing.status_code == 200 and ready.token not in listing.content.decode()
    page = member.get(reverse("account_data")).content.decode()
    link = reverse("account_data_download", args=[ready.token])
    assert link in page
    response = member.get(link)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert "no-store" in response["Cache-Control"]
    data = contents(response)

    assert data["format"] == "card-club-data-export" and data["version"] == 1
    assert data["profile"]["display_name"] == "Boris"
    assert data["profile"]["email"] == "boris@ex.com"
    # Every game Boris played, with his place as his results say, from his seat.
    results = {r.game_id: r for r in boris.results.all()}
    finished = [g for g in data["games"] if g.get("finished")]
    assert {g["id"]: g["place"] for g in finished} == {k: r.place for k, r in results.items()}
    for game in finished:
        assert game["players"][game["seat"]]["player"] == boris.pk
        assert "seed" not in game and "deal" not in game
    # The running game: his own hand, and none of Anna's cards.
    live = next(g for g in data["games"] if g["id"] == services.current_game(running).pk)
    state = devyatka.from_json(services.current_game(running).state)
    mine = live["seat"]
    assert live["end"]["hand"] == list(state.hands[mine])
    hers = set(state.hands[1 - mine])
    assert not hers & set(re.findall(r"\b[6-9TJQKA][CDHS]\b", json.dumps(live)))
    # The series figures are the standings page's.
    (line,) = data["series"]
    row = next(r for r in standings(series) if r.player_id == boris.pk)
    assert (line["rank"], line["games"], line["losses"]) == (row.rank, row.games, row.losses)
    series_page = Client().get(reverse("series_detail", args=[series.slug])).content.decode()
    assert line["loss_rate"] in series_page


def test_asking_again_while_one_waits_is_refused_and_makes_no_second_export(
    django_capture_on_commit_callbacks,
):
    (boris,) = make_players("Boris")
    member = client_for(boris)
    ask(member, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        response = member.post(reverse("account_data"), follow=True)
    assert "already being prepared" in response.content.decode()
    assert DataExport.objects.filter(player=boris).count() == 1
    assert DBTaskResult.objects.filter(task_path="club.export.build_export").count() == 1


def test_another_member_gets_404_and_an_expired_link_410(django_capture_on_commit_callbacks):
    anna, boris = make_players("Anna", "Boris")
    ask(client_for(boris), django_capture_on_commit_callbacks)
    ready = made(boris, django_capture_on_commit_callbacks)
    link = reverse("account_data_download", args=[ready.token])
    assert client_for(anna).get(link).status_code == 404
    anonymous = Client().get(link)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert client_for(boris).get(reverse("account_data_download", args=["nope"])).status_code == 404
    DataExport.objects.filter(pk=ready.pk).update(
        expires=timezone.now() - datetime.timedelta(seconds=1)
    )
    gone = client_for(boris).get(link)
    assert gone.status_code == 410 and "has expired" in gone.content.decode()
    # Expired exports are deleted, file and row, by the next request or the command.
    from django.core.management import call_command

    call_command("purge_exports", stdout=io.StringIO())
    assert not DataExport.objects.exists() and not export.export_path(ready).exists()


def test_closing_the_account_deletes_the_exports(django_capture_on_commit_callbacks):
    (boris,) = make_players("Boris")
    ask(client_for(boris), django_capture_on_commit_callbacks)
    ready = made(boris, django_capture_on_commit_callbacks)
    path = export.export_path(ready)
    leaving.close_account(boris)
    assert not DataExport.objects.exists() and not path.exists()
