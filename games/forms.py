from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

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


def day_input_format() -> str:
    """How a member writes a day in the page's language (strptime), e.g. "%d/%m/%Y"."""
    return pgettext("date input format (strptime)", "%d/%m/%Y")


class DayField(forms.DateField):
    """A day typed as the page's language writes it (or ISO 8601), checked here.

    A text box, not `type=date`: the browser's date picker follows the browser's
    own locale (mm/dd/yyyy in an American browser on an Italian page), so the
    language's pattern is shown instead and the server reads it.
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(
            widget=forms.DateInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
            **kwargs,
        )

    def to_python(self, value):
        self.input_formats = [day_input_format(), "%Y-%m-%d"]
        try:
            return super().to_python(value)
        except forms.ValidationError as exc:
            raise forms.ValidationError(
                _("Write the day as %(pattern)s."),
                code="invalid",
                params={"pattern": day_input_pattern()},
            ) from exc


def day_input_pattern() -> str:
    """The pattern of `day_input_format` as a member reads it."""
    return pgettext("date input pattern, as shown to members", "dd/mm/yyyy")


class AwayForm(forms.Form):
    """Days away (games.away): the first and the last, both included."""

    first = DayField(label=_("First day away"))
    last = DayField(label=_("Last day away"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        pattern, shown = day_input_pattern(), day_input_format()
        for name in ("first", "last"):
            field = self.fields[name]
            field.widget.format = shown
            field.widget.attrs["placeholder"] = pattern
            field.help_text = _("As %(pattern)s.") % {"pattern": pattern}

    def clean(self) -> dict:
        data = super().clean()
        first, last = data.get("first"), data.get("last")
        if first and last and last < first:
            self.add_error("last", _("The last day away cannot be before the first."))
        return data
