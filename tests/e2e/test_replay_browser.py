"""In Chromium: step through finished games on their pages, by buttons, keys, slider and log.

The games are played to the end through the services in the live site's
database, with a chosen deal and seeded moves (tests/support/finished.py).
At every step looked at, the board, every hand or grid, the slider, the
position and the highlighted move log line must all show the same step as
/games/<id>/replay.json says, and the log line must name that step's move.
"""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.support.tables import run_django

pytestmark = pytest.mark.browser

SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def finished(site_database, game: str, names: list[str], seed: int, **options) -> dict:
    """A finished public game at a table of a variant of its own (no clock)."""
    suffix = uuid.uuid4().hex[:6]
    names = [f"{name}{suffix}" for name in names]
    return run_django(
        site_database,
        "from games.models import Variant\n"
        "from tests.support.finished import finished_game\n"
        f"variant = Variant.objects.create(name='Replay {game} {suffix}', game={game!r}, options={options!r})\n"
        f"game, players = finished_game(variant, {names!r}, seed={seed})\n"
        "emit({'game': game.pk, 'names': [p.display_name for p in players]})\n",
    )


def card_text(code: str) -> str:
    rank = "10" if code[0] == "T" else code[0]
    return rank + SUITS[code[1]]


def replay(page: Page):
    return page.get_by_test_id("replay")


def shown(page: Page) -> dict:
    """Everything the replay shows now, read in one go."""
    return page.evaluate(
        """() => {
          const root = document.querySelector("[data-testid=replay]");
          const cards = (el, testid) => [...el.querySelectorAll(`[data-testid=${testid}]`)]
            .map((c) => c.dataset.card);
          const current = [...root.querySelectorAll("[data-testid=replay-log-line].current")];
          return {
            step: Number(root.dataset.step),
            slider: Number(root.querySelector("[data-testid=replay-slider]").value),
            position: root.querySelector("[data-testid=replay-position]").textContent,
            current: current.map((li) => Number(li.dataset.step)),
            line: current.length ? current[0].textContent : "",
            board: cards(root, "replay-board-card").sort(),
            hands: [...root.querySelectorAll("[data-testid=replay-hand]")]
              .map((h) => cards(h, "replay-hand-card")),
            grids: [...root.querySelectorAll("[data-testid=replay-grid]")].map((g) =>
              [...g.querySelectorAll("[data-testid=replay-grid-card]")]
                .map((c) => [c.dataset.card, c.dataset.up === "true"])),
          };
        }"""
    )


def on_the_table(view: dict) -> list[str]:
    ranks = "6789TJQKA"
    cards = []
    for suit, ends in view["rows"].items():
        if ends:
            low, high = ranks.index(ends[0][0]), ranks.index(ends[1][0])
            cards += [rank + suit for rank in ranks[low : high + 1]]
    return sorted(cards)


def wait_for_step(page: Page, step: int) -> dict:
    expect(replay(page)).to_have_attribute("data-step", str(step))
    return shown(page)


def check_devyatka(page: Page, steps: list[dict], step: int) -> None:
    now = wait_for_step(page, step)
    view = steps[step]["view"]
    assert now["slider"] == step and now["current"] == [step]
    assert now["board"] == on_the_table(view)
    assert now["hands"] == view["hands"]
    if step == 0:
        assert now["line"] == "The deal" and now["position"].startswith("The deal")
    else:
        assert now["position"] == f"Move {step} of {len(steps) - 1}"
        assert f"played {card_text(steps[step]['move'])}" in now["line"]


def test_step_through_a_finished_devyatka_game(new_page, site_database):
    made = finished(site_database, "devyatka", ["Anna", "Boris", "Vera"], seed=5, keft=True)
    page = new_page()
    page.goto(f"/games/{made['game']}/")
    steps = page.request.get(f"/games/{made['game']}/replay.json").json()["steps"]
    last = len(steps) - 1
    expect(replay(page)).to_have_attribute("data-steps", str(len(steps)))

    # The deal: every hand in full, nothing on the table; back buttons are off.
    check_devyatka(page, steps, 0)
    assert sum(len(hand) for hand in shown(page)["hands"]) == 36
    expect(page.get_by_test_id("replay-prev")).to_be_disabled()
    expect(page.get_by_test_id("replay-start")).to_be_disabled()

    # Buttons.
    page.get_by_test_id("replay-next").click()
    check_devyatka(page, steps, 1)
    assert shown(page)["board"] == ["9D"]
    page.get_by_test_id("replay-next").click()
    check_devyatka(page, steps, 2)
    page.get_by_test_id("replay-prev").click()
    check_devyatka(page, steps, 1)

    # Keys: right and left arrows, Home and End from within the replay.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    check_devyatka(page, steps, 4)
    page.keyboard.press("ArrowLeft")
    check_devyatka(page, steps, 3)

    # A step whose move made somebody pass: the passes are on that move's log line.
    passing = next(i for i, s in enumerate(steps) if s.get("caused"))
    page.get_by_test_id("replay-slider").fill(str(passing))
    check_devyatka(page, steps, passing)
    assert "passed" in shown(page)["line"]

    # The slider, then the keyboard on the slider itself.
    middle = last // 2
    page.get_by_test_id("replay-slider").fill(str(middle))
    check_devyatka(page, steps, middle)
    page.get_by_test_id("replay-slider").press("ArrowRight")
    check_devyatka(page, steps, middle + 1)

    # End: the final position, the same as the results above it.
    page.get_by_test_id("replay-end").click()
    check_devyatka(page, steps, last)
    expect(page.get_by_test_id("replay-next")).to_be_disabled()
    loser = steps[last]["view"]["result"]["loser"]
    expect(page.get_by_test_id("replay-caption")).to_contain_text(f"{made['names'][loser]} is left")
    page.keyboard.press("Home")
    check_devyatka(page, steps, 0)

    # A click on a move log line goes to that move.
    page.get_by_test_id("replay-log-line").nth(5).click()
    check_devyatka(page, steps, 5)
    # The address now points at that moment, and opening it opens the replay there.
    assert page.url.endswith("#replay-5")
    page.reload()
    check_devyatka(page, steps, 5)


def check_golf(page: Page, steps: list[dict], step: int) -> dict:
    now = wait_for_step(page, step)
    view = steps[step]["view"]
    assert now["slider"] == step and now["current"] == [step]
    expected = [
        [[code, bool(up >> pos & 1)] for pos, code in enumerate(grid)]
        for grid, up in zip(view["grids"], view["up"], strict=True)
    ]
    assert now["grids"] == expected
    return now


def test_step_through_a_finished_one_round_golf_match(new_page, site_database):
    made = finished(site_database, "golf", ["Gina", "Hugo", "Ines"], seed=5, rounds=1)
    page = new_page(width=1366, height=768)
    page.goto(f"/games/{made['game']}/")
    steps = page.request.get(f"/games/{made['game']}/replay.json").json()["steps"]
    last = len(steps) - 1
    expect(replay(page)).to_have_attribute("data-steps", str(len(steps)))

    start = check_golf(page, steps, 0)
    assert len(start["grids"]) == 3 and all(len(grid) == 9 for grid in start["grids"])
    assert not any(up for grid in start["grids"] for _, up in grid), "dealt face down"

    # The first move turns a card up: the grid and the log line say which.
    page.get_by_test_id("replay-next").click()
    now = check_golf(page, steps, 1)
    first = steps[1]
    assert first["move"].startswith("flip ")
    pos = int(first["move"].split()[1])
    code, up = now["grids"][first["seat"]][pos]
    assert up and f"turned up card {pos + 1}: {card_text(code)}" in now["line"]
    assert made["names"][first["seat"]] in now["line"]

    # Keys and slider, to a draw: the drawn card is shown, and named in the log.
    draw = next(i for i, s in enumerate(steps) if s["move"] == "draw")
    page.get_by_test_id("replay-slider").fill(str(draw - 1))
    check_golf(page, steps, draw - 1)
    page.keyboard.press("ArrowRight")
    now = check_golf(page, steps, draw)
    drawn = steps[draw]["view"]["drawn"]
    expect(page.get_by_test_id("replay-drawn").locator(".card")).to_have_attribute(
        "data-card", drawn
    )
    assert f"drew {card_text(drawn)}" in now["line"]
    page.keyboard.press("ArrowLeft")
    check_golf(page, steps, draw - 1)
    expect(page.get_by_test_id("replay-drawn")).to_be_hidden()

    # The end: every card up, the round's scores shown.
    page.get_by_test_id("replay-end").click()
    now = check_golf(page, steps, last)
    assert all(up for grid in now["grids"] for _, up in grid)
    expect(page.get_by_test_id("replay-round-end")).to_be_visible()
    expect(page.get_by_test_id("replay-caption")).to_contain_text("The match is over")
    page.get_by_test_id("replay-start").click()
    check_golf(page, steps, 0)


def test_a_private_games_replay_is_not_shown_to_outsiders(new_page, site_database):
    made = run_django(
        site_database,
        "import uuid\n"
        "from games.models import Variant\n"
        "from tests.support.finished import finished_game\n"
        "suffix = uuid.uuid4().hex[:6]\n"
        "variant = Variant.objects.create(name=f'Replay private {suffix}', options={'keft': True})\n"
        "game, _ = finished_game(variant, [f'Pia{suffix}', f'Quin{suffix}'], seed=3, "
        "private=True)\n"
        "emit({'game': game.pk})\n",
    )
    page = new_page()
    assert page.request.get(f"/games/{made['game']}/replay.json").status == 404
    page.goto(f"/games/{made['game']}/")
    expect(page.get_by_test_id("replay")).to_have_count(0)


def test_long_names_in_the_results_panels_revealed_hands_are_not_cut(
    new_page, site_database, live_site
):
    made = run_django(
        site_database,
        "from club.models import Player\n"
        "from tools import synthetic\n"
        "from games.models import Table, Variant\n"
        "from tests.support.finished import play_out\n"
        "prefix = synthetic.new_prefix('names')\n"
        "players = synthetic.make_players(prefix, 2)\n"
        "name = 'Newbie One ' + prefix[-6:] + ' Longname'\n"
        "Player.objects.filter(pk=players[0].player_id).update(display_name=name)\n"
        "variant = Variant.objects.create(name='Keft ' + prefix, options={'keft': True})\n"
        "table = synthetic.started_table(players, variant.name)\n"
        "play_out(Table.objects.get(pk=table), seed=3)\n"
        "emit({'table': table, 'name': name, 'session': players[0].session_key})\n",
    )
    page = new_page(width=1366, height=768)
    # Signed in as the member with the long name (a real session, as a browser keeps it).
    page.context.add_cookies(
        [{"name": "sessionid", "value": made["session"], "url": live_site.url}]
    )
    page.goto(f"/tables/{made['table']}/")
    names = page.locator("[data-testid=revealed-hand] .revealed-name")
    expect(names.first).to_be_visible()
    texts = names.all_inner_texts()
    assert any(made["name"] in text and "(you)" in text for text in texts), texts
    cut = names.evaluate_all("(els) => els.filter((el) => el.scrollWidth > el.clientWidth).length")
    assert cut == 0
