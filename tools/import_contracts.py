"""import-linter contract types of the project (pyproject.toml, [tool.importlinter]).

`game_layers`: the layers contract, where the layer item ``{game folders}`` stands
for every game folder of the tables: a package directly in `games` holding an
`entry` module (games/<game>/entry.py, the registry entry), each independent of
the others. So adding a game touches only its folder and `GAMES` in the settings,
never the contract (docs/ADDING_A_GAME.md), and the folder is checked at once.
"""

from __future__ import annotations

from typing import Any

from importlinter.contracts.layers import Layer, LayersContract, ModuleTail

GAME_FOLDERS = "{game folders}"


def game_folders(modules: set[str]) -> list[str]:
    """The game folders among `modules` (an import graph's): games.<x> with games.<x>.entry."""
    return sorted(
        name.rpartition(".")[0]
        for name in modules
        if name.startswith("games.") and name.count(".") == 2 and name.endswith(".entry")
    )


class GameLayersContract(LayersContract):
    type_name = "game_layers"

    def check(self, graph: Any, verbose: bool) -> Any:
        folders = game_folders(set(graph.modules))
        layers = []
        for layer in self.layers:  # type: ignore[attr-defined]
            names = {tail.name for tail in layer.module_tails}
            if GAME_FOLDERS in names:
                if names != {GAME_FOLDERS}:
                    raise ValueError(f"{GAME_FOLDERS} must be a layer of its own")
                if not folders:
                    raise ValueError("no game folder found (games/<game>/entry.py)")
                layer = Layer({ModuleTail(name=f) for f in folders}, is_independent=True)
            layers.append(layer)
        self.layers = layers
        return super().check(graph, verbose)
