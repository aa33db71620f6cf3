"""`make messages` on the committed tree changes nothing: the catalogs are
up to date with the sources, and the command is stable when run again."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
SKIP = {".git", ".venv", "var", "staticfiles", "node_modules", "docs", "__pycache__"}
BUILT = ["locale", "static/jsi18n"]


def _tree(root: Path) -> dict[str, bytes]:
    files = {}
    for top in BUILT:
        for path in sorted((root / top).rglob("*")):
            if path.is_file():
                files[str(path.relative_to(root))] = path.read_bytes()
    return files


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext")
def test_make_messages_leaves_the_committed_tree_unchanged(tmp_path):
    copy = tmp_path / "club"
    shutil.copytree(
        ROOT, copy, ignore=lambda _dir, names: [n for n in names if n in SKIP or n == ".secret_key"]
    )
    bin_dir = Path(sys.executable).parent
    for _run in range(2):
        result = subprocess.run(
            ["make", "-s", "messages", f"BIN={bin_dir}"],
            cwd=copy,
            capture_output=True,
            text=True,
            timeout=240,
        )
        assert result.returncode == 0, result.stderr
        after = _tree(copy)
        before = _tree(ROOT)
        changed = sorted(
            name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
        )
        assert changed == [], "run `make messages`, translate, and commit: these changed"
