from django.urls import path

from ratings import views

urlpatterns = [
    path("", views.board, name="ratings"),
    path("tables/<int:table_id>/", views.table_seats, name="ratings_table_seats"),
    path("<slug:family>/", views.board, name="ratings_family"),
]
