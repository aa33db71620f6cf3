from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and tables"

    def ready(self) -> None:
        import games.checks  # noqa: F401  (registers the registry entries' system check)
        from games import away, hooks

        # Away days that ended: the member's turn-based tables are told (games.away).
        hooks.register_duty(away.tell_returns)
