from django.urls import path

from games import consumers, lobby_socket

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/lobby/", lobby_socket.LobbyConsumer.as_asgi()),
]
