from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def _away_stops_clock(table_id: int) -> bool:
    """games.hooks away rule: a night that does not allow away days keeps its tables' clocks
    running for members who declared some (the house plays their timed-out turns)."""
    from events.models import RoundTable

    return not RoundTable.objects.filter(
        table_id=table_id, round__event__away_allowed=False
    ).exists()


def _a_finished_game(event) -> bool:
    """The events `running.on_event` acts on (games.hooks `accepts`): not every move's turn."""
    return event.kind == "game_finished" and event.table_id is not None


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Club nights")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from events import running, upcoming
        from games import hooks

        # Told of every finished game (a night's table may be done), and of members'
        # pages opening (a live night seats those present); a duty runs the nights on time.
        hooks.listen(running.on_event, accepts=_a_finished_game)
        hooks.listen_sockets(upcoming.on_lobby_socket)
        hooks.register_duty(running.nights_duty)
        hooks.register_away_rule(_away_stops_clock)

    def demo_data(self, people: list, site_demo) -> int:
        """The demo club's nights (`manage.py demo_data`): one finished, one open for sign-up."""
        from events import demo

        return demo.build(people, site_demo)
