"""Lobby and table pages. Changes go through games.services; play goes over websockets."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_POST

from club.bots import shown_name
from club.models import Player, Series
from games import away, hooks, registry, services
from games.broadcast import publish_sync
from games.forms import AwayForm, CreateTableForm
from games.i18n import lazy_format
from games.models import Game, Table, Variant
from games.services import replays


def _lobby_context(request: HttpRequest) -> dict:
    listed = Table.objects.listed().with_seats()
    # Capped like the running tables: however many are open, the page stays small.
    open_tables = list(listed.open()[: settings.LOBBY_OPEN_TABLES])
    playing_tables = list(listed.playing()[:30])
    hooks.annotate_tables(open_tables + playing_tables)  # their seats' ratings
    # The reader's own tables that wait for their move, marked as home marks them.
    your_turn = (
        services.waiting_on(request.user.player.pk, playing_tables)
        if request.user.is_authenticated
        else set()
    )
    return {"open_tables": open_tables, "playing_tables": playing_tables, "your_turn": your_turn}


def lobby(request: HttpRequest) -> HttpResponse:
    initial = {}
    series = Series.objects.active().filter(slug=request.GET.get("series", "")).first()
    if series:
        initial = {"series": series, "variant": series.variant}
    form = CreateTableForm(initial=initial)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next={request.path}")
        form = CreateTableForm(request.POST)
        if form.is_valid():
            try:
                table, update = services.create_table(
                    request.user.player,
                    form.cleaned_data["variant"],
                    form.cleaned_data["seats"],
                    form.cleaned_data["private"],
                    form.cleaned_data["series"],
                    limited=True,
                    pace=form.cleaned_data["pace"],
                )
            except services.ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                publish_sync([update])
                messages.success(
                    request,
                    lazy_format(
                        _("%(table)s is open. Others can join from the lobby."), table=table
                    ),
                )
                return redirect(table)
    variants = list(form.fields["variant"].queryset)
    return render(
        request, "games/lobby.html", {"form": form, "variants": variants, **_lobby_context(request)}
    )


def lobby_list(request: HttpRequest) -> HttpResponse:
    """The lobby's table lists alone, fetched again by lobby.js when they change."""
    return render(request, "games/_table_lists.html", _lobby_context(request))


@login_required
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    invite = request.GET.get("invite", "")
    player = request.user.player
    # 404, not 403: a private table's id must reveal nothing.
    table = get_object_or_404(Table.objects.with_seats().visible_to(player, invite), pk=table_id)
    seats = list(table.seats.all())
    seated = any(s.player_id == player.pk for s in seats)
    # A sealed table (a duplicate board) has no invite link and no rematch.
    sealed = hooks.is_sealed(table)
    engine = table.variant.engine
    return render(
        request,
        "games/table.html",
        {
            "table": table,
            "seats": seats,
            "seated": seated,
            "invite": invite,
            "sealed": sealed,
            "sealed_link": hooks.table_link(table.pk) if sealed else None,
            # The module that draws the game (static/js/games/) and, for the
            # generic one, the words for the keys of the game's view.
            "renderer": engine.table_renderer,
            "stylesheets": engine.stylesheets,
            "key_labels": engine.key_labels(),
            # Away days are days of the club's calendar: table-pace.js shows them in it.
            "club_time_zone": settings.TIME_ZONE,
            # The clock this table runs: its pace when turn-based, never the live clock.
            "clock_rule": table.variant.clock_rule(table.pace),
        },
    )


@login_required
@require_POST
def quick_game(request: HttpRequest) -> HttpResponse:
    """One click from the home page: a new table with house bots, dealt at once."""
    chosen = request.POST.get("variant", "")
    valid = chosen.isascii() and chosen.isdigit() and len(chosen) < 10
    variant = Variant.objects.active().filter(pk=int(chosen)).first() if valid else None
    if variant is None:
        messages.error(request, _("Choose a game that the club offers."))
        return redirect("home")
    try:
        table, updates = services.quick_game(request.user.player, variant, limited=True)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    publish_sync(updates)
    return redirect(table)


def _table_action(action: Callable, success: str | Callable[[str], str]) -> Callable:
    """A form post that changes a table; `success` may depend on the table's status after it."""

    @login_required
    @require_POST
    def view(request: HttpRequest, table_id: int) -> HttpResponse:
        try:
            updates = action(request, table_id)
        except services.ServiceError as exc:
            messages.error(request, exc.message)
        else:
            updates = updates if isinstance(updates, list) else [updates]
            publish_sync(updates)
            status = updates[-1].snapshot["table"]["status"]
            messages.success(request, success(status) if callable(success) else success)
        if action is _leave:
            return redirect("lobby")
        return redirect("table", table_id=table_id)

    return view


def _join(request: HttpRequest, table_id: int):
    return services.join_table(request.user.player, table_id, request.POST.get("invite"))


def _leave(request: HttpRequest, table_id: int):
    return services.leave_table(request.user.player, table_id)


def _start(request: HttpRequest, table_id: int):
    return services.start_table(request.user.player, table_id)


def _again(request: HttpRequest, table_id: int):
    return services.play_again(request.user.player, table_id)


def _add_bot(request: HttpRequest, table_id: int):
    return services.add_bot(request.user.player, table_id, request.POST.get("level", ""))


def _remove_bot(request: HttpRequest, table_id: int):
    try:
        position = int(request.POST.get("position", ""))
    except ValueError:
        raise services.ServiceError("bad_position", _("Choose a seat.")) from None
    return services.remove_bot(request.user.player, table_id, position)


join = _table_action(_join, _("You took a seat."))
add_bot = _table_action(_add_bot, _("A house bot sat down."))
remove_bot = _table_action(_remove_bot, _("The house bot left its seat."))
leave = _table_action(
    _leave,
    lambda status: (
        _(
            "You left the game. The house plays your seat to the end, "
            "and the result records your resignation."
        )
        if status == Table.Status.PLAYING
        else _("You left the table.")
    ),
)
start = _table_action(_start, _("The cards are dealt."))
again = _table_action(
    _again,
    lambda status: (
        _("A new deal for the same players.")
        if status == Table.Status.PLAYING
        else _("You are in for a rematch. It starts when every player at the table accepts.")
    ),
)


def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game's page: results, what the end revealed and the move log.

    Each game has its own template, games/detail/<game>.html, or else the generic
    games/detail/generic.html; it gets one row per seat holding that seat's entry
    of each per-seat figure the engine names (also as `figures`, in order).
    """
    viewer = request.user.player if request.user.is_authenticated else None
    visible = Game.objects.visible_to(viewer, request.GET.get("invite"))
    game = get_object_or_404(visible.select_related("table__variant"), pk=game_id)
    if game.result is None:
        return redirect("table", table_id=game.table_id)
    engine = registry.engine(game.game)
    view = engine.view(engine.from_json(game.state), None)
    # The recorded result (with resignations) over the engine's own, as at the table.
    result = {**view["result"], **game.result}
    resigned = set(result.get("resigned", []))
    players = {p.pk: p for p in Player.objects.filter(pk__in=game.players)}
    names = [
        shown_name(players[pk].display_name, players[pk].bot_level) if pk in players else "?"
        for pk in game.players
    ]
    count = len(game.players)
    seats = [
        {
            **{key: result[key][seat] for key in engine.seat_results if key in result},
            "seat": seat,
            "name": names[seat],
            "player_id": game.players[seat],
            "place": result["places"][seat],
            "lost": result.get("loser") == seat,
            "resigned": seat in resigned,
            "figures": [result[key][seat] for key in engine.seat_results if key in result],
        }
        for seat in range(count)
    ]
    labels = engine.key_labels()
    moves = [
        {"n": m.number, "name": names[m.seat], "move": m.move}
        for m in game.moves.order_by("number")
    ]
    return render(
        request,
        [f"games/detail/{engine.key}.html", "games/detail/generic.html"],
        {
            "game": game,
            "engine": engine,
            "figure_names": [labels.get(key, key) for key in engine.seat_results if key in result],
            "view": view,
            "result": result,
            "seats": sorted(seats, key=lambda s: (s["place"], s["seat"])),
            "names": names,
            "moves": moves,
        },
    )


# ---------------------------------------------------------------------------
# Finished games: the replay steps and the game record (games.services.replays)


def _finished_game(request: HttpRequest, game_id: int) -> Game:
    viewer = request.user.player if request.user.is_authenticated else None
    return replays.finished_game(game_id, viewer, request.GET.get("invite"))


def _json_error(exc: services.ServiceError) -> JsonResponse:
    # A private game answers like a missing one; an unfinished game has no replay yet.
    status = 404 if exc.code in ("not_found", "not_finished") else 409
    return JsonResponse({"error": exc.code, "message": exc.message}, status=status)


def _finished_json(build: Callable[[Game], dict], kind: str) -> Callable:
    """A GET view answering a finished game's `build(game)` as JSON, gzipped when asked.

    A finished game never changes, so the browser may keep the answer; it is
    `private` because who may see a game depends on the viewer.
    """

    @require_GET
    @gzip_page
    def view(request: HttpRequest, game_id: int) -> HttpResponse:
        try:
            game = _finished_game(request, game_id)
            etag = f'"{kind}-{game.pk}-{game.version}"'
            # gzip_page sends the tag weak (W/"..."): either form matches.
            asked = request.headers.get("If-None-Match", "").split(",")
            if etag in (tag.strip().removeprefix("W/") for tag in asked):
                response = HttpResponseNotModified()
            else:
                response = JsonResponse(build(game), json_dumps_params={"separators": (",", ":")})
        except services.ServiceError as exc:
            return _json_error(exc)
        response["ETag"] = etag
        response["Cache-Control"] = "private, max-age=3600"
        if kind == "record":
            name = f"game-{game.pk}-{game.game}-table-{game.table_id}-{game.number}.json"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    return view


game_replay = _finished_json(replays.replay, "replay")
game_record = _finished_json(replays.record, "record")


# ---------------------------------------------------------------------------
# Away days (games.away): the clocks of the member's turn-based tables stop


@login_required
def away_days(request: HttpRequest) -> HttpResponse:
    player = request.user.player
    form = AwayForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            _absence, updates = away.declare(
                player, form.cleaned_data["first"], form.cleaned_data["last"]
            )
        except services.ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            publish_sync(updates)
            messages.success(
                request, _("Your days away are noted: your turn-based clocks stop meanwhile.")
            )
            return redirect("away_days")
    year = timezone.localdate().year
    return render(
        request,
        "games/away.html",
        {
            "form": form,
            "absences": [
                {"pk": a.pk, "first": away.first_day(a), "last": away.last_day(a)}
                for a in away.upcoming(player)
            ],
            "allowed": settings.AWAY_DAYS_PER_YEAR,
            "left": max(0, settings.AWAY_DAYS_PER_YEAR - away.days_in_year(player, year)),
            "year": year,
        },
    )


@login_required
@require_POST
def away_withdraw(request: HttpRequest, absence_id: int) -> HttpResponse:
    try:
        updates = away.withdraw(request.user.player, absence_id)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        publish_sync(updates)
        messages.success(request, _("Those days away are withdrawn."))
    return redirect("away_days")
