"""Exact play when only two hands are left: a perfect-information game.

Once every other seat is out (Keft) -- or at a two-player table -- the seat
to move knows the other hand exactly: it is every card neither on the table
nor in its own hand. :func:`solve` searches that game tree to the end with
memoisation (negamax over "does the player to move win?"), so a forced win
is never missed. The outcome of a position is decided by who goes out first
(classic: the winner; Keft with two hands left: the other one loses).

``solve`` gives up (returns None) beyond ``node_limit`` positions.
"""

from __future__ import annotations

from .knowledge import FULL, NEXT, playable_of


class _TooBig(Exception):
    pass


def solve(mine: int, theirs: int, node_limit: int = 200_000) -> tuple[dict[int, bool], int] | None:
    """For each legal card of the player to move (holding ``mine``): does it force a win?

    ``theirs`` is the other hand; every other card is on the table. Returns
    ``({card bit: wins}, nodes searched)`` or None if the tree is too big.
    """
    memo: dict[tuple[int, int], bool] = {}
    nodes = 0

    def wins(a: int, b: int, playable: int) -> bool:
        """Player holding ``a`` is to move (holds a legal card); can it go out first?"""
        nonlocal nodes
        key = (a, b)
        got = memo.get(key)
        if got is not None:
            return got
        nodes += 1
        if nodes > node_limit:
            raise _TooBig
        legal = a & playable
        result = False
        while legal:
            bit = legal & -legal
            legal ^= bit
            a2 = a ^ bit
            if not a2:
                result = True
                break
            p2 = (playable ^ bit) | NEXT[bit]
            if b & p2:
                if not wins(b, a2, p2):
                    result = True
                    break
            elif wins(a2, b, p2):  # the other passes: move again
                result = True
                break
        memo[key] = result
        return result

    table = FULL & ~mine & ~theirs
    playable = playable_of(table)
    out: dict[int, bool] = {}
    try:
        legal = mine & playable
        while legal:
            bit = legal & -legal
            legal ^= bit
            a2 = mine ^ bit
            if not a2:
                out[bit] = True
                continue
            p2 = (playable ^ bit) | NEXT[bit]
            if theirs & p2:
                out[bit] = not wins(theirs, a2, p2)
            else:
                out[bit] = wins(a2, theirs, p2)
    except _TooBig:
        return None
    return out, nodes
