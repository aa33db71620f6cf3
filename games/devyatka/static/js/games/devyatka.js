// Devyatka and Keft at the table: four suit lanes, the opponents' fans, your
// hand, the results and the move log's lines. The shell (../table.js) owns the
// socket, versions, seats, clock and panels; it calls the functions below.

import { levelLabel } from "../bot-names.js";
import { absentWord } from "../seat-status.js";
import { handKeys, otherSeats } from "../table-keys.js";
import { SUIT_NAMES, cardCount, cardFace, cardLabel, cardName, fillIn, ordinal, rankLabel, rankOf, suitSvg } from "../cards.js";

const SUITS = ["C", "D", "H", "S"];
const RANKS = ["6", "7", "8", "9", "T", "J", "Q", "K", "A"];

// Text through the page's static catalog (gettext, ngettext, interpolate: base.html).
function passCount(n) {
  return interpolate(ngettext("%(count)s pass", "%(count)s passes", n), { count: n }, true);
}

/** "Out 2nd": the place in which a player went out. */
function outText(outAt) {
  return interpolate(gettext("Out %(place)s"), { place: ordinal(outAt + 1) }, true);
}

export function createRenderer(shell) {
  const { el } = shell;
  const passBubbles = new Map(); // seat -> timeout id

  /** The last card played in this game, highlighted on the board. */
  function lastCard() {
    const moves = shell.moves();
    for (let i = moves.length - 1; i >= 0; i--) if (moves[i].move !== "pass") return moves[i].move;
    return null;
  }

  function render() {
    renderOpponents();
    renderBoard();
    renderMe();
    renderHand();
  }

  function renderOpponents() {
    const { view, table } = shell.frame();
    const me = shell.mySeat();
    const order = otherSeats(me, view.players);
    const key = order.join(",");
    if (el.opponents.dataset.key !== key) {
      el.opponents.dataset.key = key;
      el.opponents.replaceChildren(
        ...order.map((seat) => {
          const li = document.createElement("li");
          li.className = "opponent";
          li.dataset.seat = String(seat);
          li.innerHTML =
            `<div class="fan" aria-hidden="true"></div>` +
            `<div class="opponent-name"><span class="name"></span><span class="bot-badge" hidden>${gettext("bot")}</span><span class="away-badge" hidden>${gettext("away")}</span></div>` +
            `<div class="opponent-stats muted"></div>` +
            `<span class="bubble pass-bubble" hidden>${gettext("passed")}</span>`;
          li.setAttribute("data-testid", "opponent");
          return li;
        }),
      );
      el.opponents.dataset.count = String(order.length);
    }
    for (const li of el.opponents.children) {
      const seat = Number(li.dataset.seat);
      const count = view.counts[seat];
      const passes = view.passes[seat];
      const outAt = view.out.indexOf(seat);
      const entry = table.seats.find((s) => s.position === seat);
      li.querySelector(".name").textContent = shell.seatName(seat);
      li.querySelector(".bot-badge").hidden = !(entry && entry.bot);
      if (entry && entry.bot) {
        const badge = li.querySelector(".bot-badge");
        badge.textContent = levelLabel(entry.level);
        badge.title = badge.textContent;
      }
      li.classList.toggle("is-bot", Boolean(entry && entry.bot));
      li.querySelector(".away-badge").hidden = !(entry && entry.away && !entry.bot);
      li.querySelector(".away-badge").textContent = absentWord(table);
      li.classList.toggle("to-move", !view.over && view.to_move === seat);
      li.classList.toggle("is-out", outAt >= 0);
      let stats = `${cardCount(count)} · ${passCount(passes)}`;
      if (outAt >= 0) stats = `${outText(outAt)} · ${passCount(passes)}`;
      li.querySelector(".opponent-stats").textContent = stats;
      li.setAttribute(
        "aria-label",
        !view.over && view.to_move === seat
          ? interpolate(gettext("%(name)s: %(stats)s, to move"), { name: shell.seatName(seat), stats }, true)
          : interpolate(gettext("%(name)s: %(stats)s"), { name: shell.seatName(seat), stats }, true),
      );
      renderFan(li.querySelector(".fan"), count);
    }
  }

  function renderFan(fan, count) {
    if (fan.dataset.count === String(count)) return;
    fan.dataset.count = String(count);
    const shown = Math.min(count, 18);
    const spread = Math.min(7, 70 / Math.max(shown, 1));
    const backs = [];
    for (let i = 0; i < shown; i++) {
      const back = document.createElement("span");
      back.className = "card-back";
      const angle = (i - (shown - 1) / 2) * spread;
      back.style.transform = `rotate(${angle.toFixed(1)}deg)`;
      backs.push(back);
    }
    fan.replaceChildren(...backs);
  }

  function buildBoard() {
    const lanes = SUITS.map((suit) => {
      const lane = document.createElement("div");
      lane.className = `lane suit-${suit}`;
      lane.setAttribute("data-testid", `row-${suit}`);
      lane.dataset.suit = suit;
      lane.setAttribute("role", "group");
      lane.setAttribute("aria-label", SUIT_NAMES[suit]);
      const label = document.createElement("div");
      label.className = "lane-label";
      label.innerHTML = suitSvg(suit, "suit lane-suit");
      lane.append(label);
      for (const rank of RANKS) {
        const slot = document.createElement("div");
        slot.className = `slot${rank === "9" ? " nine" : ""}`;
        slot.dataset.card = rank + suit;
        slot.innerHTML = `<span class="ghost" aria-hidden="true">${rankLabel(rank)}</span>`;
        lane.append(slot);
      }
      return lane;
    });
    el.board.replaceChildren(...lanes);
    el.board.dataset.built = "devyatka";
  }

  function renderBoard() {
    const { view } = shell.frame();
    const last = lastCard();
    if (el.board.dataset.built !== "devyatka") buildBoard();
    for (const suit of SUITS) {
      const row = view.rows[suit];
      const low = row ? RANKS.indexOf(rankOf(row[0])) : -1;
      const high = row ? RANKS.indexOf(rankOf(row[1])) : -2;
      const lane = el.board.querySelector(`[data-suit=${suit}]`);
      lane.classList.toggle("open", Boolean(row));
      lane.setAttribute(
        "aria-label",
        row
          ? // Translators: low is "from the six of spades", high "to the nine of spades" (cards.js, RANK_FORMS).
            interpolate(pgettext("row of cards", "%(suit)s: %(low)s %(high)s"), { suit: SUIT_NAMES[suit], low: cardName(row[0], "from"), high: cardName(row[1], "to") }, true)
          : interpolate(gettext("%(suit)s: not open"), { suit: SUIT_NAMES[suit] }, true),
      );
      RANKS.forEach((rank, i) => {
        const code = rank + suit;
        const slot = lane.querySelector(`[data-card="${code}"]`);
        const played = i >= low && i <= high;
        const existing = slot.querySelector(".card");
        if (played && !existing) {
          const card = cardFace(code);
          card.setAttribute("data-testid", "board-card");
          slot.append(card);
        } else if (!played && existing) {
          existing.remove();
        }
        const next = row ? i === low - 1 || i === high + 1 : rank === "9" && (suit === "D" || Boolean(view.rows.D));
        slot.classList.toggle("filled", played);
        slot.classList.toggle("next", !view.over && next);
        slot.classList.toggle("last-played", played && code === last);
      });
    }
  }

  function renderMe() {
    const { view } = shell.frame();
    const me = shell.mySeat();
    el.meBar.hidden = me === null;
    el.hand.hidden = me === null;
    el.handHelp.hidden = me === null || view.over;
    if (me === null) return;
    const outAt = view.out.indexOf(me);
    el.meBar.querySelector(".me-name").textContent = interpolate(gettext("%(name)s (you)"), { name: shell.seatName(me) }, true);
    el.meBar.querySelector(".me-stats").textContent =
      outAt >= 0
        ? `${outText(outAt)} · ${passCount(view.passes[me])}`
        : `${cardCount(view.counts[me])} · ${passCount(view.passes[me])}`;
    el.meBar.classList.toggle("to-move", shell.isMyTurn());
    el.meBar.dataset.seat = String(me);
  }

  function renderHand() {
    const frame = shell.frame();
    if (!frame || !frame.view) return;
    const { view } = frame;
    if (shell.mySeat() === null) {
      el.hand.replaceChildren();
      return;
    }
    const myTurn = shell.isMyTurn();
    const legal = new Set(view.legal || []);
    const active = myTurn && shell.canAct();
    // Focus stays in the hand across redraws (a move, the next turn): see keepFocus().
    const hadFocus = el.hand.contains(document.activeElement);
    const focused = document.activeElement?.closest?.("[data-testid=hand-card]")?.dataset.card;
    el.hand.classList.toggle("my-turn", myTurn);
    el.hand.classList.toggle("sending", shell.pending());
    el.hand.setAttribute("aria-label", myTurn ? gettext("Your hand: your turn") : gettext("Your hand"));
    let legalIndex = 0;
    const cards = (view.hand || []).map((code) => {
      const isLegal = myTurn && legal.has(code);
      const card = cardFace(code, "button");
      card.type = "button";
      card.setAttribute("data-testid", "hand-card");
      card.dataset.legal = String(isLegal);
      card.classList.toggle("legal", isLegal);
      card.classList.toggle("dim", myTurn && !isLegal);
      card.disabled = !(active && isLegal);
      let label = cardName(code);
      if (isLegal) {
        legalIndex += 1;
        card.dataset.key = String(legalIndex);
        if (legalIndex <= 9) {
          card.insertAdjacentHTML("beforeend", `<span class="keycap" aria-hidden="true">${legalIndex}</span>`);
          label = interpolate(gettext("%(card)s, playable, key %(key)s"), { card: label, key: legalIndex }, true);
        } else {
          label = interpolate(gettext("%(card)s, playable"), { card: label }, true);
        }
      } else {
        label = interpolate(gettext("%(card)s, not playable"), { card: label }, true);
      }
      card.setAttribute("aria-label", label);
      return card;
    });
    if (!cards.length && !view.over) {
      const note = document.createElement("p");
      note.className = "muted hand-empty";
      note.textContent = gettext("Your hand is empty: you are out.");
      cards.push(note);
    }
    el.hand.replaceChildren(...cards);
    fitHand();
    if (hadFocus) keepFocus(focused);
  }

  /** The same card if it can still be played, else the first playable one, else the hand itself. */
  function keepFocus(code) {
    const again = code ? el.hand.querySelector(`[data-card="${code}"]:not(:disabled)`) : null;
    const target = again || el.hand.querySelector("[data-testid=hand-card]:not(:disabled)") || el.hand;
    if (document.activeElement !== target) target.focus({ preventScroll: true });
  }

  /** Overlap the hand's cards just enough to fit one row; past a limit, let it wrap. */
  function fitHand() {
    const cards = el.hand.querySelectorAll(".card");
    if (!cards.length) return;
    const style = getComputedStyle(el.hand);
    const cardWidth = cards[0].getBoundingClientRect().width;
    const room = el.hand.clientWidth - parseFloat(style.paddingRight) - 8;
    const n = cards.length;
    const needed = n > 1 ? (n * cardWidth - room) / (n - 1) + 1 : 0;
    const overlap = Math.min(Math.max(needed, -6), cardWidth * 0.42);
    el.hand.style.setProperty("--overlap", `${Math.ceil(overlap)}px`);
  }

  function renderResults() {
    const { view } = shell.frame();
    const result = view.result;
    const me = shell.mySeat();
    const who = (seat) => (seat === me ? interpolate(gettext("%(name)s (you)"), { name: shell.seatName(seat) }, true) : shell.seatName(seat));
    const resigned = new Set(result.resigned || []);
    let summary;
    if (view.keft && resigned.has(result.loser)) {
      summary = result.loser === me
        ? gettext("You lose this one: you left the game.")
        : interpolate(gettext("%(name)s loses: left the game."), { name: shell.seatName(result.loser) }, true);
    } else if (view.keft) {
      summary = result.loser === me
        ? gettext("You lose this one: the last with cards.")
        : interpolate(gettext("%(name)s loses: the last with cards."), { name: shell.seatName(result.loser) }, true);
    } else {
      summary = result.winner === me
        ? gettext("You win: out first!")
        : interpolate(gettext("%(name)s wins: out first."), { name: shell.seatName(result.winner) }, true);
    }
    el.resultsSummary.textContent = summary;
    shell.resultsTable({
      places: result.places,
      resigned: result.resigned,
      head: view.keft ? [gettext("Cards left"), gettext("Passes")] : [gettext("Cards left"), gettext("Points"), gettext("Passes")],
      cells: (seat) => (view.keft ? [result.cards_left[seat], result.passes[seat]] : [result.cards_left[seat], result.points[seat], result.passes[seat]]),
      marks: (seat) => ({ winner: !view.keft && seat === result.winner, loser: view.keft && seat === result.loser }),
    });
    el.resultsNote.hidden = !view.keft;
    if (view.keft) {
      const order = result.out.map((seat, i) => `${i + 1}. ${who(seat)}`).join(" · ");
      el.resultsNote.textContent = interpolate(
        gettext("Out order: %(order)s · Loser: %(loser)s"),
        { order: order || gettext("nobody"), loser: who(result.loser) },
        true,
      );
    }
    const hands = result.hands || [];
    el.revealedHeading.hidden = false;
    el.revealed.replaceChildren(
      ...hands.map((hand, seat) => {
        const div = document.createElement("div");
        div.className = "revealed";
        div.setAttribute("data-testid", "revealed-hand");
        div.dataset.seat = String(seat);
        const name = document.createElement("span");
        name.className = "revealed-name";
        name.textContent = who(seat);
        const cards = document.createElement("div");
        cards.className = "mini-cards";
        if (hand.length) cards.append(...hand.map((code) => cardFace(code)));
        else cards.innerHTML = `<span class="muted">${gettext("no cards left")}</span>`;
        div.append(name, cards);
        return div;
      }),
    );
  }

  /** One move log line after the player's name: "played 7♦" or "passed". */
  function describeMove(li, event) {
    // The line starts with the player's name: "Anna" + " played 7♦".
    if (event.move === "pass") {
      li.className = "pass";
      li.append(" ", gettext("passed"));
    } else {
      li.append(" ");
      fillIn(li, gettext("played %(card)s"), { card: cardLabel(event.move, "object") });
    }
  }

  /** After a live update: a short "passed" bubble on whoever passed. */
  function onEvents(events) {
    for (const event of events) if (event.move === "pass") showPass(event.seat);
  }

  function showPass(seat) {
    const me = shell.mySeat();
    const holder = seat === me ? el.meBar : el.opponents.querySelector(`[data-seat="${seat}"]`);
    const bubble = holder?.querySelector(".pass-bubble");
    if (!bubble) return;
    bubble.textContent = seat === me ? gettext("you passed") : gettext("passed");
    bubble.hidden = false;
    bubble.classList.remove("pop");
    void bubble.offsetWidth; // restart the animation
    bubble.classList.add("pop");
    clearTimeout(passBubbles.get(seat));
    passBubbles.set(
      seat,
      setTimeout(() => {
        bubble.hidden = true;
      }, 1800),
    );
  }

  function playableButtons() {
    return [...el.hand.querySelectorAll("[data-testid=hand-card][data-legal=true]:not(:disabled)")];
  }

  el.hand.addEventListener("click", (event) => {
    const card = event.target.closest("[data-testid=hand-card]");
    if (card && !card.disabled) shell.play(card.dataset.card);
  });

  /** Number keys play the n-th lifted card; arrows move between them. */
  function keydown(event) {
    handKeys(event, playableButtons(), (button) => shell.play(button.dataset.card));
  }

  return {
    render,
    renderHand,
    renderResults,
    describeMove,
    onEvents,
    keydown,
    resize: fitHand,
    yourTurn: () => gettext("Your turn: play a lifted card."),
    sending: () => gettext("Playing your card…"),
  };
}
