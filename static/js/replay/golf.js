// Nine-card Golf in the replay (../replay.js): the stock, the discard pile, the
// drawn card and every player's grid as it was at one step, face-down cards
// shown dimmed (the match is over, so nothing is hidden any more). A step's
// view is the registry's full-information replay view: Golf's spectator view
// with `grids` holding every code, `up` the face-up masks (bit 1 << N) and
// `drawn` whoever's drawn card.

import { cardFace, cardLabel, cardName, cardText, plural } from "../cards.js";

const POSITIONS = [0, 1, 2, 3, 4, 5, 6, 7, 8];

function parseMove(move) {
  const [kind, n] = String(move).split(" ");
  return { kind, pos: n === undefined ? null : Number(n) };
}

export function createReplayRenderer({ board, data }) {
  const steps = data.steps;
  const name = (seat) => (data.players[seat] ? data.players[seat].name : `Seat ${seat + 1}`);

  board.classList.add("rp-golf");
  board.innerHTML =
    `<div class="rp-golf-table">` +
    `<figure class="rp-pile"><div class="rp-pile-card" data-testid="replay-stock"></div><figcaption class="rp-stock-count"></figcaption></figure>` +
    `<figure class="rp-pile"><div class="rp-pile-card" data-testid="replay-discard"></div><figcaption>Discard</figcaption></figure>` +
    `<figure class="rp-pile rp-drawn"><div class="rp-pile-card" data-testid="replay-drawn"></div><figcaption></figcaption></figure>` +
    `</div>` +
    `<div class="rp-round-end" data-testid="replay-round-end" hidden></div>` +
    `<ol class="rp-golf-seats" aria-label="Every grid"></ol>`;
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
    li.querySelector(".rp-seat-name").textContent = player.name + (player.bot ? " (bot)" : "");
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
      const card = face(code, `card ${pos + 1}: ${cardName(code)}${faceUp ? "" : ", face down"}`);
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

    stockEl.replaceChildren(view.stock ? back(`the stock: ${plural(view.stock, "card")}`) : "");
    stockCount.textContent = `Stock · ${view.stock}`;
    discardEl.replaceChildren(view.discard ? face(view.discard, `discard pile: ${cardName(view.discard)}`) : "");
    discardEl.classList.toggle("rp-last", sameRound && (kind === "take" || kind === "swap" || kind === "discard"));
    const holder = view.holding.indexOf(true);
    drawnFigure.hidden = !view.drawn;
    if (view.drawn) {
      drawnEl.replaceChildren(face(view.drawn, `${name(holder)} holds ${cardName(view.drawn)}`));
      drawnFigure.querySelector("figcaption").textContent = `Drawn by ${name(holder)}`;
    }
    drawnEl.classList.toggle("rp-last", kind === "draw");

    seats.forEach((li, seat) => {
      const bits = [`total ${view.totals[seat]}`];
      if (view.phase === "reveal") bits.push(view.ready[seat] ? "ready" : "turning up");
      if (view.went_out === seat) bits.push("went out");
      if (!view.over && view.to_move === seat) bits.push("to move");
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
    heading.textContent = `Round ${last.round} scored${view.over ? " (the last round)" : ""}:`;
    const list = document.createElement("ul");
    list.className = "rp-round-scores";
    last.scores.forEach((score, seat) => {
      const li = document.createElement("li");
      li.dataset.seat = String(seat);
      let text = `${name(seat)} ${score}`;
      if (last.penalty === seat) text += " (+10 for going out without the lowest score)";
      else if (last.went_out === seat) text += " (went out)";
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
    const slot = `card ${pos + 1}`;
    const there = pos === null ? null : before.grids[seat][pos];
    switch (kind) {
      case "ready":
        add("is ready");
        break;
      case "draw":
        add("drew ", cardLabel(after.drawn), " from the stock");
        break;
      case "flip":
        add(`turned up ${slot}: `, cardLabel(there));
        break;
      case "swap":
        add("put ", cardLabel(before.drawn), ` at ${slot}, discarding `, cardLabel(there));
        break;
      case "discard":
        add("discarded ", cardLabel(before.drawn), ` and turned up ${slot}: `, cardLabel(there));
        break;
      case "take":
        add("took ", cardLabel(before.discard), ` from the discard pile for ${slot}, discarding `, cardLabel(there));
        break;
      default:
        add(step.move);
    }
    if (after.phase === "turn" && after.went_out === seat && before.went_out !== seat) {
      const out = document.createElement("strong");
      out.textContent = " \u2014 went out!";
      add(out);
    }
    if (after.round !== before.round || (after.over && !before.over)) {
      const end = document.createElement("strong");
      end.className = "rp-log-round";
      end.textContent = ` \u2014 round ${before.round} ends`;
      add(end);
    }
    return fragment;
  }

  function caption(index) {
    const view = steps[index].view;
    let did = "";
    if (index > 0) did = `${name(steps[index].seat)} ${describe(index).textContent}. `;
    if (view.over) {
      const winners = (data.result.winners || []).map(name).join(" and ");
      return `${did}The match is over: ${winners} ${data.result.winners?.length > 1 ? "share" : "wins with"} the lowest total.`;
    }
    const round = `Round ${view.round} of ${view.rounds}`;
    if (view.phase === "reveal") {
      const ready = view.ready.filter(Boolean).length;
      return `${did}${round}: everyone turns up two cards (${ready} of ${view.players} ready).`;
    }
    let text = `${did}${round}: ${name(view.to_move)} to move`;
    if (view.drawn) text += ` holding ${cardText(view.drawn)}`;
    if (view.went_out !== null) text += ` (${name(view.went_out)} went out: ${plural(view.final_turns.length, "last turn")} left)`;
    return `${text}.`;
  }

  const help = "Every grid is shown as it was; the cards still face down at that moment are dimmed and hatched.";

  return { render, describe, caption, help };
}
