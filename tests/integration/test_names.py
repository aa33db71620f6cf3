"""Display names are validated everywhere, and no stored name can break a page."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from club.models import Player, validate_display_name
from games import services
from games.models import Table, Variant
from tests.integration.test_accounts import signup
from tests.integration.test_series import finish_game, make_players, make_series

pytestmark = pytest.mark.django_db

UNSAFE = [
    "ops/team",
    "<script>alert(1)</script>",
    "Anna\u200f",  # right-to-left mark
    "\u202eAnna",  # right-to-left override
    "Anna \U0001f600",  # emoji
    "An\x00na",
]
SCRIPT = "<script>alert(1)</script>"


@pytest.mark.parametrize("name", [*UNSAFE, "Anna\n", "Anna-", "-Anna", "ab", "x" * 31])
def test_validator_refuses_unsafe_names(name):
    with pytest.raises(ValidationError) as error:
        validate_display_name(name)
    assert "3 to 30" in str(error.value)


@pytest.mark.parametrize("name", ["Anna", "O'Neil", "Jean-Luc", "J. R. R.", "Ærøskøbing 9"])
def test_validator_accepts_ordinary_names(name):
    validate_display_name(name)


@pytest.mark.parametrize("name", UNSAFE)
def test_signup_refuses_unsafe_names_and_creates_nothing(client, settings, name):
    settings.ACCOUNT_RATE_LIMITS = False  # six sign-ups in a row; keep other tests' budget
    response = signup(client, email="new@example.com", name=name)
    assert response.status_code == 200
    assert "3 to 30" in response.content.decode()
    assert not get_user_model().objects.exists() and not Player.objects.members().exists()


def test_createsuperuser_with_a_slash_in_the_email_gets_a_valid_name():
    call_command("createsuperuser", interactive=False, username="ops", email="ops/team@example.com")
    name = get_user_model().objects.get(username="ops").player.display_name
    validate_display_name(name)
    assert name == "opsteam"
    client = Client()
    client.force_login(get_user_model().objects.get(username="ops"))
    for url in ("/", "/tables/", "/series/", "/admin/club/player/"):
        assert client.get(url).status_code == 200, url


def test_users_made_outside_signup_get_valid_unique_names():
    User = get_user_model()
    names = [
        User.objects.create_user(f"u{i}", email, "pw-123456789").player.display_name
        for i, email in enumerate(
            [
                "ops/team@example.com",
                "OPS/TEAM@example.org",
                "<b>@example.com",
                "a@example.com",
                f"{'x' * 23}-yz@example.com",
            ]
        )
    ]
    for name in names:
        validate_display_name(name)
    assert len({n.lower() for n in names}) == len(names)
    assert names[:2] == ["opsteam", "OPSTEAM-2"]


def test_admin_user_add_gets_a_valid_name(admin_client):
    response = admin_client.post(
        "/admin/auth/user/add/",
        {
            "username": "ops+team",
            "usable_password": "true",
            "password1": "pw-correct-horse-1",
            "password2": "pw-correct-horse-1",
        },
    )
    assert response.status_code == 302, response.content.decode()
    name = get_user_model().objects.get(username="ops+team").player.display_name
    validate_display_name(name)


def test_admin_player_form_refuses_unsafe_and_taken_names(admin_client):
    anna, boris = make_players("Anna", "Boris")
    url = f"/admin/club/player/{boris.pk}/change/"
    form = {"user": boris.user_id, "bot_level": "", "display_name": "ops/team"}
    response = admin_client.post(url, form)
    assert response.status_code == 200
    assert "3 to 30" in response.content.decode()
    response = admin_client.post(url, {**form, "display_name": "ANNA"})
    assert response.status_code == 200
    assert "That display name is taken" in response.content.decode()
    boris.refresh_from_db()
    assert boris.display_name == "Boris"


def test_a_legacy_unsafe_name_breaks_no_page(admin_client):
    series = make_series("Keft", min_games=1)
    member, other = make_players("Member", "Other")
    table, _ = services.create_table(member, series.variant, 2, series=series)
    services.join_table(other, table.pk)
    game = finish_game(table)
    waiting, _ = services.create_table(member, Variant.objects.get(name="Devyatka"), 3)
    # Within the column's 30 characters (PostgreSQL enforces them, SQLite does not).
    bad = f"o/{SCRIPT}\u202e\U0001f600"
    assert len(bad) <= 30
    Player.objects.filter(pk=member.pk).update(display_name=bad)  # as an old row might be
    member.refresh_from_db()
    pages = [
        "/",
        "/tables/",
        reverse("table", args=[waiting.pk]),
        reverse("table", args=[table.pk]),
        "/series/",
        reverse("series_detail", args=[series.slug]),
        member.get_absolute_url(),
        other.get_absolute_url(),
        reverse("game_detail", args=[game.pk]),
    ]
    for viewer in (member, other):
        client = Client()
        client.force_login(viewer.user)
        for url in pages:
            response = client.get(url)
            assert response.status_code == 200, (viewer, url)
            assert SCRIPT not in response.content.decode(), (viewer, url)
        assert "&lt;script&gt;" in client.get(member.get_absolute_url()).content.decode()
        csv = client.get(reverse("series_csv", args=[series.slug]))
        assert csv.status_code == 200 and bad in csv.content.decode()
    changelist = admin_client.get("/admin/club/player/")
    assert changelist.status_code == 200 and SCRIPT not in changelist.content.decode()
    assert Table.objects.filter(pk=waiting.pk).exists()


def _migration():
    return importlib.import_module("club.migrations.0006_valid_display_names")


def test_migration_renames_invalid_and_colliding_names_deterministically():
    User = get_user_model()
    raw = ["Anna", "ops/team", "<b>x</b>", "Vera\u202e", "opsteam", "\U0001f600", "Ann\n"]
    players = []
    for i, name in enumerate(raw):
        user = User.objects.create_user(f"u{i}", f"u{i}@example.com", "pw-123456789")
        Player.objects.filter(user=user).update(display_name=name)
        players.append(user.player)
    _migration().rename_invalid_display_names(apps, None)
    names = [Player.objects.get(pk=p.pk).display_name for p in players]
    assert names == ["Anna", "opsteam-2", "bxb", "Vera", "opsteam", "player", "Ann"]
    for name in Player.objects.values_list("display_name", flat=True):
        validate_display_name(name)
    _migration().rename_invalid_display_names(apps, None)  # a second run changes nothing
    assert [Player.objects.get(pk=p.pk).display_name for p in players] == names


# -- Look-alike and invisible names (issue 22, finding 5) --------------------

INVISIBLE = ["\u3164\u3164\u3164", "\uffa0\uffa0\uffa0", "A\u3164\u3164b", "\u115f\u115fx"]


@pytest.mark.parametrize("name", [*INVISIBLE, "123", "9.9", "42 42"])
def test_names_without_a_visible_letter_are_refused(client, settings, name):
    settings.ACCOUNT_RATE_LIMITS = False
    response = signup(client, email="new@example.com", name=name)
    assert response.status_code == 200
    assert "at least one letter" in response.content.decode()
    assert not Player.objects.members().exists()


@pytest.mark.parametrize(
    ("taken", "look_alike"),
    [
        ("Anna", "\u0410nna"),  # Cyrillic capital A
        ("Anna", "ANN\u0391"),  # Greek capital alpha
        ("Boris", "\U0001d401oris"),  # mathematical bold B
        ("Boris", "\uff22oris"),  # full-width B
        ("Olga", "\u041elga"),  # Cyrillic capital O
        # Plain ASCII look-alikes (issue 36): I, l and 1; rn and m; 0 and O.
        ("Elena", "EIena"),
        ("Elena", "E1ena"),
        ("Dmitri", "Drnitri"),
        ("Boris", "B0ris"),
    ],
)
def test_look_alikes_of_a_taken_name_are_refused(client, settings, taken, look_alike):
    settings.ACCOUNT_RATE_LIMITS = False
    make_players(taken)
    response = signup(client, email="new@example.com", name=look_alike)
    assert response.status_code == 200
    assert "That display name is taken" in response.content.decode()
    assert Player.objects.members().count() == 1


def test_a_name_is_stored_in_its_normal_form(client):
    response = signup(client, email="new@example.com", name="\U0001d401oris")
    assert response.status_code == 302
    assert Player.objects.members().get().display_name == "Boris"


@pytest.mark.parametrize(
    ("existing", "honest"),
    [
        ("Anna", "\u0410\u043d\u043d\u0430"),  # Анна, all Cyrillic
        ("Stefan", "\u0218tefan"),  # Ștefan, Romanian
        ("Ionut", "Ionu\u021b"),  # Ionuț
        ("Zoe", "Zo\u00eb"),  # Zoë
        ("Lesha", "\u041b\u0451\u0448\u0430"),  # Лёша
        ("Andrea", "Andr\u00e9a"),
    ],
)
def test_honest_names_in_other_scripts_and_accents_pass(client, settings, existing, honest):
    settings.ACCOUNT_RATE_LIMITS = False
    make_players(existing)
    response = signup(client, email="new@example.com", name=honest)
    assert response.status_code == 302, response.content.decode()
    assert Player.objects.members().filter(display_name=honest).exists()


def test_admin_refuses_a_look_alike_of_another_members_name(admin_client):
    anna, boris = make_players("Anna", "Boris")
    url = f"/admin/club/player/{boris.pk}/change/"
    form = {"user": boris.user_id, "bot_level": "", "display_name": "\u0410nna"}
    response = admin_client.post(url, form)
    assert response.status_code == 200
    assert "That display name is taken" in response.content.decode()
    boris.refresh_from_db()
    assert boris.display_name == "Boris"


@pytest.mark.parametrize(
    "name",
    [
        "The house",
        "House",
        "the h0use",
        "Card Club",
        "Le club",
        "Clubul",
        "\u041a\u043b\u0443\u0431",
    ],
)
def test_the_names_of_the_house_and_the_site_are_reserved_in_every_language(client, settings, name):
    settings.ACCOUNT_RATE_LIMITS = False
    response = signup(client, email="new@example.com", name=name)
    assert response.status_code == 200
    assert "That display name is taken" in response.content.decode()
    assert not Player.objects.members().exists()


def test_names_near_the_reserved_ones_pass(client, settings):
    settings.ACCOUNT_RATE_LIMITS = False
    assert signup(client, email="new@example.com", name="Householder").status_code == 302


def test_the_migration_recomputes_the_keys_of_ascii_look_alikes():
    (elena,) = make_players("EIena")
    Player.objects.filter(pk=elena.pk).update(name_key="eiena")  # as stored before it
    migration = importlib.import_module("club.migrations.0015_name_key_ascii_look_alikes")
    migration.refill(apps, None)
    elena.refresh_from_db()
    assert elena.name_key == "elena"
    assert Player.objects.display_name_taken("Elena")
