from django.contrib import admin

from analysis.models import GameAnalysis


@admin.register(GameAnalysis)
class GameAnalysisAdmin(admin.ModelAdmin):
    list_display = ("game", "status", "done", "total", "cpu_seconds", "requested_by", "created")
    list_filter = ("status",)
    readonly_fields = ("decisions", "summary")
    raw_id_fields = ("game", "requested_by")
