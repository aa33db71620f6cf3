from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import Series
from games.models import Variant


class SeriesSelect(forms.Select):
    """Each series option names its variant, so the lobby offers only the chosen game's series."""

    def create_option(self, name, value, *args, **kwargs) -> dict:
        option = super().create_option(name, value, *args, **kwargs)
        instance = getattr(value, "instance", None)
        if instance is not None:
            option["attrs"]["data-variant"] = str(instance.variant_id)
        return option


class CreateTableForm(forms.Form):
    variant = forms.ModelChoiceField(
        queryset=Variant.objects.active(), empty_label=None, label=_("Game")
    )
    # The variant's own range is checked in clean(); this is the widest any game has.
    seats = forms.IntegerField(min_value=2, max_value=12, initial=4, label=_("Seats"))
    series = forms.ModelChoiceField(
        queryset=Series.objects.none(),
        widget=SeriesSelect,
        required=False,
        empty_label=_("None: a friendly game"),
        label=_("House series"),
        help_text=_("Finished games at a series table count in its standings."),
    )
    private = forms.BooleanField(
        required=False, label=_("Private (only people with the invite link can join)")
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["series"].queryset = Series.objects.active().select_related("variant")

    def clean(self) -> dict:
        data = super().clean()
        variant, seats, series = data.get("variant"), data.get("seats"), data.get("series")
        if variant and series and series.variant_id != variant.pk:
            self.add_error(
                "series",
                _("%(series)s is played with %(played)s, not %(chosen)s.")
                % {"series": series, "played": series.variant, "chosen": variant},
            )
        if variant and seats and not variant.min_players <= seats <= variant.max_players:
            self.add_error(
                "seats",
                _("%(variant)s tables have %(low)s to %(high)s seats.")
                % {"variant": variant, "low": variant.min_players, "high": variant.max_players},
            )
        return data
