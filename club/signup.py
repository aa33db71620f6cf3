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
from allauth.account.forms import SignupForm
from allauth.account.internal.userkit import filter_users_by_email
from django.shortcuts import redirect


class ClubSignupForm(SignupForm):
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
