"""Page render times with and without the i18n machinery (docs/PERFORMANCE.md).

One process, one SQLite database filled by `demo_data`; each page is fetched
through Django's test client in three modes, alternating round by round so
that a busy machine slows all three alike:

- `none`: USE_I18N off and neither LocaleMiddleware nor MemberLanguageMiddleware,
  the site as it was before issue 21;
- `en`: the site as shipped, a browser asking for English;
- `ru`: the site as shipped, a browser asking for Russian (catalog lookups).

Run: .venv/bin/python tests/bench/bench_pages_i18n.py [rounds]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
_tmp = tempfile.mkdtemp()
os.environ["DATABASE_URL"] = f"sqlite:///{_tmp}/bench.sqlite3"
os.environ.pop("REDIS_URL", None)
os.environ["BOT_RUNNER"] = "0"
os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.utils import translation  # noqa: E402

from tests.bench.common import machine  # noqa: E402

I18N_MIDDLEWARE = {
    "django.middleware.locale.LocaleMiddleware",
    "club.i18n.MemberLanguageMiddleware",
}


def main(rounds: int = 30) -> None:
    call_command("migrate", verbosity=0)
    call_command("demo_data", verbosity=0)
    from club.models import Player, Series
    from games.models import Game

    series = Series.objects.first()
    game = Game.objects.filter(result__isnull=False).first()
    player = Player.objects.members().first()
    pages = {
        "home": "/",
        "lobby": "/tables/",
        "rules": "/rules/",
        "series list": "/series/",
        "series standings": f"/series/{series.slug}/",
        "player": f"/players/{player.pk}/",
        "ratings": "/ratings/",
        "game": f"/games/{game.pk}/",
    }
    bare = [m for m in settings.MIDDLEWARE if m not in I18N_MIDDLEWARE]
    modes = {
        "none": (override_settings(USE_I18N=False, MIDDLEWARE=bare), "en"),
        "en": (override_settings(), "en"),
        "ru": (override_settings(), "ru"),
    }
    times: dict[tuple[str, str], list[float]] = {}
    for _round in range(rounds + 2):  # two warm-up rounds, not counted
        for mode, (override, lang) in modes.items():
            with override:
                client = Client(HTTP_ACCEPT_LANGUAGE=lang)
                for name, url in pages.items():
                    start = time.perf_counter()
                    response = client.get(url)
                    elapsed = (time.perf_counter() - start) * 1000
                    assert response.status_code == 200, (url, response.status_code)
                    if _round >= 2:
                        times.setdefault((name, mode), []).append(elapsed)
            translation.deactivate()
    print(machine())
    print(
        f"{'page':18} {'none ms':>9} {'en ms':>9} {'ru ms':>9}   (median of {rounds}, p90 in brackets)"
    )
    for name in pages:
        cells = []
        for mode in modes:
            values = sorted(times[(name, mode)])
            p90 = values[int(len(values) * 0.9) - 1]
            cells.append(f"{statistics.median(values):6.1f} ({p90:5.1f})")
        print(f"{name:18} " + " ".join(f"{c:>15}" for c in cells))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
