from django.apps import AppConfig


class DevyatkaConfig(AppConfig):
    """Installed for its static/ and templates/; games.registry loads entry.ENGINE."""

    name = "games.devyatka"
    verbose_name = "Devyatka"
