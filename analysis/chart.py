"""A small server-rendered SVG chart of each member's expected outcome over a game."""

from __future__ import annotations

from django.utils.formats import get_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

from games import registry
from games.engine.coach import FLAGGED

WIDTH, HEIGHT, PAD = 360, 140, 28
COLOURS = ("#1f6feb", "#c2410c", "#15803d", "#7e22ce", "#0e7490", "#a16207")


def measure_label(measure_key: str) -> str:
    return {
        "place": gettext("Expected final place (lower is better)"),
        "avoid_loss": gettext("Chance to avoid the loss (higher is better)"),
        "match_total": gettext("Expected match total (lower is better)"),
    }.get(measure_key, measure_key)


def format_value(measure_key: str, value: float) -> str:
    """The value as the reader's language writes it ("2,69", "50 %")."""
    if measure_key == "avoid_loss":
        return pgettext("percentage, as in 50%", "%(number)s%%") % {"number": f"{100 * value:.0f}"}
    text = f"{value:.1f}" if measure_key == "match_total" else f"{value:.2f}"
    return text.replace(".", get_format("DECIMAL_SEPARATOR"))


def series(judged: list[dict]) -> dict[int, list[dict]]:
    """Per seat, its decisions in order with the value of the move played."""
    out: dict[int, list[dict]] = {}
    for d in judged:
        out.setdefault(d["seat"], []).append(d)
    return out


def svg(measure_key: str, judged: list[dict], names: list[str]) -> SafeString:
    """One line per member: the expected outcome of the move played at each decision."""
    lines = series(judged)
    values = [d["values"][d["played"]][0] for d in judged]
    if not values:
        return mark_safe("")
    lo, hi = min(values), max(values)
    if registry.measure(measure_key).higher:
        lo, hi = min(lo, 0.0), max(hi, 1.0)
    if hi - lo < 1e-9:
        hi = lo + 1.0
    longest = max(len(ds) for ds in lines.values())
    inner_w, inner_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD
    better_up = registry.measure(measure_key).higher

    def x(i: int) -> float:
        return PAD + (inner_w * i / (longest - 1) if longest > 1 else inner_w / 2)

    def y(v: float) -> float:
        share = (v - lo) / (hi - lo)
        # Better is always up: for lower-is-better measures the axis is flipped.
        return PAD + inner_h * ((1 - share) if better_up else share)

    title = measure_label(measure_key)
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
            format_value(measure_key, hi if better_up else lo),
            f"{y(lo if better_up else hi) + 4:.1f}",
            format_value(measure_key, lo if better_up else hi),
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
