"""Demo data for `make run`: a demo admin, demo members and a living club. Idempotent.

Never run by migrations: a deployment has no demo accounts unless someone
runs this command on purpose. The club itself (series with real games, live
tables) is built by `club.demo`.
"""

from __future__ import annotations

import functools
import time

from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from club import demo
from club.models import Player

ADMIN_EMAIL = "admin@example.com"
ADMIN_PASSWORD = "club-admin-demo"
PLAYER_PASSWORD = "club-player-demo"
PLAYERS = [name for name, _ in demo.MEMBERS]


@functools.cache
def _hashed(password: str) -> str:
    """The members share one published password: hashed once, not once per member
    (a hash takes ~0.2 s of CPU on purpose)."""
    return make_password(password)


class Command(BaseCommand):
    help = (
        "Create the demo admin, demo members and a living demo club: three house series "
        "with games played by the engines and bots, a duplicate series with an open round, "
        "and live tables (safe to run again)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--games",
            type=int,
            default=demo.DEFAULT_GAMES,
            help=f"Series games the club should have in all (default {demo.DEFAULT_GAMES}); "
            "only the missing ones are played.",
        )

    def handle(self, *args, **options) -> None:
        with transaction.atomic():
            self._user(ADMIN_EMAIL, ADMIN_PASSWORD, "Admin", staff=True)
            for name in PLAYERS:
                self._user(f"{name.lower()}@example.com", PLAYER_PASSWORD, name)
        report = demo.build(max(0, options["games"]), log=self.stdout.write)
        # The side apps' own demo parts (an AppConfig's `demo_data(members, site_demo)`:
        # the duplicate series), so the club's command names none of them. They get
        # the site's demo (club.demo: its variants, `play`) handed over: the site is
        # above them and they import nothing of it (pyproject.toml, [tool.importlinter]).
        began = time.perf_counter()
        extra = sum(
            app.demo_data(demo.members(), demo)
            for app in apps.get_app_configs()
            if hasattr(app, "demo_data")
        )
        if extra:
            self.stdout.write(
                f"Demo duplicate boards: {extra} played in {time.perf_counter() - began:.1f} s."
            )
        self.stdout.write(
            f"Demo club: {report.played} games played, {report.tables} live tables set up "
            f"in {report.seconds:.1f} s ({report.cpu_seconds:.1f} s of CPU).\n"
            f"Demo admin: {ADMIN_EMAIL} / {ADMIN_PASSWORD} (at /admin/)\n"
            f"Demo players: {', '.join(p.lower() + '@example.com' for p in PLAYERS)}"
            f" / {PLAYER_PASSWORD}"
        )

    def _user(self, email: str, password: str, name: str, staff: bool = False) -> None:
        User = get_user_model()
        user = User.objects.filter(email__iexact=email).first()
        if user is None:
            user = User(username=email.split("@")[0], email=email, password=_hashed(password))
            user._display_name = name
            user.is_staff = user.is_superuser = staff
            user.save()
            EmailAddress.objects.create(user=user, email=email, primary=True, verified=True)
        Player.objects.get_or_create(user=user, defaults={"display_name": name})
