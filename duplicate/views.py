"""Duplicate series pages: the series and its standings, a round's boards, a board's traveller."""

from __future__ import annotations

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from club.models import Player
from duplicate import standings as duplicate_standings
from duplicate.models import Board, DuplicateSeries, Gathering, Play, Round
from duplicate.rules import open_board
from duplicate.services import gather, join_gathering, leave_gathering, play_board, start_gathering
from duplicate.withheld import withheld_rounds
from games.broadcast import publish_sync
from games.services import ServiceError


def _viewer(request: HttpRequest) -> Player | None:
    return request.user.player if request.user.is_authenticated else None


def series_list(request: HttpRequest) -> HttpResponse:
    series = DuplicateSeries.objects.select_related("variant")
    return render(request, "duplicate/series_list.html", {"series_list": series})


def _series(slug: str) -> DuplicateSeries:
    return get_object_or_404(DuplicateSeries.objects.select_related("variant"), slug=slug)


def _boards(viewer: Player | None, round_: Round) -> list[dict]:
    """The round's boards, each with the viewer's play of it and whether its traveller is open."""
    boards = list(round_.board_set.order_by("number"))
    plays = {}
    if viewer is not None:
        plays = {
            p.board_id: p
            for p in Play.objects.filter(board__round=round_, player=viewer).select_related("game")
        }
    waiting: dict[int, list[dict]] = {}
    if round_.series.shared_tables:
        gatherings = Gathering.objects.filter(board__round=round_).prefetch_related("seats__player")
        for gathering in gatherings:
            members = [m.player for m in gathering.seats.all()]
            waiting.setdefault(gathering.board_id, []).append(
                {
                    "gathering": gathering,
                    "names": ", ".join(m.display_name for m in members),
                    "mine": viewer is not None and viewer.pk in {m.pk for m in members},
                    "free": round_.series.seats - len(members),
                }
            )
    return [
        {
            "board": board,
            "waiting": waiting.get(board.pk, []),
            "waiting_here": any(w["mine"] for w in waiting.get(board.pk, [])),
            "play": plays.get(board.pk),
            "finished": board.pk in plays and plays[board.pk].game.result is not None,
            "open": round_.is_closed
            or (board.pk in plays and plays[board.pk].game.result is not None),
        }
        for board in boards
    ]


def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    series = _series(slug)
    now = timezone.now()
    rounds = list(series.rounds.order_by("number"))
    viewer = _viewer(request)
    current = [{"round": r, "boards": _boards(viewer, r)} for r in rounds if r.is_open(now)]
    rows = duplicate_standings.standings(series)
    waiting = any(b["waiting_here"] for item in current for b in item["boards"])
    # Boards of a round still open add nothing to the standings yet (duplicate.withheld).
    pending = withheld_rounds().filter(series=series, starts__lte=now).exists()
    return render(
        request,
        "duplicate/series_detail.html",
        {
            "series": series,
            "rounds": rounds,
            "current": current,
            "ranked": [r for r in rows if r.rank is not None],
            "unranked": [r for r in rows if r.rank is None],
            "now": now,
            "waiting": waiting,
            "pending": pending,
        },
    )


def series_csv(request: HttpRequest, slug: str) -> HttpResponse:
    series = _series(slug)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{series.slug}-duplicate.csv"'
    writer = csv.writer(response)
    writer.writerow(["rank", "player", "boards", "matchpoint_percent"])
    for row in duplicate_standings.standings(series):
        writer.writerow([row.rank or "", row.name, row.games, row.percent_text])
    return response


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _series(slug)
    round_ = get_object_or_404(series.rounds, number=number)
    boards = _boards(_viewer(request), round_)
    return render(
        request,
        "duplicate/round_detail.html",
        {
            "series": series,
            "round": round_,
            "boards": boards,
            "is_open": round_.is_open(),
            "waiting": any(b["waiting_here"] for b in boards),
        },
    )


def board_detail(request: HttpRequest, slug: str, number: int, board: int) -> HttpResponse:
    """The traveller: every result of this board. 404 until the viewer finished it or the
    round closed, exactly like a board that does not exist (no peeking)."""
    series = _series(slug)
    board_obj = get_object_or_404(
        Board.objects.select_related("round"),
        round__series=series,
        round__number=number,
        number=board,
    )
    viewer = _viewer(request)
    if not open_board(viewer, board_obj):
        raise Http404("No such board.")
    entries = duplicate_standings.traveller(series, board_obj.pk)
    return render(
        request,
        "duplicate/board_detail.html",
        {
            "series": series,
            "round": board_obj.round,
            "board": board_obj,
            "entries": entries,
            "viewer_id": viewer.pk if viewer else None,
        },
    )


@login_required
@require_POST
def play(request: HttpRequest, slug: str, number: int, board: int) -> HttpResponse:
    series = _series(slug)
    board_obj = get_object_or_404(Board, round__series=series, round__number=number, number=board)
    try:
        play_obj, updates = play_board(request.user.player, board_obj.pk)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(series)
    publish_sync(updates)
    if updates:
        messages.success(
            request, gettext("Board %(n)s is dealt. Good luck!") % {"n": board_obj.number}
        )
    return redirect("table", table_id=play_obj.table_id)


def _board_or_404(slug: str, number: int, board: int) -> Board:
    return get_object_or_404(Board, round__series__slug=slug, round__number=number, number=board)


@login_required
@require_POST
def play_together(request: HttpRequest, slug: str, number: int, board: int) -> HttpResponse:
    """Open a table for this board that other members may join (series with shared tables)."""
    board_obj = _board_or_404(slug, number, board)
    try:
        gather(request.user.player, board_obj.pk)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            gettext("Your table for board %(n)s is waiting for members to join.")
            % {"n": board_obj.number},
        )
    return redirect(board_obj.round)


@login_required
@require_POST
def waiting_table(request: HttpRequest, slug: str, number: int, gathering: int) -> HttpResponse:
    """Join, leave or start a waiting table (the form's `action`)."""
    round_ = get_object_or_404(Round, series__slug=slug, number=number)
    action = request.POST.get("action")
    player = request.user.player
    play_obj, updates = None, []
    try:
        if action == "join":
            play_obj, updates = join_gathering(player, gathering)
        elif action == "start":
            play_obj, updates = start_gathering(player, gathering)
        elif action == "leave":
            leave_gathering(player, gathering)
        else:
            raise ServiceError("bad_action", gettext("Join, leave or start: nothing else."))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(round_)
    publish_sync(updates)
    if play_obj is not None:
        return redirect("table", table_id=play_obj.table_id)
    return redirect(round_)
