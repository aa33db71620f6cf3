"""Demo data for `make run`: a demo admin and a few demo players. Idempotent.

Never run by migrations: a deployment has no demo accounts unless someone
runs this command on purpose.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from club.models import Player

ADMIN_EMAIL = "admin@example.com"
ADMIN_PASSWORD = "club-admin-demo"
PLAYER_PASSWORD = "club-player-demo"
PLAYERS = ["Anna", "Boris", "Vera", "Grigori"]


class Command(BaseCommand):
    help = "Create the demo admin and demo players (safe to run again)."

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        self._user(ADMIN_EMAIL, ADMIN_PASSWORD, "Admin", staff=True)
        for name in PLAYERS:
            self._user(f"{name.lower()}@example.com", PLAYER_PASSWORD, name)
        self.stdout.write(
            f"Demo admin: {ADMIN_EMAIL} / {ADMIN_PASSWORD} (at /admin/)\n"
            f"Demo players: {', '.join(p.lower() + '@example.com' for p in PLAYERS)}"
            f" / {PLAYER_PASSWORD}"
        )

    def _user(self, email: str, password: str, name: str, staff: bool = False) -> None:
        User = get_user_model()
        user = User.objects.filter(email__iexact=email).first()
        if user is None:
            user = User(username=email.split("@")[0], email=email)
            user._display_name = name
            user.set_password(password)
            user.is_staff = user.is_superuser = staff
            user.save()
            EmailAddress.objects.create(user=user, email=email, primary=True, verified=True)
        Player.objects.get_or_create(user=user, defaults={"display_name": name})
