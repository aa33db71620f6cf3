"""Nine-card Golf (RULES.md section 3, G1-G16). Pure Python, no Django.

Cards use the shared codes (``AS``, ``TD``, ``2C``); Golf plays with 52-card
decks, so ranks 2 to A. A grid is nine codes in row-major order; its columns
are positions {0, 3, 6}, {1, 4, 7}, {2, 5, 8} (G2).

Public, immutable API (the engine contract; external tests use these names)::

    score_grid(cards, column_rule="pair") -> int
    Options(column_rule="pair", rounds=9)          # frozen; ValueError when invalid
    options_from({"column_rule": ..., "rounds": ...}) -> Options
    deal(players, seed, options) -> State          # 2..12 players (G16), G1 decks
    start(players, shoe, options, seed=0) -> State # explicit round-1 shoe, validated
    legal_moves(state, seat) -> list[str]          # sorted(); [] if the seat can't act
    play(state, seat, move) -> State               # raises IllegalMove (a ValueError)
    apply(state, seat, move) -> (State, [(seat, move)])
    replay(players, seed, options, actions) -> State
    round_scores(state), totals(state), places(state), result(state)
    view(state, seat)                              # THE projection for clients
    to_json(state), from_json(data)
    is_move(text), still_playing(state, seat), resign_result(result, resigned)
    choose_move(level, view, history, seed, budget_ms)   # a simple house player

Moves (``N`` is a grid position 0..8; DESIGN.md, "The engine contract")::

    flip N      reveal phase: turn up card N (at most two, G3/G13);
                your turn, nothing drawn: turn up face-down card N (G5c)
    ready       reveal phase: done turning up; play starts when all are ready
    draw        your turn, nothing drawn: take the top of the stock (G5a)
    swap N      after draw: the drawn card goes to N face up, the old card N
                face up on the discard pile
    discard N   after draw, N face down: discard the drawn card, turn up N
    take N      your turn, nothing drawn: the top discard goes to N face up,
                the old card N on the discard pile (G5b)

``legal_moves`` is plain ``sorted()`` of the move strings, which groups them
by kind: ``discard *`` < ``draw`` < ``flip *`` < ``ready`` < ``swap *`` <
``take *``, positions ascending within a kind.

Decisions beyond RULES.md, all documented where they apply:

* Round ``r`` is dealt by seat ``(r - 1) % players`` (G15). Round 1 comes
  from the shoe given to :func:`start` (or shuffled from ``seed`` by
  :func:`deal`); later rounds and every G14 reshuffle are put in a random
  order by sorting on ``random.Random(f"golf:{seed}:{round}:{k}").random()``
  keys (``k`` 0 for the round's shoe, 1, 2, ... for its reshuffles; the
  round's shoe starts from :func:`deck_for`), so a state and its seed say
  everything (no RNG state).
* G13: ``flip`` in the reveal phase needs the seat not to be ready yet;
  turning up two cards does not make a seat ready, ``ready`` does.
* G14: the reshuffle happens as soon as a ``draw`` takes the last card of
  the stock (the drawn card stays in hand), so during play the stock is
  never empty.
* A round ends right after the last final turn (G6): the next round is
  dealt at once and starts in its reveal phase; the finished round's
  revealed grids and scores stay in the state (``last``) and in every view
  (``last_round``) until that reveal phase ends, and after the last round.

Internally a grid is a tuple of nine codes plus a 9-bit mask of its face-up
positions; the legal moves come from tables indexed by that mask.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from games.engine.cards import decks52, is_card
from games.engine.messages import N_, RuleMessage

__all__ = [
    "COLUMNS",
    "COLUMN_RULES",
    "GAME",
    "IllegalMove",
    "Options",
    "RANK_VALUES",
    "State",
    "apply",
    "card_value",
    "choose_move",
    "deal",
    "deck_for",
    "decks_for",
    "from_json",
    "is_move",
    "legal_moves",
    "options_from",
    "places",
    "play",
    "replay",
    "resign_result",
    "result",
    "round_scores",
    "score_grid",
    "start",
    "still_playing",
    "to_json",
    "totals",
    "view",
]

GAME = "golf"
MIN_PLAYERS = 2
MAX_PLAYERS = 12
MIN_ROUNDS = 1
MAX_ROUNDS = 18
PENALTY = 10
FULL = 0x1FF  # all nine positions face up

REVEAL = "reveal"
TURN = "turn"
OVER = "over"
PHASES = (REVEAL, TURN, OVER)

#: G7 card values by rank: A=1, 2=-2, 3..10 face value, J=10, Q=10, K=0.
RANK_VALUES = {
    "A": 1,
    "2": -2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "T": 10,
    "J": 10,
    "Q": 10,
    "K": 0,
}

COLUMNS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
#: G11: "pair" (default) -- two or three of a rank in a column score 0;
#: "three" -- the "column match needs three" variant.
COLUMN_RULES = ("pair", "three")

GAME_OVER = N_("The match is over.")
NOT_YOUR_TURN = N_("It is not your turn.")


class IllegalMove(RuleMessage):
    """A move the rules do not allow; ``str(exc)`` says why in plain words.

    ``template`` and ``params`` let the site say it in the player's language
    (games/engine/messages.py).
    """


@dataclass(frozen=True, slots=True)
class Options:
    """Table options: ``column_rule`` "pair" (G8/G11) or "three"; ``rounds`` 1..18 (G10: 9)."""

    column_rule: str = "pair"
    rounds: int = 9

    def __post_init__(self) -> None:
        if self.column_rule not in COLUMN_RULES:
            raise ValueError(f"Unknown column rule {self.column_rule!r}; use 'pair' or 'three'.")
        r = self.rounds
        if isinstance(r, bool) or not isinstance(r, int) or not MIN_ROUNDS <= r <= MAX_ROUNDS:
            raise ValueError(
                f"A Golf match has {MIN_ROUNDS} to {MAX_ROUNDS} rounds, got {self.rounds!r}."
            )


# --------------------------------------------------------------------------
# Scoring.
# --------------------------------------------------------------------------


def card_value(code: str) -> int:
    """G7 value of one card; ValueError if ``code`` is not a card."""
    if not is_card(code):
        raise ValueError(f"{code!r} is not a card.")
    return RANK_VALUES[code[0]]


def score_grid(cards: Sequence[str], column_rule: str = "pair") -> int:
    """Score a 3x3 grid of nine card codes, row-major (G2, G7, G8, G11).

    ``column_rule="pair"``: in each column, cards whose rank appears two or
    three times score 0 (a pair scores 0 for both cards, the third card of
    another rank still counts). ``column_rule="three"``: only a full column
    of one rank scores 0. Raises ValueError for anything but nine valid
    codes (duplicates are fine: Golf uses two or three decks) or an unknown
    rule.
    """
    if column_rule not in COLUMN_RULES:
        raise ValueError(f"Unknown column rule {column_rule!r}; use 'pair' or 'three'.")
    if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
        raise ValueError("A grid is a list of nine card codes.")
    if len(cards) != 9:
        raise ValueError(f"A grid has nine cards, got {len(cards)}.")
    for code in cards:
        if not is_card(code):
            raise ValueError(f"{code!r} is not a card.")
    total = 0
    for column in COLUMNS:
        ranks = [cards[i][0] for i in column]
        counts = Counter(ranks)
        for r in ranks:
            n = counts[r]
            if n == 3 or (n == 2 and column_rule == "pair"):
                continue
            total += RANK_VALUES[r]
    return total


def _matched(grid: Sequence[str], three: bool) -> int:
    """Mask of the positions that score 0 by a column match (G8, G11)."""
    m = 0
    for a, b, c in COLUMNS:
        ra, rb, rc = grid[a][0], grid[b][0], grid[c][0]
        if ra == rb == rc:
            m |= (1 << a) | (1 << b) | (1 << c)
        elif not three:
            if ra == rb:
                m |= (1 << a) | (1 << b)
            elif ra == rc:
                m |= (1 << a) | (1 << c)
            elif rb == rc:
                m |= (1 << b) | (1 << c)
    return m


_VALUE_OF = {r + s: v for r, v in RANK_VALUES.items() for s in "CDHS"}


def _score(grid: Sequence[str], three: bool) -> int:
    """:func:`score_grid` without validation (the engine's own grids are valid)."""
    v = _VALUE_OF
    total = 0
    for a, b, c in COLUMNS:
        ca, cb, cc = grid[a], grid[b], grid[c]
        ra, rb, rc = ca[0], cb[0], cc[0]
        if ra == rb:
            if rb == rc:
                continue
            total += v[cc] if not three else v[ca] + v[cb] + v[cc]
        elif ra == rc:
            total += v[cb] if not three else v[ca] + v[cb] + v[cc]
        elif rb == rc:
            total += v[ca] if not three else v[ca] + v[cb] + v[cc]
        else:
            total += v[ca] + v[cb] + v[cc]
    return total


def _round_result(
    grids: Sequence[Sequence[str]], went_out: int, three: bool
) -> tuple[list[int], bool]:
    """Raw grid scores and whether the seat that went out takes the G9 penalty (G12)."""
    raw = [_score(g, three) for g in grids]
    mine = raw[went_out]
    penalty = any(s < mine for s in raw)
    return raw, penalty


# --------------------------------------------------------------------------
# Decks and the state.
# --------------------------------------------------------------------------


def decks_for(players: int) -> int:
    """G1: two decks for 2 to 8 players, three for more."""
    return 2 if players <= 8 else 3


def deck_for(players: int) -> tuple[str, ...]:
    """Every card of the G1 decks for ``players`` (display order, deck after deck)."""
    return decks52(decks_for(players))


class State(NamedTuple):
    """An immutable Golf position (a whole match); a NamedTuple, cheap to build.

    ``grids``: per seat, nine codes row-major; ``up``: per seat, a 9-bit mask
    of the face-up positions (bit ``1 << N``). ``stock``: top card first.
    ``discard``: the pile, top card last (never empty). ``drawn``: the card
    drawn by ``to_move`` (G5a) or None. ``ready``: per seat, in the reveal
    phase. ``went_out``: the seat that went out this round (G6) or None.
    ``reshuffles``: G14 reshuffles so far this round. ``scores``: finished
    rounds, per round a tuple per seat, G9 penalty included; ``history``:
    per finished round, ``(seat that went out, whether it took the G9
    penalty)``. ``last``: the finished round's revealed grids and who went
    out, kept through the next reveal phase and after the match (else None).
    ``seed`` draws the later rounds and the reshuffles. ``over`` is True once
    the match has ended.

    A NamedTuple rather than a frozen dataclass for speed (building one is
    about 8x cheaper), so it is also a plain tuple: compare states with ``==``
    against other states only.

    Build states with :func:`deal`, :func:`start`, :func:`play` or
    :func:`from_json`, never directly.
    """

    players: int
    options: Options
    seed: int | str
    round: int
    dealer: int
    phase: str
    grids: tuple[tuple[str, ...], ...]
    up: tuple[int, ...]
    stock: tuple[str, ...]
    discard: tuple[str, ...]
    drawn: str | None
    ready: tuple[bool, ...]
    to_move: int | None
    went_out: int | None
    reshuffles: int
    scores: tuple[tuple[int, ...], ...]
    history: tuple[tuple[int, bool], ...]
    last: tuple[tuple[tuple[str, ...], ...], int] | None

    @property
    def over(self) -> bool:
        """True once the last round has been scored."""
        return self.phase == OVER


def _check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"The number of players must be a whole number, got {players!r}.")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Golf needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}.")
    return players


def options_from(data: dict[str, Any] | None) -> Options:
    """Options from a table's JSON options (``{"column_rule": ..., "rounds": ...}``).

    Missing keys take the defaults; unknown keys or bad values raise ValueError
    (for the registry's ``options``).
    """
    data = data or {}
    if not isinstance(data, dict):
        raise ValueError("Golf options must be a dict.")
    unknown = set(data) - {"column_rule", "rounds"}
    if unknown:
        raise ValueError(f"Unknown Golf options: {', '.join(sorted(map(str, unknown)))}.")
    return Options(**data)


def _check_options(options: Options | None) -> Options:
    if options is None:
        return Options()
    if not isinstance(options, Options):
        raise ValueError(f"options must be a golf.Options, got {options!r}.")
    return options


def _check_seed(seed: object) -> int | str:
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ValueError(f"The seed must be an int or a str, got {seed!r}.")
    return seed


def _shuffled(cards: Iterable[str], seed: int | str, round_no: int, reshuffle: int) -> list[str]:
    """The cards shuffled for a round (``reshuffle`` 0) or its G14 reshuffle number k."""
    rand = random.Random(f"golf:{seed}:{round_no}:{reshuffle}").random
    return sorted(cards, key=lambda _: rand())  # a random order, twice as fast as shuffle()


def _deal_round(
    players: int,
    options: Options,
    seed: int | str,
    round_no: int,
    shoe: Sequence[str],
    scores: tuple[tuple[int, ...], ...],
    history: tuple[tuple[int, bool], ...],
    last: tuple[tuple[tuple[str, ...], ...], int] | None,
) -> State:
    """Deal ``shoe`` for a round (G2, G15) and open its reveal phase."""
    n = players
    dealer = (round_no - 1) % n
    grids = [[""] * 9 for _ in range(n)]
    k = 0
    for pos in range(9):
        for i in range(1, n + 1):
            grids[(dealer + i) % n][pos] = shoe[k]
            k += 1
    return State(
        n,
        options,
        seed,
        round_no,
        dealer,
        REVEAL,
        tuple(tuple(g) for g in grids),
        (0,) * n,
        tuple(shoe[k + 1 :]),
        (shoe[k],),
        None,
        (False,) * n,
        None,
        None,
        0,
        scores,
        history,
        last,
    )


def start(
    players: int, shoe: Sequence[str], options: Options | None = None, seed: int | str = 0
) -> State:
    """Start a match whose first round is dealt from ``shoe`` (validated).

    ``shoe`` holds every card of the G1 decks exactly (two decks for up to 8
    players, three for 9 to 12), in dealing order: one card at a time
    clockwise from the dealer's left (seat 0 deals round 1, so seat 1 gets
    the first card), filling grid positions 0..8 in order; the next card is
    turned up as the discard pile; the rest is the stock, next card on top.
    Later rounds and the G14 reshuffles are shuffled from ``seed``.
    """
    n = _check_players(players)
    options = _check_options(options)
    seed = _check_seed(seed)
    if isinstance(shoe, str | bytes) or not isinstance(shoe, Sequence):
        raise ValueError("The shoe must be a list of card codes.")
    for code in shoe:
        if not is_card(code):
            raise ValueError(f"{code!r} is not a card.")
    want = Counter(deck_for(n))
    have = Counter(shoe)
    if have != want:
        decks = decks_for(n)
        missing = sorted((want - have).elements())
        extra = sorted((have - want).elements())
        parts = []
        if missing:
            parts.append(f"missing {' '.join(missing[:10])}{' ...' if len(missing) > 10 else ''}")
        if extra:
            parts.append(f"too many {' '.join(extra[:10])}{' ...' if len(extra) > 10 else ''}")
        raise ValueError(
            f"{n} players use {decks} decks ({52 * decks} cards): the shoe has "
            f"{len(shoe)}, {'; '.join(parts)}."
        )
    return _deal_round(n, options, seed, 1, list(shoe), (), (), None)


def deal(players: int, seed: int | str, options: Options | None = None) -> State:
    """Deal a new match (G1, G2), deterministic for a given seed.

    The round-1 shoe is :func:`deck_for` shuffled from ``seed`` (the same
    scheme as every later round); see :func:`start` for how it is dealt.
    """
    n = _check_players(players)
    seed = _check_seed(seed)
    return start(n, _shuffled(deck_for(n), seed, 1, 0), options, seed)


# --------------------------------------------------------------------------
# Moves.
# --------------------------------------------------------------------------

_POS = range(9)
#: move string -> (kind, position, 1 << position); -1 and 0 for "ready" and "draw".
_PARSE: dict[str, tuple[str, int, int]] = {"ready": ("ready", -1, 0), "draw": ("draw", -1, 0)}
for _kind in ("flip", "swap", "discard", "take"):
    for _n in _POS:
        _PARSE[f"{_kind} {_n}"] = (_kind, _n, 1 << _n)


def is_move(text: object) -> bool:
    """True if ``text`` is a Golf move string (syntax only: ``flip 4``, ``draw``, ...)."""
    return isinstance(text, str) and text in _PARSE


def _down(mask: int) -> list[int]:
    return [i for i in _POS if not mask >> i & 1]


#: Legal moves by face-up mask, already sorted (see the module docstring).
_REVEAL_LEGAL = tuple(
    tuple(([f"flip {i}" for i in _down(m)] if m.bit_count() < 2 else []) + ["ready"])
    for m in range(512)
)
_TURN_LEGAL = tuple(
    tuple(["draw"] + [f"flip {i}" for i in _down(m)] + [f"take {i}" for i in _POS])
    for m in range(512)
)
_DRAWN_LEGAL = tuple(
    tuple([f"discard {i}" for i in _down(m)] + [f"swap {i}" for i in _POS]) for m in range(512)
)


def legal_moves(state: State, seat: int) -> list[str]:
    """The moves ``seat`` may send now, ``sorted()``; [] if it cannot act.

    Reveal phase: every seat not yet ready (``flip N`` while fewer than two
    are up, and ``ready``). Turn phase: only ``to_move``.
    """
    phase = state.phase
    if phase == TURN:
        if seat != state.to_move or seat.__class__ is not int:
            return []
        if state.drawn is None:
            return list(_TURN_LEGAL[state.up[seat]])
        return list(_DRAWN_LEGAL[state.up[seat]])
    if phase == REVEAL:
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 0 <= seat < state.players
            or state.ready[seat]
        ):
            return []
        return list(_REVEAL_LEGAL[state.up[seat]])
    return []


def _replace(t: tuple, i: int, value: Any) -> tuple:
    return t[:i] + (value,) + t[i + 1 :]


def _not_a_move(move: object) -> IllegalMove:
    return IllegalMove(
        "{move} is not a Golf move: send flip N, ready, draw, swap N, discard N "
        "or take N, with N a grid position 0 to 8.",
        move=repr(move),
    )


def _reveal_move(state: State, seat: int, kind: str, pos: int) -> State:
    if state.ready[seat]:
        raise IllegalMove("You are ready; wait for the others to be ready too.")
    if kind == "flip":
        up = state.up[seat]
        if up >> pos & 1:
            raise IllegalMove("Card {pos} is already face up.", pos=pos)
        if up.bit_count() >= 2:
            raise IllegalMove("You may turn up only two cards before play; say ready.")
        return state._replace(up=_replace(state.up, seat, up | (1 << pos)))
    if kind == "ready":
        ready = _replace(state.ready, seat, True)
        if all(ready):  # G13: everyone is ready; G4: left of the dealer starts
            return state._replace(
                phase=TURN,
                ready=(False,) * state.players,
                to_move=(state.dealer + 1) % state.players,
                last=None,
            )
        return state._replace(ready=ready)
    raise IllegalMove(
        "Play has not started yet: turn up at most two cards (flip N), then say ready."
    )


def _finish_round(
    state: State,
    grids: tuple[tuple[str, ...], ...],
    stock: tuple[str, ...],
    discard: tuple[str, ...],
    went_out: int,
) -> State:
    """G6 end of round: everything turned up, scored (G7-G9, G11, G12); next round or over."""
    n = state.players
    raw, penalty = _round_result(grids, went_out, state.options.column_rule == "three")
    if penalty:
        raw[went_out] += PENALTY
    scores = state.scores + (tuple(raw),)
    history = state.history + ((went_out, penalty),)
    last = (grids, went_out)
    if state.round >= state.options.rounds:
        return State(
            n,
            state.options,
            state.seed,
            state.round,
            state.dealer,
            OVER,
            grids,
            (FULL,) * n,
            stock,
            discard,
            None,
            (False,) * n,
            None,
            went_out,
            state.reshuffles,
            scores,
            history,
            last,
        )
    r = state.round + 1
    shoe = _shuffled(deck_for(n), state.seed, r, 0)
    return _deal_round(n, state.options, state.seed, r, shoe, scores, history, last)


_new = tuple.__new__


def _not_your_turn(state: State, seat: object) -> IllegalMove:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        return IllegalMove(
            "There is no seat {seat} at this table of {players}.",
            seat=repr(seat),
            players=state.players,
        )
    return IllegalMove("It is not your turn. Seat {seat} is to play.", seat=state.to_move)


def play(state: State, seat: int, move: str) -> State:
    """Play ``move`` for ``seat``; return the new state. Raises :class:`IllegalMove`.

    The end of a round (G6) scores it and deals the next one (or ends the
    match) within the same call.
    """
    try:
        kind, pos, bit = _PARSE[move]
    except (KeyError, TypeError):
        raise _not_a_move(move) from None
    (
        n,
        options,
        seed,
        rnd,
        dealer,
        phase,
        grids,
        up,
        stock,
        discard,
        drawn,
        ready,
        to_move,
        went_out,
        reshuffles,
        scores,
        history,
        _last,
    ) = state
    if phase != TURN:
        if phase == REVEAL:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise IllegalMove(
                    "There is no seat {seat} at this table of {players}.",
                    seat=repr(seat),
                    players=n,
                )
            return _reveal_move(state, seat, kind, pos)
        raise IllegalMove(GAME_OVER)
    if seat != to_move or seat.__class__ is not int:
        raise _not_your_turn(state, seat)
    mask = up[seat]
    grid = None
    if drawn is None:
        if kind == "take":  # G5b: the top discard replaces card N, which is discarded
            grid = grids[seat]
            discard = discard[:-1] + (grid[pos],)
            grid = grid[:pos] + (state.discard[-1],) + grid[pos + 1 :]
        elif kind == "draw":  # G5a: only the drawer sees the card
            card = stock[0]
            stock = stock[1:]
            if not stock:  # G14: the discard pile but its top becomes the stock
                reshuffles += 1
                stock = tuple(_shuffled(discard[:-1], seed, rnd, reshuffles))
                discard = discard[-1:]
            return _new(
                State,
                (
                    n,
                    options,
                    seed,
                    rnd,
                    dealer,
                    TURN,
                    grids,
                    up,
                    stock,
                    discard,
                    card,
                    ready,
                    seat,
                    went_out,
                    reshuffles,
                    scores,
                    history,
                    None,
                ),
            )
        elif kind == "flip":  # G5c
            if mask & bit:
                raise IllegalMove(
                    "Card {pos} is already face up; turn up a face-down card.", pos=pos
                )
        elif kind == "ready":
            raise IllegalMove("Play has already started: draw, take N or flip N.")
        else:
            raise IllegalMove(
                "Draw first: '{kind} N' needs a card drawn from the stock.", kind=kind
            )
    elif kind == "swap":  # G5a: keep the drawn card at N, discard card N
        grid = grids[seat]
        discard = discard + (grid[pos],)
        grid = grid[:pos] + (drawn,) + grid[pos + 1 :]
    elif kind == "discard":  # G5a: discard the drawn card, turn up card N
        if mask & bit:
            raise IllegalMove(
                "Card {pos} is already face up: discarding the drawn card turns up a "
                "face-down card.",
                pos=pos,
            )
        discard = discard + (drawn,)
    elif kind == "ready":
        raise IllegalMove("Play has already started: swap N or discard N.")
    else:
        raise IllegalMove("You have drawn a card: swap it for one of yours (swap N) or discard N.")
    # The turn ends.
    if grid is not None:
        grids = grids[:seat] + (grid,) + grids[seat + 1 :]
    mask |= bit
    up = up[:seat] + (mask,) + up[seat + 1 :]
    if went_out is None and mask == FULL:
        went_out = seat  # G6: every other player gets exactly one more turn
    nxt = seat + 1
    if nxt == n:
        nxt = 0
    if nxt == went_out:
        return _finish_round(state, grids, stock, discard, went_out)
    return _new(
        State,
        (
            n,
            options,
            seed,
            rnd,
            dealer,
            TURN,
            grids,
            up,
            stock,
            discard,
            None,
            ready,
            nxt,
            went_out,
            reshuffles,
            scores,
            history,
            None,
        ),
    )


def apply(state: State, seat: int, move: str) -> tuple[State, list[tuple[int, str]]]:
    """Like :func:`play`, also returning the actions applied: ``[(seat, move)]``.

    Golf has no automatic moves, so the list only ever holds the move itself.
    """
    return play(state, seat, move), [(seat, move)]


def replay(
    players: int,
    seed: int | str,
    options: Options | None,
    actions: Iterable[tuple[int, str]],
) -> State:
    """Deal with ``seed`` and play ``(seat, move)`` pairs in order."""
    state = deal(players, seed, options)
    for seat, move in actions:
        state = play(state, seat, move)
    return state


# --------------------------------------------------------------------------
# Results.
# --------------------------------------------------------------------------


def round_scores(state: State) -> tuple[tuple[int, ...], ...]:
    """The finished rounds' scores: per round, per seat, G9 penalty included."""
    return state.scores


def totals(state: State) -> tuple[int, ...]:
    """Per seat, the sum of the finished rounds' scores (0s before any round ends)."""
    return tuple(sum(col) for col in zip(*state.scores, strict=True)) or (0,) * state.players


def _competition_places(keys: Sequence[Any]) -> tuple[int, ...]:
    """1-based competition ranking: lower key is better, ties share (1, 2, 2, 4)."""
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)


def places(state: State) -> tuple[int, ...]:
    """Per seat, the 1-based place once the match is over (G10, G15); ValueError before."""
    if state.phase != OVER:
        raise ValueError("The match is not over yet.")
    return _competition_places(totals(state))


def result(state: State) -> dict[str, Any]:
    """The result of a finished match as plain JSON types (ValueError before the end).

    Keys, all per seat unless said: ``places`` (1, 2, 2, 4 ranking by total,
    lowest wins), ``totals``, ``points`` (the same as ``totals``, the name
    the site's result rows use for a seat's points), ``round_scores`` (per
    seat, the list of that seat's round scores with penalties), ``penalties``
    (per seat, how many rounds they took the G9 penalty), ``went_out`` (per
    round, the seat that went out), ``winners`` (the seats in first place)
    and ``rounds`` (rounds played).
    """
    p = places(state)
    t = totals(state)
    n = state.players
    return {
        "places": list(p),
        "totals": list(t),
        "points": list(t),
        "round_scores": [[r[seat] for r in state.scores] for seat in range(n)],
        "penalties": [sum(1 for w, pen in state.history if pen and w == seat) for seat in range(n)],
        "went_out": [w for w, _ in state.history],
        "winners": [seat for seat in range(n) if p[seat] == 1],
        "rounds": len(state.scores),
    }


def still_playing(state: State, seat: int) -> bool:
    """Whether leaving now resigns ``seat``: True while the match is running."""
    return state.phase != OVER


def resign_result(result: dict[str, Any], resigned: Sequence[int]) -> dict[str, Any]:
    """The result once ``resigned`` seats (in the order they left) have resigned.

    As in every game of the club: the resigned are placed below everyone who stayed,
    sharing the last places; the others keep their order (their ties
    shared). ``resigned`` is added to the result. Totals are unchanged.
    """
    if not resigned:
        return result
    gone = set(resigned)
    keys = [
        (seat in gone, 0 if seat in gone else place) for seat, place in enumerate(result["places"])
    ]
    new_places = list(_competition_places(keys))
    return dict(
        result,
        places=new_places,
        winners=[seat for seat, place in enumerate(new_places) if place == 1],
        resigned=list(resigned),
    )


# --------------------------------------------------------------------------
# The view.
# --------------------------------------------------------------------------


def _round_block(
    round_no: int,
    grids: Sequence[Sequence[str]],
    went_out: int,
    three: bool,
) -> dict[str, Any]:
    raw, penalty = _round_result(grids, went_out, three)
    matched = [_matched(g, three) for g in grids]
    return {
        "round": round_no,
        "grids": [list(g) for g in grids],
        "raw": raw,
        "scores": [
            s + (PENALTY if penalty and seat == went_out else 0) for seat, s in enumerate(raw)
        ],
        "matched": [[i for i in _POS if m >> i & 1] for m in matched],
        "matched_columns": [
            [c for c, col in enumerate(COLUMNS) if any(m >> i & 1 for i in col)] for m in matched
        ],
        "went_out": went_out,
        "penalty": went_out if penalty else None,
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What one seat (or a spectator, ``seat=None``) may see; JSON-ready plain types.

    Keys:

    * ``game`` ("golf"), ``players``, ``seat``, ``column_rule``, ``rounds``,
      ``round`` (1-based), ``dealer``, ``phase`` ("reveal" | "turn" |
      "over"), ``to_move`` (None in reveal and over), ``over``.
    * ``grids``: per seat, nine entries row-major: the code of a face-up
      card, None for a face-down one. When the match is over the table is
      cleared (nine Nones per seat): the final grids are in ``last_round``,
      so no card is listed twice.
    * ``stock`` (cards left in it), ``discard`` (the top card or None),
      ``discard_count``.
    * ``drawn``: the card this seat has drawn (G5a), else None; a spectator
      never sees it. ``holding``: per seat, whether it holds a drawn card.
    * ``ready``: per seat, in the reveal phase (None otherwise).
    * ``went_out``: the seat that went out this round (G6) or None;
      ``final_turns``: the seats still owed their final turn, in turn
      order, the seat to move first ([] before anyone went out).
    * ``round_scores``: per seat, the scores of the finished rounds (G9
      penalty included); ``totals``: per seat.
    * ``last_round``: during the next round's reveal phase and once the
      match is over, the last finished round: ``round``, ``grids`` (all
      revealed), ``raw`` (grid scores), ``scores`` (with the penalty),
      ``matched`` (per seat, the positions scoring 0 by a column match),
      ``matched_columns`` (per seat, column indexes 0..2 with a match),
      ``went_out`` and ``penalty`` (the seat given +10, or None). Else None.
      These cards were all turned up when that round ended and are no
      longer on the table.
    * ``result``: :func:`result` once over, else None.
    * ``legal``: the sorted moves this seat may send now ([] otherwise).

    A player never sees a face-down card (their own included) nor another
    seat's drawn card; every card shown is listed once.
    """
    n = state.players
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
    ):
        raise ValueError(f"No seat {seat!r} at a table of {n}.")
    phase = state.phase
    over = phase == OVER
    if over:
        grids: list[list[str | None]] = [[None] * 9 for _ in range(n)]
    else:
        grids = [
            [c if up >> i & 1 else None for i, c in enumerate(g)]
            for g, up in zip(state.grids, state.up, strict=True)
        ]
    to_move = state.to_move
    went_out = state.went_out if phase == TURN else None
    final_turns: list[int] = []
    if went_out is not None and to_move is not None:
        s = to_move
        while s != went_out:
            final_turns.append(s)
            s = (s + 1) % n
    last = None
    if state.last is not None:
        last = _round_block(
            len(state.scores), state.last[0], state.last[1], state.options.column_rule == "three"
        )
    holding = state.drawn is not None
    return {
        "game": GAME,
        "players": n,
        "seat": seat,
        "column_rule": state.options.column_rule,
        "rounds": state.options.rounds,
        "round": state.round,
        "dealer": state.dealer,
        "phase": phase,
        "to_move": to_move,
        "over": over,
        "grids": grids,
        "stock": len(state.stock),
        "discard": state.discard[-1] if state.discard else None,
        "discard_count": len(state.discard),
        "drawn": state.drawn if holding and seat is not None and seat == to_move else None,
        "holding": [holding and s == to_move for s in range(n)],
        "ready": list(state.ready) if phase == REVEAL else None,
        "went_out": went_out,
        "final_turns": final_turns,
        "round_scores": [[r[s] for r in state.scores] for s in range(n)],
        "totals": list(totals(state)),
        "last_round": last,
        "result": result(state) if over else None,
        "legal": legal_moves(state, seat) if seat is not None else [],
    }


# --------------------------------------------------------------------------
# JSON.
# --------------------------------------------------------------------------

_JSON_KEYS = frozenset(
    {
        "game",
        "players",
        "options",
        "seed",
        "round",
        "dealer",
        "phase",
        "grids",
        "up",
        "stock",
        "discard",
        "drawn",
        "ready",
        "to_move",
        "went_out",
        "reshuffles",
        "scores",
        "history",
        "last",
    }
)


def to_json(state: State) -> dict[str, Any]:
    """A JSON-serialisable dict (plain lists, ints, strs, bools, None); see :func:`from_json`.

    ``up`` holds the face-up masks (bit ``1 << N``); ``stock`` is top card
    first, ``discard`` top card last; ``history`` per finished round
    ``[seat that went out, penalty taken]``; ``last`` is
    ``{"grids": [...], "went_out": seat}`` or None.
    """
    last = state.last
    return {
        "game": GAME,
        "players": state.players,
        "options": {"column_rule": state.options.column_rule, "rounds": state.options.rounds},
        "seed": state.seed,
        "round": state.round,
        "dealer": state.dealer,
        "phase": state.phase,
        "grids": [list(g) for g in state.grids],
        "up": list(state.up),
        "stock": list(state.stock),
        "discard": list(state.discard),
        "drawn": state.drawn,
        "ready": list(state.ready),
        "to_move": state.to_move,
        "went_out": state.went_out,
        "reshuffles": state.reshuffles,
        "scores": [list(r) for r in state.scores],
        "history": [[w, p] for w, p in state.history],
        "last": None
        if last is None
        else {"grids": [list(g) for g in last[0]], "went_out": last[1]},
    }


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def from_json(data: Any) -> State:
    """Rebuild a State from :func:`to_json` output, validating it (ValueError).

    Checks the shape and types, that the grids, stock, discard pile and
    drawn card hold exactly the G1 decks, the phase's invariants (reveal:
    at most two cards up, nobody to move; turn: the mover has a face-down
    card, a drawn card only for the mover, the seat that went out has all
    nine up; over: every round scored), the round and dealer, and that the
    finished round kept in ``last`` scores what ``scores`` says.
    """

    def bad(msg: str) -> ValueError:
        return ValueError(f"Bad golf state: {msg}")

    if not isinstance(data, dict):
        raise bad("expected a dict.")
    keys = set(data)
    if keys != _JSON_KEYS:
        extra = sorted(map(str, keys - _JSON_KEYS))
        missing = sorted(_JSON_KEYS - keys)
        raise bad(f"unknown keys {extra}, missing keys {missing}.")
    if data["game"] != GAME:
        raise bad(f"game is {data['game']!r}, not {GAME!r}.")
    try:
        n = _check_players(data["players"])
        opts = data["options"]
        if not isinstance(opts, dict) or set(opts) != {"column_rule", "rounds"}:
            raise ValueError("options must be {'column_rule': str, 'rounds': int}.")
        options = Options(column_rule=opts["column_rule"], rounds=opts["rounds"])
        seed = _check_seed(data["seed"])
    except ValueError as exc:
        raise bad(str(exc)) from None

    def seat_or_none(key: str) -> int | None:
        v = data[key]
        if v is None:
            return None
        if not _is_int(v) or not 0 <= v < n:
            raise bad(f"{key} must be a seat or null.")
        return v

    def codes(value: Any, what: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(is_card(c) for c in value):
            raise bad(f"{what} must be a list of card codes.")
        return tuple(value)

    def grid_list(value: Any, what: str) -> tuple[tuple[str, ...], ...]:
        if not isinstance(value, list) or len(value) != n:
            raise bad(f"{what} must be a list of {n} grids.")
        out = tuple(codes(g, f"each of {what}") for g in value)
        if any(len(g) != 9 for g in out):
            raise bad(f"each of {what} must hold nine cards.")
        return out

    rnd = data["round"]
    if not _is_int(rnd) or not 1 <= rnd <= options.rounds:
        raise bad(f"round must be 1 to {options.rounds}.")
    if data["dealer"] != (rnd - 1) % n or not _is_int(data["dealer"]):
        raise bad(f"round {rnd} is dealt by seat {(rnd - 1) % n} (G15).")
    phase = data["phase"]
    if phase not in PHASES:
        raise bad(f"phase must be one of {list(PHASES)}.")
    grids = grid_list(data["grids"], "grids")
    up = data["up"]
    if (
        not isinstance(up, list)
        or len(up) != n
        or not all(_is_int(m) and 0 <= m <= FULL for m in up)
    ):
        raise bad(f"up must be a list of {n} masks 0..511.")
    up = tuple(up)
    stock = codes(data["stock"], "stock")
    discard = codes(data["discard"], "discard")
    drawn = data["drawn"]
    if drawn is not None and not is_card(drawn):
        raise bad("drawn must be a card code or null.")
    ready = data["ready"]
    if (
        not isinstance(ready, list)
        or len(ready) != n
        or not all(isinstance(r, bool) for r in ready)
    ):
        raise bad(f"ready must be a list of {n} booleans.")
    ready = tuple(ready)
    to_move = seat_or_none("to_move")
    went_out = seat_or_none("went_out")
    reshuffles = data["reshuffles"]
    if not _is_int(reshuffles) or reshuffles < 0:
        raise bad("reshuffles must be a whole number >= 0.")
    scores = data["scores"]
    if not isinstance(scores, list) or not all(
        isinstance(r, list) and len(r) == n and all(_is_int(x) for x in r) for r in scores
    ):
        raise bad(f"scores must be a list of rounds, each {n} whole numbers.")
    scores = tuple(tuple(r) for r in scores)
    history = data["history"]
    if (
        not isinstance(history, list)
        or len(history) != len(scores)
        or not all(
            isinstance(h, list)
            and len(h) == 2
            and _is_int(h[0])
            and 0 <= h[0] < n
            and isinstance(h[1], bool)
            for h in history
        )
    ):
        raise bad("history must list [seat, penalty] for each scored round.")
    history = tuple((h[0], h[1]) for h in history)
    held = stock + discard + ((drawn,) if drawn is not None else ())
    if Counter(held + tuple(c for g in grids for c in g)) != Counter(deck_for(n)):
        raise bad(f"the cards in play must be exactly {decks_for(n)} decks (G1).")
    if not discard:
        raise bad("the discard pile is never empty.")

    if phase == OVER:
        if len(scores) != options.rounds or rnd != options.rounds:
            raise bad("a finished match has every round scored.")
        if to_move is not None or drawn is not None or any(ready):
            raise bad("nobody moves, draws or is ready once the match is over.")
        if any(m != FULL for m in up):
            raise bad("every card is face up once the match is over.")
    else:
        if len(scores) != rnd - 1:
            raise bad(f"round {rnd} follows {rnd - 1} scored rounds.")
        if phase == REVEAL:
            if to_move is not None or drawn is not None or went_out is not None:
                raise bad("in the reveal phase nobody is to move, holds a card or went out.")
            if any(m.bit_count() > 2 for m in up):
                raise bad("at most two cards are turned up before play (G3).")
            if all(ready):
                raise bad("play starts once everyone is ready.")
        else:
            if to_move is None:
                raise bad("someone is to move in the turn phase.")
            if any(ready):
                raise bad("ready flags belong to the reveal phase.")
            if up[to_move] == FULL:
                raise bad(f"seat {to_move} is to move but has no face-down card.")
            if went_out is None and any(m == FULL for m in up):
                raise bad("a seat with nine cards up has gone out (G6).")
            if went_out is not None and (up[went_out] != FULL or went_out == to_move):
                raise bad("the seat that went out has nine cards up and plays no more.")
            if not stock:
                raise bad("the stock is never empty during play (G14).")
    if went_out is not None and phase == REVEAL:
        raise bad("nobody has gone out before play.")

    last = data["last"]
    needs_last = phase == OVER or (phase == REVEAL and rnd > 1)
    if last is None:
        if needs_last:
            raise bad("the finished round is kept until the next reveal ends.")
        last_t = None
    else:
        if not needs_last:
            raise bad("last is only kept through the next reveal phase and after the match.")
        if not isinstance(last, dict) or set(last) != {"grids", "went_out"}:
            raise bad("last must be {'grids': [...], 'went_out': seat}.")
        w = last["went_out"]
        if not _is_int(w) or not 0 <= w < n:
            raise bad("last.went_out must be a seat.")
        last_grids = grid_list(last["grids"], "last.grids")
        if phase == OVER and last_grids != grids:
            raise bad("after the match the last round's grids are the table's.")
        raw, penalty = _round_result(last_grids, w, options.column_rule == "three")
        if penalty:
            raw[w] += PENALTY
        if tuple(raw) != scores[-1] or history[-1] != (w, penalty):
            raise bad("the last round's grids do not score what scores and history say.")
        last_t = (last_grids, w)
    if phase == OVER and went_out != history[-1][0]:
        raise bad("went_out must be the last round's.")
    return State(
        n,
        options,
        seed,
        rnd,
        data["dealer"],
        phase,
        grids,
        up,
        stock,
        discard,
        drawn,
        ready,
        to_move,
        went_out,
        reshuffles,
        scores,
        history,
        last_t,
    )


# --------------------------------------------------------------------------
# A simple house player.
# --------------------------------------------------------------------------

_UNKNOWN = 5  # what a face-down card is worth on average, roughly


def _column_cost(cards: Sequence[str | None], three: bool) -> float:
    """Expected points of one column; None is a face-down card."""
    known = [c for c in cards if c is not None]
    unknown = len(cards) - len(known)
    ranks = [c[0] for c in known]
    if len(ranks) == 3 and ranks[0] == ranks[1] == ranks[2]:
        return 0
    if three:
        return sum(RANK_VALUES[r] for r in ranks) + _UNKNOWN * unknown
    counts = Counter(ranks)
    return sum(RANK_VALUES[r] for r in ranks if counts[r] < 2) + _UNKNOWN * unknown


def _best_place(grid: Sequence[str | None], card: str, three: bool) -> tuple[float, int]:
    """(points saved, position) of the best place for ``card`` in ``grid``."""
    best = (float("-inf"), 0)
    for col in COLUMNS:
        before = _column_cost([grid[i] for i in col], three)
        for i in col:
            after = _column_cost([card if j == i else grid[j] for j in col], three)
            best = max(best, (before - after, -i))
    return best[0], -best[1]


def choose_move(level: str, view: dict, history: list, seed: int, budget_ms: int) -> str:
    """A house player's move from a seat's view (the registry's ``choose_move``).

    ``level="random"`` picks uniformly among ``view["legal"]``; any other
    level plays a simple greedy game: turn up two cards, take a useful
    discard, otherwise draw and keep the card where it saves the most points.
    ``history`` and ``budget_ms`` are not used. ValueError if no move is legal.
    """
    legal = view["legal"]
    if not legal:
        raise ValueError("This seat has no move to make.")
    if level == "random":
        return random.Random(seed).choice(legal)
    three = view["column_rule"] == "three"
    grid = view["grids"][view["seat"]]
    down = [i for i, c in enumerate(grid) if c is None]
    if view["phase"] == REVEAL:
        flips = [m for m in legal if m.startswith("flip")]
        return flips[0] if flips else "ready"
    drawn = view["drawn"]
    if drawn is None:
        top = view["discard"]
        if top is not None:
            gain, pos = _best_place(grid, top, three)
            if gain >= 3:
                return f"take {pos}"
        return "draw"
    gain, pos = _best_place(grid, drawn, three)
    if gain > 0 or not down:
        return f"swap {pos}"
    return f"discard {down[0]}"
