// The live table: draws every `state` frame from /ws/tables/<id>/ (docs/PROTOCOL.md).
// The server is the only judge of legality; this page only ever sends a card it
// was told is legal, with the version it last saw. No framework, no build step.

import { createConsent } from "./table-consent.js";

const app = document.getElementById("table-app");

const SUITS = ["C", "D", "H", "S"];
const RANKS = ["6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_LABELS = { T: "10" };
const RANK_NAMES = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
const STATUS_LABELS = {
  open: "Waiting for players",
  playing: "Playing",
  finished: "Finished",
  aborted: "Closed",
};
const CLOSE_FOR_GOOD = new Set([4401, 4403, 4404]);
const PHONE = window.matchMedia("(max-width: 760px)");

const $ = (selector, root = app) => root.querySelector(selector);

const el = {
  status: $("[data-testid=table-status]"),
  watching: $("[data-testid=watching-label]"),
  turn: $("[data-testid=turn-indicator]"),
  banner: $("[data-testid=reconnect-banner]"),
  pregame: $("[data-testid=pregame]"),
  seatList: $("[data-testid=seat-list]"),
  seatTally: $("[data-testid=seat-tally]"),
  joinForm: $("form[data-action=join]"),
  leaveForm: $("form[data-action=leave]"),
  startForm: $("form[data-action=start]"),
  addBotForm: $("form[data-action=add-bot]"),
  countdown: $("[data-testid=countdown]"),
  startButton: $("[data-testid=start-button]"),
  startHint: $("[data-testid=start-hint]"),
  closedNote: $("[data-testid=closed-note]"),
  results: $("[data-testid=results]"),
  resultsDetail: $(".results-detail"),
  side: $(".table-side"),
  resultsSummary: $("[data-testid=results-summary]"),
  resultsHead: $(".results-table thead"),
  resultsBody: $(".results-table tbody"),
  keftOut: $("[data-testid=keft-out]"),
  revealed: $("[data-testid=revealed-hands]"),
  againForm: $("form[data-action=again]"),
  game: $("[data-testid=game]"),
  opponents: $("[data-testid=opponents]"),
  board: $("[data-testid=board]"),
  meBar: $("[data-testid=me-bar]"),
  hand: $("[data-testid=hand]"),
  handHelp: $("[data-testid=hand-help]"),
  logPanel: $("[data-testid=move-log-panel]"),
  log: $("[data-testid=move-log]"),
  logCount: $("[data-testid=log-count]"),
  logEmpty: $(".log-empty"),
  toasts: $("[data-testid=toasts]"),
  copyInvite: $("[data-testid=copy-invite]"),
  inviteUrl: $("[data-testid=invite-url]"),
};

const baseTitle = document.title;

// What this page knows; everything on screen is drawn from it.
let socket = null;
let connected = false;
let leaving = false;
let closedForGood = false;
let retryDelay = 500;
let lastVersion = -1;
let current = null; // the last `state` frame
let gameNumber = undefined;
let moves = []; // the current game's move log: [{n, seat, move}]
let lastCard = null; // last card played in this game, highlighted on the board
let pending = false; // a play was sent; the hand stays disabled until the next state
let resultsShownFor = null;
const passBubbles = new Map(); // seat -> timeout id

// ---------------------------------------------------------------------------
// Cards

function rankOf(code) {
  return code.slice(0, -1);
}

function suitOf(code) {
  return code.slice(-1);
}

function rankLabel(rank) {
  return RANK_LABELS[rank] || rank;
}

function cardName(code) {
  const rank = rankOf(code);
  return `${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[suitOf(code)]}`;
}

function cardText(code) {
  return `${rankLabel(rankOf(code))}${SUIT_SYMBOLS[suitOf(code)]}`;
}

function suitSvg(suit, cls = "suit") {
  return `<svg class="${cls}" aria-hidden="true" focusable="false"><use href="#suit-${suit}"></use></svg>`;
}

/** A card face: corner indices, and a big pip (or the court letter) in the middle. */
function cardFace(code, tag = "div") {
  const card = document.createElement(tag);
  const rank = rankOf(code);
  const suit = suitOf(code);
  const label = rankLabel(rank);
  const court = "JQK".includes(rank);
  card.className = `card suit-${suit}${court ? " court" : ""}${label.length > 1 ? " wide-rank" : ""}`;
  card.dataset.card = code;
  const corner = `<span class="rank">${label}</span>${suitSvg(suit, "suit corner-suit")}`;
  const middle = court
    ? `<span class="court-frame"><span class="court-letter">${label}</span>${suitSvg(suit, "suit court-suit")}</span>`
    : suitSvg(suit, "suit pip");
  card.innerHTML =
    `<span class="corner tl" aria-hidden="true">${corner}</span>` +
    `<span class="face-middle" aria-hidden="true">${middle}</span>` +
    `<span class="corner br" aria-hidden="true">${corner}</span>`;
  if (tag !== "button") {
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", cardName(code));
  }
  return card;
}

// ---------------------------------------------------------------------------
// Names and seats

function seatName(seat) {
  const entry = current?.table.seats.find((s) => s.position === seat);
  return entry ? entry.name : `Seat ${seat + 1}`;
}

function mySeat() {
  const view = current?.view;
  return view && Number.isInteger(view.seat) ? view.seat : null;
}

function isMyTurn() {
  const view = current?.view;
  const seat = mySeat();
  return Boolean(view && !view.over && seat !== null && view.to_move === seat);
}

function ordinal(n) {
  const suffix = n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th";
  return `${n}${suffix}`;
}

function plural(n, word) {
  const many = word.endsWith("s") ? `${word}es` : `${word}s`;
  return `${n} ${n === 1 ? word : many}`;
}

// ---------------------------------------------------------------------------
// The websocket

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const invite = app.dataset.invite;
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${app.dataset.tableId}/${query}`);
  socket.addEventListener("open", () => {
    connected = true;
    retryDelay = 500;
    el.banner.hidden = true;
    app.dataset.connected = "true";
  });
  socket.addEventListener("message", (event) => {
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    if (frame.type === "state") onState(frame);
    else if (frame.type === "error") onError(frame);
  });
  socket.addEventListener("close", (event) => {
    connected = false;
    app.dataset.connected = "false";
    pending = false;
    if (leaving) return;
    if (CLOSE_FOR_GOOD.has(event.code)) {
      closedForGood = true;
      el.banner.hidden = true;
      setTurn("You cannot follow this table live.", "closed");
      renderHand();
      return;
    }
    el.banner.hidden = false;
    renderHand();
    const delay = retryDelay + Math.random() * 250;
    retryDelay = Math.min(retryDelay * 2, 10000);
    setTimeout(connect, delay);
  });
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(message));
  return true;
}

function onError(frame) {
  toast(frame.message || frame.code, frame.code);
  if (frame.code === "stale_version") {
    send({ type: "sync" }); // the answer re-enables the hand
    return;
  }
  if (pending) {
    pending = false;
    renderHand();
  }
}

function onState(frame) {
  const full = Array.isArray(frame.log);
  // A full state (connect, sync) may repeat the version we have; an update must be newer.
  if (full ? frame.version < lastVersion : frame.version <= lastVersion) return;
  const gap = !full && lastVersion >= 0 && frame.version > lastVersion + 1;
  const newGame = frame.table.game_number !== gameNumber;
  lastVersion = frame.version;
  gameNumber = frame.table.game_number;
  current = frame;
  pending = false;

  if (full) {
    moves = frame.log.slice();
  } else {
    if (newGame) moves = [];
    const lastN = moves.length ? moves[moves.length - 1].n : 0;
    for (const event of frame.events || []) if (event.n > lastN) moves.push(event);
  }
  lastCard = null;
  for (let i = moves.length - 1; i >= 0; i--) {
    if (moves[i].move !== "pass") {
      lastCard = moves[i].move;
      break;
    }
  }
  if (gap) send({ type: "sync" }); // we missed an update: fetch the whole log

  render();
  if (!full) for (const event of frame.events || []) if (event.move === "pass") showPass(event.seat);
}

// ---------------------------------------------------------------------------
// Drawing

function render() {
  const { table, view } = current;
  app.dataset.version = String(current.version);
  app.dataset.status = table.status;
  app.dataset.you = table.you === null ? "" : String(table.you);
  app.dataset.over = String(Boolean(view && view.over));
  el.status.textContent = STATUS_LABELS[table.status] || table.status;
  el.status.dataset.status = table.status;
  el.watching.hidden = table.you !== null && table.you !== undefined;
  el.closedNote.hidden = table.status !== "aborted";
  if (table.status === "aborted" && table.abort_reason) {
    el.closedNote.querySelector(".closed-reason").textContent = table.abort_reason;
  }
  el.side.hidden = false;

  renderPregame();
  renderGame();
  renderResults();
  renderLog();
  renderTurn();
  renderCountdown();
  consent.render(current);
}

function renderPregame() {
  const { table } = current;
  const open = table.status === "open";
  el.pregame.hidden = !open;
  if (!open) return;
  const seated = table.you !== null && table.you !== undefined;
  const taken = table.seats.length;
  el.seatTally.textContent = `${taken}/${table.seat_count}`;
  // Redraw the seats only when they change, so screen readers hear each change once.
  const key = JSON.stringify([table.seat_count, table.you, table.seats]);
  if (el.seatList.dataset.key !== key) {
    el.seatList.dataset.key = key;
    el.seatList.replaceChildren(...seatItems(table));
  }
  el.joinForm.hidden = seated || taken >= table.seat_count;
  el.leaveForm.hidden = !seated;
  el.startForm.hidden = !table.is_creator;
  el.addBotForm.hidden = !table.is_creator || taken >= table.seat_count;
  const enough = taken >= table.min_players;
  el.startButton.disabled = !enough;
  el.startHint.hidden = enough;
  el.startHint.textContent = `Needs at least ${table.min_players} players.`;
}

function seatItems(table) {
  const byPosition = new Map(table.seats.map((s) => [s.position, s]));
  const items = [];
  for (let position = 0; position < table.seat_count; position++) {
    const seat = byPosition.get(position);
    const li = document.createElement("li");
    li.dataset.position = String(position);
    li.setAttribute("data-testid", "seat");
    if (seat) {
      li.className = "seat taken";
      li.innerHTML = `<span class="seat-avatar" aria-hidden="true"></span><span class="seat-name"></span>`;
      li.querySelector(".seat-avatar").textContent = seat.name.slice(0, 1).toUpperCase();
      li.querySelector(".seat-name").textContent = seat.name;
      if (seat.player === table.creator && !seat.bot) li.insertAdjacentHTML("beforeend", `<span class="seat-tag">host</span>`);
      if (seat.bot) {
        li.classList.add("bot");
        li.insertAdjacentHTML("beforeend", `<span class="seat-tag bot-badge">bot</span>`);
        if (table.is_creator) li.append(removeBotForm(seat.position));
      }
      if (seat.position === table.you) li.insertAdjacentHTML("beforeend", `<span class="seat-tag you">you</span>`);
    } else {
      li.className = "seat empty";
      li.innerHTML = `<span class="seat-avatar" aria-hidden="true"></span><span class="seat-name">Empty seat</span>`;
    }
    items.push(li);
  }
  return items;
}

function removeBotForm(position) {
  // Same CSRF token as the page's other forms; the server checks creator and status.
  const form = document.createElement("form");
  form.method = "post";
  form.action = el.addBotForm.action.replace(/add\/$/, "remove/");
  form.className = "inline-form remove-bot";
  form.innerHTML = `<input type="hidden" name="csrfmiddlewaretoken"><input type="hidden" name="position">
    <button type="submit" class="link-button" data-testid="remove-bot">Remove</button>`;
  form.elements.csrfmiddlewaretoken.value = el.addBotForm.elements.csrfmiddlewaretoken.value;
  form.elements.position.value = String(position);
  return form;
}

// The turn clock: only variants with a clock show one; the server plays when it runs out.
function renderCountdown() {
  const table = current && current.table;
  const show = Boolean(
    table && table.status === "playing" && table.turn_seconds && table.turn_deadline,
  );
  el.countdown.hidden = !show;
  if (!show) return;
  const left = Math.max(0, Math.ceil(table.turn_deadline - Date.now() / 1000));
  el.countdown.textContent = `\u23F1 ${left}s`;
  el.countdown.classList.toggle("urgent", left <= 5);
}
setInterval(() => current && renderCountdown(), 250);

function renderGame() {
  const { view } = current;
  el.game.hidden = !view;
  if (!view) return;
  if (view.game !== "devyatka") {
    el.board.dataset.built = "";
    el.board.textContent = "This game cannot be shown here yet.";
    return;
  }
  renderOpponents();
  renderBoard();
  renderMe();
  renderHand();
}

function renderOpponents() {
  const { view } = current;
  const me = mySeat();
  const order = [];
  for (let k = 0; k < view.players; k++) {
    const seat = me === null ? k : (me + 1 + k) % view.players;
    if (seat !== me) order.push(seat);
  }
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
          `<div class="opponent-name"><span class="name"></span><span class="bot-badge" hidden>bot</span><span class="away-badge" hidden>away</span></div>` +
          `<div class="opponent-stats muted"></div>` +
          `<span class="bubble pass-bubble" hidden>passed</span>`;
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
    const entry = current.table.seats.find((s) => s.position === seat);
    li.querySelector(".name").textContent = seatName(seat);
    li.querySelector(".bot-badge").hidden = !(entry && entry.bot);
    li.classList.toggle("is-bot", Boolean(entry && entry.bot));
    li.querySelector(".away-badge").hidden = !(entry && entry.away && !entry.bot);
    li.classList.toggle("to-move", !view.over && view.to_move === seat);
    li.classList.toggle("is-out", outAt >= 0);
    let stats = `${plural(count, "card")} · ${plural(passes, "pass")}`;
    if (outAt >= 0) stats = `Out ${ordinal(outAt + 1)} · ${plural(passes, "pass")}`;
    li.querySelector(".opponent-stats").textContent = stats;
    li.setAttribute(
      "aria-label",
      `${seatName(seat)}: ${stats}${!view.over && view.to_move === seat ? ", to move" : ""}`,
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
  el.board.dataset.built = "true";
}

function renderBoard() {
  const { view } = current;
  if (el.board.dataset.built !== "true") buildBoard();
  for (const suit of SUITS) {
    const row = view.rows[suit];
    const low = row ? RANKS.indexOf(rankOf(row[0])) : -1;
    const high = row ? RANKS.indexOf(rankOf(row[1])) : -2;
    const lane = el.board.querySelector(`[data-suit=${suit}]`);
    lane.classList.toggle("open", Boolean(row));
    lane.setAttribute(
      "aria-label",
      row ? `${SUIT_NAMES[suit]}: ${cardText(row[0])} to ${cardText(row[1])}` : `${SUIT_NAMES[suit]}: not open`,
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
      slot.classList.toggle("last-played", played && code === lastCard);
    });
  }
}

function renderMe() {
  const { view } = current;
  const me = mySeat();
  el.meBar.hidden = me === null;
  el.hand.hidden = me === null;
  el.handHelp.hidden = me === null || view.over;
  if (me === null) return;
  const outAt = view.out.indexOf(me);
  el.meBar.querySelector(".me-name").textContent = `${seatName(me)} (you)`;
  el.meBar.querySelector(".me-stats").textContent =
    outAt >= 0
      ? `Out ${ordinal(outAt + 1)} · ${plural(view.passes[me], "pass")}`
      : `${plural(view.counts[me], "card")} · ${plural(view.passes[me], "pass")}`;
  el.meBar.classList.toggle("to-move", isMyTurn());
  el.meBar.dataset.seat = String(me);
}

function renderHand() {
  if (!current || !current.view) return;
  const { view } = current;
  if (mySeat() === null) {
    el.hand.replaceChildren();
    return;
  }
  const myTurn = isMyTurn();
  const legal = new Set(view.legal || []);
  const active = myTurn && connected && !pending && !closedForGood;
  const focused = document.activeElement?.closest?.("[data-testid=hand-card]")?.dataset.card;
  el.hand.classList.toggle("my-turn", myTurn);
  el.hand.classList.toggle("sending", pending);
  el.hand.setAttribute("aria-label", myTurn ? "Your hand: your turn" : "Your hand");
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
        label += `, playable, key ${legalIndex}`;
      } else {
        label += ", playable";
      }
    }
    card.setAttribute("aria-label", label);
    return card;
  });
  if (!cards.length && !view.over) {
    const note = document.createElement("p");
    note.className = "muted hand-empty";
    note.textContent = "Your hand is empty: you are out.";
    cards.push(note);
  }
  el.hand.replaceChildren(...cards);
  fitHand();
  if (focused) {
    const again = el.hand.querySelector(`[data-card="${focused}"]:not(:disabled)`);
    if (again) again.focus();
  }
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

function play(code) {
  if (!isMyTurn() || pending || !connected) return;
  if (!(current.view.legal || []).includes(code)) return;
  if (!send({ type: "play", card: code, version: lastVersion })) return;
  pending = true;
  renderHand();
  renderTurn();
}

function renderResults() {
  const { view, table } = current;
  const result = view && view.over ? view.result : null;
  el.results.hidden = !result;
  if (!result) {
    resultsShownFor = null;
    return;
  }
  el.resultsDetail.hidden = false;
  const me = mySeat();
  const seats = [...Array(view.players).keys()].sort(
    (a, b) => result.places[a] - result.places[b] || a - b,
  );
  const who = (seat) => (seat === me ? `${seatName(seat)} (you)` : seatName(seat));
  const resigned = new Set(result.resigned || []);
  if (view.keft && resigned.has(result.loser)) {
    el.resultsSummary.textContent =
      result.loser === me ? "You lose this one: you left the game." : `${seatName(result.loser)} loses: left the game.`;
  } else if (view.keft) {
    el.resultsSummary.textContent =
      result.loser === me ? "You lose this one: the last with cards." : `${seatName(result.loser)} loses: the last with cards.`;
  } else {
    el.resultsSummary.textContent =
      result.winner === me ? "You win: out first!" : `${seatName(result.winner)} wins: out first.`;
  }
  const head = view.keft
    ? ["Place", "Player", "Cards left", "Passes"]
    : ["Place", "Player", "Cards left", "Points", "Passes"];
  el.resultsHead.innerHTML = `<tr>${head
    .map((h, i) => `<th scope="col"${i === 1 ? "" : ' class="num"'}>${h}</th>`)
    .join("")}</tr>`;
  el.resultsBody.replaceChildren(
    ...seats.map((seat) => {
      const tr = document.createElement("tr");
      tr.setAttribute("data-testid", "result-row");
      tr.dataset.seat = String(seat);
      tr.dataset.place = String(result.places[seat]);
      tr.classList.toggle("me", seat === me);
      tr.classList.toggle("winner", view.keft ? false : seat === result.winner);
      tr.classList.toggle("loser", view.keft && seat === result.loser);
      const name = resigned.has(seat) ? `${who(seat)} · resigned` : who(seat);
      tr.classList.toggle("resigned", resigned.has(seat));
      const cells = [ordinal(result.places[seat]), name, result.cards_left[seat]];
      if (!view.keft) cells.push(result.points[seat]);
      cells.push(result.passes[seat]);
      cells.forEach((value, i) => {
        const td = document.createElement(i === 1 ? "th" : "td");
        if (i === 1) td.scope = "row";
        else td.className = "num";
        td.textContent = String(value);
        tr.append(td);
      });
      return tr;
    }),
  );
  el.keftOut.hidden = !view.keft;
  if (view.keft) {
    const order = result.out.map((seat, i) => `${i + 1}. ${who(seat)}`).join(" · ");
    el.keftOut.textContent = `Out order: ${order || "nobody"} · Loser: ${who(result.loser)}`;
  }
  const hands = result.hands || [];
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
      else cards.innerHTML = `<span class="muted">no cards left</span>`;
      div.append(name, cards);
      return div;
    }),
  );
  if (resultsShownFor !== gameNumber) {
    resultsShownFor = gameNumber;
    el.results.scrollIntoView({ behavior: "smooth", block: "start" });
  }
}

function renderLog() {
  const items = moves.map((event) => {
    const li = document.createElement("li");
    li.dataset.n = String(event.n);
    li.dataset.seat = String(event.seat);
    li.dataset.move = event.move;
    li.value = event.n;
    const name = document.createElement("span");
    name.className = "log-name";
    name.textContent = seatName(event.seat);
    if (event.move === "pass") {
      li.className = "pass";
      li.append(name, " passed");
    } else {
      const card = document.createElement("span");
      card.className = `log-card suit-${suitOf(event.move)}`;
      card.textContent = cardText(event.move);
      card.title = cardName(event.move);
      li.append(name, " played ", card);
    }
    if (event.auto) {
      const auto = document.createElement("span");
      auto.className = "log-auto muted";
      auto.textContent = " (by the house)";
      li.append(auto);
    }
    return li;
  });
  el.log.replaceChildren(...items);
  el.logCount.textContent = moves.length ? `(${moves.length})` : "";
  el.logEmpty.hidden = moves.length > 0;
  el.log.scrollTop = el.log.scrollHeight;
}

function setTurn(text, state) {
  if (el.turn.textContent !== text) el.turn.textContent = text;
  el.turn.dataset.state = state;
}

function renderTurn() {
  const { table, view } = current;
  let text;
  let state;
  let turn = "none";
  if (table.status === "aborted") {
    [text, state] = ["This table was closed.", "closed"];
  } else if (table.status === "open" || !view) {
    [text, state] = [`Waiting for players: ${table.seats.length}/${table.seat_count} seated.`, "open"];
  } else if (view.over) {
    [text, state, turn] = [`Game over. ${el.resultsSummary.textContent}`, "over", "over"];
  } else if (isMyTurn()) {
    [text, state, turn] = [pending ? "Playing your card…" : "Your turn: play a lifted card.", "your-turn", "you"];
  } else {
    [text, state, turn] = [`${seatName(view.to_move)} to move.`, "waiting", "other"];
  }
  setTurn(text, state);
  app.dataset.turn = turn;
  document.title = turn === "you" && !pending ? `\u25B6 Your turn · ${baseTitle}` : baseTitle;
}

function showPass(seat) {
  const holder =
    seat === mySeat() ? el.meBar : el.opponents.querySelector(`[data-seat="${seat}"]`);
  const bubble = holder?.querySelector(".pass-bubble");
  if (!bubble) return;
  bubble.textContent = seat === mySeat() ? "you passed" : "passed";
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

// ---------------------------------------------------------------------------
// Toasts, keyboard, invite link

const consent = createConsent({ app, send, toast, seatName });

function toast(message, code = "") {
  const item = document.createElement("div");
  item.className = "toast";
  item.setAttribute("role", "alert");
  item.setAttribute("data-testid", "toast");
  item.dataset.code = code;
  const text = document.createElement("span");
  text.textContent = message;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast-close";
  close.setAttribute("aria-label", "Dismiss");
  close.textContent = "\u00D7";
  close.addEventListener("click", () => item.remove());
  item.append(text, close);
  el.toasts.append(item);
  while (el.toasts.children.length > 3) el.toasts.firstElementChild.remove();
  setTimeout(() => item.remove(), 8000);
}

function playableButtons() {
  return [...el.hand.querySelectorAll("[data-testid=hand-card][data-legal=true]:not(:disabled)")];
}

el.hand.addEventListener("click", (event) => {
  const card = event.target.closest("[data-testid=hand-card]");
  if (card && !card.disabled) play(card.dataset.card);
});

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
  if (!current || !isMyTurn() || pending) return;
  const buttons = playableButtons();
  if (!buttons.length) return;
  if (/^[1-9]$/.test(event.key)) {
    const button = buttons[Number(event.key) - 1];
    if (button) {
      event.preventDefault();
      play(button.dataset.card);
    }
    return;
  }
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step) return;
  event.preventDefault();
  const at = buttons.indexOf(document.activeElement);
  const next = at < 0 ? (step > 0 ? 0 : buttons.length - 1) : (at + step + buttons.length) % buttons.length;
  buttons[next].focus();
});

if (el.copyInvite && el.inviteUrl) {
  el.copyInvite.addEventListener("click", async () => {
    const text = el.inviteUrl.value;
    let copied = false;
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
    } catch {
      el.inviteUrl.select();
      copied = document.execCommand?.("copy") ?? false;
    }
    el.copyInvite.textContent = copied ? "Copied!" : "Select and copy";
    setTimeout(() => {
      el.copyInvite.textContent = "Copy";
    }, 2000);
  });
  el.inviteUrl.addEventListener("focus", () => el.inviteUrl.select());
}

let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(fitHand, 100);
});

// The move log starts closed on a phone, open elsewhere.
if (PHONE.matches) el.logPanel.open = false;

// Leaving the page closes the socket: that is no reason for the "reconnecting" banner.
window.addEventListener("pagehide", () => {
  leaving = true;
});
// Back from the back/forward cache: the socket is gone, so connect again.
window.addEventListener("pageshow", (event) => {
  leaving = false;
  if (event.persisted && !closedForGood && (!socket || socket.readyState > WebSocket.OPEN)) connect();
});

if (app) connect();
