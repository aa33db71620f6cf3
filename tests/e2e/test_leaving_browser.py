"""A member closes their account in Chromium: profile, wrong password, right password,
signed out, and the old name shows nowhere on their former profile page."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_member_closes_their_account_with_their_password_and_is_signed_out(new_page):
    page = new_page()
    name = f"Leaving{uuid.uuid4().hex[:6]}"
    email = f"{name.lower()}@example.com"
    password = "a-long-club-password"
    page.goto("/accounts/signup/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Display name").fill(name)
    page.get_by_label("Password:", exact=True).fill(password)
    page.get_by_label("Password (again):").fill(password)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_test_id("nav-me")).to_have_text(name)

    page.get_by_test_id("nav-me").click()
    profile = page.url
    page.get_by_test_id("close-link").click()
    expect(page.get_by_role("heading", name="Close your account", level=1)).to_be_visible()
    page.get_by_label("Your password").fill("not my password")
    page.get_by_test_id("close-submit").click()
    expect(page.get_by_text("That is not your password: nothing was changed.")).to_be_visible()
    expect(page.get_by_test_id("nav-me")).to_have_text(name)

    page.get_by_label("Your password").fill(password)
    page.get_by_test_id("close-submit").click()
    expect(page.get_by_text("Your account is closed")).to_be_visible()
    expect(page.get_by_test_id("sign-in")).to_be_visible()
    page.goto(profile)
    expect(page.get_by_test_id("profile-name")).to_contain_text("Former member")
    expect(page.locator("body")).not_to_contain_text(name)

    page.get_by_test_id("sign-in").click()
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password:", exact=True).fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_test_id("sign-in")).to_be_visible()
