from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Club"

    def ready(self) -> None:
        from club import i18n, signals  # noqa: F401 - connects the profile and login signals
