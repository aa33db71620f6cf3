// What every game's renderer does the same way around the hand and the seats:
// the keyboard for a hand of playable buttons (1-9 plays the n-th playable one,
// the arrows move the focus between them) and the order of the other seats.

/** `buttons`: the playable buttons in order; `choose(button)` plays one. */
export function handKeys(event, buttons, choose) {
  if (!buttons.length) return;
  if (/^[1-9]$/.test(event.key)) {
    const button = buttons[Number(event.key) - 1];
    if (button) {
      event.preventDefault();
      choose(button);
    }
    return;
  }
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step) return;
  event.preventDefault();
  const at = buttons.indexOf(document.activeElement);
  const next = at < 0 ? (step > 0 ? 0 : buttons.length - 1) : (at + step + buttons.length) % buttons.length;
  buttons[next].focus();
}

/** The seats other than `me` (null: a watcher sees them all), clockwise from my left. */
export function otherSeats(me, players) {
  const order = [];
  for (let k = 0; k < players; k++) {
    const seat = me === null ? k : (me + 1 + k) % players;
    if (seat !== me) order.push(seat);
  }
  return order;
}

// A touch screen (no mouse to hover, a finger to point) has no keys to press.
const TOUCH = window.matchMedia("(hover: none), (pointer: coarse)");

/** `text` without its key hints on a touch screen: a parenthesis naming the keys 1–9
 *  ("(1–9)", "(keys 1–9)", "(клавиши 1–9)": the catalogs keep it in every language). */
export function withoutKeys(text) {
  const touch = TOUCH.matches || document.documentElement.dataset.input === "touch"; // nav.js
  return touch ? text.replace(/\s*\([^()]*1–9[^()]*\)/g, "") : text;
}
