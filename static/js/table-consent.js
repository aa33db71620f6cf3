// The table's consent controls, for every game: leaving a running game (it
// resigns, after a confirmation), the house playing for you, the idle
// hand-over countdown, and the rematch offer. The server decides everything;
// this module shows what the `state` frame says and sends `handover` / `back`.

import { shortName } from "./bot-names.js";

const IDLE_COUNTDOWN_FROM = 60; // seconds before the hand-over opens, when the bar appears

function clockText(seconds) {
  const m = Math.floor(seconds / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return m ? `${m}:${s}` : interpolate(gettext("%(seconds)ss"), { seconds }, true);
}

export function createConsent({ app, send, toast, seatName }) {
  const $ = (selector) => app.querySelector(selector);
  const el = {
    notice: $("[data-testid=house-notice]"),
    back: $("[data-testid=back-button]"),
    idle: $("[data-testid=idle-handover]"),
    handover: $("[data-testid=handover-button]"),
    resignRow: $("[data-testid=resign-row]"),
    resignButton: $("[data-testid=resign-button]"),
    dialog: $("[data-testid=resign-dialog]"),
    cancel: $("[data-testid=resign-cancel]"),
    rematch: $("[data-testid=rematch]"),
    rematchList: $("[data-testid=rematch-list]"),
    againForm: $("form[data-action=again]"),
    again: $("[data-testid=again-button]"),
    declineForm: $("form[data-action=decline]"),
  };
  let frame = null;
  let previous = null;

  const seatsOf = (f) => f.table.seats;
  const myEntry = (f) => {
    const you = f.table.you;
    return you === null || you === undefined ? null : seatsOf(f).find((s) => s.position === you) || null;
  };
  const running = (f) => f.table.status === "playing" && f.view && !f.view.over;
  // At a turn-based table a seat is handed over only when its member's time ran out
  // TURN_BASED_MISSED_MOVES times in a row; the house then keeps it to the game's end.
  const keptByHouse = (f) => Boolean(f.table.pace) && f.table.pace !== "live";
  const keptText = (count) =>
    interpolate(ngettext("Your time ran out %(count)s time in a row: the house plays your seat to the end of this game.", "Your time ran out %(count)s times in a row: the house plays your seat to the end of this game.", count), { count }, true);

  /** Tell everyone when the house starts playing a member's seat. */
  function announce(before, now) {
    if (!before || before.table.game_number !== now.table.game_number || !running(now)) return;
    const old = new Map(seatsOf(before).map((s) => [s.player, s]));
    for (const seat of seatsOf(now)) {
      const was = old.get(seat.player);
      if (!was || seat.bot) continue;
      const you = seat.position === now.table.you;
      if (seat.resigned && !was.resigned) {
        toast(you ? gettext("You left this game.") : interpolate(gettext("%(name)s left the game: the house plays their seat to the end."), { name: shortName(seat) }, true), "resigned");
      } else if (seat.handed_over && !was.handed_over && keptByHouse(now)) {
        // A turn-based table: the member's time ran out too many times in a row.
        toast(you ? keptText(seat.missed) : interpolate(ngettext("The house now plays for %(name)s: their time ran out %(count)s time in a row.", "The house now plays for %(name)s: their time ran out %(count)s times in a row.", seat.missed), { name: shortName(seat), count: seat.missed }, true), "handed_over");
      } else if (seat.handed_over && !was.handed_over) {
        toast(you ? gettext("The others handed your idle seat to the house.") : interpolate(gettext("The house now plays for %(name)s, who was idle."), { name: shortName(seat) }, true), "handed_over");
      } else if (!seat.handed_over && was.handed_over && !you) {
        toast(interpolate(gettext("%(name)s is back and plays again."), { name: shortName(seat) }, true), "back");
      }
    }
  }

  function renderNotice(f) {
    const mine = myEntry(f);
    let text = "";
    if (running(f) && mine?.resigned) text = gettext("You left this game. The house plays your seat to the end.");
    else if (running(f) && mine?.handed_over && keptByHouse(f)) text = keptText(mine.missed);
    else if (running(f) && mine?.handed_over) text = gettext("The house is playing for you: you were idle, so the others handed your seat over.");
    el.notice.hidden = !text;
    el.notice.querySelector(".notice-text").textContent = text;
    // A seat the house keeps to the end of the game cannot be taken back: no "I'm back".
    el.back.hidden = !(running(f) && mine?.handed_over && !mine.resigned && !keptByHouse(f));
    el.resignRow.hidden = !(running(f) && mine && !mine.resigned);
  }

  function renderRematch(f) {
    const mine = myEntry(f);
    const finished = f.table.status === "finished" && Boolean(f.view?.over);
    const inIt = finished && mine && !mine.resigned;
    el.rematch.hidden = !finished;
    el.againForm.hidden = !inIt;
    el.declineForm.hidden = !inIt;
    if (!finished) return;
    const offered = seatsOf(f).some((s) => !s.bot && s.rematch);
    el.again.disabled = Boolean(mine?.rematch);
    el.again.textContent = mine?.rematch ? gettext("Waiting for the others…") : offered ? gettext("Accept the rematch") : gettext("Offer a rematch");
    el.rematchList.replaceChildren(
      ...seatsOf(f).map((seat) => {
        const li = document.createElement("li");
        li.setAttribute("data-testid", "rematch-seat");
        li.dataset.state = seat.bot ? "bot" : seat.resigned ? "left" : seat.rematch ? "accepted" : "waiting";
        const name = document.createElement("span");
        name.className = "rematch-name";
        name.textContent = seat.position === f.table.you ? interpolate(gettext("%(name)s (you)"), { name: shortName(seat) }, true) : shortName(seat);
        const state = document.createElement("span");
        state.className = `rematch-state ${li.dataset.state}`;
        state.textContent = {
          bot: gettext("house bot: always in"),
          left: gettext("left the game"),
          accepted: `\u2713 ${gettext("in")}`,
          waiting: gettext("not yet"),
        }[li.dataset.state];
        li.append(name, " ", state);
        return li;
      }),
    );
  }

  /** The idle hand-over bar: a countdown for everyone, then a button for the other members. */
  function tick() {
    const f = frame;
    if (!f) return;
    const at = f.table.handover_at;
    const toMove = f.view?.to_move;
    const left = at ? Math.max(0, Math.ceil(at - Date.now() / 1000)) : null;
    const show = running(f) && at && Number.isInteger(toMove) && left <= IDLE_COUNTDOWN_FROM;
    el.idle.hidden = !show;
    if (!show) return;
    const mine = myEntry(f);
    const idleName = seatName(toMove);
    let text;
    if (toMove === f.table.you) {
      text = left > 0
        ? interpolate(gettext("Your turn. In %(time)s the others can hand your seat to the house."), { time: clockText(left) }, true)
        : gettext("The others can now hand your seat to the house: play to keep it.");
    } else if (left > 0) {
      text = interpolate(gettext("Waiting for %(name)s. In %(time)s the players can hand their seat to the house."), { name: idleName, time: clockText(left) }, true);
    } else {
      text = interpolate(gettext("%(name)s has not moved for a while."), { name: idleName }, true);
    }
    el.idle.querySelector(".notice-text").textContent = text;
    const canAct = left === 0 && mine && !mine.resigned && toMove !== f.table.you;
    el.handover.hidden = !canAct;
    el.handover.textContent = interpolate(gettext("Let the house play for %(name)s"), { name: idleName }, true);
  }

  el.back.addEventListener("click", () => send({ type: "back" }));
  el.handover.addEventListener("click", () => {
    if (frame) send({ type: "handover", version: frame.version });
  });
  el.resignButton.addEventListener("click", () => el.dialog.showModal());
  el.cancel.addEventListener("click", () => el.dialog.close());
  setInterval(tick, 250);

  return {
    render(next) {
      announce(previous, next);
      previous = frame = next;
      renderNotice(next);
      renderRematch(next);
      tick();
    },
  };
}
