// Nine-card Golf in the replay (../replay.js): the stock, the discard pile, the
// drawn card and every player's grid as it was at one step, face-down cards
// shown dimmed (the match is over, so nothing is hidden any more). A step's
// view is the registry's full-information replay view: Golf's spectator view
// with `grids` holding every code, `up` the face-up masks (bit 1 << N) and
// `drawn` whoever's drawn card.

import { levelLabel, shortName } from "../bot-names.js";
import { cardCount, cardFace, cardLabel, cardName, cardText, fillIn } from "../cards.js";

const POSITIONS = [0, 1, 2, 3, 4, 5, 6, 7, 8];

function parseMove(move) {
  const [kind, n] = String(move).split(" ");
  return { kind, pos: n === undefined ? null : Number(n) };
}

export function createReplayRenderer({ board, data }) {
  const steps = data.steps;
  const name = (seat) => (data.players[seat] ? shortName(data.players[seat]) : interpolate(gettext("Seat %(number)s"), { number: seat + 1 }, true));

  board.classList.add("rp-golf");
  board.innerHTML =
    `<div class="rp-golf-table">` +
    `<figure class="rp-pile"><div class="rp-pile-card" data-testid="replay-stock"></div><figcaption class="rp-stock-count"></figcaption></figure>` +
    `<figure class="rp-pile"><div class="rp-pile-card" data-testid="replay-discard"></div><figcaption>${gettext("Discard")}</figcaption></figure>` +
    `<figure class="rp-pile rp-drawn"><div class="rp-pile-card" data-testid="replay-drawn"></div><figcaption></figcaption></figure>` +
    `</div>` +
    `<div class="rp-round-end" data-testid="replay-round-end" hidden></div>` +
    `<ol class="rp-golf-seats" aria-label="${gettext("Every grid")}"></ol>`;
  const stockEl = board.querySelector("[data-testid=replay-stock]");
  const stockCount = board.querySelector(".rp-stock-count");
  const discardEl = board.querySelector("[data-testid=replay-discard]");
  const drawnFigure = board.querySelector(".rp-drawn");
  const drawnEl = board.querySelector("[data-testid=replay-drawn]");
  const roundEnd = board.querySelector("[data-testid=replay-round-end]");
  const seatsEl = board.querySelector(".rp-golf-seats");

  const seats = data.players.map((player, seat) => {
    const li = document.createElement("li");
    li.className = "rp-golf-seat";
    li.dataset.seat = String(seat);
    li.setAttribute("data-testid", "replay-grid");
    li.innerHTML =
      `<div class="rp-seat-head"><span class="rp-seat-name"></span>` +
      `<span class="rp-seat-stats muted"></span></div><div class="rp-grid"></div>`;
    li.querySelector(".rp-seat-name").textContent = player.bot ? interpolate(gettext("%(name)s (%(level)s)"), { name: shortName(player), level: levelLabel(player.level) }, true) : player.name;
    return li;
  });
  seatsEl.replaceChildren(...seats);

  function back(label) {
    const div = document.createElement("div");
    div.className = "rp-back";
    div.setAttribute("role", "img");
    div.setAttribute("aria-label", label);
    return div;
  }

  function face(code, label) {
    const card = cardFace(code);
    card.setAttribute("aria-label", label || cardName(code));
    return card;
  }

  function gridCards(grid, up, highlight) {
    return POSITIONS.map((pos) => {
      const code = grid[pos];
      const faceUp = (up >> pos) & 1;
      const card = face(
        code,
        faceUp
          ? interpolate(gettext("card %(n)s: %(card)s"), { n: pos + 1, card: cardName(code) }, true)
          : interpolate(gettext("card %(n)s: %(card)s, face down"), { n: pos + 1, card: cardName(code) }, true),
      );
      card.setAttribute("data-testid", "replay-grid-card");
      card.dataset.pos = String(pos);
      card.dataset.up = faceUp ? "true" : "false";
      card.classList.toggle("rp-down", !faceUp);
      card.classList.toggle("rp-last", pos === highlight);
      return card;
    });
  }

  function render(index) {
    const step = steps[index];
    const view = step.view;
    const { kind, pos } = step.move ? parseMove(step.move) : { kind: null, pos: null };
    // A move that ended a round shows the next deal: nothing of it to highlight.
    const sameRound = index > 0 && steps[index - 1].view.round === view.round && !view.over;

    stockEl.replaceChildren(view.stock ? back(interpolate(gettext("the stock: %(cards)s"), { cards: cardCount(view.stock) }, true)) : "");
    stockCount.textContent = `${gettext("Stock")} · ${view.stock}`;
    discardEl.replaceChildren(view.discard ? face(view.discard, interpolate(gettext("discard pile: %(card)s"), { card: cardName(view.discard) }, true)) : "");
    discardEl.classList.toggle("rp-last", sameRound && (kind === "take" || kind === "swap" || kind === "discard"));
    const holder = view.holding.indexOf(true);
    drawnFigure.hidden = !view.drawn;
    if (view.drawn) {
      drawnEl.replaceChildren(face(view.drawn, interpolate(gettext("%(name)s holds %(card)s"), { name: name(holder), card: cardName(view.drawn, "object") }, true)));
      drawnFigure.querySelector("figcaption").textContent = interpolate(gettext("Drawn by %(name)s"), { name: name(holder) }, true);
    }
    drawnEl.classList.toggle("rp-last", kind === "draw");

    seats.forEach((li, seat) => {
      const bits = [interpolate(gettext("total %(score)s"), { score: view.totals[seat] }, true)];
      if (view.phase === "reveal") bits.push(view.ready[seat] ? gettext("ready") : gettext("turning up"));
      if (view.went_out === seat) bits.push(gettext("went out"));
      if (!view.over && view.to_move === seat) bits.push(gettext("to move"));
      li.querySelector(".rp-seat-stats").textContent = bits.join(" · ");
      li.classList.toggle("to-move", !view.over && view.to_move === seat);
      li.classList.toggle("rp-actor", step.seat === seat);
      li.classList.toggle("went-out", view.went_out === seat);
      const highlight = sameRound && step.seat === seat ? pos : null;
      li.querySelector(".rp-grid").replaceChildren(...gridCards(view.grids[seat], view.up[seat], highlight));
    });

    renderRoundEnd(view);
  }

  /** The round just scored: during the next round's reveal phase, and at the end. */
  function renderRoundEnd(view) {
    const last = view.last_round;
    const show = Boolean(last) && (view.phase === "reveal" || view.over);
    roundEnd.hidden = !show;
    if (!show) return;
    const heading = document.createElement("p");
    heading.className = "rp-round-end-title";
    heading.textContent = view.over
      ? interpolate(gettext("Round %(round)s scored (the last round):"), { round: last.round }, true)
      : interpolate(gettext("Round %(round)s scored:"), { round: last.round }, true);
    const list = document.createElement("ul");
    list.className = "rp-round-scores";
    last.scores.forEach((score, seat) => {
      const li = document.createElement("li");
      li.dataset.seat = String(seat);
      let text = `${name(seat)} ${score}`;
      if (last.penalty === seat) text += ` ${gettext("(+10 for going out without the lowest score)")}`;
      else if (last.went_out === seat) text += ` ${gettext("(went out)")}`;
      li.textContent = text;
      list.append(li);
    });
    roundEnd.replaceChildren(heading, list);
    if (!view.over) {
      const grids = document.createElement("div");
      grids.className = "rp-round-end-grids";
      last.grids.forEach((grid, seat) => {
        const figure = document.createElement("figure");
        figure.className = "rp-mini-grid";
        const caption = document.createElement("figcaption");
        caption.textContent = name(seat);
        const cards = document.createElement("div");
        cards.className = "rp-grid";
        const matched = new Set(last.matched[seat]);
        cards.append(
          ...POSITIONS.map((pos) => {
            const card = face(grid[pos]);
            card.classList.toggle("rp-matched", matched.has(pos));
            return card;
          }),
        );
        figure.append(caption, cards);
        grids.append(figure);
      });
      roundEnd.append(grids);
    }
  }

  /** What the step's move did, after the player's name; the previous step shows the cards involved. */
  function describe(index) {
    const step = steps[index];
    const before = steps[index - 1].view;
    const after = step.view;
    const { kind, pos } = parseMove(step.move);
    const seat = step.seat;
    const fragment = document.createDocumentFragment();
    const add = (...bits) => fragment.append(...bits);
    const n = String(pos + 1);
    const there = pos === null ? null : before.grids[seat][pos];
    const say = (template, parts) => fillIn(fragment, template, { n, ...parts });
    switch (kind) {
      case "ready":
        add(gettext("is ready"));
        break;
      case "draw":
        say(gettext("drew %(card)s from the stock"), { card: cardLabel(after.drawn, "object") });
        break;
      case "flip":
        say(gettext("turned up card %(n)s: %(card)s"), { card: cardLabel(there) });
        break;
      case "swap":
        say(gettext("put %(card)s at card %(n)s, discarding %(old)s"), { card: cardLabel(before.drawn, "object"), old: cardLabel(there, "object") });
        break;
      case "discard":
        say(gettext("discarded %(card)s and turned up card %(n)s: %(old)s"), { card: cardLabel(before.drawn, "object"), old: cardLabel(there) });
        break;
      case "take":
        say(gettext("took %(card)s from the discard pile for card %(n)s, discarding %(old)s"), { card: cardLabel(before.discard, "object"), old: cardLabel(there, "object") });
        break;
      default:
        add(step.move);
    }
    if (after.phase === "turn" && after.went_out === seat && before.went_out !== seat) {
      const out = document.createElement("strong");
      out.textContent = ` \u2014 ${gettext("went out!")}`;
      add(out);
    }
    if (after.round !== before.round || (after.over && !before.over)) {
      const end = document.createElement("strong");
      end.className = "rp-log-round";
      end.textContent = ` \u2014 ${interpolate(gettext("round %(round)s ends"), { round: before.round }, true)}`;
      add(end);
    }
    return fragment;
  }

  function caption(index) {
    const view = steps[index].view;
    let did = "";
    if (index > 0) did = `${name(steps[index].seat)} ${describe(index).textContent}. `;
    if (view.over) {
      const winners = (data.result.winners || []).map(name);
      const names = winners.length > 1 ? interpolate(gettext("%(names)s and %(last)s"), { names: winners.slice(0, -1).join(", "), last: winners[winners.length - 1] }, true) : winners.join("");
      return did + (winners.length > 1
        ? interpolate(gettext("The match is over: %(names)s share the lowest total."), { names }, true)
        : interpolate(gettext("The match is over: %(names)s wins with the lowest total."), { names }, true));
    }
    const round = interpolate(gettext("Round %(round)s of %(rounds)s"), { round: view.round, rounds: view.rounds }, true);
    if (view.phase === "reveal") {
      const ready = view.ready.filter(Boolean).length;
      return `${did}${round}: ${interpolate(gettext("everyone turns up two cards (%(ready)s of %(players)s ready)."), { ready, players: view.players }, true)}`;
    }
    let text = view.drawn
      ? interpolate(gettext("%(name)s to move holding %(card)s"), { name: name(view.to_move), card: cardText(view.drawn) }, true)
      : interpolate(gettext("%(name)s to move"), { name: name(view.to_move) }, true);
    text = `${did}${round}: ${text}`;
    if (view.went_out !== null) {
      const turns = view.final_turns.length;
      text += ` (${interpolate(ngettext("%(name)s went out: %(count)s last turn left", "%(name)s went out: %(count)s last turns left", turns), { name: name(view.went_out), count: turns }, true)})`;
    }
    return `${text}.`;
  }

  /** The cards a move would touch: the grid position, the pile it takes from or puts on. */
  function highlight(index, move, seat) {
    const { kind, pos } = parseMove(move);
    const li = seats[seat];
    const marked = [];
    if (li && pos !== null) marked.push(li.querySelector(`.rp-grid [data-pos="${pos}"]`));
    if (kind === "draw") marked.push(stockEl);
    if (kind === "take" || kind === "discard") marked.push(discardEl);
    if (kind === "swap" || kind === "discard") marked.push(drawnEl);
    if (kind === "ready" && li) marked.push(li.querySelector(".rp-seat-head"));
    const found = marked.filter(Boolean);
    for (const element of found) element.classList.add("rp-better");
    return found.length;
  }

  const help = gettext("Every grid is shown as it was; the cards still face down at that moment are dimmed and hatched.");

  return { render, describe, caption, help, highlight };
}
