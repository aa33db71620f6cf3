// A house bot's name as the page shows it: its first name ("Hugo"), with its
// level as a translated label shown once beside it ("heuristic bot"). Frames
// keep the stored name in `name` ("Hugo (heuristic bot)") and add `bot_name`
// and `level` for a bot's seat (docs/PROTOCOL.md).

export function levelLabel(level) {
  switch (level) {
    case "random":
      return pgettext("bot level label", "random bot");
    case "heuristic":
      return pgettext("bot level label", "heuristic bot");
    case "search":
      return pgettext("bot level label", "search bot");
    default:
      return gettext("bot");
  }
}

// The first name of a bot's seat, the whole name of a member's.
export function shortName(entry) {
  return entry.bot_name || entry.name;
}
