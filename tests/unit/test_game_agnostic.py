"""No game's name in the code of the game-agnostic layers (issue 23, the developers' guide).

Models, admin, services, consumers, the house runner, standings and ratings
talk to a registry entry (games.registry.Engine), never to a game by name:
a new game is data and one entry. This reads their source and fails on any
identifier or string the code acts on that names a shipped game. Words for
people (gettext's arguments), docstrings and comments may still give one as
an example.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AGNOSTIC = [
    "games/models.py",
    "games/admin.py",
    "games/forms.py",
    "games/consumers.py",
    "games/runner.py",
    "games/services/*.py",
    "club/models.py",
    "club/admin.py",
    "club/standings.py",
    "ratings/*.py",
]
GAME_NAME = re.compile(r"devyatka|keft|golf", re.IGNORECASE)
WORDS_FOR_PEOPLE = {"_", "gettext", "gettext_lazy", "pgettext", "pgettext_lazy", "ngettext"}


def modules() -> list[Path]:
    return sorted(path for pattern in AGNOSTIC for path in ROOT.glob(pattern))


def names_in_code(source: str) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            skip.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in WORDS_FOR_PEOPLE:
            skip.update(id(arg) for arg in node.args)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            text = node.name
        elif isinstance(node, ast.alias):
            text = node.name
        else:
            continue
        if GAME_NAME.search(text):
            found.append((getattr(node, "lineno", 0), text))
    return found


def test_the_checked_layers_exist():
    assert len(modules()) >= 15


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_game_is_named_in_the_game_agnostic_layers(path: Path):
    assert names_in_code(path.read_text()) == []


def test_the_check_sees_a_game_named_in_code():
    source = 'if variant.game == "golf":\n    x = registry.DEVYATKA\nlabel = _("Keft style")\n'
    assert names_in_code(source) == [(1, "golf"), (2, "DEVYATKA")]
