from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DuplicateConfig(AppConfig):
    name = "duplicate"
    verbose_name = _("Duplicate series")

    def ready(self) -> None:
        from duplicate.rules import DuplicateTableRules
        from duplicate.services import round_closing_duty
        from games import hooks

        # Boards' tables stay sealed, and travellers open the others' games (games.hooks).
        hooks.register(DuplicateTableRules())
        # The house runner closes rounds at their end time.
        hooks.register_duty(round_closing_duty)
