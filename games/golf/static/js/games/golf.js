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
//
// This module draws the piles, the actions and your grid and handles your
// choices; ./golf/ holds the rest by concern: rules.js (moves, matches,
// scoring, small cards), seats.js (the other players), log.js (reading the
// move log, its lines), scores.js (round scores and the results panel).

import { cardCount, cardFace, cardName, cardText } from "../cards.js";
import { withoutKeys } from "../table-keys.js";
import { createLog } from "./golf/log.js";
import { POSITIONS, listNames, matchedPositions, parseMove, seatHelpers } from "./golf/rules.js";
import { createScores } from "./golf/scores.js";
import { createSeats } from "./golf/seats.js";

// Text through the page's static catalog (gettext, ngettext, interpolate: base.html).
const t = (text, params) => interpolate(text, params, true);
// The bubble over a player who just moved, and over you.
const BUBBLES = {
  ready: gettext("ready"),
  draw: gettext("drew"),
  flip: gettext("turned up"),
  swap: gettext("swapped"),
  discard: gettext("discarded"),
  take: gettext("took"),
};
const BUBBLES_YOU = {
  ready: gettext("you are ready"),
  draw: gettext("you drew"),
  flip: gettext("you turned up"),
  swap: gettext("you swapped"),
  discard: gettext("you discarded"),
  take: gettext("you took"),
};

export function createRenderer(shell) {
  const { el } = shell;
  let mode = null; // null | "take" | "discard": the first half of a two-step move
  let built = false;
  let scores = null; // the scores section, ours, inside el.game
  const parts = {}; // the board's pieces, built once
  const bubbles = new Map(); // seat -> timeout id

  const { view, me, gridOf, who, whoCap } = seatHelpers(shell);
  const legalSet = () => new Set(view().legal || []);
  const { analyseLog, wentOutByRound, describeMove, logKey } = createLog(shell);
  const { renderOpponents, fillStats, lastPlaced } = createSeats(shell);
  const { renderScores, renderResults } = createScores(shell, { section: () => scores, wentOutByRound });

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
    el.board.setAttribute("aria-label", gettext("The stock and the discard pile"));
    el.board.innerHTML = `
      <div class="golf-status" data-testid="golf-status"></div>
      <div class="golf-banner" data-testid="golf-went-out" role="status" hidden></div>
      <div class="golf-center">
        <div class="golf-piles">
          <button type="button" class="golf-pile golf-stock" data-testid="golf-stock">
            <span class="golf-pile-card golf-back golf-stack" aria-hidden="true"></span>
            <span class="golf-pile-label" aria-hidden="true"><span class="golf-pile-name">${gettext("Stock")}</span> <span class="golf-stock-count"></span></span>
          </button>
          <button type="button" class="golf-pile golf-discard" data-testid="golf-discard">
            <span class="golf-pile-card golf-discard-top" aria-hidden="true"></span>
            <span class="golf-pile-label" aria-hidden="true"><span class="golf-pile-name">${gettext("Discard")}</span> <span class="golf-discard-count"></span></span>
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

  function renderMe() {
    const v = view();
    const mine = me();
    el.meBar.hidden = mine === null;
    el.hand.hidden = mine === null;
    el.handHelp.hidden = mine === null || v.over;
    if (mine === null) return;
    el.meBar.querySelector(".me-name").textContent = t(gettext("%(name)s (you)"), { name: shell.seatName(mine) });
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
    const dealer = v.dealer === mine ? gettext("you deal") : t(gettext("%(name)s deals"), { name: shell.seatName(v.dealer) });
    let status = `${t(gettext("Round %(round)s of %(rounds)s"), { round: Math.min(v.round, v.rounds), rounds: v.rounds })} · ${dealer}`;
    if (v.over) status = t(ngettext("Match over after %(count)s round", "Match over after %(count)s rounds", v.rounds), { count: v.rounds });
    else if (v.phase === "reveal") status += ` · ${gettext("turning up cards")}`;
    parts.status.textContent = status;
    if (v.column_rule === "three") parts.status.title = gettext("Column match needs three of a rank");

    // Someone went out: who still has a last turn.
    const banner = parts.banner;
    if (!v.over && v.went_out !== null && v.went_out !== undefined) {
      const left = v.final_turns.map(who);
      const yourLast = mine !== null && v.final_turns[0] === mine;
      banner.hidden = false;
      banner.classList.toggle("yours", yourLast);
      banner.textContent =
        `${t(gettext("%(name)s went out!"), { name: whoCap(v.went_out) })} ` +
        (yourLast
          ? left.length > 1
            ? t(gettext("This is your last turn (then %(names)s)."), { names: listNames(left.slice(1)) })
            : gettext("This is your last turn.")
          : left.length
            ? t(ngettext("Last turn: %(names)s.", "Last turns: %(names)s.", left.length), { names: listNames(left) })
            : gettext("The round ends."));
    } else if (v.phase === "reveal" && v.last_round) {
      const lr = v.last_round;
      banner.hidden = false;
      banner.classList.remove("yours");
      const scored = lr.penalty !== null
        ? t(gettext("Round %(round)s scored: %(name)s went out (+10: not the lowest)."), { round: lr.round, name: whoCap(lr.went_out) })
        : t(gettext("Round %(round)s scored: %(name)s went out."), { round: lr.round, name: whoCap(lr.went_out) });
      banner.innerHTML = "";
      banner.append(
        `${scored} `,
        Object.assign(document.createElement("a"), { href: "#golf-scores", textContent: gettext("See the scores") }),
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
      myTurn && canDraw
        ? t(gettext("Stock, %(cards)s: draw the top card (key D)"), { cards: cardCount(v.stock) })
        : t(gettext("Stock, %(cards)s"), { cards: cardCount(v.stock) }),
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
    const topName = top ? cardName(top) : gettext("empty");
    let discardLabel = t(gettext("Discard pile: %(card)s"), { card: topName });
    if (myTurn && v.drawn && canDiscard) discardLabel = t(gettext("Discard pile: %(card)s: discard your drawn card here, then pick a face-down card to turn up (key X)"), { card: topName });
    else if (myTurn && canTake) discardLabel = t(gettext("Discard pile: %(card)s: take it, then pick the slot for it (key T)"), { card: topName });
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
        parts.drawnLabel.textContent = gettext("You drew");
      } else {
        parts.drawnPile.setAttribute("data-testid", "golf-held");
        delete parts.drawnPile.dataset.card;
        parts.drawnLabel.textContent = t(gettext("%(name)s drew"), { name: shell.seatName(holderSeat) });
      }
      parts.drawnPile.setAttribute(
        "aria-label",
        code ? t(gettext("You drew %(card)s"), { card: cardName(code, "object") }) : t(gettext("%(name)s holds a drawn card"), { name: shell.seatName(holderSeat) }),
      );
      parts.drawnPile.setAttribute("role", "img");
    }

    // The actions, laid out plainly, and a line saying what a click does.
    const wanted = []; // [name, label, opts] of each action button
    let hint = "";
    const button = (name, label, opts = {}) => wanted.push([name, label, opts]);
    const key = (k) => ` <kbd aria-hidden="true">${k}</kbd>`;
    if (v.over) {
      hint = "";
    } else if (v.phase === "reveal") {
      if (mine !== null && myTurn && legal.has("ready")) {
        const up = v.grids[mine].filter(Boolean).length;
        button("ready", `${gettext("Ready")}${key("R")}`, { testid: "golf-ready", aria: gettext("Ready: start playing (key R)") });
        hint =
          up >= 2
            ? gettext("You turned up two cards. Press Ready when you are done.")
            : 2 - up === 2
              ? gettext("Tap up to two of your face-down cards to turn them up (keys 1–9), then press Ready.")
              : gettext("Tap up to one more of your face-down cards to turn it up (keys 1–9), then press Ready.");
      } else if (mine !== null) {
        hint = gettext("You are ready. Play starts when everyone is.");
      } else {
        hint = gettext("Everyone turns up to two cards, then says ready.");
      }
    } else if (myTurn && v.drawn) {
      button("swap", gettext("Swap into a slot"), { pressed: mode !== "discard", secondary: mode === "discard" });
      if (canDiscard) button("discard", `${gettext("Discard it, flip a card")}${key("X")}`, { pressed: mode === "discard", secondary: mode !== "discard" });
      hint =
        mode === "discard"
          ? t(gettext("Now pick a face-down card to turn up; the %(card)s is discarded."), { card: cardText(v.drawn) })
          : t(gettext("Click any of your cards (1–9) to swap the %(card)s in, or discard it and turn up a face-down card."), { card: cardText(v.drawn) });
    } else if (myTurn) {
      if (mode === "take") {
        button("cancel", `${gettext("Cancel")}${key("Esc")}`, { secondary: true });
        hint = t(gettext("Now pick the slot for the %(card)s (1–9)."), { card: cardText(top) });
      } else {
        if (canDraw) button("draw", `${gettext("Draw")}${key("D")}`, { aria: gettext("Draw from the stock (key D)") });
        if (canTake) {
          const takeLabel = top ? t(gettext("Take %(card)s"), { card: cardText(top) }) : gettext("Take it");
          button("take", `${takeLabel}${key("T")}`, {
            secondary: true,
            aria: t(gettext("Take %(card)s from the discard, then pick a slot (key T)"), { card: top ? cardName(top, "object") : topName }),
          });
        }
        hint = gettext("Draw from the stock, take the discard, or click a face-down card to turn it up (1–9).");
      }
    } else if (v.phase === "turn") {
      const mover = shell.seatName(v.to_move);
      hint = v.holding && v.holding[v.to_move]
        ? t(gettext("%(name)s is deciding where the drawn card goes."), { name: mover })
        : t(gettext("%(name)s to move."), { name: mover });
    }
    // The buttons are made again only when they change (most frames leave them be).
    const actionsKey = JSON.stringify([wanted, active]);
    if (parts.actions.dataset.key !== actionsKey) {
      parts.actions.dataset.key = actionsKey;
      parts.actions.replaceChildren(...wanted.map(([name, label, opts]) => actionButton(name, label, opts, active)));
    }
    hint = withoutKeys(hint);
    if (parts.hint.textContent !== hint) parts.hint.textContent = hint;
    parts.hint.hidden = !hint;
    el.board.classList.toggle("my-turn", myTurn);
    el.board.dataset.mode = mode || "";
  }

  function actionButton(name, label, opts, active) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `button${opts.secondary ? " secondary" : ""}`;
    b.dataset.action = name;
    b.innerHTML = label;
    if (opts.testid) b.setAttribute("data-testid", opts.testid);
    if (opts.pressed !== undefined) b.setAttribute("aria-pressed", String(opts.pressed));
    if (opts.aria) b.setAttribute("aria-label", opts.aria);
    b.disabled = !active;
    return b;
  }

  function renderGrid() {
    const v = view();
    const mine = me();
    if (mine === null) {
      el.hand.replaceChildren();
      delete el.hand.dataset.key;
      return;
    }
    const myTurn = shell.isMyTurn();
    const active = myTurn && shell.canAct();
    const cards = gridOf(mine);
    const matched = matchedPositions(cards, v.column_rule);
    const last = lastPlaced();
    const moves = POSITIONS.map((pos) => (myTurn ? slotMove(pos) : null));
    // Redrawn only when something it shows changed: most frames are the others' moves.
    const key = JSON.stringify([mine, cards, [...matched], last, myTurn, active, shell.pending(), mode, moves, v.phase, v.drawn, v.discard]);
    if (el.hand.dataset.key === key && el.hand.querySelector(".golf-grid.mine")) return;
    el.hand.dataset.key = key;
    const focused = document.activeElement?.closest?.("[data-testid=golf-slot]")?.dataset.pos;
    el.hand.classList.toggle("my-turn", myTurn);
    el.hand.classList.toggle("sending", shell.pending());
    el.hand.dataset.mode = mode || "";
    const grid = document.createElement("div");
    grid.className = "golf-grid mine";
    grid.setAttribute("data-testid", "golf-grid");
    grid.dataset.seat = String(mine);
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", myTurn ? gettext("Your cards: your turn") : gettext("Your cards"));
    for (const pos of POSITIONS) {
      const code = cards[pos];
      const move = moves[pos];
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
    const label = t(gettext("Row %(row)s, column %(column)s, %(card)s"), {
      row: Math.floor(pos / 3) + 1,
      column: (pos % 3) + 1,
      card: code ? cardName(code) : gettext("face down"),
    });
    if (!move) return t(gettext("%(card)s, not playable"), { card: label });
    const { kind } = parseMove(move);
    const what = {
      flip: gettext("flip it"),
      take: v.discard ? t(gettext("put %(card)s from the discard here"), { card: cardName(v.discard, "object") }) : gettext("put the discard here"),
      swap: v.drawn ? t(gettext("put %(card)s, the card you drew, here"), { card: cardName(v.drawn, "object") }) : gettext("swap the drawn card in here"),
      discard: gettext("discard the drawn card and flip this one"),
    }[kind];
    return t(gettext("%(slot)s, key %(key)s: %(action)s"), { slot: label, key: pos + 1, action: what });
  }

  function helpText() {
    const v = view();
    if (v.phase === "reveal") return gettext("Click a card or press 1–9 to turn it up · R: ready");
    if (v.drawn) return gettext("1–9: swap into that slot · X: discard it and pick a face-down card · Esc: cancel · arrows move");
    return gettext("D: draw · T: take the discard, then 1–9 · 1–9: turn up a face-down card · Esc: cancel · arrows move");
  }

  // -------------------------------------------------------------------------
  // Live updates: a short bubble on whoever moved

  function onEvents(events) {
    const info = analyseLog();
    for (const event of events) {
      const { kind } = parseMove(event.move);
      const entry = info.ok ? info.entries.get(event.n) : null;
      const mine = event.seat === me();
      let text = (mine ? BUBBLES_YOU : BUBBLES)[kind] || "";
      if (entry && entry.wentOut) text = mine ? gettext("you went out!") : gettext("went out!");
      if (text) showBubble(event.seat, text, Boolean(entry && entry.wentOut));
    }
  }

  function showBubble(seat, text, loud) {
    const holder = seat === me() ? el.meBar : el.opponents.querySelector(`[data-seat="${seat}"]`);
    const bubble = holder?.querySelector(".bubble");
    if (!bubble) return;
    bubble.textContent = text;
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
    if (v.phase === "reveal") return gettext("Turn up to two of your cards, then press Ready.");
    const lastTurn = v.went_out !== null && v.went_out !== undefined;
    if (v.drawn) return t(gettext("You drew the %(card)s: swap it in, or discard it and turn up a card."), { card: cardText(v.drawn) });
    if (!v.discard) return lastTurn ? gettext("Your last turn: draw, take the discard, or turn up a card.") : gettext("Your turn: draw, take the discard, or turn up a card.");
    return lastTurn
      ? t(gettext("Your last turn: draw, take the %(card)s, or turn up a card."), { card: cardText(v.discard) })
      : t(gettext("Your turn: draw, take the %(card)s, or turn up a card."), { card: cardText(v.discard) });
  }

  function waiting() {
    const v = view();
    if (v.phase === "reveal") {
      const waitingFor = v.ready.map((r, seat) => (r ? null : seat)).filter((s) => s !== null);
      if (waitingFor.length) return t(gettext("Waiting for %(names)s to be ready."), { names: listNames(waitingFor.map(who)) });
    }
    return gettext("Waiting for the others.");
  }

  /**
   * The shell measured how far your docked grid reaches past the window's
   * bottom (negative: room to spare): shrink its cards to fit, or grow them
   * back (the CSS caps them at their normal size). A 3x3 grid of 5:7 cards
   * grows about 4.4 px in height per px of card width.
   */
  function fit({ dockOverflow }) {
    if (dockOverflow === null) {
      el.game.style.removeProperty("--golf-card-fit"); // no dock to fit (watching, or the match is over)
      return;
    }
    const slot = el.hand.querySelector(".golf-grid.mine .golf-slot");
    if (!slot || Math.abs(dockOverflow) < 3) return;
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
    logKey,
    onEvents,
    keydown,
    fit,
    resize: () => {},
    yourTurn,
    sending: () => gettext("Sending your move…"),
    waiting,
  };
}

