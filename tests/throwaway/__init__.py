"""A throwaway game that exists only for the tests (issue 23's proof).

It is registered by the tests' settings alone (`settings.EXTRA_GAMES`), so
nothing in the site names it: tests/integration/test_throwaway_game.py plays
it through the real stack and checks that.
"""
