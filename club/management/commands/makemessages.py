"""Django's makemessages, stable when run twice (`make messages`), and
reading the game engines' rule messages too.

msgmerge stamps every catalog with a new POT-Creation-Date on every run, so
an unchanged tree would still show eight changed files. This keeps a
catalog's old date when that header line is all that changed.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.core.management.commands import makemessages

_POT_DATE = re.compile(r'^"POT-Creation-Date: [^"]*\\n"$', re.MULTILINE)


class Command(makemessages.Command):
    # The game engines cannot import Django: their rule messages are marked
    # with N_() or written straight into IllegalMove(...) (games/engine/messages.py).
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=N_",
        "--keyword=IllegalMove",
    ]

    def write_po_file(self, potfile: str, locale: str) -> None:
        pofile = Path(potfile).parent / locale / "LC_MESSAGES" / f"{self.domain}.po"
        before = pofile.read_text(encoding="utf-8") if pofile.exists() else None
        super().write_po_file(potfile, locale)
        if before is None:
            return
        after = pofile.read_text(encoding="utf-8")
        old_date = _POT_DATE.search(before)
        if old_date and _POT_DATE.sub("", after) == _POT_DATE.sub("", before):
            pofile.write_text(before, encoding="utf-8")
