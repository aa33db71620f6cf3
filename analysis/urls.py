from django.urls import path

from analysis import views

urlpatterns = [
    path("games/<int:game_id>/analysis/", views.ask, name="analysis_ask"),
    path("games/<int:game_id>/analysis.json", views.status, name="analysis_status"),
    path("games/<int:game_id>/analysis/panel/", views.panel, name="analysis_panel"),
]
