"""The security review's findings (issue 22, part B), each reproduced as it was found.

Admin actions and their permissions, allauth's limits per client address,
private tables that answer every action like missing ones, huge table ids,
account enumeration, the strict Content-Security-Policy and the invite
token's one spelling. Names: tests/integration/test_names.py; sockets that
lose access and websocket origins: tests/integration/test_ws_access.py.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core import mail
from django.test import Client
from django.urls import reverse

from club.models import Player
from games import services
from games.models import Table, Variant
from ratings.models import Rating
from tests.integration.test_accounts import PASSWORD, signup
from tests.integration.test_series import make_players
from tests.support.outbox import send_outbox

pytestmark = pytest.mark.django_db

HUGE_IDS = [2**63, 2**63 + 1, 2**64, 10**30]
TABLE_POSTS = ["join", "leave", "start", "again", "bots/add", "bots/remove"]


def client_for(player: Player | None) -> Client:
    client = Client()
    if player is not None:
        client.force_login(player.user)
    return client


def staff(*codenames: str, superuser: bool = False) -> Client:
    User = get_user_model()
    user = User.objects.create_user(
        f"staff{User.objects.count()}", "staff@example.com", "pw-staff-123", is_staff=True
    )
    user.is_superuser = superuser
    user.save()
    user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    client = Client()
    client.force_login(user)
    return client


# -- 1. Admin actions declare their permissions ------------------------------


def open_table() -> Table:
    anna, boris = make_players("Anna", "Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 3)
    return table


def abort(client: Client, table: Table):
    return client.post(
        "/admin/games/table/",
        {"action": "abort", "_selected_action": [table.pk], "apply": "1", "reason": "closing"},
    )


def test_view_only_staff_cannot_abort_tables():
    table = open_table()
    viewer = staff("view_table")
    assert viewer.get("/admin/games/table/").status_code == 200
    response = abort(viewer, table)
    assert response.status_code in (200, 302)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert 'value="abort"' not in viewer.get("/admin/games/table/").content.decode()


def test_staff_who_may_change_tables_can_abort_them():
    table = open_table()
    assert abort(staff("view_table", "change_table"), table).status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED


def view_only_staff_request():
    """A request by a staff user who may view every model in admin, and change none."""
    from django.test import RequestFactory

    viewer = get_user_model().objects.create_user(
        "viewer", "viewer@example.com", "pw-viewer-123", is_staff=True
    )
    viewer.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    request = RequestFactory().get("/admin/")
    request.user = get_user_model().objects.get(pk=viewer.pk)  # fresh permission cache
    return request


def test_every_admin_action_declares_its_permission():
    from django.contrib import admin

    request = view_only_staff_request()
    for model, model_admin in admin.site._registry.items():
        for name in model_admin.actions or []:
            func = getattr(model_admin, name) if isinstance(name, str) else name
            assert getattr(func, "allowed_permissions", None), (model.__name__, name)
        # So a view-only staff user is offered (and may post) no action at all.
        assert list(model_admin.get_actions(request)) == [], model.__name__


def test_view_only_staff_cannot_close_a_duplicate_round():
    from duplicate.models import Round
    from tests.support.duplicate import make_series, open_round

    round_ = open_round(make_series("Keft", seats=3), boards=1)
    viewer = staff("view_round", "view_duplicateseries")
    assert viewer.get("/admin/duplicate/round/").status_code == 200
    viewer.post("/admin/duplicate/round/", {"action": "close_now", "_selected_action": [round_.pk]})
    assert Round.objects.get(pk=round_.pk).closed is None
    closer = staff("view_round", "change_round")
    closer.post("/admin/duplicate/round/", {"action": "close_now", "_selected_action": [round_.pk]})
    assert Round.objects.get(pk=round_.pk).closed is not None


def test_view_only_staff_cannot_mark_email_addresses_verified():
    from allauth.account.models import EmailAddress

    (anna,) = make_players("Anna")
    address = EmailAddress.objects.create(user=anna.user, email="anna@example.com")
    for codenames, verified in [(("view_emailaddress",), False), (("change_emailaddress",), True)]:
        staff(*codenames).post(
            "/admin/account/emailaddress/",
            {"action": "make_verified", "_selected_action": [address.pk]},
        )
        assert EmailAddress.objects.get(pk=address.pk).verified is verified


def rebuild(client: Client):
    Rating.objects.get_or_create(player=Player.objects.members().first(), family="devyatka")
    before = set(Rating.objects.values_list("pk", flat=True))
    rating = Rating.objects.first()
    client.post(
        "/admin/ratings/rating/", {"action": "rebuild_all", "_selected_action": [rating.pk]}
    )
    return before, set(Rating.objects.values_list("pk", flat=True))


@pytest.mark.parametrize(
    "codenames", [("view_rating",), ("view_rating", "change_rating", "delete_rating")]
)
def test_only_superusers_rebuild_ratings(codenames):
    make_players("Anna")
    before, after = rebuild(staff(*codenames))
    assert before == after  # nothing deleted or recreated
    before, after = rebuild(staff(superuser=True))
    assert before != after  # the rebuild replaced the rows


# -- 2. allauth's limits: per address, no owner lock-out ---------------------


def login(client: Client, password: str, address: str):
    return client.post(
        reverse("account_login"),
        {"login": "anna@example.com", "password": password},
        REMOTE_ADDR=address,
    )


def test_wrong_passwords_from_one_address_do_not_lock_the_owner_out():
    signup(Client())
    attacker, owner = Client(), Client()
    # Ten wrong passwords, five from each of two addresses (each within its limit).
    for address in ("203.0.113.7", "203.0.113.17") * 5:
        answer = login(attacker, "wrong-password-x", address)
        assert answer.status_code == 200 and "Too many failed" not in answer.content.decode()
    # allauth's default (5 failures per account in 5 minutes) refused the owner here.
    assert login(owner, PASSWORD, "198.51.100.2").status_code == 302


def test_failed_logins_are_limited_per_address():
    signup(Client())
    attacker = Client()
    answers = [login(attacker, "wrong-password-x", "203.0.113.8") for _ in range(6)]
    texts = [a.content.decode() for a in answers]
    assert not any("Too many failed" in t for t in texts[:5])
    assert "Too many failed" in texts[5]
    assert login(Client(), PASSWORD, "198.51.100.3").status_code == 302


# -- 3. and 4. Private and impossible tables answer like missing ones --------


def post_action(client: Client, table_id: int, action: str, **data):
    return client.post(f"/tables/{table_id}/{action}/", data, follow=True)


def answer(response) -> tuple:
    """What a member sees after a table post: the pages it went through and the messages."""
    return (
        [
            (url.split("/tables/")[-1].split("/", 1)[-1], code)
            for url, code in response.redirect_chain
        ],
        response.status_code,
        [str(m) for m in response.context["messages"]] if response.context else [],
    )


@pytest.mark.parametrize("action", TABLE_POSTS)
@pytest.mark.parametrize("status", ["open", "playing"])
def test_private_table_answers_every_post_like_a_missing_table(action, status):
    anna, boris, vera = make_players("Anna", "Boris", "Vera")
    table, _ = services.create_table(anna, Variant.objects.get(name="Keft"), 2, private=True)
    if status == "playing":
        services.join_table(boris, table.pk, str(table.invite_token))
    missing = Table.objects.order_by("-pk").first().pk + 1000
    data = {"level": "random", "position": "1"}
    private = answer(post_action(client_for(vera), table.pk, action, **data))
    absent = answer(post_action(client_for(vera), missing, action, **data))
    assert private == absent
    assert "There is no such table." in private[2]
    assert Table.objects.get(pk=table.pk).seats.count() == (1 if status == "open" else 2)


@pytest.mark.parametrize("table_id", HUGE_IDS)
def test_table_ids_beyond_64_bits_are_missing_tables(table_id):
    (vera,) = make_players("Vera")
    client = client_for(vera)
    assert client.get(f"/tables/{table_id}/").status_code == 404
    for action in TABLE_POSTS:
        response = post_action(client, table_id, action, level="random", position="1")
        # Redirected to the table page (404), or to the lobby after "leave".
        assert response.status_code == (200 if action == "leave" else 404), action
        assert "There is no such table." in [str(m) for m in response.context["messages"]]
    with pytest.raises(services.ServiceError) as error:
        services.table_for_viewer(table_id, vera.pk)
    assert error.value.code == "not_found"


# -- 6. No account enumeration -----------------------------------------------


def test_signup_with_a_registered_email_reveals_nothing():
    signup(Client())
    send_outbox()  # the confirmation mail
    mail.outbox.clear()
    response = signup(Client(), name="Someone")
    text = response.content.decode() if response.status_code == 200 else ""
    assert "already" not in text.lower()
    assert response.status_code == 302
    assert get_user_model().objects.count() == 1
    assert not Player.objects.filter(display_name="Someone").exists()
    # The owner is told by mail instead, the visitor to check their email.
    send_outbox()
    assert [m.to for m in mail.outbox] == [["anna@example.com"]]
    page = Client().get(response["Location"])
    assert page.status_code == 200 and "already" not in page.content.decode().lower()


def test_password_reset_for_an_unknown_email_reveals_nothing():
    signup(Client())
    answers = []
    for email in ("anna@example.com", "nobody@example.com"):
        response = Client().post(reverse("account_reset_password"), {"email": email})
        answers.append((response.status_code, response.get("Location")))
    assert answers[0] == answers[1]
    assert answers[0][0] == 302


# -- 9. Content-Security-Policy -----------------------------------------------


def test_every_page_has_a_strict_content_security_policy():
    (anna,) = make_players("Anna")
    for url in ("/", "/tables/", "/accounts/login/", "/rules/", "/no-such-page/"):
        policy = client_for(anna).get(url)["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["script-src"] == "'self'"
        assert directives["default-src"] == "'self'"
        assert "unsafe" not in policy
        assert directives["frame-ancestors"] == "'none'"


# -- 10. One spelling of the invite token -------------------------------------


def odd_spellings(token: str) -> list[str]:
    return [token.upper(), token.replace("-", ""), "{" + token + "}", "urn:uuid:" + token]


def test_only_the_invite_links_spelling_opens_a_private_table():
    anna, boris, vera = make_players("Anna", "Boris", "Vera")
    table, _ = services.create_table(anna, Variant.objects.get(name="Keft"), 3, private=True)
    token = str(table.invite_token)
    url = reverse("table", args=[table.pk])
    for odd in odd_spellings(token):
        assert client_for(vera).get(url, {"invite": odd}).status_code == 404, odd
        response = post_action(client_for(vera), table.pk, "join", invite=odd)
        assert "There is no such table." in [str(m) for m in response.context["messages"]]
        with pytest.raises(services.ServiceError):
            services.table_for_viewer(table.pk, vera.pk, odd)
    page = client_for(vera).get(url, {"invite": token})
    assert page.status_code == 200 and f'value="{token}"' in page.content.decode()
    post_action(client_for(vera), table.pk, "join", invite=token)
    assert table.seats.filter(player=vera).exists()
    assert services.table_for_viewer(table.pk, boris.pk, token)["table"]["id"] == table.pk
