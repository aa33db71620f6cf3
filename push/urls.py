from django.urls import path

from push import pwa, views

urlpatterns = [
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    # At the site's root, so that its scope is every page (a worker's scope is
    # at most the folder its script is served from).
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/<str:language>/", pwa.offline, name="offline"),
    path("push/subscribe/", views.subscribe, name="push_subscribe"),
    path("push/unsubscribe/", views.unsubscribe, name="push_unsubscribe"),
    path("push/devices/<int:subscription_id>/off/", views.device_off, name="push_device_off"),
]
