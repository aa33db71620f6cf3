from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import Series
from games import paces
from games.models import Variant
from games.services.pace import allowed_paces


def paces_field(required: bool, help_text: str) -> forms.MultipleChoiceField:
    """The paces an admin allows (a variant, a series), as check boxes."""
    return forms.MultipleChoiceField(
        choices=paces.CHOICES,
        widget=forms.CheckboxSelectMultiple,
        required=required,
        label=_("Paces"),
        help_text=help_text,
    )


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
    # Not required: a form without it (an older page, a script) opens a live table.
    pace = forms.ChoiceField(
        choices=paces.CHOICES,
        initial=paces.LIVE,
        required=False,
        label=_("Pace"),
        help_text=_(
            "Live: everyone plays now, on the game's turn clock. Turn-based: each player "
            "has hours or days for a move and is told when it is their turn."
        ),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["series"].queryset = Series.objects.active().select_related("variant")

    def clean(self) -> dict:
        data = super().clean()
        variant, seats, series = data.get("variant"), data.get("seats"), data.get("series")
        pace = data["pace"] = data.get("pace") or paces.LIVE
        if variant and pace and (not series or series.variant_id == variant.pk):
            allowed = allowed_paces(variant, series)
            if pace not in allowed:
                self.add_error(
                    "pace",
                    _("%(what)s is played at these paces: %(paces)s.")
                    % {
                        "what": series or variant,
                        "paces": ", ".join(paces.label(p) for p in allowed),
                    },
                )
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


class AwayForm(forms.Form):
    """Days away (games.away): the first and the last, both included."""

    first = forms.DateField(
        label=_("First day away"), widget=forms.DateInput(attrs={"type": "date"})
    )
    last = forms.DateField(label=_("Last day away"), widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self) -> dict:
        data = super().clean()
        first, last = data.get("first"), data.get("last")
        if first and last and last < first:
            self.add_error("last", _("The last day away cannot be before the first."))
        return data
