from django.urls import path

from events import views

urlpatterns = [
    path("", views.event_list, name="event_list"),
    path("<slug:slug>/", views.event_detail, name="event_detail"),
    path("<slug:slug>/live/", views.event_standings, name="event_live"),
    path("<slug:slug>/sign-up/", views.sign_up, name="event_sign_up"),
    path("<slug:slug>/withdraw/", views.withdraw, name="event_withdraw"),
    path("<slug:slug>/calendar.ics", views.event_ics, name="event_ics"),
]
