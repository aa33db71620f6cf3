// Golf's move log, read once per frame: which round each move belongs to, who
// went out, whether the card a move placed is still face up in this view, and
// the log's lines ("put 7♦ in slot 3, discarding K♣"), cards named only where
// this view shows them.

import { cardLabel, fillIn } from "../../cards.js";
import { FULL, parseMove, seatHelpers } from "./rules.js";

export function createLog(shell) {
  const { view, me } = seatHelpers(shell);
  let logCache = { key: "", info: null };

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
    // Looking back over each round once: whether a later move replaced the card
    // an entry placed (a swap or a take at that slot), or covered the card it
    // discarded (anything put on the pile), so a line asks in O(1).
    for (const r of rounds) {
      const replaced = new Set(); // of seat * 9 + position
      let covered = false;
      for (let i = r.entries.length - 1; i >= 0; i--) {
        const e = r.entries[i];
        e.replaced = replaced.has(e.seat * 9 + e.pos);
        e.covered = covered;
        if (e.kind === "swap" || e.kind === "take") replaced.add(e.seat * 9 + e.pos);
        if (e.kind === "swap" || e.kind === "take" || e.kind === "discard") covered = true;
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
    if (!info.ok || entry.replaced) return null;
    const grids = gridsOfRound(entry.round);
    if (!grids) return null;
    return grids[entry.seat][entry.pos] || null;
  }

  /** The card `entry` put on the discard pile, if it is still the top card. */
  function discardedCard(info, entry) {
    const v = view();
    if (!info.ok || entry.covered || v.over || entry.round !== v.round || !v.discard) return null;
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
  // The move log: one line per move, cards named only where this view shows them

  /** What a move's line shows besides the move itself: the cards this view still shows, etc. */
  function lineFacts(event) {
    const v = shell.frame()?.view;
    const { kind } = parseMove(event.move);
    const info = v ? analyseLog() : { ok: false, entries: new Map(), rounds: [] };
    const entry = info.ok ? info.entries.get(event.n) : null;
    let drew = null; // your own card, on the last line while you hold it
    if (kind === "draw") {
      const moves = shell.moves();
      const isLast = moves.length && moves[moves.length - 1].n === event.n;
      if (isLast && v && v.drawn && event.seat === me()) drew = v.drawn;
    }
    // Only what this kind of line shows, so that nothing else redraws it.
    const moved = kind === "flip" || kind === "swap" || kind === "discard" || kind === "take";
    return {
      round: entry && entry.first ? entry.round : null,
      placed: entry && moved ? placedCard(info, entry) : null,
      dropped: entry && moved && kind !== "flip" ? discardedCard(info, entry) : null,
      drew,
      wentOut: Boolean(entry && entry.wentOut),
    };
  }

  /** The shell keeps a log line until this (or the move, or the name) changes. */
  function logKey(event) {
    const facts = lineFacts(event);
    return [facts.round, facts.placed, facts.dropped, facts.drew, facts.wentOut].join("|");
  }

  function describeMove(li, event) {
    const { kind, pos } = parseMove(event.move);
    const facts = lineFacts(event);
    if (facts.round !== null) {
      li.classList.add("golf-round-start");
      li.dataset.round = interpolate(gettext("Round %(round)s"), { round: facts.round }, true);
    }
    const n = String(pos + 1);
    // A card a verb acts on is named in its "object" form ("put the six of spades").
    const card = (code) => (code ? cardLabel(code, "object") : null);
    const placed = card(facts.placed);
    const dropped = card(facts.dropped);
    const shown = facts.placed ? cardLabel(facts.placed) : null;
    // The line starts with the player's name; each phrase is one catalog entry,
    // with the cards as %(card)s placeholders (fillIn keeps their markup).
    const say = (template, parts = {}) => fillIn(li, template, { n, ...parts });
    const seen = () => (shown ? [" (", shown, ")"] : []);
    const discarding = () => dropped && say(gettext(", discarding %(card)s"), { card: dropped });
    li.append(" ");
    switch (kind) {
      case "ready":
        li.classList.add("pass");
        say(gettext("is ready"));
        break;
      case "draw":
        if (facts.drew) say(gettext("drew %(card)s"), { card: cardLabel(facts.drew, "object") });
        else say(gettext("drew a card"));
        break;
      case "flip":
        say(gettext("turned up card %(n)s"));
        li.append(...seen());
        break;
      case "swap":
        if (placed) say(gettext("put %(card)s in slot %(n)s"), { card: placed });
        else say(gettext("swapped it into slot %(n)s"));
        discarding();
        break;
      case "discard":
        if (dropped) say(gettext("discarded %(card)s, turned up card %(n)s"), { card: dropped });
        else say(gettext("discarded it, turned up card %(n)s"));
        li.append(...seen());
        break;
      case "take":
        if (placed) say(gettext("took %(card)s from the discard into slot %(n)s"), { card: placed });
        else say(gettext("took the top card from the discard into slot %(n)s"));
        discarding();
        break;
      default:
        li.append(event.move);
    }
    if (facts.wentOut) {
      const out = document.createElement("strong");
      out.className = "golf-log-out";
      out.textContent = ` \u2014 ${gettext("went out!")}`;
      li.append(out);
    }
  }

  return { analyseLog, wentOutByRound, describeMove, logKey };
}
