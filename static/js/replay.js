// The step-through replay of a finished game, the same for every game: fetches
// /games/<id>/replay.json (docs/PROTOCOL.md, "Replay steps"), then drives the
// buttons, the slider, the arrow keys and the move log; the board of a step is
// drawn by the game's renderer, ./replay/<game>.js, loaded by name:
//
//   createReplayRenderer({ board, data }) -> {
//     render(index)          draw data.steps[index] (every hand, since the game is over)
//     describe(index) -> Node    the move log line of step index >= 1 (after the name)
//     caption(index) -> string   one line saying what the board shows
//     help                       (optional) how to read the board
//     highlight(index, move, seat) -> count   (optional) outline on the board drawn
//                                for index what `move` by `seat` would touch (the
//                                analysis: the better alternative); class rp-better
//   }

import { shortName } from "./bot-names.js";

const root = document.querySelector("[data-testid=replay]");

const $ = (selector) => root.querySelector(selector);

const el = {
  status: $("[data-testid=replay-status]"),
  body: $(".replay-body"),
  board: $("[data-testid=replay-board]"),
  caption: $("[data-testid=replay-caption]"),
  help: $(".replay-help"),
  slider: $("[data-testid=replay-slider]"),
  position: $("[data-testid=replay-position]"),
  log: $("[data-testid=replay-log]"),
  buttons: [...root.querySelectorAll("[data-go]")],
};

let data = null;
let renderer = null;
let index = 0;

function fail(message) {
  el.status.hidden = false;
  el.status.textContent = message;
  el.status.classList.add("error");
  el.body.hidden = true;
}

async function load() {
  let response;
  try {
    response = await fetch(root.dataset.replayUrl, { headers: { Accept: "application/json" } });
  } catch {
    fail(gettext("The replay could not be loaded: the site did not answer. Try again later."));
    return;
  }
  const body = await response.json().catch(() => null);
  if (!response.ok || !body) {
    fail((body && body.message) || gettext("The replay could not be loaded."));
    return;
  }
  let module;
  try {
    module = await import(`./replay/${encodeURIComponent(root.dataset.game)}.js`);
  } catch {
    fail(gettext("This game has no replay board yet."));
    return;
  }
  data = body;
  renderer = module.createReplayRenderer({ board: el.board, data });
  buildLog();
  if (renderer.help) el.help.textContent += ` ${renderer.help}`;
  el.slider.max = String(data.steps.length - 1);
  root.dataset.steps = String(data.steps.length);
  el.status.hidden = true;
  el.body.classList.remove("loading");
  el.body.hidden = false;
  show(initialStep(), { scroll: false });
  root.dispatchEvent(new CustomEvent("replay:ready"));
}

/** `#replay-12` in the address opens the replay at move 12 (links to a moment). */
function initialStep() {
  const match = /^#replay-(\d+)$/.exec(window.location.hash);
  return match ? Number(match[1]) : 0;
}

function playerName(seat) {
  const player = data.players[seat];
  return player ? shortName(player) : interpolate(gettext("Seat %(number)s"), { number: seat + 1 }, true);
}

// The log's lines are made as they are needed (a long game has hundreds):
// a first screenful, then more as the log scrolls or the replay steps past them.
const LOG_CHUNK = 60;
let logBuilt = 0;

function buildLog(upTo = LOG_CHUNK) {
  const end = Math.min(data.steps.length, upTo);
  if (end <= logBuilt) return;
  const items = [];
  for (let i = logBuilt; i < end; i++) items.push(logLine(data.steps[i], i));
  el.log.append(...items);
  const first = logBuilt === 0;
  logBuilt = end;
  // More lines: whatever marks them (the analysis) marks these too.
  if (!first) root.dispatchEvent(new CustomEvent("replay:log", { detail: { lines: end } }));
}

function logLine(step, i) {
  const li = document.createElement("li");
  li.dataset.step = String(i);
  li.setAttribute("data-testid", "replay-log-line");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "replay-log-line";
  button.dataset.step = String(i);
  if (i === 0) {
    button.textContent = gettext("The deal");
  } else {
    const name = document.createElement("span");
    name.className = "replay-log-name";
    name.textContent = playerName(step.seat);
    button.append(name, " ");
    button.append(renderer.describe(i));
    // The house playing for a member (time ran out, away, left); a bot's own moves are its own.
    if (step.auto && !data.players[step.seat]?.bot) {
      const tag = document.createElement("span");
      tag.className = "muted replay-house";
      tag.textContent = ` ${gettext("(by the house)")}`;
      button.append(tag);
    }
    for (const caused of step.caused || []) {
      if (caused.move === "pass") button.append(` · ${interpolate(gettext("%(name)s passed"), { name: playerName(caused.seat) }, true)}`);
    }
  }
  li.append(button);
  return li;
}

function show(next, { scroll = true } = {}) {
  const last = data.steps.length - 1;
  index = Math.max(0, Math.min(last, Number.isFinite(next) ? next : 0));
  for (const marked of el.board.querySelectorAll(".rp-better")) marked.classList.remove("rp-better");
  renderer.render(index);
  root.dataset.step = String(index);
  el.slider.value = String(index);
  const moveOf = interpolate(gettext("Move %(index)s of %(last)s"), { index, last }, true);
  el.slider.setAttribute("aria-valuetext", index === 0 ? gettext("The deal") : moveOf);
  el.position.textContent = index === 0
    ? `${gettext("The deal")} · ${interpolate(ngettext("%(count)s move", "%(count)s moves", last), { count: last }, true)}`
    : moveOf;
  el.caption.textContent = renderer.caption(index);
  for (const button of el.buttons) {
    const back = button.dataset.go === "start" || button.dataset.go === "prev";
    button.disabled = back ? index === 0 : index === last;
  }
  const previous = el.log.querySelector(".current");
  if (previous) {
    previous.classList.remove("current");
    previous.querySelector("button").removeAttribute("aria-current");
  }
  buildLog(index + LOG_CHUNK);
  const line = el.log.children[index];
  line.classList.add("current");
  line.querySelector("button").setAttribute("aria-current", "step");
  root.dispatchEvent(new CustomEvent("replay:step", { detail: { index } }));
  if (scroll) {
    scrollLogTo(line);
    history.replaceState(null, "", index ? `#replay-${index}` : "#replay");
  }
}

/** Keep the current line in view inside the log, without scrolling the page. */
function scrollLogTo(line) {
  const log = el.log;
  const top = line.offsetTop; // the log is positioned: offsets are within it
  if (top < log.scrollTop) log.scrollTop = top;
  else if (top + line.offsetHeight > log.scrollTop + log.clientHeight) {
    log.scrollTop = top + line.offsetHeight - log.clientHeight;
  }
}

function go(where) {
  const last = data.steps.length - 1;
  const target = { start: 0, prev: index - 1, next: index + 1, end: last }[where];
  show(target);
  // A button that just became disabled would drop the focus to the page: keep it on the controls.
  if (document.activeElement?.disabled) el.slider.focus();
}

for (const button of el.buttons) button.addEventListener("click", () => go(button.dataset.go));
// Other panels step the replay too (the analysis: "show this flagged move").
root.addEventListener("replay:go", (event) => {
  if (data) show(Number(event.detail.step));
});
// ... and outline a move on the board shown (the analysis: the better alternative).
root.addEventListener("replay:highlight", (event) => {
  const { index: at, move, seat } = event.detail;
  if (data && renderer.highlight && at === index) renderer.highlight(at, move, seat);
});
el.slider.addEventListener("input", () => show(Number(el.slider.value)));
el.log.addEventListener("scroll", () => {
  const log = el.log;
  if (data && log.scrollTop + log.clientHeight > log.scrollHeight - 200) buildLog(logBuilt + LOG_CHUNK);
}, { passive: true });

el.log.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-step]");
  if (button) show(Number(button.dataset.step));
});

document.addEventListener("keydown", (event) => {
  if (!data || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  // The slider moves itself with the arrows; text fields keep their keys.
  if (target === el.slider || target.closest?.("input, textarea, select, [contenteditable]")) return;
  const where = { ArrowLeft: "prev", ArrowRight: "next", Home: "start", End: "end" }[event.key];
  // Home and End scroll the page, except from within the replay.
  if (!where || ((event.key === "Home" || event.key === "End") && !root.contains(target))) return;
  event.preventDefault();
  go(where);
});

load();
