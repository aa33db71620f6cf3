// Golf's rules as the table page needs them (RULES.md section 3): move strings,
// column matches, what face-up cards score, small card faces, and the seat
// helpers every part of the Golf renderer shares.

import { rankLabel, rankOf, suitOf, suitSvg } from "../../cards.js";

export const POSITIONS = [0, 1, 2, 3, 4, 5, 6, 7, 8];
export const COLUMNS = [
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
];
export const FULL = 511; // all nine face up
export const VALUES = { A: 1, 2: -2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 10, Q: 10, K: 0 };

export function parseMove(move) {
  const [kind, n] = String(move).split(" ");
  return { kind, pos: n === undefined ? null : Number(n) };
}

/** Positions (of the cards given; null = face down) scoring 0 by a column match (G8, G11). */
export function matchedPositions(grid, columnRule) {
  const matched = new Set();
  for (const column of COLUMNS) {
    const byRank = new Map();
    for (const pos of column) {
      if (!grid[pos]) continue;
      const rank = rankOf(grid[pos]);
      byRank.set(rank, [...(byRank.get(rank) || []), pos]);
    }
    for (const group of byRank.values()) {
      if (group.length >= (columnRule === "three" ? 3 : 2)) group.forEach((pos) => matched.add(pos));
    }
  }
  return matched;
}

/** What the face-up cards score so far (face-down cards count nothing). */
export function showing(grid, columnRule) {
  const matched = matchedPositions(grid, columnRule);
  let total = 0;
  grid.forEach((code, pos) => {
    if (code && !matched.has(pos)) total += VALUES[rankOf(code)] ?? 0;
  });
  return total;
}

export function signed(n) {
  return n < 0 ? `\u2212${-n}` : String(n);
}

export function listNames(names) {
  if (names.length <= 1) return names.join("");
  return interpolate(gettext("%(names)s and %(last)s"), { names: names.slice(0, -1).join(", "), last: names[names.length - 1] }, true);
}

/** A small card for the opponents' grids and the score panels: rank and suit, or a back. */
export function miniCard(code, tag = "span") {
  const card = document.createElement(tag);
  if (code) {
    card.className = `golf-mini suit-${suitOf(code)}`;
    card.innerHTML = `<span class="golf-mini-rank">${rankLabel(rankOf(code))}</span>${suitSvg(suitOf(code), "suit golf-mini-suit")}`;
  } else {
    card.className = "golf-mini golf-back";
  }
  return card;
}

/** The views of one seat every Golf piece reads: the frame's view, your seat, names. */
export function seatHelpers(shell) {
  const view = () => shell.frame().view;
  const me = () => shell.mySeat();
  return {
    view,
    me,
    /** A seat's grid as drawn: the table's, or once the match is over the last round's, all face up. */
    gridOf: (seat) => {
      const v = view();
      return v.over && v.last_round ? v.last_round.grids[seat] : v.grids[seat];
    },
    who: (seat) => (seat === me() ? gettext("you") : shell.seatName(seat)),
    whoCap: (seat) => (seat === me() ? gettext("You") : shell.seatName(seat)),
  };
}
