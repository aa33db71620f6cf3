"""Devyatka (classic, placement ranking) and its Keft variant (single loser).

Rules: ``RULES.md`` sections 1 (D1-D13) and 2 (K1-K5). Pure Python, no Django.

Public, immutable API (the engine contract; external tests use these names)::

    Options(keft=False, pass_rule=False)
    deal(players, seed, options) -> State       # D2: shuffle, one card at a time from seat 0
    start(hands, options) -> State              # explicit hands, validated
    legal_moves(state) -> list[str]             # sorted card codes; [] when over
    play(state, card) -> State                  # passes applied automatically
    apply(state, card) -> (State, actions)      # actions: [(seat, card), (seat, "pass"), ...]
    replay(players, seed, options, cards) -> State
    places(state), loser(state), result(state), rows(state)
    card_points(card), to_json(state), from_json(data)
    view(state, seat)                           # THE projection of a state for clients

Every illegal move raises :class:`IllegalMove` (a ``ValueError``) with a
message a player understands.

Internally every rule is computed on integer bitmasks over the 36 cards
(bit ``1 << index``, index = suit * 9 + rank, suit C D H S = 0..3, rank
6..A = 0..8; see :mod:`games.engine.cards`). Two masks say everything:

* ``masks[seat]``: the cards in a seat's hand;
* ``playable``: the cards that may be played now by whoever holds them --
  only 9D before the first move; afterwards the nine of every unopened suit
  and the card beyond each end of every open row (D4, D5).

A card is legal for the player to move iff it is in ``masks[seat] & playable``
(:func:`legal_mask`). Playing a card and applying the automatic passes that
follow is one core function, :func:`advance`, used both by the public
:func:`apply` and by the fast playout path for bots (:func:`random_playout`,
:func:`fast_apply`), so the rules are written once.

Fast path for bots (integer masks, no strings, no validation)::

    fs = to_fast(state)                   # or fast_state(...) for a determinised deal
    legal = fast_legal(fs)                # mask of the mover's legal cards
    fs2 = fast_apply(fs, bit)             # play one card (bit = 1 << index)
    res = random_playout(fs2, rng)        # PlayoutResult(cards_left, points, passes, out)
    playout_places(res, pass_rule)        # classic places, same ranking as places()
    playout_loser(res)                    # Keft loser
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from games.engine.cards import DECK36, INDEX36, POINTS36, SUIT_NAMES, SUITS, is_card
from games.engine.messages import N_, RuleMessage

__all__ = [
    "CYCLES",
    "FIRST_CARD",
    "GAME",
    "GAME_OVER",
    "NOT_YOUR_TURN",
    "PASS",
    "FastState",
    "IllegalMove",
    "Options",
    "PlayoutResult",
    "State",
    "advance",
    "apply",
    "card_points",
    "deal",
    "fast_apply",
    "fast_legal",
    "fast_state",
    "from_hands_unchecked",
    "from_json",
    "legal_mask",
    "legal_moves",
    "loser",
    "places",
    "play",
    "playout_loser",
    "playout_places",
    "random_deal_masks",
    "random_playout",
    "replay",
    "result",
    "rows",
    "start",
    "to_fast",
    "to_json",
    "view",
]

GAME = "devyatka"
PASS = "pass"
MIN_PLAYERS = 2
MAX_PLAYERS = 6

GAME_OVER = N_("The game is over.")
NOT_YOUR_TURN = N_("It is not your turn.")
FIRST_CARD = N_("The first card must be 9D.")
# Per suit, so that each language can word (and decline) its suit names.
_NOT_OPEN = {
    "C": N_("Clubs are not open: only {nine} can open them."),
    "D": N_("Diamonds are not open: only {nine} can open them."),
    "H": N_("Hearts are not open: only {nine} can open them."),
    "S": N_("Spades are not open: only {nine} can open them."),
}
_NOT_NEXT = {
    "C": N_("{card} is not next to the clubs row ({low}-{high})."),
    "D": N_("{card} is not next to the diamonds row ({low}-{high})."),
    "H": N_("{card} is not next to the hearts row ({low}-{high})."),
    "S": N_("{card} is not next to the spades row ({low}-{high})."),
}


class IllegalMove(RuleMessage):
    """A move the rules do not allow; ``str(exc)`` says why in plain words.

    ``template`` and ``params`` let the site say it in the player's language
    (games/engine/messages.py).
    """


@dataclass(frozen=True, slots=True)
class Options:
    """Table options.

    ``keft``: play the Keft variant (K1-K5: single loser, players go out and
    the rest play on). ``pass_rule``: D11, at equal cards left fewer passes
    rank better before points are compared (classic only; Keft has no
    ranking beyond the loser, so it has no effect there).
    """

    keft: bool = False
    pass_rule: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.keft, bool) or not isinstance(self.pass_rule, bool):
            raise ValueError("Options keft and pass_rule must be True or False.")


# --------------------------------------------------------------------------
# The core: tables and the one function that plays a card.
# --------------------------------------------------------------------------

_FULL = (1 << 36) - 1
_NINE_D = 1 << INDEX36["9D"]
_NINES = sum(1 << INDEX36["9" + s] for s in SUITS)

_BITS = tuple(1 << i for i in range(36))
_BIT_OF: dict[str, int] = {code: 1 << i for i, code in enumerate(DECK36)}
_CODE_OF: dict[int, str] = {1 << i: code for i, code in enumerate(DECK36)}


def _next_of(index: int) -> int:
    """Cards that become playable once the card ``index`` is played (D4, D5, D8)."""
    s, r = divmod(index, 9)
    base = 9 * s
    if r == 3:  # a nine opens its row: both neighbours
        m = (1 << (base + 2)) | (1 << (base + 4))
        if index == INDEX36["9D"]:  # 9D also frees the other nines (D3, D8)
            m |= _NINES & ~_NINE_D
        return m
    if r < 3:  # low end grows down; 6 is the end (A does not connect to 6)
        return (1 << (base + r - 1)) if r > 0 else 0
    return (1 << (base + r + 1)) if r < 8 else 0


#: bit of a card -> mask of cards that its play makes playable.
_NEXT: dict[int, int] = {1 << i: _next_of(i) for i in range(36)}

# Card points of a 9-bit suit chunk, for every subset of a suit's nine cards.
_RANK_POINTS = tuple(POINTS36[r + "C"] for r in "6789TJQKA")
_CHUNK_POINTS = tuple(
    sum(p for r, p in enumerate(_RANK_POINTS) if chunk >> r & 1) for chunk in range(512)
)

#: CYCLES[n][seat]: the seats after ``seat`` clockwise, ending with ``seat``
#: (the turn order :func:`advance` walks; shared with the bots' fast path).
CYCLES: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple((seat + k) % n for k in range(1, n + 1)) for seat in range(n))
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}


def _need_out(players: int, keft: bool) -> int:
    """How many players must go out to end the game (D9, K3)."""
    return players - 1 if keft else 1


def advance(
    masks: list[int],
    playable: int,
    seat: int,
    bit: int,
    cycle: tuple[tuple[int, ...], ...],
    need_out: int,
    passes: list[int],
    out: list[int],
    log: list | None,
) -> tuple[int, int]:
    """Play card ``bit`` from ``seat`` (already known legal); mutate the lists.

    The one implementation of D4-D9, D13 and K2-K3 for both the public API and
    the fast path. ``masks``, ``passes`` and ``out`` are updated in place;
    with ``log`` given, ``(seat, "pass")`` is appended for each automatic pass.
    Returns ``(playable, next_seat)``; ``next_seat`` is -1 when the game is
    over, and otherwise a seat that holds a legal card. Public for the bots'
    heuristic playouts (:mod:`games.devyatka.bots.search`), which play every
    card through it so the rules stay written once.
    """
    m = masks[seat] ^ bit
    masks[seat] = m
    playable = (playable ^ bit) | _NEXT[bit]
    if not m:  # last card played: out (D9 classic ends; K2/K3 Keft)
        out.append(seat)
        if len(out) >= need_out:
            return playable, -1
    for p in cycle[seat]:
        m = masks[p]
        if m & playable:
            return playable, p
        if m:  # an empty hand (Keft, out) is skipped and is not a pass (K2)
            passes[p] += 1
            if log is not None:
                log.append((p, PASS))
    # D13: every missing end card is in someone's hand, so this cannot happen.
    raise AssertionError("Devyatka stalled: cards remain but nobody holds a legal card (D13).")


def playable_from_table(table: int) -> int:
    """The cards playable now, for a bitmask of the cards on the table (for bots)."""
    return _playable_from_table(table)


def legal_mask(hand_mask: int, playable: int) -> int:
    """The legal cards of a hand: ``hand_mask & playable`` (D3, D5, D8)."""
    return hand_mask & playable


def _playable_from_table(table: int) -> int:
    """The playable mask for a set of cards on the table (rows assumed valid)."""
    if not table & _NINE_D:
        return _NINE_D
    playable = 0
    for s in range(4):
        base = 9 * s
        chunk = (table >> base) & 0x1FF
        if not chunk:
            playable |= 1 << (base + 3)
            continue
        lo = (chunk & -chunk).bit_length() - 1
        hi = chunk.bit_length() - 1
        if lo > 0:
            playable |= 1 << (base + lo - 1)
        if hi < 8:
            playable |= 1 << (base + hi + 1)
    return playable


def _points(mask: int) -> int:
    cp = _CHUNK_POINTS
    return cp[mask & 0x1FF] + cp[(mask >> 9) & 0x1FF] + cp[(mask >> 18) & 0x1FF] + cp[mask >> 27]


def _cards(mask: int) -> list[str]:
    """Codes in a mask, in display order (ascending index)."""
    out = []
    code_of = _CODE_OF
    while mask:
        low = mask & -mask
        out.append(code_of[low])
        mask ^= low
    return out


def _competition_places(keys: Sequence[Any]) -> tuple[int, ...]:
    """1-based competition ranking (D12): lower key is better, ties share (1, 2, 2, 4)."""
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)


def _classic_places(
    cards_left: Sequence[int], points: Sequence[int], passes: Sequence[int], pass_rule: bool
) -> tuple[int, ...]:
    """D10-D12: by cards left, then (pass rule) passes, then points; shared ties."""
    if pass_rule:
        keys = list(zip(cards_left, passes, points, strict=True))
    else:
        keys = list(zip(cards_left, points, strict=True))
    return _competition_places(keys)


def _keft_places(players: int, out: Sequence[int]) -> tuple[int, ...]:
    """K5: places follow the out order; the loser is last."""
    places = [players] * players
    for i, seat in enumerate(out):
        places[seat] = i + 1
    return tuple(places)


# --------------------------------------------------------------------------
# The immutable public state.
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class State:
    """An immutable Devyatka/Keft position.

    ``hands``: per seat, the cards held, sorted for display (by suit, then
    rank). ``passes``: automatic passes per seat. ``out``: seats in the order
    they emptied their hand (classic: just the winner). ``to_move``: the seat
    to play, ``None`` when the game is over. Every card not in a hand is on
    the table (see :func:`rows`).

    ``masks`` (hand bitmasks) and ``playable`` (cards playable now) are
    derived caches for the bitmask core; they take no part in equality.
    Build states with :func:`deal`, :func:`start`, :func:`play` or
    :func:`from_json`, never directly.
    """

    players: int
    options: Options
    hands: tuple[tuple[str, ...], ...]
    passes: tuple[int, ...]
    out: tuple[int, ...]
    to_move: int | None
    masks: tuple[int, ...] = field(repr=False, compare=False)
    playable: int = field(repr=False, compare=False)

    @property
    def over(self) -> bool:
        """True once the game has ended (D9 classic, K3 Keft)."""
        return self.to_move is None

    @property
    def table(self) -> int:
        """Bitmask of the cards on the table."""
        m = _FULL
        for h in self.masks:
            m ^= h
        return m


def _state_from_masks(
    players: int,
    options: Options,
    masks: Sequence[int],
    passes: Sequence[int],
    out: Sequence[int],
    to_move: int | None,
    playable: int | None = None,
) -> State:
    if playable is None:
        table = _FULL
        for m in masks:
            table &= ~m
        playable = _playable_from_table(table)
    hands = tuple(tuple(_cards(m)) for m in masks)
    return State(
        players, options, hands, tuple(passes), tuple(out), to_move, tuple(masks), playable
    )


def _holder(masks: Sequence[int], bit: int) -> int:
    for seat, m in enumerate(masks):
        if m & bit:
            return seat
    raise ValueError(f"Nobody holds {_CODE_OF[bit]}.")


def _check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"The number of players must be a whole number, got {players!r}.")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Devyatka needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}.")
    return players


def _check_options(options: Options | None) -> Options:
    if options is None:
        return Options()
    if not isinstance(options, Options):
        raise ValueError(f"options must be a devyatka.Options, got {options!r}.")
    return options


def deal(players: int, seed: int | str, options: Options | None = None) -> State:
    """Deal a new game (D1, D2), deterministic for a given seed.

    ``random.Random(seed)`` shuffles the 36-card deck (:data:`DECK36` order),
    then the cards go one at a time clockwise starting with seat 0, so with
    five players seat 0 gets 8 cards and the others 7. The holder of 9D
    moves first (D3).
    """
    players = _check_players(players)
    options = _check_options(options)
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ValueError(f"The seed must be an int or a str, got {seed!r}.")
    deck = list(DECK36)
    random.Random(seed).shuffle(deck)
    masks = [0] * players
    for i, code in enumerate(deck):
        masks[i % players] |= _BIT_OF[code]
    return _state_from_masks(players, options, masks, [0] * players, [], _holder(masks, _NINE_D))


def _hand_masks(hands: object) -> list[int]:
    """Validate the shape and codes of hands; return their masks (no deck check)."""
    if isinstance(hands, str | bytes) or not isinstance(hands, Sequence):
        raise ValueError("hands must be a list of hands, each a list of card codes.")
    masks = []
    seen = 0
    for seat, hand in enumerate(hands):
        if isinstance(hand, str | bytes) or not isinstance(hand, Sequence):
            raise ValueError(f"Hand {seat} must be a list of card codes, got {hand!r}.")
        m = 0
        for code in hand:
            if not isinstance(code, str):
                raise ValueError(f"{code!r} is not a card.")
            bit = _BIT_OF.get(code)
            if bit is None:
                if is_card(code):
                    raise ValueError(f"{code} is not in the 36-card deck (6 to A).")
                raise ValueError(f"{code} is not a card.")
            if seen & bit:
                raise ValueError(f"Duplicate card: {code}.")
            seen |= bit
            m |= bit
        masks.append(m)
    return masks


def start(hands: Sequence[Sequence[str]], options: Options | None = None) -> State:
    """Start a game from explicit hands (seat order), validated.

    There must be 2 to 6 hands, none empty, holding exactly the 36 distinct
    cards between them. Raises ValueError saying what is wrong (unknown code,
    duplicate card, missing cards, wrong player count). The holder of 9D
    moves first.
    """
    options = _check_options(options)
    masks = _hand_masks(hands)
    if not MIN_PLAYERS <= len(masks) <= MAX_PLAYERS:
        raise ValueError(f"Devyatka needs {MIN_PLAYERS} to {MAX_PLAYERS} hands, got {len(masks)}.")
    dealt = 0
    for m in masks:
        dealt |= m
    if dealt != _FULL:
        missing = ", ".join(_cards(_FULL & ~dealt))
        raise ValueError(f"Missing cards: {missing}. The hands must hold all 36 cards.")
    for seat, m in enumerate(masks):
        if not m:
            raise ValueError(f"Hand {seat} is empty; every player needs cards.")
    n = len(masks)
    return _state_from_masks(n, options, masks, [0] * n, [], _holder(masks, _NINE_D))


def from_hands_unchecked(
    hands: Sequence[Iterable[str]],
    options: Options | None = None,
    to_move: int | None = None,
    passes: Sequence[int] | None = None,
    out: Sequence[int] | None = None,
) -> State:
    """Build a State from hands with no validation (bots, determinised states).

    The hands need not hold all 36 cards: every card in no hand counts as on
    the table, so a determinised position is just the sampled hands. With
    ``to_move`` None the game is over if enough players are ``out``, and
    otherwise the holder of 9D moves (a fresh deal). ``out`` defaults to no
    one. The caller guarantees a consistent position; nothing is
    checked. For the fast path, :func:`fast_state` takes masks directly.
    """
    options = options or Options()
    masks = [sum(_BIT_OF[c] for c in hand) for hand in hands]
    n = len(masks)
    out = list(out) if out is not None else []
    if to_move is None and len(out) < _need_out(n, options.keft):
        to_move = _holder(masks, _NINE_D)
    return _state_from_masks(
        n, options, masks, list(passes) if passes is not None else [0] * n, out, to_move
    )


# --------------------------------------------------------------------------
# Moves.
# --------------------------------------------------------------------------


def legal_moves(state: State) -> list[str]:
    """The legal cards of the player to move, sorted for display; [] when over."""
    seat = state.to_move
    if seat is None:
        return []
    return _cards(legal_mask(state.masks[seat], state.playable))


def _not_a_card(card: object) -> IllegalMove:
    if isinstance(card, str):
        if is_card(card):
            return IllegalMove("{card} is not in the 36-card deck (6 to A).", card=card)
        return IllegalMove("{card} is not a card.", card=card)
    return IllegalMove("{card} is not a card.", card=repr(card))


def _why_not_playable(state: State, card: str) -> IllegalMove:
    """Why a card in the mover's hand is not playable now (D3, D5)."""
    table = state.table
    if not table & _NINE_D:
        return IllegalMove(FIRST_CARD)
    s = SUITS.index(card[1])
    chunk = (table >> (9 * s)) & 0x1FF
    if not chunk:
        return IllegalMove(_NOT_OPEN[card[1]], nine=f"9{card[1]}")
    lo = (chunk & -chunk).bit_length() - 1
    hi = chunk.bit_length() - 1
    low, high = DECK36[9 * s + lo], DECK36[9 * s + hi]
    return IllegalMove(_NOT_NEXT[card[1]], card=card, low=low, high=high)


def apply(state: State, card: str) -> tuple[State, list[tuple[int, str]]]:
    """Play ``card`` for the player to move; return the new state and what happened.

    The actions, in order: ``(seat, card)`` for the card played, then
    ``(seat, "pass")`` for each automatic pass that followed (D7). Raises
    :class:`IllegalMove` if the game is over, the code is not a card, the
    card is not in the mover's hand, or it is not playable (D3, D5).
    """
    seat = state.to_move
    if seat is None:
        raise IllegalMove(GAME_OVER)
    bit = _BIT_OF.get(card) if isinstance(card, str) else None
    if bit is None:
        raise _not_a_card(card)
    if not state.masks[seat] & bit:
        raise IllegalMove("{card} is not in your hand.", card=card)
    if not state.playable & bit:
        raise _why_not_playable(state, card)
    n = state.players
    masks = list(state.masks)
    passes = list(state.passes)
    out = list(state.out)
    log: list[tuple[int, str]] = [(seat, card)]
    playable, nxt = advance(
        masks,
        state.playable,
        seat,
        bit,
        CYCLES[n],
        _need_out(n, state.options.keft),
        passes,
        out,
        log,
    )
    hands = list(state.hands)
    hands[seat] = tuple([c for c in hands[seat] if c != card])
    new = State(
        n,
        state.options,
        tuple(hands),
        tuple(passes),
        tuple(out),
        None if nxt < 0 else nxt,
        tuple(masks),
        playable,
    )
    return new, log


def play(state: State, card: str) -> State:
    """Play ``card`` for the player to move and apply the automatic passes.

    Same as ``apply(state, card)[0]``; raises :class:`IllegalMove`.
    """
    return apply(state, card)[0]


def replay(players: int, seed: int | str, options: Options | None, cards: Iterable[str]) -> State:
    """Deal with ``seed`` and play the cards in order (passes are automatic)."""
    state = deal(players, seed, options)
    for card in cards:
        state = apply(state, card)[0]
    return state


# --------------------------------------------------------------------------
# Results.
# --------------------------------------------------------------------------


def card_points(card: str) -> int:
    """Points of a card (D10): A=11, K=4, Q=3, J=2, T=10, 9..6 face value."""
    try:
        return POINTS36[card]
    except (KeyError, TypeError):
        raise ValueError(str(_not_a_card(card))) from None


def _require_over(state: State) -> None:
    if state.to_move is not None:
        raise ValueError("The game is not over yet.")


def places(state: State) -> tuple[int, ...]:
    """Per seat, the 1-based place once the game is over (ValueError before).

    Classic (D9-D12): the winner is 1st; the others by cards left, then
    (with the pass rule) fewer passes, then lower points; ties share the
    place with competition ranking (1, 2, 2, 4). Keft (K5): places follow
    the out order and the loser is last.
    """
    _require_over(state)
    if state.options.keft:
        return _keft_places(state.players, state.out)
    return _classic_places(
        [m.bit_count() for m in state.masks],
        [_points(m) for m in state.masks],
        state.passes,
        state.options.pass_rule,
    )


def loser(state: State) -> int:
    """Keft: the single loser, the last player holding cards (K3)."""
    if not state.options.keft:
        raise ValueError("Only Keft has a single loser.")
    _require_over(state)
    for seat, m in enumerate(state.masks):
        if m:
            return seat
    raise AssertionError("A finished Keft game has a player with cards.")


def result(state: State) -> dict[str, Any]:
    """The result of a finished game as plain JSON types (ValueError before the end).

    Keys: ``places``, ``cards_left``, ``points``, ``passes``, ``out`` (lists
    per seat / in order), ``winner`` (classic: the seat that went out; Keft:
    None) and ``loser`` (Keft: the loser; classic: None).
    """
    _require_over(state)
    keft = state.options.keft
    return {
        "places": list(places(state)),
        "cards_left": [m.bit_count() for m in state.masks],
        "points": [_points(m) for m in state.masks],
        "passes": list(state.passes),
        "out": list(state.out),
        "loser": loser(state) if keft else None,
        "winner": None if keft else state.out[0],
    }


def still_playing(state: State, seat: int) -> bool:
    """Whether `seat` still holds cards in a running game (leaving then resigns it)."""
    return state.to_move is not None and bool(state.masks[seat])


def resign_result(result: dict[str, Any], resigned: Sequence[int]) -> dict[str, Any]:
    """The result once `resigned` seats (in the order they left) have resigned.

    RULES: a player who leaves a running game resigns. Placement games place
    the resigned below everyone who stayed, sharing the last places; the
    others keep their order. Keft: the first to resign takes the loss (a
    player already out when leaving never resigns: see `still_playing`).
    """
    if not resigned:
        return result
    gone = set(resigned)
    keys = [
        (seat in gone, 0 if seat in gone else place) for seat, place in enumerate(result["places"])
    ]
    updated = dict(result, places=list(_competition_places(keys)), resigned=list(resigned))
    if result.get("loser") is not None:
        updated["loser"] = resigned[0]
    return updated


def rows(state: State) -> dict[str, tuple[str, str] | None]:
    """The rows on the table by suit letter: ``(low card, high card)`` or None if unopened."""
    table = state.table
    out: dict[str, tuple[str, str] | None] = {}
    for s, letter in enumerate(SUITS):
        chunk = (table >> (9 * s)) & 0x1FF
        if not chunk:
            out[letter] = None
        else:
            lo = (chunk & -chunk).bit_length() - 1
            hi = chunk.bit_length() - 1
            out[letter] = (DECK36[9 * s + lo], DECK36[9 * s + hi])
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What one seat (or a spectator, ``seat=None``) may see; JSON-ready.

    Keys: ``game``, ``players``, ``seat``, ``keft``, ``pass_rule``,
    ``to_move``, ``over``, ``rows`` ({"C": [low, high] or None, ...}),
    ``counts`` (cards per seat), ``passes``, ``out``, ``hand`` (own cards,
    None for a spectator), ``legal`` (own legal cards on own turn, else []),
    ``result`` (None until over; then :func:`result` plus ``hands``, every
    hand). Before the end it holds no card of another seat's hand.
    """
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players
    ):
        raise ValueError(f"No seat {seat!r} at a table of {state.players}.")
    over = state.to_move is None
    res = None
    if over:
        res = result(state)
        res["hands"] = [list(h) for h in state.hands]
    return {
        "game": GAME,
        "players": state.players,
        "seat": seat,
        "keft": state.options.keft,
        "pass_rule": state.options.pass_rule,
        "to_move": state.to_move,
        "over": over,
        "rows": {k: (list(v) if v else None) for k, v in rows(state).items()},
        "counts": [len(h) for h in state.hands],
        "passes": list(state.passes),
        "out": list(state.out),
        "hand": list(state.hands[seat]) if seat is not None else None,
        "legal": legal_moves(state) if seat is not None and seat == state.to_move else [],
        "result": res,
    }


# --------------------------------------------------------------------------
# JSON.
# --------------------------------------------------------------------------

_JSON_KEYS = {"game", "players", "options", "hands", "passes", "out", "to_move", "over"}


def to_json(state: State) -> dict[str, Any]:
    """A JSON-serialisable dict (plain lists, ints, strs, bools); see :func:`from_json`."""
    return {
        "game": GAME,
        "players": state.players,
        "options": {"keft": state.options.keft, "pass_rule": state.options.pass_rule},
        "hands": [list(h) for h in state.hands],
        "passes": list(state.passes),
        "out": list(state.out),
        "to_move": state.to_move,
        "over": state.to_move is None,
    }


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def from_json(data: Any) -> State:
    """Rebuild a State from :func:`to_json` output, validating it (ValueError).

    Checks the shape and types, the cards (36 distinct codes at most, the
    rest on the table as rows grown from their nines), passes, the out order
    against the empty hands, and that ``to_move`` holds a legal card.
    """

    def bad(msg: str) -> ValueError:
        return ValueError(f"Bad devyatka state: {msg}")

    if not isinstance(data, dict):
        raise bad("expected a dict.")
    keys = set(data)
    if keys - _JSON_KEYS:
        raise bad(f"unknown keys {sorted(map(str, keys - _JSON_KEYS))}.")
    missing = (_JSON_KEYS - {"over"}) - keys
    if missing:
        raise bad(f"missing keys {sorted(missing)}.")
    if data["game"] != GAME:
        raise bad(f"game is {data['game']!r}, not {GAME!r}.")
    try:
        n = _check_players(data["players"])
    except ValueError as exc:
        raise bad(str(exc)) from None
    opts = data["options"]
    if not isinstance(opts, dict) or set(opts) != {"keft", "pass_rule"}:
        raise bad("options must be {'keft': bool, 'pass_rule': bool}.")
    try:
        options = Options(keft=opts["keft"], pass_rule=opts["pass_rule"])
    except ValueError as exc:
        raise bad(str(exc)) from None
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        raise bad(f"hands must be a list of {n} lists.")
    if not all(isinstance(h, list) for h in hands):
        raise bad("each hand must be a list of card codes.")
    try:
        masks = _hand_masks(hands)
    except ValueError as exc:
        raise bad(str(exc)) from None
    table = _FULL
    for m in masks:
        table &= ~m
    if table and not table & _NINE_D:
        raise bad("cards are on the table but 9D is not.")
    for s in range(4):
        chunk = (table >> (9 * s)) & 0x1FF
        if chunk:
            lo = (chunk & -chunk).bit_length() - 1
            run = chunk >> lo
            if not chunk & (1 << 3) or run & (run + 1):
                raise bad(f"the {SUIT_NAMES[SUITS[s]]} on the table are not a row around the nine.")
    passes = data["passes"]
    if (
        not isinstance(passes, list)
        or len(passes) != n
        or not all(_is_int(p) and p >= 0 for p in passes)
    ):
        raise bad(f"passes must be a list of {n} whole numbers >= 0.")
    out = data["out"]
    if not isinstance(out, list) or not all(_is_int(s) and 0 <= s < n for s in out):
        raise bad("out must be a list of seats.")
    if len(set(out)) != len(out) or set(out) != {s for s in range(n) if not masks[s]}:
        raise bad("out must list each seat with an empty hand exactly once.")
    need = _need_out(n, options.keft)
    if len(out) > need:
        raise bad("more players are out than the game allows.")
    over = len(out) == need
    if "over" in data and data["over"] is not over:
        raise bad(f"over must be {over}.")
    to_move = data["to_move"]
    playable = _playable_from_table(table)
    if over:
        if to_move is not None:
            raise bad("to_move must be null when the game is over.")
    else:
        if not _is_int(to_move) or not 0 <= to_move < n:
            raise bad("to_move must be a seat while the game is on.")
        if not masks[to_move] & playable:
            raise bad(f"seat {to_move} is to move but holds no legal card.")
    return _state_from_masks(n, options, masks, passes, out, to_move, playable)


# --------------------------------------------------------------------------
# Fast playout path for bots.
# --------------------------------------------------------------------------


class FastState(NamedTuple):
    """A position for the fast path: integer masks only, nothing validated.

    ``masks``: hand bitmask per seat; ``playable``: cards playable now;
    ``to_move``: the seat to play or -1 when over; ``passes`` and ``out`` as
    in :class:`State`.
    """

    players: int
    keft: bool
    masks: tuple[int, ...]
    playable: int
    to_move: int
    passes: tuple[int, ...]
    out: tuple[int, ...]


class PlayoutResult(NamedTuple):
    """The end of a playout: per seat ``cards_left``, ``points`` and ``passes``; ``out`` order.

    Classic places: :func:`playout_places`; Keft loser: :func:`playout_loser`.
    """

    cards_left: tuple[int, ...]
    points: tuple[int, ...]
    passes: tuple[int, ...]
    out: tuple[int, ...]


def to_fast(state: State) -> FastState:
    """The fast-path twin of a public State."""
    return FastState(
        state.players,
        state.options.keft,
        state.masks,
        state.playable,
        -1 if state.to_move is None else state.to_move,
        state.passes,
        state.out,
    )


def fast_state(
    players: int,
    keft: bool,
    masks: Sequence[int],
    to_move: int | None = None,
    passes: Sequence[int] | None = None,
    out: Sequence[int] | None = None,
) -> FastState:
    """A FastState from hand masks, e.g. a determinised deal for a bot (unchecked).

    Cards in no mask are on the table; ``playable`` is computed from them.
    ``to_move`` None means the holder of 9D (a fresh deal).
    """
    table = _FULL
    for m in masks:
        table &= ~m
    if to_move is None:
        to_move = _holder(masks, _NINE_D)
    return FastState(
        players,
        keft,
        tuple(masks),
        _playable_from_table(table),
        to_move,
        tuple(passes) if passes is not None else (0,) * players,
        tuple(out) if out is not None else (),
    )


def fast_legal(fs: FastState) -> int:
    """Mask of the legal cards of the player to move (0 when over)."""
    if fs.to_move < 0:
        return 0
    return legal_mask(fs.masks[fs.to_move], fs.playable)


def fast_apply(fs: FastState, bit: int) -> FastState:
    """Play card ``bit`` (``1 << index``, must be legal: unchecked) and the passes after it."""
    n = fs.players
    masks = list(fs.masks)
    passes = list(fs.passes)
    out = list(fs.out)
    playable, nxt = advance(
        masks, fs.playable, fs.to_move, bit, CYCLES[n], _need_out(n, fs.keft), passes, out, None
    )
    return FastState(n, fs.keft, tuple(masks), playable, nxt, tuple(passes), tuple(out))


def random_deal_masks(players: int, rng: random.Random) -> list[int]:
    """A uniformly random deal as hand masks (cards dealt one at a time from seat 0).

    Faster than :func:`deal` and a different shuffle: for playouts and benchmarks.
    """
    rand = rng.random
    order = sorted(_BITS, key=lambda _: rand())  # a random permutation of the cards
    return [sum(order[seat::players]) for seat in range(players)]


def random_playout(fs: FastState, rng: random.Random) -> PlayoutResult:
    """Play the game out with uniformly random legal moves; return the result.

    Policy (reproducible with the public API): with k > 1 legal cards the
    mover plays ``legal_moves(state)[int(rng.random() * k)]``; with exactly
    one legal card no random number is drawn. ``fs`` is not changed.
    """
    n = fs.players
    masks = list(fs.masks)
    passes = list(fs.passes)
    out = list(fs.out)
    playable = fs.playable
    p = fs.to_move
    cycle = CYCLES[n]
    need = _need_out(n, fs.keft)
    rand = rng.random
    step = advance
    while p >= 0:
        legal = masks[p] & playable
        if legal & (legal - 1):
            k = int(rand() * legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
        playable, p = step(masks, playable, p, legal & -legal, cycle, need, passes, out, None)
    cp = _CHUNK_POINTS
    return PlayoutResult(
        tuple(m.bit_count() for m in masks),
        tuple(
            cp[m & 0x1FF] + cp[(m >> 9) & 0x1FF] + cp[(m >> 18) & 0x1FF] + cp[m >> 27]
            for m in masks
        ),
        tuple(passes),
        tuple(out),
    )


def playout_places(res: PlayoutResult, pass_rule: bool = False) -> tuple[int, ...]:
    """Classic places of a playout result, ranked exactly as :func:`places`."""
    return _classic_places(res.cards_left, res.points, res.passes, pass_rule)


def playout_loser(res: PlayoutResult) -> int:
    """Keft loser of a playout result: the seat that never went out."""
    n = len(res.cards_left)
    return n * (n - 1) // 2 - sum(res.out)
