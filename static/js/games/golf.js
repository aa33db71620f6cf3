// Nine-card Golf at the table (RULES.md section 3): every player's 3x3 grid,
// the stock, the discard pile, your drawn card, the reveal phase's Ready, the
// went-out banner, the round scores and the move log's lines. The shell
// (../table.js) owns the socket, versions, seats, clock and panels; it calls
// the functions returned by createRenderer().
//
// The server decides legality: every move sent is a string from view.legal.
// Two-step choices (take the discard, then a slot; discard the drawn card,
// then a face-down card) are local selection states (`mode`); only the final
// single move ("take 4", "discard 2") is sent.

import { cardFace, cardLabel, cardName, cardText, ordinal, plural, rankLabel, rankOf, suitOf, suitSvg } from "../cards.js";

const POSITIONS = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const COLUMNS = [
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
];
const FULL = 511; // all nine face up
const VALUES = { A: 1, 2: -2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 10, Q: 10, K: 0 };

function parseMove(move) {
  const [kind, n] = String(move).split(" ");
  return { kind, pos: n === undefined ? null : Number(n) };
}

/** Positions (of the cards given; null = face down) scoring 0 by a column match (G8, G11). */
function matchedPositions(grid, columnRule) {
  const matched = new Set();
  for (const column of COLUMNS) {
    const byRank = new Map();
    for (const pos of column) {
      if (!grid[pos]) continue;
      const rank = rankOf(grid[pos]);
      byRank.set(rank, [...(byRank.get(rank) || []), pos]);
    }
    for (const group of byRank.values()) {
      if (group.length >= (columnRule === "three" ? 3 : 2)) group.forEach((pos) => matched.add(pos));
    }
  }
  return matched;
}

/** What the face-up cards score so far (face-down cards count nothing). */
function showing(grid, columnRule) {
  const matched = matchedPositions(grid, columnRule);
  let total = 0;
  grid.forEach((code, pos) => {
    if (code && !matched.has(pos)) total += VALUES[rankOf(code)] ?? 0;
  });
  return total;
}

function signed(n) {
  return n < 0 ? `\u2212${-n}` : String(n);
}

function listNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** A small card for the opponents' grids and the score panels: rank and suit, or a back. */
function miniCard(code, tag = "span") {
  const card = document.createElement(tag);
  if (code) {
    card.className = `golf-mini suit-${suitOf(code)}`;
    card.innerHTML = `<span class="golf-mini-rank">${rankLabel(rankOf(code))}</span>${suitSvg(suitOf(code), "suit golf-mini-suit")}`;
  } else {
    card.className = "golf-mini golf-back";
  }
  return card;
}

export function createRenderer(shell) {
  const { el } = shell;
  let mode = null; // null | "take" | "discard": the first half of a two-step move
  let built = false;
  let scores = null; // the scores section, ours, inside el.game
  const parts = {}; // the board's pieces, built once
  const bubbles = new Map(); // seat -> timeout id
  let logCache = { key: "", info: null };

  const view = () => shell.frame().view;
  /** A seat's grid as drawn: the table's, or once the match is over the last round's, all face up. */
  const gridOf = (seat) => {
    const v = view();
    return v.over && v.last_round ? v.last_round.grids[seat] : v.grids[seat];
  };
  const me = () => shell.mySeat();
  const legalSet = () => new Set(view().legal || []);
  const who = (seat) => (seat === me() ? "you" : shell.seatName(seat));
  const whoCap = (seat) => (seat === me() ? "You" : shell.seatName(seat));

  // -------------------------------------------------------------------------
  // The move log, read once per frame: which round each move belongs to, who
  // went out, and whether the card it moved is still face up in this view.

  function analyseLog() {
    const frame = shell.frame();
    const moves = shell.moves();
    const key = `${frame.version}:${moves.length}:${moves.length ? moves[moves.length - 1].n : 0}`;
    if (logCache.key === key) return logCache.info;
    const v = frame.view;
    const n = v.players;
    const entries = new Map(); // event n -> entry
    const rounds = [];
    let round = 1;
    let phase = "reveal";
    let up = Array(n).fill(0);
    let ready = new Set();
    let toMove = null;
    let drawn = false;
    let wentOut = null;
    let current = { round, entries: [], wentOut: null };
    rounds.push(current);
    let ok = true;
    for (const event of moves) {
      const { kind, pos } = parseMove(event.move);
      if (phase === "over" || (pos !== null && !(pos >= 0 && pos <= 8))) {
        ok = false;
        break;
      }
      const entry = { round, phase, kind, pos, seat: event.seat, wentOut: false, first: current.entries.length === 0 };
      entries.set(event.n, entry);
      current.entries.push(entry);
      if (phase === "reveal") {
        if (kind === "flip") up[event.seat] |= 1 << pos;
        else if (kind === "ready") {
          ready.add(event.seat);
          if (ready.size === n) {
            phase = "turn";
            toMove = (((round - 1) % n) + 1) % n;
          }
        } else {
          ok = false;
          break;
        }
        continue;
      }
      if (event.seat !== toMove) {
        ok = false;
        break;
      }
      if (kind === "draw" && !drawn) {
        drawn = true;
        continue;
      }
      const afterDraw = kind === "swap" || kind === "discard";
      if (afterDraw !== drawn || !["swap", "discard", "take", "flip"].includes(kind)) {
        ok = false;
        break;
      }
      drawn = false;
      up[event.seat] |= 1 << pos;
      if (wentOut === null && up[event.seat] === FULL) {
        wentOut = event.seat;
        entry.wentOut = true;
        current.wentOut = event.seat;
      }
      toMove = (toMove + 1) % n;
      if (wentOut !== null && toMove === wentOut) {
        round += 1;
        if (round > v.rounds) {
          phase = "over";
        } else {
          phase = "reveal";
          up = Array(n).fill(0);
          ready = new Set();
          toMove = null;
          wentOut = null;
          current = { round, entries: [], wentOut: null };
          rounds.push(current);
        }
      }
    }
    // Only trust the reading if it ends where the server says we are.
    if (ok && v.over) ok = phase === "over";
    else if (ok) {
      ok =
        phase === v.phase &&
        round === v.round &&
        (phase !== "turn" || (toMove === v.to_move && drawn === Boolean(v.holding[v.to_move]))) &&
        v.grids.every((grid, seat) => grid.every((code, pos) => Boolean(code) === Boolean(up[seat] >> pos & 1)));
    }
    const info = { ok, entries, rounds };
    logCache = { key, info };
    return info;
  }

  /** The grids of a round as this view shows them now (current or last finished), else null. */
  function gridsOfRound(roundNo) {
    const v = view();
    if (!v.over && roundNo === v.round) return v.grids;
    if (v.last_round && roundNo === v.last_round.round) return v.last_round.grids;
    return null;
  }

  /** The card `entry` put at its position, if it is still there and face up in this view. */
  function placedCard(info, entry) {
    if (!info.ok) return null;
    const grids = gridsOfRound(entry.round);
    if (!grids) return null;
    const list = info.rounds.find((r) => r.round === entry.round).entries;
    const later = list.slice(list.indexOf(entry) + 1);
    if (later.some((e) => e.seat === entry.seat && e.pos === entry.pos && (e.kind === "swap" || e.kind === "take"))) return null;
    return grids[entry.seat][entry.pos] || null;
  }

  /** The card `entry` put on the discard pile, if it is still the top card. */
  function discardedCard(info, entry) {
    const v = view();
    if (!info.ok || v.over || entry.round !== v.round || !v.discard) return null;
    const list = info.rounds.find((r) => r.round === entry.round).entries;
    const later = list.slice(list.indexOf(entry) + 1);
    if (later.some((e) => e.kind === "swap" || e.kind === "take" || e.kind === "discard")) return null;
    return v.discard;
  }

  /** Went out per round number, from the log, the last round and the result. */
  function wentOutByRound() {
    const v = view();
    const out = new Map();
    const info = analyseLog();
    if (info.ok) for (const r of info.rounds) if (r.wentOut !== null) out.set(r.round, r.wentOut);
    if (v.last_round) out.set(v.last_round.round, v.last_round.went_out);
    if (v.result) (v.result.went_out || []).forEach((seat, i) => out.set(i + 1, seat));
    return out;
  }

  // -------------------------------------------------------------------------
  // Building the page's pieces once

  function build() {
    if (built) return;
    built = true;
    // Golf's stylesheet, if the page does not link it already.
    if (!document.querySelector('link[rel="stylesheet"][href*="golf"]')) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = new URL("../../css/golf.css", import.meta.url).href;
      document.head.append(link);
    }
    el.game.dataset.game = "golf";
    el.board.dataset.built = "golf";
    el.board.setAttribute("aria-label", "The stock and the discard pile");
    el.board.innerHTML = `
      <div class="golf-status" data-testid="golf-status"></div>
      <div class="golf-banner" data-testid="golf-went-out" role="status" hidden></div>
      <div class="golf-center">
        <div class="golf-piles">
          <button type="button" class="golf-pile golf-stock" data-testid="golf-stock">
            <span class="golf-pile-card golf-back golf-stack" aria-hidden="true"></span>
            <span class="golf-pile-label" aria-hidden="true"><span class="golf-pile-name">Stock</span> <span class="golf-stock-count"></span></span>
          </button>
          <button type="button" class="golf-pile golf-discard" data-testid="golf-discard">
            <span class="golf-pile-card golf-discard-top" aria-hidden="true"></span>
            <span class="golf-pile-label" aria-hidden="true"><span class="golf-pile-name">Discard</span> <span class="golf-discard-count"></span></span>
          </button>
          <div class="golf-pile golf-drawn-pile" hidden>
            <span class="golf-pile-card golf-drawn-card"></span>
            <span class="golf-pile-label golf-drawn-label"></span>
          </div>
        </div>
        <div class="golf-actions"></div>
      </div>
      <p class="golf-hint" data-testid="golf-hint"></p>`;
    for (const name of ["status", "banner", "stock", "discard", "drawnPile", "drawnCard", "drawnLabel", "actions", "hint"]) {
      const cls = {
        status: ".golf-status",
        banner: ".golf-banner",
        stock: ".golf-stock",
        discard: ".golf-discard",
        drawnPile: ".golf-drawn-pile",
        drawnCard: ".golf-drawn-card",
        drawnLabel: ".golf-drawn-label",
        actions: ".golf-actions",
        hint: ".golf-hint",
      }[name];
      parts[name] = el.board.querySelector(cls);
    }
    parts.stock.addEventListener("click", () => act("draw"));
    parts.discard.addEventListener("click", () => discardClicked());
    parts.actions.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-action]");
      if (button && !button.disabled) action(button.dataset.action);
    });

    el.hand.classList.add("golf-hand");
    el.hand.addEventListener("click", (event) => {
      const slot = event.target.closest("[data-testid=golf-slot]");
      if (slot && !slot.disabled) slotChosen(Number(slot.dataset.pos));
    });

    scores = document.createElement("section");
    scores.className = "panel golf-scores";
    scores.setAttribute("data-testid", "golf-round-scores");
    scores.setAttribute("aria-labelledby", "golf-scores-heading");
    scores.id = "golf-scores";
    scores.tabIndex = -1;
    // Below your docked grid, not inside the dock.
    (el.handHelp.closest(".hand-dock") || el.handHelp).after(scores);
  }

  // -------------------------------------------------------------------------
  // Choosing and sending moves

  /** Send `move` if the server listed it; the shell checks again. */
  function act(move) {
    if (!shell.isMyTurn() || !shell.canAct() || !legalSet().has(move)) return false;
    mode = null;
    shell.play(move);
    return true;
  }

  function setMode(next) {
    mode = next;
    renderHand();
  }

  /** The slot-click meaning in the current state, or null if the slot does nothing now. */
  function slotMove(pos) {
    const v = view();
    const legal = legalSet();
    let move = null;
    if (v.phase === "reveal") move = `flip ${pos}`;
    else if (v.drawn) move = mode === "discard" ? `discard ${pos}` : `swap ${pos}`;
    else move = mode === "take" ? `take ${pos}` : `flip ${pos}`;
    return legal.has(move) ? move : null;
  }

  function slotChosen(pos) {
    const move = slotMove(pos);
    if (move) act(move);
  }

  function discardClicked() {
    const v = view();
    const legal = legalSet();
    if (!shell.isMyTurn() || !shell.canAct()) return;
    if (v.drawn) {
      if ([...legal].some((m) => m.startsWith("discard "))) setMode(mode === "discard" ? null : "discard");
    } else if ([...legal].some((m) => m.startsWith("take "))) {
      setMode(mode === "take" ? null : "take");
    }
  }

  function action(name) {
    if (name === "draw") act("draw");
    else if (name === "ready") act("ready");
    else if (name === "take") setMode(mode === "take" ? null : "take");
    else if (name === "discard") setMode("discard");
    else if (name === "swap" || name === "cancel") setMode(null);
  }

  /** Drop a half-chosen move the view no longer allows. */
  function checkMode() {
    const legal = [...legalSet()];
    if (!shell.isMyTurn()) mode = null;
    else if (mode === "take" && !legal.some((m) => m.startsWith("take "))) mode = null;
    else if (mode === "discard" && !legal.some((m) => m.startsWith("discard "))) mode = null;
  }

  // -------------------------------------------------------------------------
  // Drawing

  function render() {
    build();
    checkMode();
    renderOpponents();
    renderMe();
    renderHand();
    renderScores();
  }

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
            `<div class="opponent-name"><span class="name"></span><span class="bot-badge" hidden>bot</span><span class="away-badge" hidden>away</span></div>` +
            `<div class="golf-seat-cards"><div class="golf-grid mini" data-testid="golf-grid" role="img"></div>` +
            `<span class="golf-holding golf-mini golf-back" hidden title="Holding a drawn card"></span></div>` +
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
      li.classList.toggle("is-bot", Boolean(entry && entry.bot));
      li.querySelector(".away-badge").hidden = !(entry && entry.away && !entry.bot);
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
      grid.setAttribute("aria-label", `${name}'s cards: ${describeGrid(gridOf(seat))}`);
      li.setAttribute("aria-label", `${name}: ${stats}${toMove ? ", to move" : ""}${holding ? ", holding a drawn card" : ""}`);
    }
  }

  /** One short line per seat: total, what its face-up cards score, ready / went out / last turn. */
  function seatStatParts(seat) {
    const v = view();
    const parts = { total: `Total ${signed(v.totals[seat])}`, shows: "", state: "" };
    if (!v.over && v.grids[seat].some(Boolean)) parts.shows = `shows ${signed(showing(v.grids[seat], v.column_rule))}`;
    if (v.phase === "reveal") parts.state = v.ready && v.ready[seat] ? "ready \u2713" : "choosing";
    else if (v.went_out === seat) parts.state = "went out";
    else if (v.final_turns.includes(seat)) parts.state = "last turn";
    else if (v.holding && v.holding[seat]) parts.state = "holding a card";
    return parts;
  }

  function seatStats(seat) {
    const { total, shows, state } = seatStatParts(seat);
    return [total, shows, state].filter(Boolean).join(" · ");
  }

  function fillStats(holder, seat) {
    const parts = seatStatParts(seat);
    holder.replaceChildren(
      ...["total", "shows", "state"]
        .filter((k) => parts[k])
        .map((k) => Object.assign(document.createElement("span"), { className: `golf-stat-${k}`, textContent: parts[k] })),
    );
  }

  /** Row by row, as a screen reader reads it: "row 1: seven of diamonds, face down, face down; row 2: ...". */
  function describeGrid(grid) {
    const rows = [0, 1, 2].map((r) => grid.slice(r * 3, r * 3 + 3).map((code) => (code ? cardName(code) : "face down")));
    return rows.map((cards, r) => `row ${r + 1}: ${cards.join(", ")}`).join("; ");
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

  function renderMe() {
    const v = view();
    const mine = me();
    el.meBar.hidden = mine === null;
    el.hand.hidden = mine === null;
    el.handHelp.hidden = mine === null || v.over;
    if (mine === null) return;
    el.meBar.querySelector(".me-name").textContent = `${shell.seatName(mine)} (you)`;
    fillStats(el.meBar.querySelector(".me-stats"), mine);
    el.meBar.classList.toggle("to-move", shell.isMyTurn());
    el.meBar.classList.toggle("went-out", v.went_out === mine);
    el.meBar.dataset.seat = String(mine);
  }

  /** Everything that changes with your choices: the piles, the actions, your grid. */
  function renderHand() {
    const frame = shell.frame();
    if (!frame || !frame.view) return;
    build();
    const before = document.activeElement;
    const hadFocus = Boolean(before) && (el.hand.contains(before) || el.board.contains(before));
    checkMode();
    renderBoard();
    renderGrid();
    if (hadFocus) keepFocus(before);
  }

  /**
   * A redraw replaced or disabled the focused control (a slot, Draw, Take...):
   * focus the next sensible one, a slot to choose, else an action, else your grid.
   */
  function keepFocus(before) {
    const now = document.activeElement;
    if (now && now !== document.body && now.isConnected && !now.disabled) return;
    const target =
      el.hand.querySelector("[data-testid=golf-slot][data-legal=true]:not(:disabled)") ||
      parts.actions.querySelector("button:not(:disabled)") ||
      [parts.stock, parts.discard].find((b) => !b.disabled) ||
      el.hand;
    if (target !== before || now !== target) target.focus({ preventScroll: true });
  }

  function renderBoard() {
    const v = view();
    const mine = me();
    const legal = legalSet();
    const myTurn = shell.isMyTurn();
    const active = myTurn && shell.canAct();
    const canTake = [...legal].some((m) => m.startsWith("take "));
    const canDiscard = [...legal].some((m) => m.startsWith("discard "));

    // The round and whose turn.
    const dealer = v.dealer === mine ? "you deal" : `${shell.seatName(v.dealer)} deals`;
    let status = `Round ${Math.min(v.round, v.rounds)} of ${v.rounds} · ${dealer}`;
    if (v.over) status = `Match over after ${plural(v.rounds, "round")}`;
    else if (v.phase === "reveal") status += " · turning up cards";
    parts.status.textContent = status;
    if (v.column_rule === "three") parts.status.title = "Column match needs three of a rank";

    // Someone went out: who still has a last turn.
    const banner = parts.banner;
    if (!v.over && v.went_out !== null && v.went_out !== undefined) {
      const left = v.final_turns.map(who);
      const yourLast = mine !== null && v.final_turns[0] === mine;
      banner.hidden = false;
      banner.classList.toggle("yours", yourLast);
      banner.textContent =
        `${whoCap(v.went_out)} went out! ` +
        (yourLast
          ? `This is your last turn${left.length > 1 ? ` (then ${listNames(left.slice(1))})` : ""}.`
          : left.length
            ? `Last ${left.length === 1 ? "turn" : "turns"}: ${listNames(left)}.`
            : "The round ends.");
    } else if (v.phase === "reveal" && v.last_round) {
      const lr = v.last_round;
      banner.hidden = false;
      banner.classList.remove("yours");
      const pen = lr.penalty !== null ? ` (+10: not the lowest)` : "";
      banner.innerHTML = "";
      banner.append(
        `Round ${lr.round} scored: ${whoCap(lr.went_out)} went out${pen}. `,
        Object.assign(document.createElement("a"), { href: "#golf-scores", textContent: "See the scores" }),
      );
    } else {
      banner.hidden = true;
    }

    // The stock.
    parts.stock.querySelector(".golf-stock-count").textContent = String(v.stock);
    const canDraw = legal.has("draw");
    parts.stock.disabled = !(active && canDraw);
    parts.stock.classList.toggle("legal", myTurn && canDraw);
    parts.stock.setAttribute(
      "aria-label",
      `Stock, ${plural(v.stock, "card")}${myTurn && canDraw ? ": draw the top card (key D)" : ""}`,
    );

    // The discard pile.
    const top = v.discard;
    const topKey = top || "";
    const holder = parts.discard.querySelector(".golf-discard-top");
    if (holder.dataset.card !== topKey) {
      holder.dataset.card = topKey;
      holder.replaceChildren(top ? cardFace(top) : Object.assign(document.createElement("span"), { className: "golf-empty" }));
      holder.querySelector(".card")?.removeAttribute("role");
      holder.querySelector(".card")?.removeAttribute("aria-label");
    }
    parts.discard.querySelector(".golf-discard-count").textContent = v.discard_count > 1 ? String(v.discard_count) : "";
    if (top) parts.discard.dataset.card = top;
    else delete parts.discard.dataset.card;
    const discardUsable = v.drawn ? canDiscard : canTake;
    parts.discard.disabled = !(active && discardUsable);
    parts.discard.classList.toggle("legal", myTurn && discardUsable);
    parts.discard.classList.toggle("chosen", mode === "take" || mode === "discard");
    parts.discard.setAttribute("aria-pressed", String(mode === "take" || mode === "discard"));
    const topName = top ? cardName(top) : "empty";
    let discardLabel = `Discard pile: ${topName}`;
    if (myTurn && v.drawn && canDiscard) discardLabel += ": discard your drawn card here, then pick a face-down card to turn up (key X)";
    else if (myTurn && canTake) discardLabel += ": take it, then pick the slot for it (key T)";
    parts.discard.setAttribute("aria-label", discardLabel);

    // A drawn card: yours face up, someone else's face down.
    const holderSeat = v.holding ? v.holding.findIndex(Boolean) : -1;
    parts.drawnPile.hidden = holderSeat < 0;
    if (holderSeat >= 0) {
      const code = holderSeat === mine ? v.drawn : null;
      const key = code || `back:${holderSeat}`;
      if (parts.drawnCard.dataset.key !== key) {
        parts.drawnCard.dataset.key = key;
        parts.drawnCard.replaceChildren(code ? cardFace(code) : Object.assign(document.createElement("span"), { className: "golf-back golf-back-card" }));
      }
      if (code) {
        parts.drawnPile.setAttribute("data-testid", "golf-drawn");
        parts.drawnPile.dataset.card = code;
        parts.drawnLabel.textContent = "You drew";
      } else {
        parts.drawnPile.setAttribute("data-testid", "golf-held");
        delete parts.drawnPile.dataset.card;
        parts.drawnLabel.textContent = `${shell.seatName(holderSeat)} drew`;
      }
      parts.drawnPile.setAttribute("aria-label", code ? `You drew the ${cardName(code)}` : `${shell.seatName(holderSeat)} holds a drawn card`);
      parts.drawnPile.setAttribute("role", "img");
    }

    // The actions, laid out plainly, and a line saying what a click does.
    const buttons = [];
    let hint = "";
    const button = (name, label, opts = {}) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `button${opts.secondary ? " secondary" : ""}`;
      b.dataset.action = name;
      b.innerHTML = label;
      if (opts.testid) b.setAttribute("data-testid", opts.testid);
      if (opts.pressed !== undefined) b.setAttribute("aria-pressed", String(opts.pressed));
      if (opts.aria) b.setAttribute("aria-label", opts.aria);
      b.disabled = !active;
      buttons.push(b);
    };
    const key = (k) => ` <kbd aria-hidden="true">${k}</kbd>`;
    if (v.over) {
      hint = "";
    } else if (v.phase === "reveal") {
      if (mine !== null && myTurn && legal.has("ready")) {
        const up = v.grids[mine].filter(Boolean).length;
        button("ready", `Ready${key("R")}`, { testid: "golf-ready", aria: "Ready: start playing (key R)" });
        hint =
          up >= 2
            ? "You turned up two cards. Press Ready when you are done."
            : `Tap up to ${2 - up === 2 ? "two" : "one more"} of your face-down cards to turn ${2 - up === 2 ? "them" : "it"} up (keys 1–9), then press Ready.`;
      } else if (mine !== null) {
        hint = "You are ready. Play starts when everyone is.";
      } else {
        hint = "Everyone turns up to two cards, then says ready.";
      }
    } else if (myTurn && v.drawn) {
      button("swap", "Swap into a slot", { pressed: mode !== "discard", secondary: mode === "discard" });
      if (canDiscard) button("discard", `Discard it, flip a card${key("X")}`, { pressed: mode === "discard", secondary: mode !== "discard" });
      hint =
        mode === "discard"
          ? `Now pick a face-down card to turn up; the ${cardText(v.drawn)} is discarded.`
          : `Click any of your cards (1–9) to swap the ${cardText(v.drawn)} in, or discard it and turn up a face-down card.`;
    } else if (myTurn) {
      if (mode === "take") {
        button("cancel", `Cancel${key("Esc")}`, { secondary: true });
        hint = `Now pick the slot for the ${cardText(top)} (1–9).`;
      } else {
        if (canDraw) button("draw", `Draw${key("D")}`, { aria: "Draw from the stock (key D)" });
        if (canTake) button("take", `Take ${top ? cardText(top) : "it"}${key("T")}`, { secondary: true, aria: `Take the ${topName} from the discard, then pick a slot (key T)` });
        hint = "Draw from the stock, take the discard, or click a face-down card to turn it up (1–9).";
      }
    } else if (v.phase === "turn") {
      const mover = shell.seatName(v.to_move);
      hint = v.holding && v.holding[v.to_move] ? `${mover} is deciding where the drawn card goes.` : `${mover} to move.`;
    }
    parts.actions.replaceChildren(...buttons);
    parts.hint.textContent = hint;
    parts.hint.hidden = !hint;
    el.board.classList.toggle("my-turn", myTurn);
    el.board.dataset.mode = mode || "";
  }

  function renderGrid() {
    const v = view();
    const mine = me();
    if (mine === null) {
      el.hand.replaceChildren();
      return;
    }
    const myTurn = shell.isMyTurn();
    const active = myTurn && shell.canAct();
    const cards = gridOf(mine);
    const matched = matchedPositions(cards, v.column_rule);
    const last = lastPlaced();
    const focused = document.activeElement?.closest?.("[data-testid=golf-slot]")?.dataset.pos;
    el.hand.classList.toggle("my-turn", myTurn);
    el.hand.classList.toggle("sending", shell.pending());
    el.hand.dataset.mode = mode || "";
    const grid = document.createElement("div");
    grid.className = "golf-grid mine";
    grid.setAttribute("data-testid", "golf-grid");
    grid.dataset.seat = String(mine);
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", myTurn ? "Your cards: your turn" : "Your cards");
    for (const pos of POSITIONS) {
      const code = cards[pos];
      const move = myTurn ? slotMove(pos) : null;
      const slot = code ? cardFace(code, "button") : document.createElement("button");
      slot.type = "button";
      if (!code) slot.className = "golf-back golf-slot-back";
      slot.classList.add("golf-slot");
      slot.setAttribute("data-testid", "golf-slot");
      slot.dataset.pos = String(pos);
      if (code) slot.dataset.card = code;
      slot.dataset.legal = String(Boolean(move));
      slot.classList.toggle("legal", Boolean(move));
      slot.classList.toggle("matched", matched.has(pos));
      slot.classList.toggle("last-move", Boolean(last && last.seat === mine && last.pos === pos));
      slot.disabled = !(active && move);
      if (move) slot.insertAdjacentHTML("beforeend", `<span class="keycap" aria-hidden="true">${pos + 1}</span>`);
      slot.setAttribute("aria-label", slotLabel(pos, code, move));
      grid.append(slot);
    }
    el.hand.replaceChildren(grid);
    el.handHelp.textContent = helpText();
    if (focused !== undefined) {
      const again = grid.querySelector(`[data-pos="${focused}"]:not(:disabled)`);
      if (again) again.focus();
    }
  }

  /** "Row 1, column 2, face down, not playable" / "..., seven of diamonds, key 2: swap ... in here". */
  function slotLabel(pos, code, move) {
    const v = view();
    const label = `Row ${Math.floor(pos / 3) + 1}, column ${(pos % 3) + 1}, ${code ? cardName(code) : "face down"}`;
    if (!move) return `${label}, not playable`;
    const { kind } = parseMove(move);
    const what = {
      flip: "flip it",
      take: `put the ${v.discard ? cardName(v.discard) : "discard"} from the discard here`,
      swap: `swap the drawn ${v.drawn ? cardName(v.drawn) : "card"} in here`,
      discard: "discard the drawn card and flip this one",
    }[kind];
    return `${label}, key ${pos + 1}: ${what}`;
  }

  function helpText() {
    const v = view();
    if (v.phase === "reveal") return "Click a card or press 1–9 to turn it up · R: ready";
    if (v.drawn) return "1–9: swap into that slot · X: discard it and pick a face-down card · Esc: cancel · arrows move";
    return "D: draw · T: take the discard, then 1–9 · 1–9: turn up a face-down card · Esc: cancel · arrows move";
  }

  // -------------------------------------------------------------------------
  // Scores: the last round (revealed grids, matches, penalty) and every round's totals

  function renderScores() {
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
    h2.textContent = "Scores";
    scores.append(h2);

    if (showLast) {
      const lr = v.last_round;
      const block = document.createElement("div");
      block.className = "golf-last-round";
      block.setAttribute("data-testid", "golf-last-round");
      const h3 = document.createElement("h3");
      h3.textContent = `Round ${lr.round}: every card turned up`;
      const note = document.createElement("p");
      note.className = "muted golf-note";
      note.textContent =
        `${whoCap(lr.went_out)} went out` +
        (lr.penalty !== null ? ` and scored +10: someone else was lower.` : `${lr.went_out === mine ? " with" : " with"} the lowest score: no penalty.`) +
        ` Cards of one rank in a column score 0${v.column_rule === "three" ? " when all three match" : ""}.`;
      const list = document.createElement("div");
      list.className = "golf-last-grids";
      for (let seat = 0; seat < n; seat++) {
        const item = document.createElement("div");
        item.className = "golf-last-seat";
        item.dataset.seat = String(seat);
        item.classList.toggle("me", seat === mine);
        const name = document.createElement("div");
        name.className = "golf-last-name";
        name.textContent = seat === mine ? `${shell.seatName(seat)} (you)` : shell.seatName(seat);
        if (seat === lr.went_out) name.insertAdjacentHTML("beforeend", ` <span class="golf-tag out">out</span>`);
        const grid = document.createElement("div");
        grid.className = "golf-grid mini";
        grid.setAttribute("role", "img");
        const matched = new Set(lr.matched[seat]);
        grid.setAttribute(
          "aria-label",
          `${shell.seatName(seat)}: ${lr.grids[seat].map((c, pos) => `${cardText(c)}${matched.has(pos) ? " (matched)" : ""}`).join(", ")}`,
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
    caption.textContent = "Round scores and totals";
    table.append(caption);
    const head = document.createElement("thead");
    const hr = document.createElement("tr");
    hr.innerHTML = `<th scope="col">Player</th>`;
    for (let r = 1; r <= v.rounds; r++) hr.insertAdjacentHTML("beforeend", `<th scope="col" class="num${r > played ? " future" : ""}" title="Round ${r}">${r}</th>`);
    hr.insertAdjacentHTML("beforeend", `<th scope="col" class="num">Total</th>`);
    head.append(hr);
    const body = document.createElement("tbody");
    for (let seat = 0; seat < n; seat++) {
      const tr = document.createElement("tr");
      tr.dataset.seat = String(seat);
      tr.classList.toggle("me", seat === mine);
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = seat === mine ? `${shell.seatName(seat)} (you)` : shell.seatName(seat);
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
            td.title = penalised ? "Went out, not the lowest: +10 included" : "Went out";
            td.insertAdjacentHTML("beforeend", penalised ? `<sup class="golf-pen" aria-label="went out, plus 10 penalty included">+10</sup>` : `<sup class="golf-out" aria-label="went out">out</sup>`);
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
    legend.textContent = "out: went out that round · +10: went out without the lowest score (included). Lowest total wins.";
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
    const name = (seat) => (seat === mine ? `${shell.seatName(seat)} (you)` : shell.seatName(seat));
    const resigned = new Set(result.resigned || []);
    const winners = result.winners || seats.filter((s) => result.places[s] === 1);
    const best = winners.length ? result.totals[winners[0]] : null;
    let summary;
    if (winners.length === 1) {
      summary = winners[0] === mine ? `You win with ${signed(best)}!` : `${shell.seatName(winners[0])} wins with ${signed(best)}.`;
    } else {
      summary = `${listNames(winners.map((s) => (s === mine ? "you" : shell.seatName(s))))} share first place with ${signed(best)}.`;
    }
    el.resultsSummary.textContent = summary;
    const rounds = result.rounds || (result.round_scores[0] || []).length;
    const head = ["Place", "Player"];
    for (let r = 1; r <= rounds; r++) head.push(`R${r}`);
    head.push("Total");
    el.resultsHead.innerHTML = `<tr>${head.map((h, i) => `<th scope="col"${i === 1 ? "" : ' class="num"'}>${h}</th>`).join("")}</tr>`;
    el.resultsBody.replaceChildren(
      ...seats.map((seat) => {
        const tr = document.createElement("tr");
        tr.setAttribute("data-testid", "result-row");
        tr.dataset.seat = String(seat);
        tr.dataset.place = String(result.places[seat]);
        tr.classList.toggle("me", seat === mine);
        tr.classList.toggle("winner", result.places[seat] === 1);
        tr.classList.toggle("resigned", resigned.has(seat));
        const cells = [ordinal(result.places[seat]), resigned.has(seat) ? `${name(seat)} · resigned` : name(seat)];
        cells.push(...result.round_scores[seat].map(signed));
        cells.push(signed(result.totals[seat]));
        cells.forEach((value, i) => {
          const td = document.createElement(i === 1 ? "th" : "td");
          if (i === 1) td.scope = "row";
          else td.className = "num";
          td.textContent = String(value);
          const r = i - 1; // round number for round cells
          if (i >= 2 && i < cells.length - 1 && result.went_out && result.went_out[r - 1] === seat) {
            const others = result.round_scores.filter((_, s) => s !== seat).map((list) => list[r - 1]);
            const penalised = result.round_scores[seat][r - 1] > Math.min(...others);
            td.classList.add("went-out");
            td.insertAdjacentHTML("beforeend", penalised ? `<sup class="golf-pen" title="went out, +10 included">+10</sup>` : `<sup class="golf-out" title="went out">out</sup>`);
          }
          tr.append(td);
        });
        return tr;
      }),
    );
    el.resultsNote.hidden = false;
    el.resultsNote.classList.add("golf-legend");
    el.resultsNote.textContent = `Lowest total wins. out: went out that round · +10: went out without the lowest round score (included).${
      result.penalties && result.penalties.some(Boolean)
        ? ` Penalties: ${seats.filter((s) => result.penalties[s]).map((s) => `${shell.seatName(s)} ${result.penalties[s]}`).join(", ")}.`
        : ""
    }`;
    const lr = v.last_round;
    el.revealedHeading.hidden = !lr;
    el.revealedHeading.textContent = lr ? `Round ${lr.round}: the last grids` : "";
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

  // -------------------------------------------------------------------------
  // The move log: one line per move, cards named only where this view shows them

  function describeMove(li, event) {
    const v = shell.frame()?.view;
    const { kind, pos } = parseMove(event.move);
    const info = v ? analyseLog() : { ok: false, entries: new Map(), rounds: [] };
    const entry = info.ok ? info.entries.get(event.n) : null;
    if (entry && entry.first) {
      li.classList.add("golf-round-start");
      li.dataset.round = `Round ${entry.round}`;
    }
    const slot = `slot ${pos + 1}`;
    const card = (code) => (code ? cardLabel(code) : null);
    const placed = entry ? card(placedCard(info, entry)) : null;
    const dropped = entry ? card(discardedCard(info, entry)) : null;
    const add = (...bits) => li.append(...bits.filter((b) => b !== null && b !== undefined));
    switch (kind) {
      case "ready":
        li.classList.add("pass");
        add(" is ready");
        break;
      case "draw": {
        const moves = shell.moves();
        const isLast = moves.length && moves[moves.length - 1].n === event.n;
        if (isLast && v && v.drawn && event.seat === me()) add(" drew ", cardLabel(v.drawn));
        else add(" drew a card");
        break;
      }
      case "flip":
        add(` turned up card ${pos + 1}`, placed ? " (" : null, placed, placed ? ")" : null);
        break;
      case "swap":
        if (placed) add(" put ", placed, ` in ${slot}`, dropped ? ", discarding " : null, dropped);
        else add(` swapped it into ${slot}`, dropped ? ", discarding " : null, dropped);
        break;
      case "discard":
        add(" discarded ", dropped || "it", `, turned up card ${pos + 1}`, placed ? " (" : null, placed, placed ? ")" : null);
        break;
      case "take":
        add(" took ", placed || "the top card", ` from the discard into ${slot}`, dropped ? ", discarding " : null, dropped);
        break;
      default:
        add(` ${event.move}`);
    }
    if (entry && entry.wentOut) {
      const out = document.createElement("strong");
      out.className = "golf-log-out";
      out.textContent = " \u2014 went out!";
      li.append(out);
    }
  }

  // -------------------------------------------------------------------------
  // Live updates: a short bubble on whoever moved

  function onEvents(events) {
    const info = analyseLog();
    for (const event of events) {
      const { kind } = parseMove(event.move);
      const entry = info.ok ? info.entries.get(event.n) : null;
      let text = { ready: "ready", draw: "drew", flip: "turned up", swap: "swapped", discard: "discarded", take: "took" }[kind] || "";
      if (entry && entry.wentOut) text = "went out!";
      if (text) showBubble(event.seat, text, Boolean(entry && entry.wentOut));
    }
  }

  function showBubble(seat, text, loud) {
    const holder = seat === me() ? el.meBar : el.opponents.querySelector(`[data-seat="${seat}"]`);
    const bubble = holder?.querySelector(".bubble");
    if (!bubble) return;
    bubble.textContent = seat === me() ? `you ${text}` : text;
    bubble.hidden = false;
    bubble.classList.toggle("loud", loud);
    bubble.classList.remove("pop");
    void bubble.offsetWidth; // restart the animation
    bubble.classList.add("pop");
    clearTimeout(bubbles.get(seat));
    bubbles.set(
      seat,
      setTimeout(() => {
        bubble.hidden = true;
      }, 1800),
    );
  }

  // -------------------------------------------------------------------------
  // Keys: 1-9 a slot, D draw, T take, X discard the drawn card, R ready, Esc cancel, arrows move

  function keydown(event) {
    const v = view();
    const k = event.key;
    if (/^[1-9]$/.test(k)) {
      const pos = Number(k) - 1;
      if (slotMove(pos)) {
        event.preventDefault();
        slotChosen(pos);
      }
      return;
    }
    const lower = k.length === 1 ? k.toLowerCase() : k;
    const legal = [...legalSet()];
    if (lower === "d" && legal.includes("draw")) {
      event.preventDefault();
      act("draw");
    } else if (lower === "t" && !v.drawn && legal.some((m) => m.startsWith("take "))) {
      event.preventDefault();
      setMode(mode === "take" ? null : "take");
      focusFirstLegal();
    } else if (lower === "x" && v.drawn && legal.some((m) => m.startsWith("discard "))) {
      event.preventDefault();
      setMode(mode === "discard" ? null : "discard");
      focusFirstLegal();
    } else if (lower === "s" && v.drawn) {
      event.preventDefault();
      setMode(null);
    } else if (lower === "r" && legal.includes("ready")) {
      event.preventDefault();
      act("ready");
    } else if (k === "Escape" && mode) {
      event.preventDefault();
      setMode(null);
    } else {
      const step = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] }[k];
      if (!step) return;
      const slots = [...el.hand.querySelectorAll("[data-testid=golf-slot]")];
      if (!slots.length) return;
      event.preventDefault();
      const at = slots.indexOf(document.activeElement);
      let pos = at < 0 ? 4 : at;
      // Walk in that direction to the next slot that can be chosen, wrapping.
      for (let i = 0; i < 3; i++) {
        const row = (Math.floor(pos / 3) + step[0] + 3) % 3;
        const col = ((pos % 3) + step[1] + 3) % 3;
        pos = row * 3 + col;
        if (!slots[pos].disabled) break;
      }
      if (!slots[pos].disabled) slots[pos].focus();
    }
  }

  function focusFirstLegal() {
    const slot = el.hand.querySelector("[data-testid=golf-slot][data-legal=true]:not(:disabled)");
    if (slot && el.hand.contains(document.activeElement) === false) slot.focus({ preventScroll: true });
  }

  // -------------------------------------------------------------------------
  // What the shell's turn line says

  function yourTurn() {
    const v = view();
    if (v.phase === "reveal") return "Turn up to two of your cards, then press Ready.";
    const last = v.went_out !== null && v.went_out !== undefined ? "Your last turn" : "Your turn";
    if (v.drawn) return `You drew the ${cardText(v.drawn)}: swap it in, or discard it and turn up a card.`;
    return `${last}: draw, take the ${v.discard ? cardText(v.discard) : "discard"}, or turn up a card.`;
  }

  function waiting() {
    const v = view();
    if (v.phase === "reveal") {
      const waitingFor = v.ready.map((r, seat) => (r ? null : seat)).filter((s) => s !== null);
      if (waitingFor.length) return `Waiting for ${listNames(waitingFor.map(who))} to be ready.`;
    }
    return "Waiting for the others.";
  }

  /**
   * The shell measured how far your docked grid reaches past the window's
   * bottom (negative: room to spare): shrink its cards to fit, or grow them
   * back (the CSS caps them at their normal size). A 3x3 grid of 5:7 cards
   * grows about 4.4 px in height per px of card width.
   */
  function fit({ dockOverflow }) {
    const slot = el.hand.querySelector(".golf-grid.mine .golf-slot");
    if (!slot || dockOverflow === null || Math.abs(dockOverflow) < 3) return;
    const shrunk = el.game.style.getPropertyValue("--golf-card-fit");
    if (dockOverflow < 0 && !shrunk) return;
    const width = slot.getBoundingClientRect().width;
    const next = Math.max(34, Math.floor(width - dockOverflow / 4.4));
    el.game.style.setProperty("--golf-card-fit", `${next}px`);
  }

  return {
    render,
    renderHand,
    renderResults,
    describeMove,
    onEvents,
    keydown,
    fit,
    resize: () => {},
    yourTurn,
    sending: () => "Sending your move…",
    waiting,
  };
}

