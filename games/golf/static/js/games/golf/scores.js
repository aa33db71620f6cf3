// Golf's scores: between rounds the last round's grids (matches, the +10
// penalty) and every round's totals; at the end of the match the shell's
// results panel (places, round scores, the last grids).

import { cardText } from "../../cards.js";
import { listNames, miniCard, seatHelpers, signed } from "./rules.js";

/** `section()`: the scores panel Golf adds to the game; `wentOutByRound`: from the log reader. */
export function createScores(shell, { section, wentOutByRound }) {
  const { el } = shell;
  const { view, me, whoCap } = seatHelpers(shell);

  // -------------------------------------------------------------------------
  // Scores: the last round (revealed grids, matches, penalty) and every round's totals

  function renderScores() {
    const scores = section();
    const v = view();
    const n = v.players;
    const mine = me();
    const played = v.round_scores[0].length;
    const showLast = Boolean(v.last_round) && (v.phase === "reveal" || v.over);
    const key = JSON.stringify([v.round_scores, v.totals, showLast ? v.last_round : null, v.rounds, mine, shell.frame().table.seats.map((s) => s.name)]);
    // Once the match is over the results panel has all of this.
    scores.hidden = v.over || (played === 0 && !showLast);
    if (scores.dataset.key === key) return;
    scores.dataset.key = key;
    scores.replaceChildren();
    const h2 = document.createElement("h2");
    h2.id = "golf-scores-heading";
    h2.textContent = gettext("Scores");
    scores.append(h2);

    if (showLast) {
      const lr = v.last_round;
      const block = document.createElement("div");
      block.className = "golf-last-round";
      block.setAttribute("data-testid", "golf-last-round");
      const h3 = document.createElement("h3");
      h3.textContent = interpolate(gettext("Round %(round)s: every card turned up"), { round: lr.round }, true);
      const note = document.createElement("p");
      note.className = "muted golf-note";
      const outName = { name: whoCap(lr.went_out) };
      note.textContent = [
        lr.penalty !== null
          ? interpolate(gettext("%(name)s went out and scored +10: someone else was lower."), outName, true)
          : interpolate(gettext("%(name)s went out with the lowest score: no penalty."), outName, true),
        v.column_rule === "three"
          ? gettext("Cards of one rank in a column score 0 when all three match.")
          : gettext("Cards of one rank in a column score 0."),
      ].join(" ");
      const list = document.createElement("div");
      list.className = "golf-last-grids";
      for (let seat = 0; seat < n; seat++) {
        const item = document.createElement("div");
        item.className = "golf-last-seat";
        item.dataset.seat = String(seat);
        item.classList.toggle("me", seat === mine);
        const name = document.createElement("div");
        name.className = "golf-last-name";
        name.textContent = (seat === mine ? interpolate(gettext("%(name)s (you)"), { name: shell.seatName(seat) }, true) : shell.seatName(seat));
        if (seat === lr.went_out) name.insertAdjacentHTML("beforeend", ` <span class="golf-tag out">${gettext("out")}</span>`);
        const grid = document.createElement("div");
        grid.className = "golf-grid mini";
        grid.setAttribute("role", "img");
        const matched = new Set(lr.matched[seat]);
        grid.setAttribute(
          "aria-label",
          `${shell.seatName(seat)}: ${lr.grids[seat].map((c, pos) => (matched.has(pos) ? interpolate(gettext("%(card)s (matched)"), { card: cardText(c) }, true) : cardText(c))).join(", ")}`,
        );
        lr.grids[seat].forEach((code, pos) => {
          const card = miniCard(code);
          card.classList.toggle("matched", matched.has(pos));
          card.setAttribute("aria-hidden", "true");
          grid.append(card);
        });
        for (const col of lr.matched_columns[seat]) grid.classList.add(`match-col-${col}`);
        const sum = document.createElement("div");
        sum.className = "golf-last-score";
        const pen = lr.penalty === seat;
        sum.innerHTML = pen
          ? `<span>${signed(lr.raw[seat])}</span> <span class="golf-pen">+10</span> = <strong>${signed(lr.scores[seat])}</strong>`
          : `<strong>${signed(lr.scores[seat])}</strong>`;
        item.append(name, grid, sum);
        list.append(item);
      }
      block.append(h3, note, list);
      scores.append(block);
    }

    // Every round so far, and the totals.
    const outs = wentOutByRound();
    const wrap = document.createElement("div");
    wrap.className = "table-scroll";
    const table = document.createElement("table");
    table.className = "data golf-score-table";
    const caption = document.createElement("caption");
    caption.className = "visually-hidden";
    caption.textContent = gettext("Round scores and totals");
    table.append(caption);
    const head = document.createElement("thead");
    const hr = document.createElement("tr");
    hr.innerHTML = `<th scope="col">${gettext("Player")}</th>`;
    for (let r = 1; r <= v.rounds; r++) {
      const title = interpolate(gettext("Round %(round)s"), { round: r }, true);
      hr.insertAdjacentHTML("beforeend", `<th scope="col" class="num${r > played ? " future" : ""}" title="${title}">${r}</th>`);
    }
    hr.insertAdjacentHTML("beforeend", `<th scope="col" class="num">${gettext("Total")}</th>`);
    head.append(hr);
    const body = document.createElement("tbody");
    for (let seat = 0; seat < n; seat++) {
      const tr = document.createElement("tr");
      tr.dataset.seat = String(seat);
      tr.classList.toggle("me", seat === mine);
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = (seat === mine ? interpolate(gettext("%(name)s (you)"), { name: shell.seatName(seat) }, true) : shell.seatName(seat));
      tr.append(th);
      for (let r = 1; r <= v.rounds; r++) {
        const td = document.createElement("td");
        td.className = "num";
        if (r <= played) {
          const score = v.round_scores[seat][r - 1];
          td.textContent = signed(score);
          if (outs.get(r) === seat) {
            const others = v.round_scores.filter((_, s) => s !== seat).map((list) => list[r - 1]);
            const penalised = score > Math.min(...others);
            td.classList.add("went-out");
            td.title = penalised ? gettext("Went out, not the lowest: +10 included") : gettext("Went out");
            td.insertAdjacentHTML(
              "beforeend",
              penalised
                ? `<sup class="golf-pen" aria-label="${gettext("went out, plus 10 penalty included")}">+10</sup>`
                : `<sup class="golf-out" aria-label="${gettext("went out")}">${gettext("out")}</sup>`,
            );
          }
        } else {
          td.classList.add("future");
        }
        tr.append(td);
      }
      const total = document.createElement("td");
      total.className = "num golf-total";
      total.textContent = signed(v.totals[seat]);
      tr.append(total);
      body.append(tr);
    }
    table.append(head, body);
    wrap.append(table);
    const legend = document.createElement("p");
    legend.className = "muted golf-note";
    legend.textContent = gettext("out: went out that round · +10: went out without the lowest score (included). Lowest total wins.");
    scores.append(wrap, legend);
  }

  // -------------------------------------------------------------------------
  // The results panel at the end of the match

  function renderResults() {
    const v = view();
    const result = v.result;
    const mine = me();
    const n = v.players;
    const seats = [...Array(n).keys()].sort((a, b) => result.places[a] - result.places[b] || a - b);
    const name = (seat) => (seat === mine ? interpolate(gettext("%(name)s (you)"), { name: shell.seatName(seat) }, true) : shell.seatName(seat));
    const winners = result.winners || seats.filter((s) => result.places[s] === 1);
    const best = winners.length ? result.totals[winners[0]] : null;
    let summary;
    if (winners.length === 1) {
      summary = winners[0] === mine
        ? interpolate(gettext("You win with %(score)s!"), { score: signed(best) }, true)
        : interpolate(gettext("%(name)s wins with %(score)s."), { name: shell.seatName(winners[0]), score: signed(best) }, true);
    } else {
      const names = listNames(winners.map((s) => (s === mine ? gettext("you") : shell.seatName(s))));
      summary = interpolate(gettext("%(names)s share first place with %(score)s."), { names, score: signed(best) }, true);
    }
    el.resultsSummary.textContent = summary;
    const rounds = result.rounds || (result.round_scores[0] || []).length;
    const head = [];
    for (let r = 1; r <= rounds; r++) head.push(interpolate(gettext("R%(number)s"), { number: r }, true));
    head.push(gettext("Total"));
    shell.resultsTable({
      places: result.places,
      resigned: result.resigned,
      head,
      cells: (seat) => [...result.round_scores[seat].map(signed), signed(result.totals[seat])],
      marks: (seat) => ({ winner: result.places[seat] === 1 }),
      // Round cells: where the seat went out, with the +10 if it was not the lowest.
      decorate: (td, index, seat) => {
        if (index >= rounds || !result.went_out || result.went_out[index] !== seat) return;
        const others = result.round_scores.filter((_, s) => s !== seat).map((list) => list[index]);
        const penalised = result.round_scores[seat][index] > Math.min(...others);
        td.classList.add("went-out");
        td.insertAdjacentHTML(
          "beforeend",
          penalised
            ? `<sup class="golf-pen" title="${gettext("went out, +10 included")}">+10</sup>`
            : `<sup class="golf-out" title="${gettext("went out")}">${gettext("out")}</sup>`,
        );
      },
    });
    el.resultsNote.hidden = false;
    el.resultsNote.classList.add("golf-legend");
    const penalties = result.penalties && result.penalties.some(Boolean)
      ? ` ${interpolate(gettext("Penalties: %(list)s."), { list: seats.filter((s) => result.penalties[s]).map((s) => `${shell.seatName(s)} ${result.penalties[s]}`).join(", ") }, true)}`
      : "";
    el.resultsNote.textContent = `${gettext("Lowest total wins. out: went out that round · +10: went out without the lowest round score (included).")}${penalties}`;
    const lr = v.last_round;
    el.revealedHeading.hidden = !lr;
    el.revealedHeading.textContent = lr ? interpolate(gettext("Round %(round)s: the last grids"), { round: lr.round }, true) : "";
    el.revealed.replaceChildren(
      ...(lr
        ? lr.grids.map((cards, seat) => {
            const div = document.createElement("div");
            div.className = "revealed golf-revealed";
            div.setAttribute("data-testid", "revealed-hand");
            div.dataset.seat = String(seat);
            const label = document.createElement("span");
            label.className = "revealed-name";
            label.textContent = `${name(seat)}: ${signed(lr.scores[seat])}`;
            const grid = document.createElement("div");
            grid.className = "golf-grid mini";
            const matched = new Set(lr.matched[seat]);
            grid.setAttribute("role", "img");
            grid.setAttribute("aria-label", cards.map(cardText).join(", "));
            cards.forEach((code, pos) => {
              const card = miniCard(code);
              card.classList.toggle("matched", matched.has(pos));
              card.setAttribute("aria-hidden", "true");
              grid.append(card);
            });
            div.append(label, grid);
            return div;
          })
        : []),
    );
  }

  return { renderScores, renderResults };
}
