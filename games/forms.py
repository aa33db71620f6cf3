from __future__ import annotations

from django import forms

from games.models import Variant


class CreateTableForm(forms.Form):
    variant = forms.ModelChoiceField(
        queryset=Variant.objects.active(), empty_label=None, label="Game"
    )
    seats = forms.IntegerField(min_value=2, max_value=6, initial=4, label="Seats")
    private = forms.BooleanField(
        required=False, label="Private (only people with the invite link can join)"
    )

    def clean(self) -> dict:
        data = super().clean()
        variant, seats = data.get("variant"), data.get("seats")
        if variant and seats and not variant.min_players <= seats <= variant.max_players:
            self.add_error(
                "seats",
                f"{variant} tables have {variant.min_players} to {variant.max_players} seats.",
            )
        return data
