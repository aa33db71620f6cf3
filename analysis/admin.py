from django.contrib import admin

from analysis.models import GameAnalysis
from games import hooks


@admin.register(GameAnalysis)
class GameAnalysisAdmin(admin.ModelAdmin):
    list_display = ("game", "status", "done", "total", "cpu_seconds", "requested_by", "created")
    list_filter = ("status",)
    readonly_fields = ("decisions", "summary")
    raw_id_fields = ("game", "requested_by")
    # The judgements name every move played and the best one: of a withheld game (a
    # duplicate board while its round is open, games.hooks) they tell how the board
    # went, shown to nobody until the round closes (as its moves in the game's admin).
    WITHHELD_FIELDS = ("decisions", "summary")

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        if obj is not None and hooks.deal_withheld(obj.game.table):
            return [f for f in fields if f not in self.WITHHELD_FIELDS]
        return fields
