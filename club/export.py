"""Taking your data (issue 45): a member's copy of what the club holds about them.

The member asks on their data page (club.account); the task worker (`manage.py worker`,
django-tasks) writes one zip holding `data.json` (its fields:
docs/DATA_EXPORT.md) under EXPORT_DIR, a private folder never served as static or
media files; the member is told by a notification (kind `data_export`) and downloads
it through their login-checked page for EXPORT_DAYS. At most one export waits per
member (a database constraint); expired ones are deleted, files and rows, whenever
an export is asked for or made, and by `manage.py purge_exports`.

Games are exported as the member's own seat saw them (games.services.replays.
seat_record, through the engine's per-seat view): no other member's hidden card.
"""

from __future__ import annotations

import datetime
import json
import logging
import os
import secrets
import zipfile
from pathlib import Path

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_tasks import task

from chat.models import ChatMessage
from club import standings as club_standings
from club.models import DataExport, GameResult, Player, Series
from duplicate import standings as duplicate_standings
from duplicate.models import DuplicateSeries, Play
from events import standings as event_standings
from events.models import Entry
from games import hooks
from games.models import Absence, Seat, Table
from games.services import ServiceError, current_game, replays
from notifications.models import Notification, Preference
from ratings.models import Rating, RatingChange, display

logger = logging.getLogger(__name__)

FORMAT = "card-club-data-export"
VERSION = 1
KIND = "data_export"


def export_path(export: DataExport) -> Path | None:
    return Path(settings.EXPORT_DIR) / export.file if export.file else None


def _remove(exports) -> int:
    count = 0
    for export in exports:
        path = export_path(export)
        if path is not None:
            path.unlink(missing_ok=True)
        export.delete()
        count += 1
    return count


def delete_exports(player: Player) -> None:
    """Every export of this member, files and rows (their account is closing)."""
    _remove(DataExport.objects.filter(player=player))


def purge_expired(now: datetime.datetime | None = None) -> int:
    """Delete the exports past their time (files and rows); how many."""
    now = now or timezone.now()
    return _remove(DataExport.objects.filter(expires__lte=now))


def latest(player: Player) -> DataExport | None:
    """The member's newest export still there (waiting, ready or failed), or None."""
    now = timezone.now()
    return (
        DataExport.objects.filter(player=player)
        .exclude(expires__lte=now)
        .order_by("-created", "-pk")
        .first()
    )


def request_export(player: Player) -> DataExport:
    """Queue an export for this member; refused while one is still waiting."""
    purge_expired()
    if DataExport.objects.filter(player=player, state=DataExport.State.QUEUED).exists():
        raise ServiceError(
            "export_waiting",
            _("Your data is already being prepared: you will be told when it is ready."),
        )
    try:
        with transaction.atomic():
            export = DataExport.objects.create(player=player, token=secrets.token_urlsafe(32))
            transaction.on_commit(lambda: build_export.enqueue(export.pk))
    except IntegrityError:  # the same request twice at once: the first one waits
        raise ServiceError(
            "export_waiting",
            _("Your data is already being prepared: you will be told when it is ready."),
        ) from None
    return export


@task()
def build_export(export_id: int) -> None:
    """The task worker's part: write the zip, then tell the member."""
    make(export_id)


def make(export_id: int) -> DataExport | None:
    """Write the export's zip under EXPORT_DIR (to a temporary name, renamed when
    complete), mark it ready for EXPORT_DAYS and notify the member."""
    purge_expired()
    export = DataExport.objects.select_related("player").filter(pk=export_id).first()
    if export is None or export.state != DataExport.State.QUEUED:
        return export  # the account closed meanwhile, or another worker did it
    folder = Path(settings.EXPORT_DIR)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    name = f"{export.pk}-{secrets.token_hex(8)}.zip"
    final, partial = folder / name, folder / f".{name}.part"
    try:
        data = collect(export.player)
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("data.json", json.dumps(data, ensure_ascii=False, indent=1))
            archive.writestr("README.txt", README)
        os.chmod(partial, 0o600)
        os.replace(partial, final)
    except Exception:
        logger.exception("data export %s failed", export.pk)
        partial.unlink(missing_ok=True)
        DataExport.objects.filter(pk=export.pk).update(
            state=DataExport.State.FAILED, expires=timezone.now() + _days()
        )
        return None
    now = timezone.now()
    with transaction.atomic():
        updated = DataExport.objects.filter(pk=export.pk, state=DataExport.State.QUEUED).update(
            state=DataExport.State.READY,
            ready_at=now,
            expires=now + _days(),
            file=name,
            size=final.stat().st_size,
        )
        if not updated:  # deleted meanwhile (the account closed): no file left behind
            final.unlink(missing_ok=True)
            return None
        hooks.emit(
            hooks.Event(
                KIND,
                (export.player_id,),
                data={
                    "path": reverse("account_data"),
                    "days": settings.EXPORT_DAYS,
                    "key": f"export:{export.pk}",
                },
            )
        )
    export.refresh_from_db()
    return export


def _days() -> datetime.timedelta:
    return datetime.timedelta(days=settings.EXPORT_DAYS)


def downloadable(player: Player, token: str) -> DataExport:
    """The member's ready export by its link; another member's or a missing one: not_found;
    past its time: expired."""
    export = DataExport.objects.filter(token=token, player=player).first()
    if export is None:
        raise ServiceError("not_found", _("There is no such export."))
    if export.expires is not None and export.expires <= timezone.now():
        raise ServiceError(
            "expired", _("This export has expired and was deleted: ask for a new one.")
        )
    path = export_path(export)
    if export.state != DataExport.State.READY or path is None or not path.exists():
        raise ServiceError("not_ready", _("This export is not ready yet."))
    return export


# ---------------------------------------------------------------------------
# What goes in (docs/DATA_EXPORT.md describes every field)


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def collect(player: Player) -> dict:
    user = player.user
    return {
        "format": FORMAT,
        "version": VERSION,
        "generated": timezone.now().isoformat(),
        "profile": {
            "id": player.pk,
            "display_name": player.display_name,
            "joined": _iso(player.joined),
            "language": player.language,
            "time_zone": player.time_zone,
            "email": user.email if user else "",
            "last_login": _iso(user.last_login) if user else None,
        },
        "addresses": [
            {"email": a.email, "verified": a.verified, "primary": a.primary}
            for a in EmailAddress.objects.filter(user=user).order_by("pk")
        ]
        if user
        else [],
        "preferences": [
            {"kind": p.kind, "channel": p.channel, "enabled": p.enabled}
            for p in Preference.objects.filter(player=player).order_by("kind", "channel")
        ],
        "away_days": [
            {"starts": _iso(a.starts), "ends": _iso(a.ends), "declared": _iso(a.created)}
            for a in Absence.objects.filter(player=player).order_by("starts")
        ],
        "games": _games(player),
        "chat_messages": [
            {
                "room": m.room,
                "table": m.table_id,
                "game": m.game_id,
                "text": m.text,
                "phrase": m.phrase,
                "sent": _iso(m.created),
                "hidden": m.hidden,
            }
            for m in ChatMessage.objects.filter(author=player).order_by("created", "pk")
        ],
        "notifications": [
            {
                "kind": n.kind,
                "table": n.table_id,
                "game": n.game_id,
                "data": n.data,
                "created": _iso(n.created),
                "read": _iso(n.read_at),
            }
            for n in Notification.objects.filter(player=player).order_by("created", "pk")
        ],
        "ratings": [
            {"family": r.family, "rating": display(r.ordinal), "games": r.games}
            for r in Rating.objects.filter(player=player).order_by("family")
        ],
        "rating_history": [
            {
                "game": c.result.game_id,
                "family": c.family,
                "finished": _iso(c.result.finished),
                "rated": c.rated,
                "before": display(c.ordinal_before),
                "after": display(c.ordinal_after),
            }
            for c in RatingChange.objects.filter(result__player=player)
            .select_related("result")
            .order_by("result__finished", "pk")
        ],
        "series": _series(player),
        "duplicate": _duplicate(player),
        "club_nights": _nights(player),
    }


def _games(player: Player) -> list[dict]:
    """Every game they played, finished (their results) and running (their seats)."""
    out = []
    results = (
        GameResult.objects.filter(player=player)
        .select_related("game__table__variant", "game__table__series")
        .order_by("finished", "pk")
    )
    seen = set()
    for result in results:
        seen.add(result.game_id)
        out.append(
            {
                **_seat_record(result.game, result.seat),
                "place": result.place,
                "players_count": result.players,
                "lost": result.lost,
                "score": result.score,
                "resigned_seat": result.resigned,
                "figures": result.detail,
            }
        )
    seats = Seat.objects.filter(player=player, is_bot=False, table__status=Table.Status.PLAYING)
    for seat in seats.select_related("table__variant", "table__series"):
        game = current_game(seat.table)
        if game is not None and game.pk not in seen and player.pk in game.players:
            out.append(_seat_record(game, game.players.index(player.pk)))
    return out


def _seat_record(game, seat: int) -> dict:
    try:
        return replays.seat_record(game, seat)
    except ServiceError as exc:  # a record that no longer replays: said, not guessed
        return {"id": game.pk, "seat": seat, "unreplayable": str(exc.message)}


def _row(rows, player_id: int):
    return next((r for r in rows if r.player_id == player_id), None)


def _series(player: Player) -> list[dict]:
    ids = GameResult.objects.filter(player=player, series__isnull=False).values("series_id")
    out = []
    for series in Series.objects.filter(pk__in=ids).select_related("variant").order_by("pk"):
        row = _row(club_standings.standings(series), player.pk)
        if row is None:
            continue
        out.append(
            {
                "series": series.name,
                "slug": series.slug,
                "rank": row.rank,
                "games": row.games,
                "wins": row.wins,
                "losses": row.losses,
                "loss_rate": row.loss_rate_text,
                "average_place": row.average_place_text,
                "points": row.points_text,
                "points_per_game": row.points_per_game_text,
            }
        )
    return out


def _duplicate(player: Player) -> list[dict]:
    ids = Play.objects.filter(player=player).values("board__round__series_id")
    out = []
    for series in DuplicateSeries.objects.filter(pk__in=ids).order_by("pk"):
        row = _row(duplicate_standings.standings(series), player.pk)
        plays = Play.objects.filter(player=player, board__round__series=series).select_related(
            "board__round"
        )
        out.append(
            {
                "series": series.name,
                "slug": series.slug,
                "rank": row.rank if row else None,
                "boards": row.games if row else 0,
                "percent": row.percent_text if row else None,
                "plays": [
                    {
                        "round": p.board.round.number,
                        "board": p.board_id,
                        "seat": p.seat,
                        "game": p.game_id,
                    }
                    for p in plays.order_by("board__round__number", "board_id")
                ],
            }
        )
    return out


def _nights(player: Player) -> list[dict]:
    out = []
    for entry in Entry.objects.filter(player=player).select_related("event").order_by("pk"):
        rows = event_standings.standings(entry.event)
        night = next((r for r in rows if r.row.player_id == player.pk), None)
        out.append(
            {
                "night": entry.event.name,
                "slug": entry.event.slug,
                "status": entry.status,
                "rank": night.rank if night else None,
                "games": night.row.games if night else 0,
                "wins": night.row.wins if night else 0,
                "points": night.row.points_text if night else None,
            }
        )
    return out


README = """Card Club: your data

data.json holds everything the club keeps about you, as JSON (UTF-8). Every field is
described in the club's docs/DATA_EXPORT.md. Games are shown as your own seat saw
them: the other players' hidden cards are not in this file.
"""
