// The live table's shell, for every game: draws every `state` frame from
// /ws/tables/<id>/ (docs/PROTOCOL.md): socket, versions, seats, clock, move log,
// results panel and toasts. The game itself (board, hand, results table, log
// lines, keys) is drawn by its renderer, ./games/<name>.js, loaded by name
// (./games/generic.js for a game without one of its own).
// The server is the only judge of legality: this page only ever sends a move it
// was told is legal, with the version it last saw. No framework, no build step.

import { levelLabel, shortName } from "./bot-names.js";
import { createChat } from "./chat.js";
import { fillResultsTable } from "./results-table.js";
import { createAnnouncer } from "./table-announce.js";
import { createConsent } from "./table-consent.js";
import { fitLayout } from "./table-fit.js";
import { renderPace } from "./table-pace.js";
import { createMoveLog } from "./table-log.js";
import { createTurnSound } from "./table-sound.js";

const app = document.getElementById("table-app");

// gettext/ngettext/interpolate: the static catalog (static/jsi18n/<lang>/djangojs.js),
// loaded by base.html before this module.
const STATUS_LABELS = {
  open: gettext("Waiting for players"),
  playing: gettext("Playing"),
  finished: gettext("Finished"),
  aborted: gettext("Closed"),
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
  countdownText: $("[data-testid=countdown] .countdown-text"),
  startButton: $("[data-testid=start-button]"),
  startHint: $("[data-testid=start-hint]"),
  closedNote: $("[data-testid=closed-note]"),
  results: $("[data-testid=results]"),
  resultsDetail: $(".results-detail"),
  side: $(".table-side"),
  resultsSummary: $("[data-testid=results-summary]"),
  resultsHead: $(".results-table thead"),
  resultsBody: $(".results-table tbody"),
  resultsNote: $("[data-testid=results-note]"),
  revealed: $("[data-testid=revealed-hands]"),
  revealedHeading: $(".revealed-heading"),
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
  announcer: $("[data-testid=announcer]"),
  dock: $("[data-testid=hand-dock]"),
  meTurn: $("[data-testid=me-turn]"),
  skip: $("[data-testid=skip-to-hand]"),
  sound: $("[data-testid=sound-toggle]"),
  copyInvite: $("[data-testid=copy-invite]"),
  inviteUrl: $("[data-testid=invite-url]"),
};

const baseTitle = document.title;

// The skip link is the page's first tab stop (before the site's menu) and
// lands in the hand, focused, without scrolling the hand out of its dock.
document.body.prepend(el.skip);
el.skip.addEventListener("click", (event) => {
  event.preventDefault();
  const first = el.hand.querySelector("button:not(:disabled)");
  (first || el.hand).focus();
});

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
let pending = false; // a move was sent; the hand stays disabled until it is answered
let pendingTimer = null;
let resultsShownFor = null;

// ---------------------------------------------------------------------------
// Names and seats

function seatName(seat) {
  const entry = current?.table.seats.find((s) => s.position === seat);
  return entry ? shortName(entry) : interpolate(gettext("Seat %(number)s"), { number: seat + 1 }, true);
}

function mySeat() {
  const view = current?.view;
  if (!view) return null;
  // The table's own word for the viewer's seat when the game's view does not repeat it.
  const seat = Number.isInteger(view.seat) ? view.seat : current.table.you;
  return Number.isInteger(seat) ? seat : null;
}

function isMyTurn() {
  const view = current?.view;
  const seat = mySeat();
  return Boolean(view && !view.over && seat !== null && (view.legal || []).length > 0);
}

// ---------------------------------------------------------------------------
// The game's renderer: ./games/<name>.js, the module the page names (the
// registry entry's `renderer`, else the generic one), given what it may read and do.

const shell = {
  el,
  frame: () => current,
  moves: () => moves,
  mySeat,
  isMyTurn,
  seatName,
  pending: () => pending,
  canAct: () => connected && !pending && !closedForGood,
  play,
  send,
  toast,
  // The results panel's table, the same for every game (./results-table.js).
  resultsTable: (options) => fillResultsTable(el, { me: mySeat(), seatName, ...options }),
};
const renderers = new Map(); // game key -> renderer, loaded once

async function rendererFor(game) {
  if (!renderers.has(game)) {
    const name = app.dataset.renderer || game;
    const module = await import(`./games/${encodeURIComponent(name)}.js`);
    renderers.set(game, module.createRenderer(shell));
  }
  return renderers.get(game);
}

let renderer = null;

const { announceFrame, announceHouseMoves, playedForMember } = createAnnouncer({
  el,
  frame: () => current,
  renderer: () => renderer,
  seatName,
  isMyTurn,
  toast: (...args) => toast(...args),
});

const moveLog = createMoveLog({ el, renderer: () => renderer, seatName, playedForMember });

// ---------------------------------------------------------------------------
// The websocket

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const invite = app.dataset.invite;
  // chat=1: this page shows the table's chat (./chat.js).
  const query = `?chat=1${invite ? `&invite=${encodeURIComponent(invite)}` : ""}`;
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
    else if (chat.onFrame(frame)) return;
    else if (frame.type === "error") onError(frame);
  });
  socket.addEventListener("close", (event) => {
    connected = false;
    app.dataset.connected = "false";
    chat.closed();
    setPending(false);
    if (leaving) return;
    if (CLOSE_FOR_GOOD.has(event.code)) {
      closedForGood = true;
      el.banner.hidden = true;
      setTurn(gettext("You cannot follow this table live."), "closed");
      renderer?.renderHand();
      return;
    }
    el.banner.hidden = false;
    renderer?.renderHand();
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
  if (frame.code === "unavailable") {
    // The database was away and nothing changed: look again once it may be
    // back (a refused sync comes round here again, every retry_after seconds).
    setTimeout(() => send({ type: "sync" }), (frame.retry_after || 2) * 1000);
  }
  if (pending) {
    setPending(false);
    renderer?.renderHand();
  }
}

// Frames are drawn in order, each once its game's renderer is loaded.
let drawing = Promise.resolve();

function onState(frame) {
  drawing = drawing.then(() => applyState(frame)).catch((error) => console.error(error));
}

async function applyState(frame) {
  const full = Array.isArray(frame.log);
  // A full state (connect, sync) may repeat the version we have; an update must be newer.
  if (full ? frame.version < lastVersion : frame.version <= lastVersion) return;
  const gap = !full && lastVersion >= 0 && frame.version > lastVersion + 1;
  const newGame = frame.table.game_number !== gameNumber;
  renderer = await rendererFor(frame.table.game);
  const wasMyTurn = current !== null && isMyTurn();
  const before = current;
  lastVersion = frame.version;
  gameNumber = frame.table.game_number;
  current = frame;
  if (pending && answers(frame)) setPending(false);

  if (full) {
    moves = frame.log.slice();
  } else {
    if (newGame) moves = [];
    const lastN = moves.length ? moves[moves.length - 1].n : 0;
    for (const event of frame.events || []) if (event.n > lastN) moves.push(event);
  }
  // We missed an update, or the log holds a move hidden from us (a face-down pick)
  // that this update did not bring: it may be revealed now, so fetch the whole log.
  const stillHidden = (event) => event.move === null && !(frame.events || []).some((e) => e.n === event.n);
  if (gap || (!full && moves.some(stillHidden))) send({ type: "sync" });

  if (before && (before.table.status !== frame.table.status || newGame)) clearToasts();
  render();
  if (!full && frame.view) renderer.onEvents(frame.events || []);
  if (!full) announceHouseMoves(frame);
  if (!full) announceFrame(frame, wasMyTurn);
  if (!full && !wasMyTurn && isMyTurn()) turnSound.play();
}

// ---------------------------------------------------------------------------
// Drawing

// Messages the server put on the page describe the moment it loaded ("Table 13
// is open..."): once the table has moved on, they fade out.
let loadedStatus = null;

function fadeStaleMessages() {
  const status = current.table.status;
  if (loadedStatus === null) loadedStatus = status;
  if (status === loadedStatus) return;
  for (const list of document.querySelectorAll("ul.messages")) {
    list.classList.add("fading");
    setTimeout(() => list.remove(), 600);
  }
}

function render() {
  const focusInGame = el.game.contains(document.activeElement);
  fadeStaleMessages();
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
  el.game.hidden = !view;
  if (view) renderer.render();
  renderResults();
  moveLog.render(moves);
  renderTurn();
  renderCountdown();
  renderPace(table, document.querySelector("[data-testid=pace-line]"), shortName);
  consent.render(current);
  renderDock();
  fitLayout(el, Boolean(current.view?.over), renderer);
  // Once more after this layout settles (a scrollbar that came or went changes the widths).
  requestAnimationFrame(() => current && fitLayout(el, Boolean(current.view?.over), renderer));
  // A redraw that took the focus away from a control in the game leaves it in the hand.
  if (focusInGame && (document.activeElement === document.body || !document.activeElement) && !el.hand.hidden && !el.game.hidden) {
    el.hand.focus({ preventScroll: true });
  }
}

/** Your seat's turn badge and the skip link: only while you play. */
function renderDock() {
  const seated = !el.game.hidden && mySeat() !== null;
  el.dock.hidden = !seated; // a watcher has no seat to dock
  el.skip.hidden = !seated || Boolean(current.view?.over);
  el.meTurn.hidden = !(seated && isMyTurn());
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
    loadSeatRatings(key);
  }
  el.joinForm.hidden = seated || taken >= table.seat_count;
  el.leaveForm.hidden = !seated;
  el.startForm.hidden = !table.is_creator;
  el.addBotForm.hidden = !table.is_creator || taken >= table.seat_count;
  const enough = taken >= table.min_players;
  el.startButton.disabled = !enough;
  el.startHint.hidden = enough;
  el.startHint.textContent = interpolate(
    ngettext("Needs at least %(counter)s player.", "Needs at least %(counter)s players.", table.min_players),
    { counter: table.min_players },
    true,
  );
}

// The seated players' ratings in this game (ratings app), fetched when the seats change.
let seatRatings = {};

async function loadSeatRatings(key) {
  const invite = new URLSearchParams(location.search).get("invite");
  const url = `/ratings/tables/${app.dataset.tableId}/${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;
  try {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    seatRatings = (await response.json()).seats || {};
  } catch {
    return; // ratings are a nicety: the seats stand without them
  }
  if (el.seatList.dataset.key === key) el.seatList.replaceChildren(...seatItems(current.table));
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
      li.querySelector(".seat-avatar").textContent = shortName(seat).slice(0, 1).toUpperCase();
      li.querySelector(".seat-name").textContent = shortName(seat);
      const rating = seatRatings[String(seat.position)];
      if (rating) {
        const tag = document.createElement("span");
        tag.className = `seat-rating${rating.provisional ? " provisional" : ""}`;
        tag.dataset.testid = "seat-rating";
        tag.title = rating.provisional ? gettext("Rating in this game (provisional)") : gettext("Rating in this game");
        tag.textContent = `${rating.rating}${rating.provisional ? "?" : ""}`;
        li.append(tag);
      }
      if (seat.player === table.creator && !seat.bot) li.insertAdjacentHTML("beforeend", `<span class="seat-tag">${gettext("host")}</span>`);
      if (seat.bot) {
        li.classList.add("bot");
        li.insertAdjacentHTML("beforeend", `<span class="seat-tag bot-badge"></span>`);
        li.querySelector(".bot-badge").textContent = levelLabel(seat.level);
        if (table.is_creator) li.append(removeBotForm(seat.position));
      }
      if (seat.position === table.you) li.insertAdjacentHTML("beforeend", `<span class="seat-tag you">${gettext("you")}</span>`);
    } else {
      li.className = "seat empty";
      li.innerHTML = `<span class="seat-avatar" aria-hidden="true"></span><span class="seat-name">${gettext("Empty seat")}</span>`;
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
    <button type="submit" class="link-button" data-testid="remove-bot">${gettext("Remove")}</button>`;
  form.elements.csrfmiddlewaretoken.value = el.addBotForm.elements.csrfmiddlewaretoken.value;
  form.elements.position.value = String(position);
  return form;
}

// The turn clock: the members' own time for this move, on variants with a clock.
// Hidden on turns the house plays anyway (a bot, an away, handed-over or resigned seat).
function renderCountdown() {
  const table = current && current.table;
  const view = current && current.view;
  let show = Boolean(table && table.status === "playing" && table.clock_deadline && view && !view.over);
  if (show && Number.isInteger(view.to_move)) {
    const seat = table.seats.find((s) => s.position === view.to_move);
    show = Boolean(seat && !seat.bot && !seat.away && !seat.handed_over && !seat.resigned);
  } else if (show) {
    show = isMyTurn(); // everyone plays at once: your own time
  }
  el.countdown.hidden = !show;
  if (!show) return;
  const left = Math.max(0, Math.ceil(table.clock_deadline - Date.now() / 1000));
  el.countdownText.textContent = interpolate(gettext("%(seconds)ss"), { seconds: left }, true); // "60 с", "60 s"
  el.countdown.setAttribute(
    "aria-label",
    interpolate(ngettext("%(count)s second left for this move", "%(count)s seconds left for this move", left), { count: left }, true),
  );
  el.countdown.classList.toggle("urgent", left <= 5);
}
setInterval(() => current && renderCountdown(), 250);

/**
 * Does this state answer the move we sent? Others may move at the same time
 * (a reveal phase), and their states still list our old choices: wait for our
 * own move, or for a state where we have nothing (left) to do.
 */
function answers(frame) {
  if (Array.isArray(frame.log) || !frame.view || frame.view.over) return true;
  const mine = (frame.events || []).some((e) => e.seat === frame.table.you && !e.auto);
  return mine || !(frame.view.legal || []).length;
}

function setPending(on) {
  pending = on;
  clearTimeout(pendingTimer);
  // Never stuck: without an answer in a while, ask for the whole state.
  if (on) pendingTimer = setTimeout(() => send({ type: "sync" }), 8000);
}

/** Send one of the moves the server listed as legal for this seat. */
function play(move) {
  if (!isMyTurn() || pending || !connected) return;
  if (!(current.view.legal || []).includes(move)) return;
  if (!send({ type: "play", move, version: lastVersion })) return;
  setPending(true);
  renderer.renderHand();
  renderTurn();
}

function renderResults() {
  const { view } = current;
  const result = view && view.over ? view.result : null;
  el.results.hidden = !result;
  if (!result) {
    resultsShownFor = null;
    return;
  }
  el.resultsDetail.hidden = false;
  renderer.renderResults();
  const gamePage = el.results.querySelector("[data-testid=game-page-link]");
  const gameId = current.table.game_id;
  gamePage.hidden = !Number.isInteger(gameId);
  if (!gamePage.hidden) gamePage.href = `/games/${gameId}/#replay`;
  if (resultsShownFor !== gameNumber) {
    resultsShownFor = gameNumber;
    const active = document.activeElement;
    // The game is over: the next sensible place for the focus is the results.
    if (!active || active === document.body || el.game.contains(active)) el.results.focus({ preventScroll: true });
    el.results.scrollIntoView({ behavior: "smooth", block: "start" });
  }
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
    [text, state] = [gettext("This table was closed."), "closed"];
  } else if (table.status === "open" || !view) {
    const seated = { seated: table.seats.length, seats: table.seat_count };
    [text, state] = [interpolate(gettext("Waiting for players: %(seated)s/%(seats)s seated."), seated, true), "open"];
  } else if (view.over) {
    [text, state, turn] = [interpolate(gettext("Game over. %(summary)s"), { summary: el.resultsSummary.textContent }, true), "over", "over"];
  } else if (isMyTurn()) {
    [text, state, turn] = [pending ? renderer.sending() : renderer.yourTurn(), "your-turn", "you"];
  } else if (Number.isInteger(view.to_move)) {
    [text, state, turn] = [interpolate(gettext("%(name)s to move."), { name: seatName(view.to_move) }, true), "waiting", "other"];
  } else {
    [text, state, turn] = [renderer.waiting ? renderer.waiting() : gettext("Waiting for the others."), "waiting", "other"];
  }
  setTurn(text, state);
  app.dataset.turn = turn;
  document.title = turn === "you" && !pending ? `\u25B6 ${gettext("Your turn")} · ${baseTitle}` : baseTitle;
}

// ---------------------------------------------------------------------------
// Toasts, keyboard, invite link

const consent = createConsent({ app, send, toast, seatName });
const chat = createChat(document.querySelector("[data-chat]"), { send });
const turnSound = createTurnSound(app, el.sound);

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
  close.setAttribute("aria-label", gettext("Dismiss"));
  close.textContent = "\u00D7";
  close.addEventListener("click", () => item.remove());
  item.append(text, close);
  el.toasts.append(item);
  while (el.toasts.children.length > 3) el.toasts.firstElementChild.remove();
  setTimeout(() => fadeToast(item), 8000);
}

function fadeToast(item) {
  item.classList.add("fading");
  setTimeout(() => item.remove(), 450);
}

/** Toasts describe a moment of the last game or phase: a new game or status retires them. */
function clearToasts() {
  for (const item of el.toasts.querySelectorAll("[data-testid=toast]")) fadeToast(item);
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest?.("input, textarea, select, [contenteditable], dialog")) return;
  if (!current || !renderer || !isMyTurn() || pending) return;
  renderer.keydown(event);
});

// "Play again" goes over the open socket as one frame (no page load); the form
// post is the fallback while the socket is closed. The answer is a state frame
// (table-consent.js shows who accepted) or an error toast.
el.againForm?.addEventListener("submit", (event) => {
  if (!send({ type: "again" })) return;
  event.preventDefault();
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
    el.copyInvite.textContent = copied ? gettext("Copied!") : gettext("Select and copy");
    setTimeout(() => {
      el.copyInvite.textContent = gettext("Copy");
    }, 2000);
  });
  el.inviteUrl.addEventListener("focus", () => el.inviteUrl.select());
}

// Whatever grows or shrinks above the board (a notice bar, the rules opened, a
// message fading away) moves it: fit again. Fitting changes the page's height
// too, but a second pass finds the same room and stops there.
if (window.ResizeObserver) {
  let queued = false;
  const observer = new ResizeObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      if (current) fitLayout(el, Boolean(current.view?.over), renderer);
    });
  });
  observer.observe(document.body);
  observer.observe(app);
  // The board itself too: while the page is no taller than its minimum (a playing
  // table keeps a window's height), a hint or a button appearing on the board
  // changes neither the body nor the app, yet pushes the docked hand over it.
  observer.observe(el.board);
}

let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    renderer?.resize();
    if (current) fitLayout(el, Boolean(current.view?.over), renderer);
  }, 100);
});

// The move log starts closed on a phone, open elsewhere.
if (PHONE.matches) el.logPanel.open = false;
// So does the chat: on a phone it is below the game, and a tap away.
if (PHONE.matches && document.querySelector("[data-chat]")) document.querySelector("[data-chat]").open = false;

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
