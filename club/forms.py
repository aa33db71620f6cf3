"""Sign-up asks for a display name as well as email and password."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from club.models import FreedIdentity, Player, name_not_yet_free, reuse_date, validate_display_name
from club.names import normalize_display_name


class DisplayNameField(forms.CharField):
    """A typed name in its one stored spelling (NFKC), before the validators see it."""

    def to_python(self, value):
        return normalize_display_name(super().to_python(value))


class SignupForm(forms.Form):
    """Extra fields for allauth's sign-up form (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = DisplayNameField(
        max_length=30,
        label=_("Display name"),
        validators=[validate_display_name],
        help_text=_("How other members see you at the tables."),
        widget=forms.TextInput(
            attrs={"autocomplete": "nickname", "placeholder": _("Display name")}
        ),
    )

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"].strip()
        day = reuse_date(FreedIdentity.NAME, name)
        if day is not None:
            raise ValidationError(name_not_yet_free(day))
        if Player.objects.display_name_taken(name):
            raise ValidationError(_("That display name is taken. Please choose another."))
        return name

    def signup(self, request, user) -> None:
        """allauth calls this after saving the user; the adapter already named the player."""
