import threading

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PushConfig(AppConfig):
    """The club on a phone: web app manifest, service worker, offline page (push/pwa.py)."""

    name = "push"
    verbose_name = _("Push notifications")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from push import checks  # noqa: F401 - registers the deploy check on PUSH_TEST_ORIGIN

    def worker_duty(self, stop: threading.Event) -> None:
        """Run by the task worker (`manage.py worker`) in a thread of its own: pushes."""
        from django.conf import settings

        from push import sender

        if settings.NOTIFY_ENABLED:
            sender.run(stop)
