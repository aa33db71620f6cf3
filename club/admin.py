from django.contrib import admin

from club.models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "joined"]
    search_fields = ["display_name", "user__email"]
    readonly_fields = ["joined"]
    list_select_related = ["user"]
