from django.contrib import admin
from django.urls import include, path

from club import account, i18n, views

urlpatterns = [
    path("", views.home, name="home"),
    path("home/tables/", views.home_tables, name="home_tables"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("healthz", views.healthz, name="healthz"),
    path("robots.txt", views.robots_txt, name="robots_txt"),
    path("rules/", views.rules, name="rules"),
    path("series/", views.series_list, name="series_list"),
    path("series/<slug:slug>/", views.series_detail, name="series_detail"),
    path("series/<slug:slug>/standings.csv", views.series_csv, name="series_csv"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("players/<str:name>/", views.player_by_name, name="player_by_name"),
    # The header's language picker (Django's set_language, plus the profile).
    # A member's own account: closing it, taking their data (issue 45).
    path("account/close/", account.close_account, name="account_close"),
    path(
        "account/close/<str:token>/",
        account.close_account_confirm,
        name="account_close_confirm",
    ),
    path("account/data/", account.data_export, name="account_data"),
    path("account/data/<str:token>/", account.data_download, name="account_data_download"),
    path("i18n/setlang/", i18n.set_language, name="set_language"),
    path("ratings/", include("ratings.urls")),
    path("duplicate/", include("duplicate.urls")),
    path("nights/", include("events.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("push.urls")),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("analysis.urls")),
]

handler404 = "club.views.not_found"
handler500 = "club.views.server_error"
