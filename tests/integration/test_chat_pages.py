"""Chat on the pages: a finished game's conversation, the lobby's panel, the rules' shortcut."""

from __future__ import annotations

import pytest
from django.test import Client

from chat import services as chat
from chat.models import ChatMessage
from games.models import Variant
from tests.support.finished import finished_game, play_out
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]


def client_for(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def chatty_game(private: bool = False):
    """A game during which Anna and Boris talk; one message is hidden, one is from before."""
    players = [member(n) for n in ("Anna", "Boris")]
    from games import services

    table, _ = services.create_table(
        players[0], Variant.objects.get(name="Devyatka"), 2, private=private
    )
    room = f"table-{table.pk}"
    chat.send(room, players[0].pk, "before the deal")  # no game yet: not on the game's page
    services.join_table(players[1], table.pk, str(table.invite_token))
    chat.send(room, players[0].pk, "good luck <script>alert(1)</script>")
    rude = chat.send(room, players[1].pk, "something rude")
    chat.hide(ChatMessage.objects.filter(pk=rude["id"]))
    chat.send(room, players[1].pk, phrase="wp")
    table.refresh_from_db()
    play_out(table, seed=3)
    game = services.current_game(table)
    return game, players


def test_a_finished_games_page_shows_its_chat_without_hidden_messages():
    game, (anna, boris) = chatty_game()
    page = Client().get(f"/games/{game.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "good luck &lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>alert(1)" not in html
    assert "Well played" in html
    assert "something rude" not in html
    assert "before the deal" not in html


def test_a_private_games_chat_is_a_404_for_outsiders_and_shown_to_its_players():
    game, (anna, boris) = chatty_game(private=True)
    outsider = member("Olga")
    assert client_for(outsider).get(f"/games/{game.pk}/").status_code == 404
    assert Client().get(f"/games/{game.pk}/").status_code == 404
    page = client_for(boris).get(f"/games/{game.pk}/")
    assert "good luck" in page.content.decode()


def test_a_muted_members_words_are_left_out_of_the_game_page_for_the_muter():
    game, (anna, boris) = chatty_game()
    chat.mute(boris.pk, anna.pk, True)
    assert "good luck" not in client_for(boris).get(f"/games/{game.pk}/").content.decode()
    assert "good luck" in client_for(anna).get(f"/games/{game.pk}/").content.decode()


def test_the_lobby_shows_the_chat_panel_to_members_and_a_sign_in_link_to_visitors():
    anna = member("Anna")
    html = client_for(anna).get("/tables/").content.decode()
    assert 'data-testid="chat-panel"' in html and 'data-testid="chat-input"' in html
    html = Client().get("/tables/").content.decode()
    assert 'data-testid="chat-panel"' in html and 'data-testid="chat-input"' not in html


def test_the_rules_page_documents_the_chat_shortcut_and_limits():
    html = Client().get("/rules/").content.decode()
    assert 'id="chat"' in html and "<kbd>/</kbd>" in html
    assert "300 characters" in html and "10 a minute" in html


def test_finished_game_fixture_still_has_no_chat():
    game, _ = finished_game(Variant.objects.get(name="Devyatka"), ["Cleo", "Dora"], seed=1)
    assert "Nobody wrote during this game." in Client().get(f"/games/{game.pk}/").content.decode()
