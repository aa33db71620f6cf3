"""No game is named outside that game's own files (issues 23 and 38, the developers' guide).

Everything but a game's own files talks to a registry entry
(games.registry.Engine), never to a game by name: a new game is its own files
and one entry. This reads every file of the site that is not a game's own --
Python, templates, CSS and JavaScript, comments and words for people included
-- and fails on any word that names a registered game: its key, its label, its
rating families' keys and labels, whatever their case, as a whole word or as a
part of an identifier (``GOLF_ROUND``, ``judgeGolf``, ``keft-out``).

A game's own files are listed in OWN; a file there may name its own game, not
another. The few generic files that legitimately name games are in EXEMPT,
each with the reason. The tests themselves, the docs and the catalogs are not
the site's code and are not read.
"""

from __future__ import annotations

import re
from fnmatch import fnmatch
from pathlib import Path

import pytest
from django.utils import translation

from games import registry

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = {".py", ".html", ".css", ".js", ".txt"}
# Not the site's code: tests (they name games freely), docs, catalogs (locale/, and
# static/jsi18n/ built from them), CI, and what is installed or made at run time.
NOT_READ = ("tests/", "docs/", "locale/", "static/jsi18n/", ".ci/", "var/", ".venv/", ".git/")
NOT_READ_DIRS = {".pytest_cache", ".ruff_cache", "node_modules", "__pycache__"}

# Each game's own files (glob patterns): its folder (engine, bots, coach, entry,
# renderer and replay JavaScript, CSS, templates), and the engine contract's alias
# of its engine (games/engine/<game>.py, DESIGN.md).
OWN: dict[str, tuple[str, ...]] = {
    "devyatka": ("games/devyatka/*", "games/engine/devyatka.py"),
    "golf": ("games/golf/*", "games/engine/golf.py"),
}
# Files that belong to several games: each of them may be named there.
SHARED: dict[str, tuple[str, ...]] = {
    # The card codes and decks both engines deal (36 cards; 52 in two or three decks).
    "games/engine/cards.py": ("devyatka", "golf"),
    # The project's list of the game folders it installs (settings.GAMES).
    "club/settings.py": ("devyatka", "golf"),
}
# Generic files that name games on purpose. Keep this short: fix the code instead
# where the fix is small.
EXEMPT: dict[str, str] = {
    "*/migrations/*.py": "history, never edited once released: they seed the default "
    "variants and house bots (games/migrations/_defaults.py) and moved old game columns",
    "club/demo.py": "the demo club plays the shipped games' default variants by name",
    "templates/club/home.html": "the club's own description of what it plays",
    "templates/base.html": "the site's description and footer say what the club plays",
}

TOKEN = re.compile(r"[A-Za-z]+")
# A run of letters split into words: "judgeGolf" -> judge, Golf; "GOLF" -> GOLF.
CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def game_words() -> dict[str, set[str]]:
    """{game key: the lower-case words that name it}: key, label, family keys and labels."""
    words: dict[str, set[str]] = {}
    with translation.override("en"):
        for entry in registry.engines():
            names = [entry.key, str(entry.label)]
            for key, label in entry.families:
                names += [key, str(label)]
            words[entry.key] = {w.lower() for name in names for w in words_in(name)}
    return words


def words_in(text: str) -> list[str]:
    return [word for run in TOKEN.findall(text) for word in CAMEL.findall(run)]


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def site_files() -> list[str]:
    found = []
    for path in ROOT.rglob("*"):
        rel = relative(path)
        if path.suffix not in SUFFIXES or not path.is_file():
            continue
        if rel.startswith(NOT_READ) or NOT_READ_DIRS & set(path.parts):
            continue
        found.append(rel)
    return sorted(found)


def owners(rel: str) -> set[str]:
    games = {game for game, patterns in OWN.items() if any(fnmatch(rel, p) for p in patterns)}
    return games | set(SHARED.get(rel, ()))


def exempt(rel: str) -> bool:
    return any(fnmatch(rel, pattern) for pattern in EXEMPT)


def games_named(text: str, words: dict[str, set[str]], allowed: set[str]) -> list[str]:
    """'line: word' for every word of `text` naming a game not in `allowed`."""
    named = {word for game, ws in words.items() if game not in allowed for word in ws}
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        hits = sorted({w for w in words_in(line) if w.lower() in named})
        found += [f"{number}: {hit}" for hit in hits]
    return found


WORDS = game_words()
FILES = site_files()


def test_the_guard_reads_the_site_and_knows_the_games():
    assert {"devyatka", "golf", "keft"} <= set().union(*WORDS.values())
    for part in ("games/views.py", "club/views.py", "analysis/chart.py", "chat/models.py"):
        assert part in FILES
    for part in ("templates/games/table.html", "static/js/table.js", "static/css/table.css"):
        assert part in FILES
    for patterns in OWN.values():  # an owned file that moved must be listed again
        assert all(any(fnmatch(f, p) for f in FILES) for p in patterns), patterns
    assert all(rel in FILES for rel in SHARED)
    assert all(any(fnmatch(f, p) for f in FILES) for p in EXEMPT)


@pytest.mark.parametrize("rel", [f for f in FILES if not exempt(f)])
def test_no_file_names_a_game_that_is_not_its_own(rel: str):
    text = (ROOT / rel).read_text(encoding="utf-8", errors="replace")
    assert games_named(text, WORDS, owners(rel)) == [], f"{rel} names a game at these lines"


def test_the_guard_sees_a_game_named_in_code_comments_and_markup():
    source = (
        'if variant.game == "golf":\n'
        "    x = registry.DEVYATKA  # the keft case\n"
        "score = golfer + devyatkas\n"
        '<div class="keft-out">{% translate "Golf" %}</div>\n'
        "const judgeGolf = GOLF_ROUND;\n"
    )
    assert games_named(source, WORDS, set()) == [
        "1: golf",
        "2: DEVYATKA",
        "2: keft",
        "4: Golf",
        "4: keft",
        "5: GOLF",
        "5: Golf",
    ]
    assert games_named(source, WORDS, {"devyatka"}) == ["1: golf", "4: Golf", "5: GOLF", "5: Golf"]
