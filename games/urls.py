from django.urls import path

from games import views

urlpatterns = [
    path("tables/", views.lobby, name="lobby"),
]
