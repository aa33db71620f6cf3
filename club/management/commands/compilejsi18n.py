"""Write the static JavaScript catalogs, one per language (part of `make messages`)."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand

from club.i18n_catalog import output_path, render_catalog


class Command(BaseCommand):
    help = "Write static/jsi18n/<language>/djangojs.js from the compiled djangojs catalogs."

    def handle(self, *args, **options) -> None:
        for code, _name in settings.LANGUAGES:
            path = output_path(code)
            path.parent.mkdir(parents=True, exist_ok=True)
            content = render_catalog(code)
            if not path.exists() or path.read_text(encoding="utf-8") != content:
                path.write_text(content, encoding="utf-8")
                self.stdout.write(f"wrote {path.relative_to(settings.BASE_DIR)}")
