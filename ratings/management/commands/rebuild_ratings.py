"""Recompute every rating from the recorded results, in the order the games finished."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from ratings.services import rebuild


class Command(BaseCommand):
    help = "Recompute all ratings from the game results, in the order the games finished."

    def handle(self, *args, **options) -> None:
        start = time.perf_counter()
        games = rebuild()
        took = time.perf_counter() - start
        self.stdout.write(f"Rated {games} games in {took:.1f} s.")
