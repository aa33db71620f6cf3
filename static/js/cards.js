// Card faces and names, shared by every game's renderer. Codes are rank then
// suit (`9D`, `TH`, `AS`); suit shapes are the page's SVG sprite (#suit-C ...).

export const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_LABELS = { T: "10" };
// Spoken names, as a screen reader should say them ("seven of diamonds").
const RANK_NAMES = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};

export function rankOf(code) {
  return code.slice(0, -1);
}

export function suitOf(code) {
  return code.slice(-1);
}

export function rankLabel(rank) {
  return RANK_LABELS[rank] || rank;
}

export function cardName(code) {
  const rank = rankOf(code);
  return `${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[suitOf(code)]}`;
}

export function cardText(code) {
  return `${rankLabel(rankOf(code))}${SUIT_SYMBOLS[suitOf(code)]}`;
}

export function suitSvg(suit, cls = "suit") {
  return `<svg class="${cls}" aria-hidden="true" focusable="false"><use href="#suit-${suit}"></use></svg>`;
}

/** A card face: corner indices, and a big pip (or the court letter) in the middle. */
export function cardFace(code, tag = "div") {
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

/** A span with the card's short text (10♦), coloured by suit, for logs and notes. */
export function cardLabel(code) {
  const span = document.createElement("span");
  span.className = `log-card suit-${suitOf(code)}`;
  span.textContent = cardText(code);
  span.title = cardName(code);
  return span;
}

export function ordinal(n) {
  const suffix = n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th";
  return `${n}${suffix}`;
}

export function plural(n, word) {
  const many = word.endsWith("s") ? `${word}es` : `${word}s`;
  return `${n} ${n === 1 ? word : many}`;
}
