"""Websocket routes. Live tables add their consumers here."""

websocket_urlpatterns: list = []
