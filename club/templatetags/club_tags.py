"""The club's own template tags: the language picker's options and the players' names."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.utils.formats import date_format, get_format
from django.utils.html import format_html
from django.utils.translation import pgettext

from club import i18n
from club.bots import bot_first_name, bot_level_label

register = template.Library()


@register.simple_tag
def club_languages() -> list[tuple[str, str]]:
    """The picker's options, each named in its own language.

    Django's {% get_available_languages %} passes the names through gettext, so
    "English" became "Английский" on a Russian page: a reader who landed on the
    wrong language could not find their own. settings.LANGUAGES is not.
    """
    return list(settings.LANGUAGES)


@register.filter
def player_name(player) -> str:
    """A player's name as pages show it: a house bot's first name, then its
    translated level once ("Hugo (heuristic bot)" is stored; "Hugo" and
    "эвристический бот" are shown)."""
    if player is None:
        return ""
    if not getattr(player, "bot_level", ""):
        return player.display_name
    return format_html(
        '{} <span class="bot-level">({})</span>',
        bot_first_name(player.display_name),
        bot_level_label(player.bot_level),
    )


@register.filter
def first_name(player) -> str:
    """A house bot's first name alone ("Hugo"), where a column already gives
    its level; a member's name as it is."""
    return bot_first_name(player.display_name) if player.bot_level else player.display_name


# Numbers as each language writes them. The standings' figures come
# preformatted ("2.40", made once per row for pages and CSV alike): pages swap
# in the language's decimal separator, CSV keeps the point.
@register.filter
def decimal(text) -> str:
    """ "2.40" -> "2,40" in it fr ru es ro (Django's DECIMAL_SEPARATOR)."""
    return str(text).replace(".", get_format("DECIMAL_SEPARATOR"))


@register.filter
def percent(text) -> str:
    """ "50.00" -> "50,00 %" (French, Russian...), "50.00%" in English."""
    return pgettext("percentage, as in 50%", "%(number)s%%") % {"number": decimal(text)}


@register.filter
def recent_mark(mark) -> str:
    """A "Recent" column's mark: a place stays a number; a single-loser
    series' L (lost the game) and W (did not lose) are the language's letters."""
    if mark == "L":
        return pgettext("recent mark: lost the game", "L")
    if mark == "W":
        return pgettext("recent mark: did not lose", "W")
    return mark


@register.filter(expects_localtime=True)
def day_month_year_time(value) -> str:
    """A date with the month as a word, the way the language writes it (lower
    case in most of them, the genitive in Russian: "5 декабря 2026, 18:00")."""
    if not value:
        return ""
    return date_format(value, pgettext("date format: day, month, year, time", "j M Y, H:i"))


@register.filter(expects_localtime=True)
def day_month_time(value) -> str:
    if not value:
        return ""
    return date_format(value, pgettext("date format: day, month, time", "j M, H:i"))


@register.filter
def day_month_year(value) -> str:
    """A day as the language writes it, month as a word, no leading zero ("7 dic 2026")."""
    if not value:
        return ""
    return date_format(value, pgettext("date format: day, month, year", "j M Y"))


@register.simple_tag(takes_context=True)
def in_viewer_zone(context, value) -> str:
    """A moment in the reader's time zone (club.i18n), day, month, year and time."""
    if not value:
        return ""
    return i18n.day_month_year_time(value, i18n.viewer_time_zone(context.get("request")))
