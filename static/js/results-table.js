// The end-of-game results table of the shell (the results panel of table.html):
// one row per seat in place order, the place, the player as the row's header
// (marked "(you)" and "resigned"), then the game's own cells. Every game's
// renderer fills it through `shell.resultsTable`; only the columns differ.
//
// gettext/interpolate: the static catalog loaded by base.html before the modules.

import { ordinal } from "./cards.js";

/** Seats by place, then by seat number. */
export function seatsByPlace(places) {
  return [...places.keys()].sort((a, b) => places[a] - places[b] || a - b);
}

/**
 * Fill `el.resultsHead` / `el.resultsBody`.
 *
 * places: each seat's place; me: the viewer's seat or null; seatName(seat);
 * resigned: seats that left; head: the game's column headings; cells(seat): that
 * seat's values for them; marks(seat): extra row classes, {winner: true, ...};
 * decorate(td, index, seat): optional, called for each game cell after its text.
 */
export function fillResultsTable(el, { places, me, seatName, resigned = [], head, cells, marks = () => ({}), decorate = null }) {
  const gone = new Set(resigned);
  const who = (seat) => (seat === me ? interpolate(gettext("%(name)s (you)"), { name: seatName(seat) }, true) : seatName(seat));
  const headings = [gettext("Place"), gettext("Player"), ...head];
  // As text: a game's headings may come from its registry entry (games/generic.js).
  const headRow = document.createElement("tr");
  headings.forEach((heading, i) => {
    const th = document.createElement("th");
    th.scope = "col";
    if (i !== 1) th.className = "num";
    th.textContent = heading;
    headRow.append(th);
  });
  el.resultsHead.replaceChildren(headRow);
  el.resultsBody.replaceChildren(
    ...seatsByPlace(places).map((seat) => {
      const tr = document.createElement("tr");
      tr.setAttribute("data-testid", "result-row");
      tr.dataset.seat = String(seat);
      tr.dataset.place = String(places[seat]);
      tr.classList.toggle("me", seat === me);
      for (const [name, on] of Object.entries(marks(seat))) tr.classList.toggle(name, Boolean(on));
      tr.classList.toggle("resigned", gone.has(seat));
      const name = gone.has(seat) ? interpolate(gettext("%(name)s · resigned"), { name: who(seat) }, true) : who(seat);
      const place = document.createElement("td");
      place.className = "num";
      place.textContent = ordinal(places[seat]);
      const player = document.createElement("th");
      player.scope = "row";
      player.textContent = name;
      tr.append(place, player);
      cells(seat).forEach((value, index) => {
        const td = document.createElement("td");
        td.className = "num";
        td.textContent = String(value);
        if (decorate) decorate(td, index, seat);
        tr.append(td);
      });
      return tr;
    }),
  );
}
