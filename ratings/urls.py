from django.urls import path

from ratings import views

urlpatterns = [
    path("", views.board, name="ratings"),
    path("<slug:family>/", views.board, name="ratings_family"),
]
