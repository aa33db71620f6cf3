"""allauth's sign-up form, without "A user is already registered with this email address".

allauth hides a registered email at sign-up only under mandatory email
verification; with the club's default ("optional") it names the address as
taken. Here a registered email gets no form error: its owner gets allauth's
"someone tried to sign up with your address" mail, and the visitor the
"check your email" page. (A new address still signs in at once, which an
attacker notices; ACCOUNT_EMAIL_VERIFICATION=mandatory makes both answers
the same page: docs/OPERATIONS.md.) Separate from club.forms: allauth builds
its form on top of that module.
"""

from __future__ import annotations

from allauth.account import app_settings
from allauth.account.adapter import get_adapter
from allauth.account.forms import AddEmailForm, SignupForm
from allauth.account.internal.userkit import filter_users_by_email
from django import forms
from django.shortcuts import redirect

from club.models import FreedIdentity, address_not_yet_free, reuse_date


def refuse_freed_address(value: str) -> None:
    """A departed member's address is not taken again before ACCOUNT_REUSE_DAYS."""
    day = reuse_date(FreedIdentity.EMAIL, (value or "").lower())
    if day is not None:
        raise forms.ValidationError(address_not_yet_free(day), code="address_not_free")


class ClubAddEmailForm(AddEmailForm):
    """allauth's "add an e-mail address", refusing a departed member's address for now."""

    def clean_email(self) -> str:
        refuse_freed_address(self.cleaned_data.get("email", ""))
        return super().clean_email()


class ClubSignupForm(SignupForm):
    def clean_email(self) -> str:
        refuse_freed_address(self.cleaned_data.get("email", ""))
        return super().clean_email()

    def validate_unique_email(self, value: str) -> str:
        if filter_users_by_email(value):
            self.account_already_exists = True
            return get_adapter().validate_unique_email(value)
        return super().validate_unique_email(value)

    def try_save(self, request):
        mandatory = (
            app_settings.EMAIL_VERIFICATION == app_settings.EmailVerificationMethod.MANDATORY
        )
        if self.account_already_exists and not mandatory:
            get_adapter().send_account_already_exists_mail(self.cleaned_data["email"])
            return None, redirect("account_email_verification_sent")
        return super().try_save(request)
