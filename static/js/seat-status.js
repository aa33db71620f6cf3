// The word on an opponent's badge when the member has no connection open. At a live
// table that seat is away (the house plays it after AWAY_GRACE_SECONDS); at a
// turn-based table members are rarely online together and nothing happens to the
// seat, so it only says "offline", never the word of declared away days.
export function absentWord(table) {
  return table && table.pace && table.pace !== "live" ? pgettext("seat badge: no connection open now", "offline") : gettext("away");
}
