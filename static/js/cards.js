// Card faces and names, shared by every game's renderer. Codes are rank then
// suit (`9D`, `TH`, `AS`); suit shapes are the page's SVG sprite (#suit-C ...).

// gettext/pgettext/ngettext/interpolate: the page's static catalog (static/jsi18n/<lang>/djangojs.js).
export const SUIT_NAMES = {
  C: pgettext("suit", "clubs"),
  D: pgettext("suit", "diamonds"),
  H: pgettext("suit", "hearts"),
  S: pgettext("suit", "spades"),
};
export const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_LABELS = { T: "10" };
// Spoken names, as a screen reader should say them ("seven of diamonds").
const RANK_NAMES = {
  2: pgettext("rank", "two"), 3: pgettext("rank", "three"), 4: pgettext("rank", "four"),
  5: pgettext("rank", "five"), 6: pgettext("rank", "six"), 7: pgettext("rank", "seven"),
  8: pgettext("rank", "eight"), 9: pgettext("rank", "nine"), T: pgettext("rank", "ten"),
  J: pgettext("rank", "jack"), Q: pgettext("rank", "queen"), K: pgettext("rank", "king"),
  A: pgettext("rank", "ace"),
};
// The suit as it follows a rank ("seven of diamonds"): some languages decline it.
const SUITS_OF = {
  C: pgettext("of suit", "clubs"),
  D: pgettext("of suit", "diamonds"),
  H: pgettext("of suit", "hearts"),
  S: pgettext("of suit", "spades"),
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

// The rank as a sentence needs it, where a language gives it an article or a
// case (no member's gender is involved: the card's own): "object" is the card a
// verb acts on ("plays the ten of clubs": il dieci, le dix, десятку, el diez,
// zecele), "from"/"to" the ends of a row ("from the six": dal sei, du six, от
// шестёрки, del seis, de la șasele ... "to the queen": alla donna, до дамы).
const RANK_FORMS = {
  object: {
    2: pgettext("rank, object", "the two"), 3: pgettext("rank, object", "the three"),
    4: pgettext("rank, object", "the four"), 5: pgettext("rank, object", "the five"),
    6: pgettext("rank, object", "the six"), 7: pgettext("rank, object", "the seven"),
    8: pgettext("rank, object", "the eight"), 9: pgettext("rank, object", "the nine"),
    T: pgettext("rank, object", "the ten"), J: pgettext("rank, object", "the jack"),
    Q: pgettext("rank, object", "the queen"), K: pgettext("rank, object", "the king"),
    A: pgettext("rank, object", "the ace"),
  },
  from: {
    2: pgettext("rank, from", "from the two"), 3: pgettext("rank, from", "from the three"),
    4: pgettext("rank, from", "from the four"), 5: pgettext("rank, from", "from the five"),
    6: pgettext("rank, from", "from the six"), 7: pgettext("rank, from", "from the seven"),
    8: pgettext("rank, from", "from the eight"), 9: pgettext("rank, from", "from the nine"),
    T: pgettext("rank, from", "from the ten"), J: pgettext("rank, from", "from the jack"),
    Q: pgettext("rank, from", "from the queen"), K: pgettext("rank, from", "from the king"),
    A: pgettext("rank, from", "from the ace"),
  },
  to: {
    2: pgettext("rank, to", "to the two"), 3: pgettext("rank, to", "to the three"),
    4: pgettext("rank, to", "to the four"), 5: pgettext("rank, to", "to the five"),
    6: pgettext("rank, to", "to the six"), 7: pgettext("rank, to", "to the seven"),
    8: pgettext("rank, to", "to the eight"), 9: pgettext("rank, to", "to the nine"),
    T: pgettext("rank, to", "to the ten"), J: pgettext("rank, to", "to the jack"),
    Q: pgettext("rank, to", "to the queen"), K: pgettext("rank, to", "to the king"),
    A: pgettext("rank, to", "to the ace"),
  },
};

/** The card in words ("seven of diamonds"); `form`: "object", "from" or "to" (RANK_FORMS). */
export function cardName(code, form = "") {
  const rank = rankOf(code);
  const ranks = RANK_FORMS[form] || RANK_NAMES;
  return interpolate(pgettext("card name", "%(rank)s of %(suit)s"), { rank: ranks[rank] || rank, suit: SUITS_OF[suitOf(code)] }, true);
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

/**
 * A span with the card's short text (10♦), coloured by suit, for logs and notes;
 * its title (read out instead of the symbol) in the `form` its sentence needs.
 */
export function cardLabel(code, form = "") {
  const span = document.createElement("span");
  span.className = `log-card suit-${suitOf(code)}`;
  span.textContent = cardText(code);
  span.title = cardName(code, form);
  return span;
}

/** 1st, 2nd ... in English; the catalog says how other languages write a place ("1º", "1er", "1-й"). */
export function ordinal(n) {
  if (document.documentElement.lang !== "en") {
    return interpolate(npgettext("ordinal", "%(n)sst", "%(n)sth", n), { n }, true);
  }
  const suffix = n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th";
  return `${n}${suffix}`;
}

/** "3 cards" in the page's language (ngettext knows each language's plural forms). */
export function cardCount(n) {
  return interpolate(ngettext("%(count)s card", "%(count)s cards", n), { count: n }, true);
}

/**
 * Append a translated sentence to `parent`, with DOM nodes for its %(name)s
 * placeholders: fillIn(li, gettext("played %(card)s"), { card: cardLabel("7D") }).
 * Each language orders the words its own way; the nodes keep their markup.
 */
export function fillIn(parent, template, parts) {
  const pieces = template.split(/%\((\w+)\)s/);
  pieces.forEach((piece, i) => {
    if (i % 2 === 0) {
      if (piece) parent.append(piece);
    } else {
      const part = parts[piece];
      parent.append(part instanceof Node ? part : String(part ?? ""));
    }
  });
  return parent;
}

/** English only ("3 cards"): for text people read, use ngettext, which knows every language's plural forms. */
export function plural(n, word) {
  const many = word.endsWith("s") ? `${word}es` : `${word}s`;
  return `${n} ${n === 1 ? word : many}`;
}
