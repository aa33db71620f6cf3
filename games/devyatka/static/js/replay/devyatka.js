// Devyatka and Keft in the replay (../replay.js): the four suit rows and every
// hand as it was at one step. A step's view is the registry's full-information
// replay view: the spectator's view plus `hands` (every seat) and `legal` (the
// cards the seat to move could play).

import { levelLabel, shortName } from "../bot-names.js";
import { SUIT_NAMES, cardCount, cardFace, cardLabel, cardName, cardText, fillIn, ordinal, rankLabel, rankOf, suitSvg } from "../cards.js";

const SUITS = ["C", "D", "H", "S"];
const RANKS = ["6", "7", "8", "9", "T", "J", "Q", "K", "A"];

export function createReplayRenderer({ board, data }) {
  const steps = data.steps;
  const name = (seat) => (data.players[seat] ? shortName(data.players[seat]) : interpolate(gettext("Seat %(number)s"), { number: seat + 1 }, true));

  board.classList.add("rp-devyatka");
  board.innerHTML = `<div class="rp-rows" data-testid="replay-rows"></div><ol class="rp-hands" aria-label="${gettext("Every hand")}"></ol>`;
  const rowsEl = board.querySelector(".rp-rows");
  const handsEl = board.querySelector(".rp-hands");

  rowsEl.replaceChildren(
    ...SUITS.map((suit) => {
      const lane = document.createElement("div");
      lane.className = `rp-lane suit-${suit}`;
      lane.dataset.suit = suit;
      lane.setAttribute("data-testid", `replay-row-${suit}`);
      lane.setAttribute("role", "group");
      const label = document.createElement("span");
      label.className = "rp-lane-label";
      label.innerHTML = suitSvg(suit, "suit");
      lane.append(label);
      for (const rank of RANKS) {
        const slot = document.createElement("div");
        slot.className = `rp-slot${rank === "9" ? " nine" : ""}`;
        slot.dataset.card = rank + suit;
        slot.innerHTML = `<span class="rp-ghost" aria-hidden="true">${rankLabel(rank)}</span>`;
        lane.append(slot);
      }
      return lane;
    }),
  );

  const seats = data.players.map((player, seat) => {
    const li = document.createElement("li");
    li.className = "rp-seat";
    li.dataset.seat = String(seat);
    li.setAttribute("data-testid", "replay-hand");
    li.innerHTML =
      `<div class="rp-seat-head"><span class="rp-seat-name"></span>` +
      `<span class="rp-seat-stats muted"></span></div><div class="rp-cards"></div>`;
    li.querySelector(".rp-seat-name").textContent = player.bot ? interpolate(gettext("%(name)s (%(level)s)"), { name: shortName(player), level: levelLabel(player.level) }, true) : player.name;
    return li;
  });
  handsEl.replaceChildren(...seats);

  function render(index) {
    const step = steps[index];
    const view = step.view;
    const played = step.move && step.move !== "pass" ? step.move : null;
    for (const suit of SUITS) {
      const row = view.rows[suit];
      const low = row ? RANKS.indexOf(rankOf(row[0])) : -1;
      const high = row ? RANKS.indexOf(rankOf(row[1])) : -2;
      const lane = rowsEl.querySelector(`[data-suit=${suit}]`);
      lane.setAttribute(
        "aria-label",
        row
          ? interpolate(gettext("%(suit)s: %(low)s to %(high)s"), { suit: SUIT_NAMES[suit], low: cardText(row[0]), high: cardText(row[1]) }, true)
          : interpolate(gettext("%(suit)s: not open"), { suit: SUIT_NAMES[suit] }, true),
      );
      RANKS.forEach((rank, i) => {
        const code = rank + suit;
        const slot = lane.children[i + 1]; // after the label
        const on = i >= low && i <= high;
        const existing = slot.querySelector(".card");
        if (on && !existing) {
          const card = cardFace(code);
          card.setAttribute("data-testid", "replay-board-card");
          slot.append(card);
        } else if (!on && existing) {
          existing.remove();
        }
        slot.classList.toggle("filled", on);
        slot.classList.toggle("rp-last", on && code === played);
      });
    }
    const legal = new Set(view.legal || []);
    seats.forEach((li, seat) => {
      const hand = view.hands[seat];
      const outAt = view.out.indexOf(seat);
      const toMove = !view.over && view.to_move === seat;
      const passes = interpolate(ngettext("%(count)s pass", "%(count)s passes", view.passes[seat]), { count: view.passes[seat] }, true);
      let stats = `${cardCount(hand.length)} · ${passes}`;
      if (outAt >= 0) stats = `${interpolate(gettext("Out %(place)s"), { place: ordinal(outAt + 1) }, true)} · ${passes}`;
      if (toMove) stats += ` · ${gettext("to move")}`;
      li.querySelector(".rp-seat-stats").textContent = stats;
      li.classList.toggle("to-move", toMove);
      li.classList.toggle("rp-actor", step.seat === seat);
      li.classList.toggle("is-out", outAt >= 0);
      li.dataset.count = String(hand.length);
      const cards = li.querySelector(".rp-cards");
      if (!hand.length) {
        cards.innerHTML = `<span class="muted">${gettext("no cards left")}</span>`;
        return;
      }
      cards.replaceChildren(
        ...hand.map((code) => {
          const card = cardFace(code);
          card.setAttribute("data-testid", "replay-hand-card");
          const playable = toMove && legal.has(code);
          card.classList.toggle("rp-legal", playable);
          card.setAttribute("aria-label", playable ? interpolate(gettext("%(card)s, playable"), { card: cardName(code) }, true) : cardName(code));
          return card;
        }),
      );
    });
  }

  function describe(index) {
    const step = steps[index];
    const fragment = document.createDocumentFragment();
    if (step.move === "pass") fragment.append(gettext("passed"));
    else fillIn(fragment, gettext("played %(card)s"), { card: cardLabel(step.move, "object") });
    return fragment;
  }

  function caption(index) {
    const step = steps[index];
    const view = step.view;
    if (index === 0) return interpolate(gettext("The deal: %(name)s holds 9♦ and opens."), { name: name(view.to_move) }, true);
    const parts = [interpolate(gettext("%(name)s played %(card)s"), { name: name(step.seat), card: cardText(step.move) }, true)];
    const passed = (step.caused || []).filter((c) => c.move === "pass").map((c) => name(c.seat));
    if (passed.length) parts.push(interpolate(ngettext("%(names)s passed", "%(names)s passed", passed.length), { names: passed.join(", ") }, true));
    const before = steps[index - 1].view.out.length;
    const out = view.out.slice(before).map(name);
    if (out.length && !(view.over && !view.keft)) parts.push(interpolate(ngettext("%(names)s is out", "%(names)s are out", out.length), { names: out.join(", ") }, true));
    let text = parts.join("; ");
    if (view.over) {
      const result = view.result || {};
      if (view.keft) text += `. ${interpolate(gettext("%(name)s is left holding cards and loses."), { name: name(result.loser) }, true)}`;
      else text += `. ${interpolate(gettext("%(name)s is out first and wins."), { name: name(result.winner) }, true)}`;
    } else {
      text += `. ${interpolate(gettext("%(name)s to move."), { name: name(view.to_move) }, true)}`;
    }
    return text;
  }

  /** The card in the seat's hand and the place it would take in its row. */
  function highlight(index, move, seat) {
    const marked = [
      handsEl.querySelector(`[data-seat="${seat}"] .card[data-card="${move}"]`),
      rowsEl.querySelector(`.rp-slot[data-card="${move}"]`),
    ].filter(Boolean);
    for (const element of marked) element.classList.add("rp-better");
    return marked.length;
  }

  const help = gettext("Every hand is shown as it was; the cards the player to move could play are outlined.");

  return { render, describe, caption, help, highlight };
}
