from django.urls import path

from notifications import views

urlpatterns = [
    path("", views.notification_list, name="notifications"),
    path("<int:notification_id>/read/", views.mark_read, name="notification_read"),
    path("<int:notification_id>/open/", views.open_notification, name="notification_open"),
    path("unread.json", views.unread, name="notifications_unread"),
    path("read-all/", views.mark_all_read, name="notifications_read_all"),
    path("settings/", views.preferences, name="notifications_preferences"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="notifications_unsubscribe"),
    path("tables/<int:table_id>/invite/", views.invite, name="table_invite"),
]
