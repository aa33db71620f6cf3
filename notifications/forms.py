"""The preferences form, the invite form and the moderator's message form."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import Player
from notifications import kinds


class PreferencesForm(forms.Form):
    """One checkbox per kind and channel (site, mail, and push where the site can push)."""

    # Invitations by mail from members the member never played with (off by default).
    STRANGERS_FIELD = f"{kinds.INVITED.key}__{kinds.STRANGERS}"

    LABELS = {kinds.SITE: _("On the site"), kinds.MAIL: _("By mail"), kinds.PUSH: _("By push")}

    def __init__(
        self,
        *args,
        current: dict[str, dict[str, bool]],
        strangers: bool = False,
        push: bool = False,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        # The push column only where the site can push (a VAPID key, push/keys.py).
        self.channels = kinds.CHANNELS if push else (kinds.SITE, kinds.MAIL)
        self.rows = []
        for key, kind in kinds.KINDS.items():
            row = []
            for channel in self.channels:
                name = f"{key}__{channel}"
                label = self.LABELS[channel]
                self.fields[name] = forms.BooleanField(
                    label=label, required=False, initial=current[key][channel]
                )
                row.append(name)
            self.rows.append((kind, [self[name] for name in row]))
        self.fields[self.STRANGERS_FIELD] = forms.BooleanField(
            label=_("Invitations by mail also from members you have not played with"),
            required=False,
            initial=strangers,
        )

    @property
    def strangers(self) -> forms.BoundField:
        return self[self.STRANGERS_FIELD]

    def choices(self) -> list[tuple[str, str, bool]]:
        return [
            (key, channel, self.cleaned_data[f"{key}__{channel}"])
            for key in kinds.KINDS
            for channel in self.channels
        ]


class InviteForm(forms.Form):
    name = forms.CharField(label=_("Member's name"), max_length=30)


class MessageForm(forms.Form):
    members = forms.ModelMultipleChoiceField(
        label=_("Members"),
        queryset=Player.objects.members().filter(user__isnull=False),
        widget=forms.SelectMultiple(attrs={"size": 12}),
    )
    text = forms.CharField(label=_("Message"), max_length=1000, widget=forms.Textarea)
