// The other players around the top of a Golf table: a tile each with their
// grid in small cards, their score line, and who is to move or holding a card.

import { levelLabel } from "../../bot-names.js";
import { absentWord } from "../../seat-status.js";
import { cardName } from "../../cards.js";
import { matchedPositions, miniCard, parseMove, seatHelpers, showing, signed } from "./rules.js";

export function createSeats(shell) {
  const { el } = shell;
  const { view, me, gridOf } = seatHelpers(shell);

  /** The seats around the top: everyone but you, starting at your left. */
  function opponentOrder() {
    const v = view();
    const mine = me();
    const order = [];
    for (let k = 0; k < v.players; k++) {
      const seat = mine === null ? k : (mine + 1 + k) % v.players;
      if (seat !== mine) order.push(seat);
    }
    return order;
  }

  function renderOpponents() {
    const v = view();
    const { table } = shell.frame();
    const order = opponentOrder();
    const key = `golf:${order.join(",")}`;
    if (el.opponents.dataset.key !== key) {
      el.opponents.dataset.key = key;
      el.opponents.replaceChildren(
        ...order.map((seat) => {
          const li = document.createElement("li");
          li.className = "opponent golf-opponent";
          li.dataset.seat = String(seat);
          li.setAttribute("data-testid", "opponent");
          li.innerHTML =
            `<div class="opponent-name"><span class="name"></span><span class="bot-badge" hidden>${gettext("bot")}</span><span class="away-badge" hidden>${gettext("away")}</span></div>` +
            `<div class="golf-seat-cards"><div class="golf-grid mini" data-testid="golf-grid" role="img"></div>` +
            `<span class="golf-holding golf-mini golf-back" hidden title="${gettext("Holding a drawn card")}"></span></div>` +
            `<div class="opponent-stats muted"></div>` +
            `<span class="bubble golf-bubble" hidden></span>`;
          li.querySelector(".golf-grid").dataset.seat = String(seat);
          return li;
        }),
      );
    }
    el.opponents.dataset.count = String(order.length);
    el.opponents.dataset.size = order.length <= 3 ? "roomy" : order.length <= 7 ? "normal" : "compact";
    el.opponents.classList.add("golf-opponents");
    const lastMove = lastPlaced();
    for (const li of el.opponents.children) {
      const seat = Number(li.dataset.seat);
      const entry = table.seats.find((s) => s.position === seat);
      const name = shell.seatName(seat);
      li.querySelector(".name").textContent = name;
      li.querySelector(".name").title = name;
      li.querySelector(".bot-badge").hidden = !(entry && entry.bot);
      if (entry && entry.bot) {
        const badge = li.querySelector(".bot-badge");
        badge.textContent = levelLabel(entry.level);
        badge.title = badge.textContent;
      }
      li.classList.toggle("is-bot", Boolean(entry && entry.bot));
      li.querySelector(".away-badge").hidden = !(entry && entry.away && !entry.bot);
      li.querySelector(".away-badge").textContent = absentWord(table);
      const toMove = !v.over && v.to_move === seat;
      li.classList.toggle("to-move", toMove);
      const isReady = v.phase === "reveal" && Boolean(v.ready && v.ready[seat]);
      li.classList.toggle("is-ready", isReady);
      li.classList.toggle("went-out", v.went_out === seat);
      const holding = Boolean(v.holding && v.holding[seat]);
      li.querySelector(".golf-holding").hidden = !holding;
      const grid = li.querySelector(".golf-grid");
      fillMiniGrid(grid, gridOf(seat), lastMove && lastMove.seat === seat ? lastMove.pos : null);
      const stats = seatStats(seat);
      fillStats(li.querySelector(".opponent-stats"), seat);
      grid.setAttribute("aria-label", interpolate(gettext("Cards of %(name)s: %(grid)s"), { name, grid: describeGrid(gridOf(seat)) }, true));
      const said = [stats];
      if (toMove) said.push(gettext("to move"));
      if (holding) said.push(gettext("holding a drawn card"));
      li.setAttribute("aria-label", interpolate(gettext("%(name)s: %(stats)s"), { name, stats: said.join(", ") }, true));
    }
  }

  /** One short line per seat: total, what its face-up cards score, ready / went out / last turn.
   * Under the member's own name it speaks to them ("you are holding a card"), elsewhere of the seat. */
  function seatStatParts(seat) {
    const v = view();
    const you = seat === shell.mySeat();
    const parts = { total: interpolate(gettext("Total %(score)s"), { score: signed(v.totals[seat]) }, true), shows: "", state: "" };
    if (!v.over && v.grids[seat].some(Boolean)) {
      const score = signed(showing(v.grids[seat], v.column_rule));
      parts.shows = interpolate(you ? gettext("you show %(score)s") : gettext("shows %(score)s"), { score }, true);
    }
    if (v.phase === "reveal") {
      if (v.ready && v.ready[seat]) parts.state = `${you ? gettext("you are ready") : gettext("ready")} \u2713`;
      else parts.state = you ? gettext("you are choosing") : gettext("choosing");
    } else if (v.went_out === seat) parts.state = you ? gettext("you went out") : gettext("went out");
    else if (v.final_turns.includes(seat)) parts.state = you ? gettext("your last turn") : gettext("last turn");
    else if (v.holding && v.holding[seat]) parts.state = you ? gettext("you are holding a card") : gettext("holding a card");
    return parts;
  }

  function seatStats(seat) {
    const { total, shows, state } = seatStatParts(seat);
    return [total, shows, state].filter(Boolean).join(" · ");
  }

  function fillStats(holder, seat) {
    const parts = seatStatParts(seat);
    const key = JSON.stringify(parts);
    if (holder.dataset.key === key) return; // unchanged: leave the line be
    holder.dataset.key = key;
    holder.replaceChildren(
      ...["total", "shows", "state"]
        .filter((k) => parts[k])
        .map((k) => Object.assign(document.createElement("span"), { className: `golf-stat-${k}`, textContent: parts[k] })),
    );
  }

  /** Row by row, as a screen reader reads it: "row 1: seven of diamonds, face down, face down; row 2: ...". */
  function describeGrid(grid) {
    const rows = [0, 1, 2].map((r) => grid.slice(r * 3, r * 3 + 3).map((code) => (code ? cardName(code) : gettext("face down"))));
    return rows.map((cards, r) => interpolate(gettext("row %(row)s: %(cards)s"), { row: r + 1, cards: cards.join(", ") }, true)).join("; ");
  }

  /** The position the latest move changed (to highlight), or null. */
  function lastPlaced() {
    const moves = shell.moves();
    const last = moves[moves.length - 1];
    if (!last) return null;
    const { kind, pos } = parseMove(last.move);
    if (pos === null || kind === "draw" || kind === "ready") return null;
    const v = view();
    if (v.over || !v.grids[last.seat] || !v.grids[last.seat][pos]) return null;
    return { seat: last.seat, pos, kind };
  }

  function fillMiniGrid(grid, cards, lastPos) {
    const v = view();
    const matched = matchedPositions(cards, v.column_rule);
    const key = JSON.stringify([cards, lastPos, [...matched]]);
    if (grid.dataset.key === key) return;
    grid.dataset.key = key;
    grid.replaceChildren(
      ...cards.map((code, pos) => {
        const slot = miniCard(code);
        slot.setAttribute("data-testid", "golf-slot");
        slot.setAttribute("aria-hidden", "true");
        slot.dataset.pos = String(pos);
        slot.dataset.legal = "false";
        if (code) slot.dataset.card = code;
        slot.classList.toggle("matched", matched.has(pos));
        slot.classList.toggle("last-move", pos === lastPos);
        return slot;
      }),
    );
  }

  return { renderOpponents, fillStats, lastPlaced };
}
