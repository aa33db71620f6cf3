from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Club nights")
    default_auto_field = "django.db.models.BigAutoField"
