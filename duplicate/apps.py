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
        # ...and tells the series' members when a round opens or is about to close.
        from duplicate.reminders import round_reminders_duty

        hooks.register_duty(round_reminders_duty)

    def demo_data(self, people: list, site_demo) -> int:
        """The demo club's duplicate series, for `manage.py demo_data`: boards played now.

        `site_demo` is the site's demo module (club.demo), whose `play` it uses."""
        from duplicate import demo

        return demo.build(people, site_demo)
