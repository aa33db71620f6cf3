"""A member's own account pages: closing it (club.leaving) and taking their data (club.export)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from club import export, leaving
from games.services import ServiceError

CLOSE_SALT = "club.leaving.close"
# A mailed closing link works this long (a member with no password: club.leaving).
CLOSE_LINK_SECONDS = 24 * 3600


class CloseForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user, *args, **kwargs) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("That is not your password: nothing was changed."), code="wrong_password"
            )
        return password


def _close_and_leave(request: HttpRequest, player) -> HttpResponse | None:
    """Close the account; on success sign the browser out and say so. None: refused (the
    message is already on the page)."""
    try:
        leaving.close_account(player)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return None
    logout(request)
    messages.success(
        request,
        _("Your account is closed and your personal data deleted. Thank you for playing with us."),
    )
    return redirect("home")


@login_required
def close_account(request: HttpRequest) -> HttpResponse:
    """Close your account: with your password, or (no password: an account made by an
    admin) by a link mailed to your address."""
    user = request.user
    player = user.player
    refused = leaving.refusal(player)
    has_password = user.has_usable_password()
    form = CloseForm(user, request.POST or None) if has_password else None
    if request.method == "POST" and refused is None:
        if form is not None:
            if form.is_valid():
                done = _close_and_leave(request, player)
                if done is not None:
                    return done
        elif user.email:
            _mail_close_link(request, player)
            messages.success(
                request,
                _(
                    "We sent a link to your e-mail address: open it within a day to close your account."
                ),
            )
            return redirect("account_close")
    return render(
        request,
        "club/close_account.html",
        {
            "form": form,
            "refusal": refused.message if refused is not None else "",
            "has_password": has_password,
            "has_address": bool(user.email),
            "reuse_days": settings.ACCOUNT_REUSE_DAYS,
        },
    )


def _mail_close_link(request: HttpRequest, player) -> None:
    from allauth.account.adapter import get_adapter

    token = signing.dumps({"p": player.pk}, salt=CLOSE_SALT)
    url = request.build_absolute_uri(reverse("account_close_confirm", args=[token]))
    get_adapter().send_mail(
        "club/email/close_account", player.user.email, {"url": url, "player": player}
    )


@login_required
def close_account_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The mailed link: the signed-in member it was sent to confirms closing."""
    try:
        data = signing.loads(token, salt=CLOSE_SALT, max_age=CLOSE_LINK_SECONDS)
    except signing.SignatureExpired:
        messages.error(request, _("That link has expired: ask for a new one."))
        return redirect("account_close")
    except signing.BadSignature:
        raise Http404 from None
    player = request.user.player
    if data.get("p") != player.pk:
        raise Http404
    refused = leaving.refusal(player)
    if request.method == "POST" and refused is None:
        done = _close_and_leave(request, player)
        if done is not None:
            return done
    return render(
        request,
        "club/close_account_confirm.html",
        {"refusal": refused.message if refused is not None else ""},
    )


@login_required
def data_export(request: HttpRequest) -> HttpResponse:
    """Your data: ask for a copy (made by the task worker), see when it is ready, download it."""
    player = request.user.player
    if request.method == "POST":
        try:
            export.request_export(player)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _("Your data is being prepared: you will be told when it is ready to download."),
            )
        return redirect("account_data")
    return render(
        request,
        "club/data_export.html",
        {"export": export.latest(player), "days": settings.EXPORT_DAYS},
    )


@login_required
def data_download(request: HttpRequest, token: str) -> HttpResponse:
    """The zip, to the member it was made for only (anyone else: 404); expired: 410."""
    try:
        ready = export.downloadable(request.user.player, token)
    except ServiceError as exc:
        if exc.code == "not_found":
            raise Http404 from None
        status = 410 if exc.code == "expired" else 409
        return render(
            request, "club/data_export_gone.html", {"message": exc.message}, status=status
        )
    response = FileResponse(
        open(export.export_path(ready), "rb"),  # noqa: SIM115 - FileResponse closes it
        as_attachment=True,
        filename=f"card-club-data-{ready.created:%Y%m%d}.zip",
        content_type="application/zip",
    )
    response["Cache-Control"] = "private, no-store"
    return response
