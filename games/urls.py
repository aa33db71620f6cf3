from django.urls import path

from games import views

urlpatterns = [
    path("tables/", views.lobby, name="lobby"),
    path("tables/list/", views.lobby_list, name="lobby_list"),
    path("tables/quick/", views.quick_game, name="quick_game"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/join/", views.join, name="table_join"),
    path("tables/<int:table_id>/leave/", views.leave, name="table_leave"),
    path("tables/<int:table_id>/start/", views.start, name="table_start"),
    path("tables/<int:table_id>/again/", views.again, name="table_again"),
    path("tables/<int:table_id>/bots/add/", views.add_bot, name="table_add_bot"),
    path("tables/<int:table_id>/bots/remove/", views.remove_bot, name="table_remove_bot"),
    path("away/", views.away_days, name="away_days"),
    path("away/<int:absence_id>/withdraw/", views.away_withdraw, name="away_withdraw"),
    path("games/<int:game_id>/", views.game_detail, name="game_detail"),
    path("games/<int:game_id>/replay.json", views.game_replay, name="game_replay"),
    path("games/<int:game_id>/record.json", views.game_record, name="game_record"),
]
