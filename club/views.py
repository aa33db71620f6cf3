"""Club pages: home, rules, player profiles, error pages."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template import loader

from club.models import Player


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "club/home.html", {"open_tables": [], "active_series": []})


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "club/rules.html")


def series_list(request: HttpRequest) -> HttpResponse:
    return render(request, "club/series_list.html", {"active_series": [], "past_series": []})


def player(request: HttpRequest, name: str) -> HttpResponse:
    profile = get_object_or_404(Player.objects.select_related("user"), display_name__iexact=name)
    return render(request, "club/player.html", {"profile": profile})


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    # No context processors: the failure may be in one of them.
    return HttpResponse(loader.get_template("500.html").render(), status=500)
