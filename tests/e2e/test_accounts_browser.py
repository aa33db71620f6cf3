"""A new visitor signs up through the real form in Chromium, logs out and back in."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_visitor_signs_up_logs_out_and_logs_back_in(new_page):
    page = new_page()
    name = f"Nadia{uuid.uuid4().hex[:6]}"
    email = f"{name.lower()}@example.com"
    password = "a-long-club-password"

    page.goto("/")
    page.get_by_role("link", name="Join the club").first.click()
    page.get_by_label("Email").fill(email)
    page.get_by_label("Display name").fill(name)
    page.get_by_label("Password:", exact=True).fill(password)
    page.get_by_label("Password (again):").fill(password)
    page.get_by_role("button", name="Sign up").click()

    expect(page.get_by_test_id("nav-me")).to_have_text(name)
    page.get_by_test_id("sign-out").click()
    expect(page.get_by_test_id("sign-in")).to_be_visible()

    page.get_by_test_id("sign-in").click()
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password:", exact=True).fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_test_id("nav-me")).to_have_text(name)


def test_signup_form_errors_in_browser(new_page):
    page = new_page(width=390, height=844)  # a phone
    page.goto("/accounts/signup/")
    page.get_by_label("Email").fill(f"x{uuid.uuid4().hex[:6]}@example.com")
    page.get_by_label("Display name").fill("Valid Name " + uuid.uuid4().hex[:4])
    page.get_by_label("Password:", exact=True).fill("a-long-club-password")
    page.get_by_label("Password (again):").fill("another-long-password")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("You must type the same password each time.")).to_be_visible()
    expect(page.get_by_test_id("sign-in")).to_be_attached()
