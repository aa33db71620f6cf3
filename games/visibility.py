"""Table rules: what apps built on tables lay over them (sealed tables, withheld deals,
games seen beyond their players), without games importing those apps.

A duplicate board (the duplicate app) is played at a private table that stays
sealed: no invite link opens it (so nobody can watch it while its round is
open), and no rematch deals new cards at it. Its finished games, on the other
hand, are seen by more people than their players: those who finished the same
board, and everyone once the round has closed. Such an app registers a
`TableRules` in its AppConfig.ready() (through games.hooks, which re-exports all
of this); only a private table may be sealed (a public one is answered here
without asking them). They are also told when a game at one of their (private)
tables finishes (`game_finished`, inside the transaction that writes its results),
so they can keep what they derive from results beside them.

This module sits below games.models (whose visibility filters use it) and
games.hooks (the apps' door to the tables): it imports neither, so neither imports
the other through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from django.db import models

if TYPE_CHECKING:
    from club.models import Player


class Table(Protocol):
    """What the rules read of a table (games.models.Table), without importing the models."""

    pk: int
    private: bool


class TableRules(Protocol):
    def sealed_table_ids(self) -> models.QuerySet:
        """Ids (a values_list) of the tables no invite opens and no rematch deals at."""

    def is_sealed(self, table_id: int) -> bool: ...

    def visible_games(self, player: Player | None) -> models.Q:
        """Games (a Q over games.Game) this viewer may see beyond the tables' own rule."""

    def table_link(self, table_id: int) -> tuple[str, str] | None:
        """(label, url) of the page a sealed table belongs to, for its table page."""

    def withheld_table_ids(self) -> models.QuerySet:
        """Ids (a values_list) of the sealed tables whose deals and results are still
        withheld from everyone (a board of a round not closed yet): their games' seeds,
        hands in admin, ratings and standings wait (see `deal_withheld`)."""

    def is_withheld(self, table_id: int) -> bool: ...

    def game_finished(self, game_id: int, results: list) -> None:
        """A game's results (club.GameResult, one per seat) were just written."""


_rules: list[TableRules] = []


def register(rules: TableRules) -> None:
    if rules not in _rules:
        _rules.append(rules)


def not_sealed_q(prefix: str = "") -> models.Q:
    """A Q over tables (`prefix` is the lookup to a table) excluding the sealed ones."""
    rule = models.Q()
    for rules in _rules:
        rule &= ~models.Q(**{f"{prefix}pk__in": rules.sealed_table_ids()})
    return rule


def is_sealed(table: Table) -> bool:
    """Is this table sealed? Only a private one can be: a public one is answered without asking."""
    return table.private and any(rules.is_sealed(table.pk) for rules in _rules)


def visible_games_q(player: Player | None) -> models.Q | None:
    """What the registered apps open up beyond the tables' own rule; None when nothing."""
    rule = None
    for rules in _rules:
        extra = rules.visible_games(player)
        rule = extra if rule is None else rule | extra
    return rule


def withheld_q(prefix: str = "") -> models.Q | None:
    """A Q over tables (`prefix` is the lookup to a table) picking the withheld ones; None
    when no app withholds anything."""
    rule = None
    for rules in _rules:
        extra = models.Q(**{f"{prefix}pk__in": rules.withheld_table_ids()})
        rule = extra if rule is None else rule | extra
    return rule


def deal_withheld(table: Table) -> bool:
    """Are this table's deals withheld from everyone for now (seed, hands in admin, rating)?

    Only a private (sealed) table can be: a public one is answered without asking.
    """
    return table.private and any(rules.is_withheld(table.pk) for rules in _rules)


def table_link(table_id: int) -> tuple[str, str] | None:
    for rules in _rules:
        link = rules.table_link(table_id)
        if link is not None:
            return link
    return None


def game_finished(table: Table, game_id: int, results: list) -> None:
    """Tell the apps a game at `table` finished; only a private table can be theirs."""
    if not table.private:
        return
    for rules in _rules:
        rules.game_finished(game_id, results)
