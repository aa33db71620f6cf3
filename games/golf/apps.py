from django.apps import AppConfig


class GolfConfig(AppConfig):
    """Installed for its static/ and templates/; games.registry loads entry.ENGINE."""

    name = "games.golf"
    verbose_name = "Golf"
