"""The apps' layers hold (issue 38): import-linter's contracts in pyproject.toml.

`make test` and `make check` run `lint-imports` before the suite; these tests run
it too (under a second), check that every module of `club` and `games` is in a
layer of the layers contract (a module in none would be checked by nothing), and
that the check does fail when a lower layer imports an upper one.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from tools.import_contracts import GAME_FOLDERS

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _config() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["importlinter"]


def _lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", str(ROOT / "pyproject.toml")],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _layered_modules() -> set[str]:
    (layers,) = [c for c in _config()["contracts"] if c["id"] == "layers"]
    names = set()
    for layer in layers["layers"]:
        for name in layer.replace("|", ":").split(":"):
            names.add(name.strip().strip("()"))
    if GAME_FOLDERS in names:  # every games/<game>/ with an entry.py (tools/import_contracts.py)
        names.remove(GAME_FOLDERS)
        names.update(f"games.{p.parent.name}" for p in (ROOT / "games").glob("*/entry.py"))
    return names


def _modules(package: Path, prefix: str) -> list[str]:
    """The modules and packages directly inside `package` (a directory)."""
    found = []
    for child in sorted(package.iterdir()):
        if child.is_dir() and (child / "__init__.py").exists():
            found.append(f"{prefix}.{child.name}")
        elif child.suffix == ".py" and child.name != "__init__.py":
            found.append(f"{prefix}.{child.stem}")
    return found


def test_the_contracts_are_kept():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    assert "ignore" not in str(_config()), "no import is ignored"


def test_every_module_of_club_and_games_is_in_a_layer():
    layered = _layered_modules()
    missing = []
    todo = [(ROOT / name, name) for name in ("club", "games")]
    while todo:
        path, name = todo.pop()
        for module in _modules(path, name):
            if module in layered or any(module.startswith(f"{n}.") for n in layered):
                continue
            child = ROOT.joinpath(*module.split("."))
            if child.is_dir() and any(n.startswith(f"{module}.") for n in layered):
                todo.append((child, module))  # split over layers: look at its modules
            else:
                missing.append(module)
    assert not missing, (
        f"in no layer of pyproject.toml's [tool.importlinter] layers contract: {missing} "
        "(a game folder goes with the game folders, a module of the tables with games.models)"
    )


def _copy_of_the_apps(tmp_path: Path) -> None:
    for package in [*_config()["root_packages"], "tools"]:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )


def test_a_new_game_folder_is_checked_without_editing_the_contract(tmp_path):
    """A game is its folder and its line in GAMES: the layers contract finds the folder
    (its entry.py) by itself, and holds it to the game folders' rules (issue 47)."""
    _copy_of_the_apps(tmp_path)
    shutil.copytree(
        tmp_path / "games" / "golf", tmp_path / "games" / "newgame",
        ignore=shutil.ignore_patterns("static", "templates", "locale"),
    )  # fmt: skip
    rules = tmp_path / "games" / "newgame" / "rules.py"
    rules.write_text("from games import devyatka  # noqa\nfrom games import models  # noqa\n")
    result = _lint(tmp_path)
    assert result.returncode != 0, result.stdout
    assert "games.newgame is not allowed to import games.devyatka" in result.stdout
    assert "games.newgame is not allowed to import games.models" in result.stdout


def test_an_upward_import_fails_the_check(tmp_path):
    # A copy of the apps where the tables import a side app, as they once did.
    _copy_of_the_apps(tmp_path)
    views = tmp_path / "games" / "views.py"
    views.write_text(views.read_text() + "\nfrom ratings import stats  # noqa\n")
    result = _lint(tmp_path)
    assert result.returncode != 0, result.stdout
    assert "games.views is not allowed to import ratings" in result.stdout
