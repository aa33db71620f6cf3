// A moment as the club's pages write it (club.i18n, the "date format" strings): day,
// short month, year and a 24-hour time, joined as the language joins them ("7 dic 2026,
// alle 04:18", "7 déc. 2026 à 04:18"), in the viewer's own time zone.
const lang = document.documentElement.lang || undefined;
// The club writes English days before months (club/formats/en), as British English does.
const locale = lang === "en" ? "en-GB" : lang;
const day = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric" });
const time = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

export function formatWhen(at) {
  return interpolate(pgettext("a day and a time of day, in a sentence", "%(day)s, %(time)s"), { day: day.format(at), time: time.format(at) }, true);
}

/** A day without a year, in `zone` (the club's calendar for away days). */
export function formatDay(at, zone) {
  let format;
  try {
    format = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: zone || undefined });
  } catch {
    format = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short" });
  }
  return format.format(at);
}
