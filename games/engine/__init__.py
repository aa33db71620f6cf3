"""Pure-Python game engines. Nothing below this package imports Django.

Each engine module is a set of pure functions over an immutable,
JSON-serialisable state; see ``DESIGN.md`` ("The engine contract"). The site
reaches an engine through its registry entry (games.registry), never by a
game's name.
"""
