"""A small server-rendered SVG chart of each member's expected outcome over a game."""

from __future__ import annotations

from django.utils.formats import get_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

from games import registry
from games.engine.coach import FLAGGED, Measure

WIDTH, HEIGHT, PAD = 360, 140, 28
COLOURS = ("#1f6feb", "#c2410c", "#15803d", "#7e22ce", "#0e7490", "#a16207")


def measure_of(game: str, key: str) -> Measure:
    """The measure ``key`` as the game's entry declares it (its ``measures``): the words,
    the better direction and the format come from there, none from here."""
    for declared in registry.engine(game).measures:
        if declared.key == key:
            return declared
    # An analysis stored in a measure its game no longer declares: shown by its key.
    return Measure(key, higher=False, inaccuracy=0.0, mistake=0.0, blunder=1.0, label=key)


def measure_label(measure: Measure) -> str:
    """The measure in words (the chart's title): the entry's label, else its key."""
    return str(measure.label or measure.key)


def format_value(measure: Measure, value: float) -> str:
    """The value as the reader's language writes it ("2,69", "50 %"), in the measure's
    unit and digits."""
    if measure.unit == "percent":
        number = f"{100 * value:.{measure.digits}f}"
        number = number.replace(".", get_format("DECIMAL_SEPARATOR"))
        return pgettext("percentage, as in 50%", "%(number)s%%") % {"number": number}
    return f"{value:.{measure.digits}f}".replace(".", get_format("DECIMAL_SEPARATOR"))


def series(judged: list[dict]) -> dict[int, list[dict]]:
    """Per seat, its decisions in order with the value of the move played."""
    out: dict[int, list[dict]] = {}
    for d in judged:
        out.setdefault(d["seat"], []).append(d)
    return out


def svg(measure: Measure, judged: list[dict], names: list[str]) -> SafeString:
    """One line per member: the expected outcome of the move played at each decision."""
    lines = series(judged)
    values = [d["values"][d["played"]][0] for d in judged]
    if not values:
        return mark_safe("")
    lo, hi = min(values), max(values)
    if measure.unit == "percent":  # a chance: the axis spans 0 to 100%
        lo, hi = min(lo, 0.0), max(hi, 1.0)
    if hi - lo < 1e-9:
        hi = lo + 1.0
    longest = max(len(ds) for ds in lines.values())
    inner_w, inner_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD
    better_up = measure.higher

    def x(i: int) -> float:
        return PAD + (inner_w * i / (longest - 1) if longest > 1 else inner_w / 2)

    def y(v: float) -> float:
        share = (v - lo) / (hi - lo)
        # Better is always up: for lower-is-better measures the axis is flipped.
        return PAD + inner_h * ((1 - share) if better_up else share)

    title = measure_label(measure)
    parts = [
        format_html(
            '<svg class="analysis-chart" viewBox="0 0 {} {}" role="img" aria-labelledby="ac-title" '
            'data-testid="analysis-chart"><title id="ac-title">{}</title>',
            WIDTH,
            HEIGHT,
            title,
        ),
        format_html(
            '<line x1="{}" y1="{}" x2="{}" y2="{}" class="axis"/>'
            '<line x1="{}" y1="{}" x2="{}" y2="{}" class="axis"/>',
            PAD,
            PAD,
            PAD,
            HEIGHT - PAD,
            PAD,
            HEIGHT - PAD,
            WIDTH - PAD,
            HEIGHT - PAD,
        ),
        format_html(
            '<text x="2" y="{}" class="tick">{}</text><text x="2" y="{}" class="tick">{}</text>',
            f"{y(hi if better_up else lo) + 4:.1f}",
            format_value(measure, hi if better_up else lo),
            f"{y(lo if better_up else hi) + 4:.1f}",
            format_value(measure, lo if better_up else hi),
        ),
    ]
    for k, (seat, ds) in enumerate(sorted(lines.items())):
        colour = COLOURS[k % len(COLOURS)]
        points = " ".join(
            f"{x(i):.1f},{y(d['values'][d['played']][0]):.1f}" for i, d in enumerate(ds)
        )
        parts.append(
            format_html(
                '<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>', points, colour
            )
        )
        for i, d in enumerate(ds):
            if d["verdict"] in FLAGGED:
                parts.append(
                    format_html(
                        '<circle cx="{}" cy="{}" r="3.5" class="flag-{}"/>',
                        f"{x(i):.1f}",
                        f"{y(d['values'][d['played']][0]):.1f}",
                        d["verdict"],
                    )
                )
        name = names[seat] if seat < len(names) else "?"
        parts.append(
            format_html(
                '<text x="{}" y="{}" class="legend" fill="{}">{}</text>',
                PAD + 4 + 90 * k,
                14,
                colour,
                escape(name),
            )
        )
    parts.append(mark_safe("</svg>"))
    return mark_safe("".join(parts))
