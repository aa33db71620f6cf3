"""Browser pages signed in as the synthetic players of `tests.support.tables`.

`started_table` makes members with real sessions; a page gets that member's
session cookie and is then exactly that member's browser, so a test can sit
at a table of any size without clicking through sign-up and the lobby.
"""

from __future__ import annotations

from typing import Any

from tests.support.server import DaphneServer


def sign_in_as(page: Any, server: DaphneServer, session: str) -> Any:
    """Give `page`'s browser context the member's session cookie; returns the page."""
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": server.url}])
    return page


def open_seat(page: Any, server: DaphneServer, session: str, table_id: int) -> Any:
    """Open table `table_id` as the member with `session` and wait for its first state."""
    sign_in_as(page, server, session)
    page.goto(f"/tables/{table_id}/")
    page.wait_for_function(
        "document.getElementById('table-app')?.dataset.version !== ''", timeout=15_000
    )
    return page
