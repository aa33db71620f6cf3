"""Accessibility scans with axe-core in a Playwright page (axe-playwright-python).

The package ships axe-core's own script (`axe.min.js`), injected into the page
under test: nothing is fetched, so scans run offline like the rest of the suite.

    from tests.support.axe import assert_accessible
    assert_accessible(page)                      # the whole page
    assert_accessible(page, "[data-testid=results]")  # one part of it

A scan fails on violations of impact "serious" or "critical"; "moderate" and
"minor" ones are returned by `violations()` for a test that wants them.
"""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

FAILING_IMPACTS = frozenset({"serious", "critical"})
# The WCAG 2.x A and AA rules plus axe's best practices (landmarks, headings...).
DEFAULT_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice")

_axe = Axe()

# A scan reads colours as they are at that instant: a finite animation still running
# (a bubble fading in) is scanned half transparent, a contrast failure the member never
# sees. Such animations jump to their end (what the page shows a moment later) before a
# scan; endless ones (the turn indicator's pulse) run on.
_SETTLE_ANIMATIONS = """() => {
  for (const animation of document.getAnimations()) {
    const end = animation.effect && animation.effect.getComputedTiming().endTime;
    if (end !== undefined && end !== Infinity) animation.finish();
  }
}"""


def violations(
    page: Any,
    include: str | None = None,
    tags: tuple[str, ...] = DEFAULT_TAGS,
    impacts: frozenset[str] = FAILING_IMPACTS,
) -> list[dict]:
    """axe's violations on `page` (or the part `include` selects) with one of `impacts`."""
    options = {"resultTypes": ["violations"], "runOnly": {"type": "tag", "values": list(tags)}}
    context = {"include": [[include]]} if include else None
    page.evaluate(_SETTLE_ANIMATIONS)
    results = _axe.run(page, context=context, options=options)
    return [v for v in results.response["violations"] if v.get("impact") in impacts]


def describe(found: list[dict]) -> str:
    """One line per violation and up to three of its elements, for an assertion message."""
    lines = []
    for violation in found:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:3]:
            summary = node.get("failureSummary", "").replace("\n", " ")
            lines.append(f"    {', '.join(map(str, node['target']))}: {summary[:200]}")
    return "\n".join(lines)


def assert_accessible(page: Any, include: str | None = None) -> None:
    """No serious or critical axe violation on `page` (or in `include`)."""
    found = violations(page, include)
    assert not found, f"axe found {len(found)} serious or critical violations:\n{describe(found)}"
