from django.urls import path

from duplicate import views

urlpatterns = [
    path("", views.series_list, name="duplicate_list"),
    path("<slug:slug>/", views.series_detail, name="duplicate_series"),
    path("<slug:slug>/standings.csv", views.series_csv, name="duplicate_csv"),
    path("<slug:slug>/rounds/<int:number>/", views.round_detail, name="duplicate_round"),
    path(
        "<slug:slug>/rounds/<int:number>/boards/<int:board>/",
        views.board_detail,
        name="duplicate_board",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/boards/<int:board>/play/",
        views.play,
        name="duplicate_play",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/boards/<int:board>/together/",
        views.play_together,
        name="duplicate_together",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/waiting/<int:gathering>/",
        views.waiting_table,
        name="duplicate_waiting",
    ),
]
