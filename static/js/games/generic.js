// Any game without a renderer of its own, at the table (the registry entry
// names none): each seat's view drawn as labelled figures, the seat's hand, and
// the moves the server lists as legal (view.legal) as buttons. The browser
// decides nothing: it offers exactly the server's list and the server judges
// what is sent. The words for the view's keys come from the registry entry
// (`labels`, `result_columns`: the page's #game-labels); a key without one is
// shown as it is. The shell (../table.js) owns the socket, versions, seats,
// clock and panels; it calls the functions below.
//
// gettext/ngettext/interpolate: the static catalog loaded by base.html.

import { absentWord } from "../seat-status.js";
import { handKeys, otherSeats } from "../table-keys.js";

// Keys the shell or this renderer show in their own way, never as figures.
const OWN_WAY = new Set(["legal", "hand", "over", "result", "seat", "to_move", "players"]);
// Result keys the results table shows in its own way (places, the "resigned" mark).
const RESULT_OWN_WAY = new Set(["places", "resigned"]);

function readLabels() {
  const script = document.getElementById("game-labels");
  try {
    return script ? JSON.parse(script.textContent) : {};
  } catch {
    return {};
  }
}

const isScalar = (value) => value === null || typeof value !== "object";

/** A value of the view in words: lists joined, pairs with a dash, yes/no, "–" for nothing. */
export function formatValue(value, nested = false) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "boolean") return value ? gettext("yes") : gettext("no");
  if (Array.isArray(value)) {
    if (!value.length) return "–";
    return value.map((item) => formatValue(item, true)).join(nested ? "–" : ", ");
  }
  if (typeof value === "object") {
    return Object.entries(value)
      .map(([key, item]) => `${key}: ${formatValue(item, true)}`)
      .join("; ");
  }
  return String(value);
}

export function createRenderer(shell) {
  const { el } = shell;
  const labels = readLabels();
  const label = (key) => labels[key] || key;

  function playerCount() {
    const { view, table } = shell.frame();
    return Number.isInteger(view.players) ? view.players : table.seats.length;
  }

  /** The keys of `source` that hold one value per seat (a list of `n` plain values). */
  function perSeatKeys(source, n, skip) {
    return Object.keys(source).filter((key) => {
      const value = source[key];
      return !skip.has(key) && Array.isArray(value) && value.length === n && n > 1 && value.every(isScalar);
    });
  }

  function seatFigures(seat) {
    const { view } = shell.frame();
    return perSeatKeys(view, playerCount(), OWN_WAY)
      .map((key) => interpolate(gettext("%(label)s: %(value)s"), { label: label(key), value: formatValue(view[key][seat]) }, true))
      .join(" · ");
  }

  function render() {
    el.game.dataset.game = "generic";
    renderOpponents();
    renderBoard();
    renderMe();
    renderHand();
  }

  function renderOpponents() {
    const { view, table } = shell.frame();
    const me = shell.mySeat();
    const order = otherSeats(me, playerCount());
    el.opponents.dataset.count = String(order.length);
    el.opponents.replaceChildren(
      ...order.map((seat) => {
        const entry = table.seats.find((s) => s.position === seat);
        const toMove = !view.over && view.to_move === seat;
        const li = document.createElement("li");
        li.className = "opponent";
        li.dataset.seat = String(seat);
        li.setAttribute("data-testid", "opponent");
        li.classList.toggle("to-move", toMove);
        li.classList.toggle("is-bot", Boolean(entry && entry.bot));
        const name = document.createElement("div");
        name.className = "opponent-name";
        const text = document.createElement("span");
        text.className = "name";
        text.textContent = shell.seatName(seat);
        name.append(text);
        if (entry && entry.bot) name.append(badge("bot-badge", gettext("bot")));
        if (entry && entry.away && !entry.bot) name.append(badge("away-badge", absentWord(shell.frame().table)));
        const stats = document.createElement("div");
        stats.className = "opponent-stats muted";
        stats.textContent = seatFigures(seat);
        li.append(name, stats);
        const words = stats.textContent ? `${shell.seatName(seat)}: ${stats.textContent}` : shell.seatName(seat);
        li.setAttribute("aria-label", toMove ? interpolate(gettext("%(name)s, to move"), { name: words }, true) : words);
        return li;
      }),
    );
  }

  function badge(className, text) {
    const span = document.createElement("span");
    span.className = className;
    span.textContent = text;
    return span;
  }

  /** The view's figures that are not one per seat (a trick, a pile, the options), as a list of terms. */
  function renderBoard() {
    const { view } = shell.frame();
    const perSeat = new Set(perSeatKeys(view, playerCount(), OWN_WAY));
    const keys = Object.keys(view).filter((key) => !OWN_WAY.has(key) && !perSeat.has(key));
    el.board.setAttribute("aria-label", gettext("The game"));
    const list = document.createElement("dl");
    list.className = "generic-figures";
    list.setAttribute("data-testid", "generic-figures");
    for (const key of keys) {
      const term = document.createElement("dt");
      term.textContent = label(key);
      const value = document.createElement("dd");
      value.dataset.key = key;
      value.textContent = formatValue(view[key]);
      list.append(term, value);
    }
    el.board.replaceChildren(list);
  }

  function renderMe() {
    const me = shell.mySeat();
    if (me === null) return;
    const { view } = shell.frame();
    el.meBar.querySelector(".me-name").textContent = shell.seatName(me);
    el.meBar.querySelector(".me-stats").textContent = seatFigures(me);
    el.meBar.classList.toggle("to-move", !view.over && shell.isMyTurn());
  }

  /** Your hand's items, and every legal move as a button (the ones in your hand are the hand's). */
  function renderHand() {
    const { view } = shell.frame();
    const me = shell.mySeat();
    const focused = el.hand.contains(document.activeElement) ? document.activeElement.dataset.move : null;
    const myTurn = me !== null && shell.isMyTurn();
    const legal = myTurn ? (view.legal || []).map(String) : [];
    const active = shell.canAct() && myTurn;
    el.hand.classList.toggle("my-turn", myTurn);
    el.hand.classList.toggle("sending", shell.pending());
    el.hand.setAttribute("aria-label", myTurn ? gettext("Your hand: your turn") : gettext("Your hand"));
    el.handHelp.textContent = gettext("Click a move, or press its number (1–9).");
    const held = Array.isArray(view.hand) ? view.hand.map(String) : [];
    const offered = new Set();
    let key = 0;
    const items = [];
    const moveButton = (move) => {
      offered.add(move);
      key += 1;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move-button legal";
      button.setAttribute("data-testid", "move-button");
      button.dataset.move = move;
      button.disabled = !active;
      button.textContent = move;
      if (key <= 9) {
        const cap = document.createElement("span");
        cap.className = "keycap";
        cap.setAttribute("aria-hidden", "true");
        cap.textContent = String(key);
        button.append(cap);
        button.setAttribute("aria-label", interpolate(gettext("Play %(move)s, key %(key)s"), { move, key }, true));
      } else {
        button.setAttribute("aria-label", interpolate(gettext("Play %(move)s"), { move }, true));
      }
      return button;
    };
    for (const item of held) {
      if (legal.includes(item) && !offered.has(item)) {
        items.push(moveButton(item));
      } else {
        const span = document.createElement("span");
        span.className = "hand-item";
        span.setAttribute("data-testid", "hand-item");
        span.textContent = item;
        items.push(span);
      }
    }
    for (const move of legal) if (!offered.has(move)) items.push(moveButton(move));
    if (!items.length && !view.over) {
      const note = document.createElement("p");
      note.className = "muted hand-empty";
      note.textContent = gettext("Nothing for you to play now.");
      items.push(note);
    }
    el.hand.replaceChildren(...items);
    const again = focused ? [...el.hand.querySelectorAll("[data-testid=move-button]")].find((b) => b.dataset.move === focused && !b.disabled) : null;
    if (again) again.focus({ preventScroll: true });
  }

  function renderResults() {
    const { view } = shell.frame();
    const result = view.result;
    const me = shell.mySeat();
    const places = result.places || [];
    const first = [...places.keys()].filter((seat) => places[seat] === 1);
    let summary;
    if (first.length === 1) {
      summary = first[0] === me ? gettext("You win!") : interpolate(gettext("%(name)s wins."), { name: shell.seatName(first[0]) }, true);
    } else {
      summary = interpolate(gettext("First place shared: %(names)s."), { names: first.map((seat) => shell.seatName(seat)).join(", ") }, true);
    }
    el.resultsSummary.textContent = summary;
    const keys = perSeatKeys(result, places.length, RESULT_OWN_WAY);
    shell.resultsTable({
      places,
      resigned: result.resigned,
      head: keys.map(label),
      cells: (seat) => keys.map((key) => formatValue(result[key][seat])),
      marks: (seat) => ({ winner: first.length === 1 && seat === first[0] }),
    });
    el.resultsNote.hidden = true;
    el.revealedHeading.hidden = true;
    el.revealed.replaceChildren();
  }

  /** One move log line after the player's name: "played 7", or a move not shown yet. */
  function describeMove(li, event) {
    if (event.move === null) li.append(" ", gettext("moved (hidden until revealed)"));
    else li.append(" ", interpolate(gettext("played %(move)s"), { move: event.move }, true));
  }

  el.hand.addEventListener("click", (event) => {
    const button = event.target.closest("[data-testid=move-button]");
    if (button && !button.disabled) shell.play(button.dataset.move);
  });

  /** Number keys play the n-th move; arrows move between the moves. */
  function keydown(event) {
    handKeys(event, [...el.hand.querySelectorAll("[data-testid=move-button]:not(:disabled)")], (button) => shell.play(button.dataset.move));
  }

  return {
    render,
    renderHand,
    renderResults,
    describeMove,
    onEvents: () => {},
    keydown,
    resize: () => {},
    yourTurn: () => gettext("Your turn: choose a move."),
    sending: () => gettext("Sending your move…"),
    waiting: () => gettext("Waiting for the others."),
  };
}
