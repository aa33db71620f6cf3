"""Admin pages asked with ids no row can have answer as for a missing object, never 500
(issue 36): SQLite refuses an integer past 64 bits, and the page's query failed on it."""

from __future__ import annotations

import pytest

from tests.support.members import member

pytestmark = pytest.mark.django_db

HUGE = "9223372036854775808"  # 2**63: one past the widest id column


@pytest.mark.parametrize(
    "url",
    [
        f"/admin/chat/chatban/add/?player={HUGE}",
        f"/admin/chat/chatban/add/?player=-{HUGE}1",
        f"/admin/chat/chatban/add/?player={'9' * 5000}",
        f"/admin/chat/chatban/?player={HUGE}",
        f"/admin/chat/chatban/?player__id__in=1,{HUGE}",
        f"/admin/chat/chatmessage/?author={HUGE}",
    ],
)
def test_an_id_no_row_can_have_answers_404(admin_client, url):
    response = admin_client.get(url)
    assert response.status_code == 404


def test_the_ban_form_takes_a_member_from_its_link_and_ignores_an_id_of_nobody(admin_client):
    anna = member("Anna")
    page = admin_client.get(f"/admin/chat/chatban/add/?player={anna.pk}")
    assert page.status_code == 200
    assert f'<option value="{anna.pk}" selected>Anna</option>' in page.content.decode()
    for nobody in ("abc", str(anna.pk + 1000), "1e3", ""):
        page = admin_client.get(f"/admin/chat/chatban/add/?player={nobody}")
        assert page.status_code == 200, nobody
        assert " selected>" not in page.content.decode()
