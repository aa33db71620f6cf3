"""Variants, tables, seats, games and moves (live tables arrive with issue 4)."""
