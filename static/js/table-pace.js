// The pace line of a turn-based table (docs/PROTOCOL.md, "Pace"): who has how long to
// move, and who is away until when, in the page's language and the viewer's time zone.
// A live table keeps the line the page was served with ("Live").
import { formatDay, formatWhen } from "./when.js";

/** "1 day 4 h", "5 h 20 min", "3 min": the same words as the pages (games/paces.py). */
export function timeLeft(seconds) {
  const minutes = Math.max(0, Math.floor(seconds / 60));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days) {
    const text = interpolate(ngettext("%(count)s day", "%(count)s days", days), { count: days }, true);
    return hours ? `${text} ${interpolate(gettext("%(hours)s h"), { hours }, true)}` : text;
  }
  if (hours) return interpolate(gettext("%(hours)s h %(minutes)s min"), { hours, minutes: mins }, true);
  return interpolate(gettext("%(minutes)s min"), { minutes: mins }, true);
}

function timeTag(unix) {
  const tag = document.createElement("time");
  const at = new Date(unix * 1000);
  tag.dateTime = at.toISOString();
  tag.textContent = formatWhen(at);
  return tag;
}

/** The last day away of a member back at `unix`: a midnight of the club's calendar (its zone). */
function dayTag(unix, clubZone) {
  const tag = document.createElement("time");
  tag.textContent = formatDay(new Date((unix - 1) * 1000), clubZone);
  return tag;
}

/** A translated sentence with `{name}` parts replaced by nodes (the times). */
function sentence(format, parts) {
  const span = document.createElement("span");
  const text = interpolate(format, Object.fromEntries(Object.keys(parts).map((k) => [k, `\u0000${k}\u0000`])), true);
  for (const [i, piece] of text.split("\u0000").entries()) {
    if (i % 2 === 0) span.append(piece);
    else span.append(parts[piece] instanceof Node ? parts[piece] : String(parts[piece]));
  }
  return span;
}

export function renderPace(table, line, nameOf) {
  if (!line || !table || !table.pace || table.pace === "live") return;
  const now = Date.now() / 1000;
  const parts = [document.createTextNode(line.dataset.label || "")];
  for (const seat of table.seats) {
    if (Number.isFinite(seat.deadline) && table.status === "playing") {
      // Your own time is said to you; the others' in the third person.
      const mine = seat.position === table.you;
      const item = mine
        ? sentence(gettext("You have %(left)s to move (until %(at)s)"), { left: timeLeft(seat.deadline - now), at: timeTag(seat.deadline) })
        : sentence(gettext("%(name)s has %(left)s to move (until %(at)s)"), {
            name: nameOf(seat),
            left: timeLeft(seat.deadline - now),
            at: timeTag(seat.deadline),
          });
      item.className = mine ? "pace-deadline mine" : "pace-deadline";
      item.dataset.testid = "seat-deadline";
      parts.push(document.createTextNode(" · "), item);
    }
  }
  for (const seat of table.seats) {
    if (Number.isFinite(seat.away_until) && seat.away_until > now) {
      const until = dayTag(seat.away_until, line.dataset.clubTimeZone);
      const item = seat.position === table.you ? sentence(gettext("You are away until %(until)s"), { until }) : sentence(gettext("%(name)s is away until %(until)s"), { name: nameOf(seat), until });
      item.className = "pace-away";
      item.dataset.testid = "seat-away";
      parts.push(document.createTextNode(" · "), item);
    }
  }
  line.replaceChildren(...parts);
}
