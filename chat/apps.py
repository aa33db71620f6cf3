from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"
    verbose_name = _("Chat")

    def ready(self) -> None:
        from chat.consumers import SOCKET_EXTRA
        from games import hooks

        # The table's and the lobby's sockets carry chat frames (chat/consumers.py).
        hooks.register_socket_extra(SOCKET_EXTRA)
