from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from games import hooks
        from ratings import services, stats

        # Each finished game moves its players' ratings in the transaction that writes
        # its results (games.services.results), and a game withheld until its duplicate
        # round closes, in the one that releases it: no result is ever seen unrated.
        hooks.listen_results(services.record_game)
        # The lobby's tables show each seat's rating in the table's family.
        hooks.listen_tables(stats.attach_seat_ratings)
