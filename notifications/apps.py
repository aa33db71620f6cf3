import threading

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings

        from games import hooks
        from notifications import presence, services

        if not settings.NOTIFY_ENABLED:
            return  # nothing written, nobody listened to (README, NOTIFY_ENABLED)
        # Told of what happened at tables (games.hooks); no game is named here.
        # Quick: a few statements in one transaction, the bell's count sent without
        # waiting (games.broadcast.soon): told on the loop after a move made there.
        hooks.listen(services.on_event, accepts=services.wanted, quick=True)
        # Who has the site open (their lobby sockets): no mail for what they see live.
        hooks.listen_sockets(presence.lobby_socket)
        hooks.register_duty(presence.vouch)

    def worker_duty(self, stop: threading.Event) -> None:
        """Run by the task worker (`manage.py worker`) in a thread: the mail."""
        from notifications import mailer

        mailer.run(stop)

    def demo_data(self, people: list, site_demo) -> int:
        """A few notifications for the demo member (`manage.py demo_data`)."""
        from notifications import demo

        return demo.build(people)
