"""The demo club that `make run` serves: members, house series with real games, live tables.

Every game here is played card by card through `games.services`, the code that
records real games: member seats move with `play_move` (their choices made by
the house's bots, so they play sensibly), bot seats through the house's own
`automatic_turn` / `play_automatic`. Results, standings, ratings, move logs and
replays are therefore the real thing. Each game is dealt from a seed derived
from its series and number (`services.seeded_deals`), so the club is the same on
every machine, and a game already played is never played again: running the
command twice adds nothing, and `--games N` only adds the games still missing.

Never run by migrations, never in production: `make run` calls it.
"""

from __future__ import annotations

import datetime
import random
import time
import zlib
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.test.utils import override_settings
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from club.models import GameResult, Player, Series
from games import registry, services
from games.devyatka.entry import KEY as DEVYATKA
from games.models import Game, Move, Seat, Table, Variant

# (name, the bot level that chooses their cards): a club of mixed strength.
MEMBERS = [
    ("Anna", "heuristic"),
    ("Boris", "random"),
    ("Vera", "heuristic"),
    ("Grigori", "random"),
    ("Dmitri", "heuristic"),
    ("Elena", "random"),
]
PASS_RULE_VARIANT = {
    "name": "Devyatka, pass rule",
    "game": DEVYATKA,
    "options": {"keft": False, "pass_rule": True},
    "turn_seconds": None,
    "description": "Classic nines where, at equal cards left, the player who passed fewer "
    "times ranks higher. No turn clock: a friendly pace.",
}


@dataclass(frozen=True)
class DemoSeries:
    slug: str
    name: str
    variant: str
    share: float  # of the demo's games
    players: tuple[int, int]  # fewest and most at a table
    description: str


SERIES = [
    DemoSeries(
        "winter-nines",
        "Winter Nines",
        PASS_RULE_VARIANT["name"],
        0.4,
        (3, 5),
        "Placement points, with the pass rule: fewer passes break a tie in cards left.",
    ),
    DemoSeries(
        "keft-cup", "Keft Cup", "Keft", 0.4, (3, 5), "One loss per game: the fewest losses win."
    ),
    DemoSeries(
        "golf-ladder",
        "Golf Ladder",
        "Golf",
        0.2,
        (2, 4),
        "Nine rounds of Golf a game: placement points, totals shown.",
    ),
]
# The demo's names and descriptions are stored in English, as outside clients
# and the admin read them, and shown in the reader's language: Variant and
# Series translate them with these contexts (games.models.Variant.__str__,
# club.models.Series). These markers put them in the catalogs.
SHOWN_TRANSLATED = [
    pgettext_lazy("variant name", "Devyatka, pass rule"),
    pgettext_lazy("series name", "Winter Nines"),
    pgettext_lazy("series name", "Keft Cup"),
    pgettext_lazy("series name", "Golf Ladder"),
    pgettext_lazy(
        "series description",
        "Placement points, with the pass rule: fewer passes break a tie in cards left.",
    ),
    pgettext_lazy("series description", "One loss per game: the fewest losses win."),
    pgettext_lazy(
        "series description", "Nine rounds of Golf a game: placement points, totals shown."
    ),
]
DEFAULT_GAMES = 36
# The demo's finished games are spread over this many days before now.
HISTORY_DAYS = 14
BOT_LEVELS = ["heuristic", "random"]


@dataclass
class DemoReport:
    played: int = 0
    tables: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU: the figure a busy machine does not inflate


def _seed(*parts: object) -> int:
    return zlib.crc32(":".join(map(str, parts)).encode())


def members() -> list[Player]:
    names = [name for name, _ in MEMBERS]
    found = {p.display_name: p for p in Player.objects.members().filter(display_name__in=names)}
    return [found[name] for name in names]


def ensure_club() -> tuple[dict[str, Variant], dict[str, Series]]:
    """The demo's extra variant and its three series (one of each scoring kind)."""
    Variant.objects.get_or_create(name=PASS_RULE_VARIANT["name"], defaults=PASS_RULE_VARIANT)
    variants = {v.name: v for v in Variant.objects.filter(name__in=[s.variant for s in SERIES])}
    starts = timezone.localdate() - datetime.timedelta(days=HISTORY_DAYS + 1)
    series = {}
    for spec in SERIES:
        series[spec.slug], _ = Series.objects.get_or_create(
            slug=spec.slug,
            defaults={
                "name": spec.name,
                "variant": variants[spec.variant],
                "starts": starts,
                "min_games": 3,
                "description": spec.description,
            },
        )
    return variants, series


def build(total_games: int = DEFAULT_GAMES, log=None) -> DemoReport:
    """Play the demo's missing series games and set up its live tables; idempotent."""
    began, cpu = time.perf_counter(), time.process_time()
    report = DemoReport()
    _, series = ensure_club()
    people = members()
    targets = {
        spec.slug: max(1, round(total_games * spec.share)) if total_games else 0 for spec in SERIES
    }
    # Missing games, interleaved across the series so their times interleave too.
    todo: list[tuple[DemoSeries, int]] = []
    for spec in SERIES:
        done = Game.objects.filter(table__series=series[spec.slug], finished__isnull=False)
        todo += [(spec, n) for n in range(done.count(), targets[spec.slug])]
    todo.sort(key=lambda item: (item[1] / targets[item[0].slug], item[0].slug))
    now = timezone.now()
    step = datetime.timedelta(days=HISTORY_DAYS) / max(len(todo), 1)
    # House bots move at once here (the live site waits BOT_DELAY_SECONDS for people to see).
    with override_settings(BOT_DELAY_SECONDS=0):
        for index, (spec, number) in enumerate(todo):
            finished = now - datetime.timedelta(days=HISTORY_DAYS) + step * (index + 1)
            _series_game(spec, series[spec.slug], number, people, finished)
            report.played += 1
            if log and report.played % 10 == 0:
                log(f"  {report.played}/{len(todo)} demo games played")
        report.tables = _live_tables(series, people)
    report.seconds = time.perf_counter() - began
    report.cpu_seconds = time.process_time() - cpu
    return report


def _series_game(
    spec: DemoSeries,
    series: Series,
    number: int,
    people: list[Player],
    finished: datetime.datetime,
) -> None:
    rng = random.Random(_seed("demo", spec.slug, number))
    low, high = spec.players
    count = rng.randint(low, high)
    seated_members = rng.sample(people, k=rng.randint(min(2, count), min(count, 4)))
    bots = [rng.choice(BOT_LEVELS) for _ in range(count - len(seated_members))]
    # One transaction a game (each service call is a savepoint in it): a commit per
    # move would make PostgreSQL wait for the disk thousands of times.
    with transaction.atomic(), services.seeded_deals(_seed("deal", spec.slug, number)):
        table_id = _open(seated_members, bots, series.variant, series=series)
        play(table_id, rng)
        _backdate(table_id, finished)


def _open(
    seated: list[Player],
    bots: list[str],
    variant: Variant,
    series: Series | None = None,
    seats: int | None = None,
    private: bool = False,
    pace: str = "live",
) -> int:
    """A table hosted by seated[0], the others joined and the bots added, as members do it."""
    host = seated[0]
    table, _ = services.create_table(
        host, variant, seats or len(seated) + len(bots), private=private, series=series, pace=pace
    )
    invite = str(table.invite_token)
    for member in seated[1:]:
        services.join_table(member, table.pk, invite)
    for level in bots:
        services.add_bot(host, table.pk, level)
    return table.pk


def play(table_id: int, rng: random.Random, stop=None) -> None:
    """Play the table's game through the services until it ends or `stop(actors, seats)` says.

    Members' moves go through `play_move` as a browser's would; the house's
    (bots, away seats) through `play_automatic`, as the runner plays them, due
    at once under BOT_DELAY_SECONDS=0. The state, version and move history are
    carried from each service's answer rather than read back for every move.
    """
    levels = dict(MEMBERS)
    table = Table.objects.get(pk=table_id)
    game = services.current_game(table)
    engine = registry.engine(game.game)
    seats = {s.position: s for s in table.seats.select_related("player")}
    state = engine.from_json(game.state)
    history = list(game.moves.order_by("number").values_list("seat", "move"))
    version, status = table.version, table.status
    while status == Table.Status.PLAYING:
        actors = engine.actors(state)
        if stop is not None and stop(actors, seats):
            return
        house = [a for a in actors if seats[a].is_bot or seats[a].away_since is not None]
        if house:
            seat = seats[house[0]]
            turn = services.AutoTurn(
                table_id=table_id,
                version=version,
                seat=seat.position,
                level=seat.player.bot_level if seat.is_bot else settings.HOUSE_STAND_IN_LEVEL,
                game=game.game,
                view=engine.view(state, seat.position),
                history=list(history),
                seed=(game.seed + version) % (2**31),
            )
            update = services.play_automatic(turn, services.choose_automatic_move(turn))
            if update is None:
                raise RuntimeError(f"the house could not move at table {table_id}")
        else:
            seat = seats[actors[0]]
            move = engine.choose_move(
                levels.get(seat.player.display_name, "random"),
                engine.view(state, seat.position),
                history,
                rng.randrange(2**31),
                settings.BOT_SEARCH_BUDGET_MS,
            )
            update = services.play_move(seat.player_id, table_id, move, version)
        version = update.snapshot["version"]
        status = update.snapshot["table"]["status"]
        state = engine.from_json(update.snapshot["state"])
        history += [(event["seat"], event["move"]) for event in update.events]


@transaction.atomic
def _backdate(table_id: int, finished: datetime.datetime) -> None:
    """Move a just-played game into the club's past, keeping its moves' order and spacing."""
    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    shift = finished - game.finished
    # One statement for the game's few hundred moves (it was one each).
    Move.objects.filter(game=game).update(created=F("created") + shift)
    started = game.started + shift
    Game.objects.filter(pk=game.pk).update(started=started, finished=finished)
    GameResult.objects.filter(game=game).update(finished=finished)
    Table.objects.filter(pk=table_id).update(created=started, updated=finished)


def _live_tables(series: dict[str, Series], people: list[Player]) -> int:
    """Tables a demo member finds waiting; each made only if its like is not there yet."""
    anna, boris, vera, grigori, dmitri, _ = people
    made = 0
    # Anna's turn, and Boris's turn at a table she shares with him (no clock: they wait).
    winter = series["winter-nines"]
    friendly = winter.variant
    mine = Table.objects.filter(series__isnull=True, variant=friendly, private=False)
    if not mine.playing().filter(created_by=anna).exists():
        with services.seeded_deals(_seed("demo", "anna")):
            table_id = _open([anna], ["heuristic", "random"], friendly)
        play(table_id, random.Random(1), stop=lambda a, seats: not seats[a[0]].is_bot)
        made += 1
    if not mine.playing().filter(created_by=boris).exists():
        with services.seeded_deals(_seed("demo", "boris")):
            table_id = _open([boris, anna], ["heuristic"], friendly)
        play(table_id, random.Random(2), stop=lambda a, seats: seats[a[0]].player_id == boris.pk)
        made += 1
    # A turn-based table (two days a move) where it is Anna's turn: Vera waits for her.
    if not Table.objects.playing().filter(created_by=vera, pace="2d").exists():
        with services.seeded_deals(_seed("demo", "turn-based")):
            table_id = _open([vera, anna], [], friendly, pace="2d")
        play(table_id, random.Random(3), stop=lambda a, seats: seats[a[0]].player_id == anna.pk)
        made += 1
    # One open table per game with a house bot and an away host: sit down and it starts.
    for host, spec in zip((vera, grigori, dmitri), SERIES, strict=True):
        target = series[spec.slug]
        waiting = Table.objects.listed().open().filter(created_by=host, variant=target.variant)
        if waiting.exists():
            continue
        table_id = _open([host], ["heuristic"], target.variant, series=target, seats=3)
        # The host never connected: the house plays the seat once the game starts.
        Seat.objects.filter(table_id=table_id, player=host).update(
            away_since=timezone.now() - datetime.timedelta(days=1)
        )
        made += 1
    # A private table among members, waiting for a third: what an invitation looks like.
    private = Table.objects.filter(private=True, created_by=anna).open()
    if not private.filter(seats__player=boris).exists():
        _open([anna, boris], [], friendly, seats=3, private=True)
        made += 1
    return made
