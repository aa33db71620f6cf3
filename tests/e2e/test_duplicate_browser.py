"""In Chromium: two members play the same Golf board (one round) and the same Devyatka
board against house bots; each then sees the traveller with the other's result and
matchpoints, and the standings show matchpoint percentages.

Each board is played by clicking once (Boris's Golf on a phone, Anna's Devyatka on a
laptop); the other member's game of it goes through the same services in the house's
hands, which is all the traveller and the standings read."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.test_golf_browser import MY_SLOT
from tests.e2e.test_table_browser import LEGAL, app, sign_up

# Two members play two whole boards in turn: slow on a loaded machine, so a long limit.
pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def make_series(site_database, tag: str) -> tuple[str, str]:
    """A one-round Golf series and a Devyatka series, each with one open board of two seats."""
    golf, devyatka = f"golf-dup-{tag}", f"devyatka-dup-{tag}"
    site_database.shell(
        "import datetime\n"
        "from django.utils import timezone\n"
        "from games.models import Variant\n"
        "from duplicate.models import DuplicateSeries, Round\n"
        "from tests.support.duplicate import golf_rounds\n"
        f"golf = Variant.objects.create(name='Golf dup {tag}', game='golf', **golf_rounds(1))\n"
        "now = timezone.now()\n"
        f"for slug, variant in (({golf!r}, golf), ({devyatka!r}, "
        "Variant.objects.get(name='Devyatka'))):\n"
        "    s = DuplicateSeries.objects.create(name=slug, slug=slug, variant=variant, seats=2,"
        " bot_level='random')\n"
        "    Round.objects.create(series=s, number=1, boards=1,"
        " starts=now - datetime.timedelta(hours=1), ends=now + datetime.timedelta(hours=2))\n"
    )
    return golf, devyatka


def play_board(page: Page, slug: str, moves: str) -> None:
    """Open the series, deal board 1 with the Play button, play it to the end by clicking."""
    page.goto(f"/duplicate/{slug}/")
    page.get_by_test_id("play-board").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(page.get_by_test_id("invite")).to_have_count(0)  # a sealed table
    for _ in range(500):
        if app(page).get_attribute("data-over") == "true":
            break
        version = app(page).get_attribute("data-version")
        ready = page.get_by_test_id("golf-ready")
        # One look, no waiting: the button goes when the phase moves on (the bots
        # play too), and is_enabled() on a button gone waits for it 15 s.
        if ready.evaluate_all("els => els.some(e => e.checkVisibility() && !e.disabled)"):
            try:
                ready.click(timeout=2000)
            except PlaywrightTimeoutError:
                continue  # gone under the click: look again
        elif app(page).get_attribute("data-turn") == "you" and page.locator(moves).count():
            page.locator(moves).first.click()
        else:
            page.wait_for_timeout(50)
            continue
        expect(app(page)).not_to_have_attribute("data-version", version)
    else:
        raise AssertionError("the board did not end")
    expect(page.get_by_test_id("results")).to_be_visible()
    expect(page.get_by_test_id("sealed-link")).to_be_visible()


def play_board_through_the_services(site_database, name: str, slug: str) -> None:
    """The member's game of board 1, dealt as the Play button deals it and played out
    through the services as the table's moves are (club.demo.play)."""
    site_database.shell(
        "import random\n"
        "from django.test import override_settings\n"
        "from club import demo\n"
        "from club.models import Player\n"
        "from duplicate.models import Board\n"
        "from duplicate.services import play_board\n"
        f"board = Board.objects.get(round__series__slug={slug!r}, round__number=1, number=1)\n"
        "with override_settings(BOT_DELAY_SECONDS=0):\n"
        f"    play, _ = play_board(Player.objects.get(display_name={name!r}), board.pk)\n"
        "    demo.play(play.table_id, random.Random(1))\n"
    )


def test_two_members_play_the_same_boards_and_read_the_traveller(new_page, site_database):
    golf, devyatka = make_series(site_database, uuid.uuid4().hex[:6])
    anna, boris = new_page(), new_page(width=390, height=844)
    names = {anna: sign_up(anna, "Dupa"), boris: sign_up(boris, "Dupb")}
    play_board(boris, golf, f"{MY_SLOT}")
    play_board_through_the_services(site_database, names[anna], golf)
    play_board(anna, devyatka, f"{LEGAL}:enabled")
    play_board_through_the_services(site_database, names[boris], devyatka)

    for page, other in ((anna, boris), (boris, anna)):
        for slug in (golf, devyatka):
            page.goto(f"/duplicate/{slug}/")
            # The standings count the round once it has closed (duplicate.withheld).
            expect(page.get_by_test_id("standings-pending")).to_be_visible()
            expect(page.get_by_test_id("duplicate-standings")).to_have_count(0)
            page.get_by_test_id("traveller-link").click()
            traveller = page.get_by_test_id("traveller")
            expect(traveller.get_by_test_id("traveller-row")).to_have_count(2)
            row = traveller.get_by_test_id("traveller-row").filter(has_text=names[other])
            expect(row.get_by_test_id("mp")).to_have_text(re.compile(r"^[012] / 2$"))
            expect(row.get_by_test_id("replay-link")).to_be_visible()
            # The two entrants' matchpoints add up to the board's two points.
            total = sum(
                int(cell.split("/")[0]) for cell in traveller.get_by_test_id("mp").all_inner_texts()
            )
            assert total == 2

    site_database.shell(
        "from duplicate.models import Round\n"
        "from duplicate.services import close_round\n"
        f"for r in Round.objects.filter(series__slug__in=[{golf!r}, {devyatka!r}]):\n"
        "    close_round(r.pk)\n"
    )
    for page, other in ((anna, boris), (boris, anna)):
        for slug in (golf, devyatka):
            page.goto(f"/duplicate/{slug}/")
            standings = page.get_by_test_id("duplicate-standings")
            expect(standings).to_contain_text(names[other])
            expect(standings.get_by_test_id("percent").first).to_have_text(
                re.compile(r"^\d+\.\d\d%$")
            )


def test_two_members_play_a_board_together_and_are_scored_at_their_seats(new_page, site_database):
    """A series with shared tables: Anna opens a table for the board, Boris joins it from
    the round page, the board is dealt to both at one table; they play it out in turn and
    the traveller shows each at the seat they held."""
    slug = f"together-{uuid.uuid4().hex[:6]}"
    site_database.shell(
        "import datetime\n"
        "from django.utils import timezone\n"
        "from games.models import Variant\n"
        "from duplicate.models import DuplicateSeries, Round\n"
        f"s = DuplicateSeries.objects.create(name={slug!r}, slug={slug!r}, seats=2,"
        " variant=Variant.objects.get(name='Devyatka'), bot_level='random', shared_tables=True)\n"
        "now = timezone.now()\n"
        "Round.objects.create(series=s, number=1, boards=1,"
        " starts=now - datetime.timedelta(hours=1), ends=now + datetime.timedelta(hours=2))\n"
    )
    anna, boris = new_page(), new_page(width=390, height=844)
    names = {anna: sign_up(anna, "Toga"), boris: sign_up(boris, "Togb")}
    anna.goto(f"/duplicate/{slug}/rounds/1/")
    anna.get_by_test_id("play-together").click()
    expect(anna.locator("meta[http-equiv=refresh]")).to_have_count(1)  # waiting: reloads
    boris.goto(f"/duplicate/{slug}/rounds/1/")
    expect(boris.get_by_text(names[anna])).to_be_visible()
    boris.get_by_test_id("join-together").click()
    boris.wait_for_url(re.compile(r"/tables/\d+/$"))
    anna.goto(f"/duplicate/{slug}/rounds/1/")
    anna.get_by_test_id("continue").click()
    assert anna.url == boris.url  # one table
    for _ in range(200):
        if all(app(p).get_attribute("data-over") == "true" for p in (anna, boris)):
            break
        for page in (anna, boris):
            version = app(page).get_attribute("data-version")
            card = page.locator(f"{LEGAL}:enabled")
            if app(page).get_attribute("data-turn") == "you" and card.count():
                card.first.click()
                expect(app(page)).not_to_have_attribute("data-version", version)
        anna.wait_for_timeout(50)
    else:
        raise AssertionError("the board did not end")
    anna.goto(f"/duplicate/{slug}/rounds/1/boards/1/")
    rows = anna.get_by_test_id("traveller").get_by_test_id("traveller-row")
    expect(rows).to_have_count(2)  # both members, each alone at their seat: 50% each
    for name in names.values():
        expect(rows.filter(has_text=name)).to_have_count(1)
